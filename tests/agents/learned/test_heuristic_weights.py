"""Evolved heuristic weights as a ``trained`` model: file format, refusals, and play."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.agents.learned.heuristic_weights import (
    FORMAT,
    HeuristicWeights,
    WeightedHeuristicAgent,
    heuristic_parameters,
    load_weights,
)
from tablezoo.agents.learned.policy import ModelMismatchError, load_model_file
from tablezoo.training.evaluation.match import play_game

ENV = "bower_v0"


def test_saved_weights_read_back_without_pickle(tmp_path):
    path = HeuristicWeights(ENV, {"read_opponent": 2.25, "bonus_value": 0.8}).save(
        tmp_path / "m.npz", {"num_players": 2})
    with np.load(path, allow_pickle=False) as data:
        assert sorted(data.files) == ["names", "values"]
        assert data["values"].dtype == np.float64
    back = load_model_file(path, ENV)
    assert isinstance(back, HeuristicWeights)
    assert back.params == {"bonus_value": 0.8, "read_opponent": 2.25}
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["format"] == FORMAT and card["env"] == ENV and card["num_players"] == 2
    assert card["defaults"] == heuristic_parameters(ENV)


def test_default_weights_play_exactly_as_the_heuristic():
    game = envs.make_game(ENV)
    for seed in range(4):
        plain = play_game(game, [HeuristicAgent(), HeuristicAgent()], seed)
        wrapped = play_game(game, [WeightedHeuristicAgent(HeuristicWeights(ENV, {})),
                                   HeuristicAgent()], seed)
        assert (wrapped.returns, wrapped.scores, wrapped.decisions) == \
            (plain.returns, plain.scores, plain.decisions)


def test_learned_weights_change_the_play():
    game = envs.make_game(ENV)
    changed = HeuristicWeights(ENV, {"read_opponent": 3.5, "deny_weight": 0.0,
                                     "bonus_value": 1.8})
    differ = 0
    for seed in range(6):
        plain = play_game(game, [HeuristicAgent(), HeuristicAgent()], seed)
        tuned = play_game(game, [WeightedHeuristicAgent(changed), HeuristicAgent()], seed)
        differ += (tuned.scores, tuned.decisions) != (plain.scores, plain.decisions)
    assert differ >= 3


def test_trained_spec_plays_a_weights_file(tmp_path):
    path = HeuristicWeights(ENV, {"keep_weight": 0.0}).save(tmp_path / "w.npz",
                                                            {"num_players": 2})
    agent = make_agent("trained", env_name=ENV, path=str(path), seed=1)
    assert isinstance(agent, WeightedHeuristicAgent)
    assert agent.heuristic.keep_weight == 0.0
    result = play_game(envs.make_game(ENV), [agent, HeuristicAgent()], 5)
    assert result.decisions > 0
    with pytest.raises(ValueError, match="deterministic= does not apply"):
        make_agent("trained", env_name=ENV, path=str(path), deterministic=False)


def test_action_values_are_the_heuristics_where_it_has_them():
    game = envs.make_game(ENV)
    state = game.new_state(3)
    p = state.acting_players()[0]
    obs, mask = state.observe(p), state.legal_mask(p)
    agent = WeightedHeuristicAgent(HeuristicWeights(ENV, {}), seed=0)
    assert agent.action_values(obs, mask, state, p) == \
        HeuristicAgent(seed=0).action_values(obs, mask, state, p)
    trick = WeightedHeuristicAgent(HeuristicWeights("bauer_trick_v0", {}))
    state = envs.make_game("bauer_trick_v0").new_state(3)
    p = state.acting_players()[0]
    assert trick.action_values(state.observe(p), state.legal_mask(p), state, p) is None  # none:
    # searches then rank by other means


def test_weights_for_another_env_are_refused_naming_both(tmp_path):
    path = HeuristicWeights(ENV, {}).save(tmp_path / "w.npz")
    with pytest.raises(ModelMismatchError, match="'bower_v0'.*'ethnos_v0'"):
        load_weights(path, "ethnos_v0")


def test_malformed_weights_files_are_refused(tmp_path):
    path = HeuristicWeights(ENV, {}).save(tmp_path / "w.npz")
    card = json.loads(path.with_suffix(".json").read_text())
    np.savez(path, names=np.array(["no_such_param"]), values=np.array([1.0]))
    with pytest.raises(ValueError, match="no parameter.*no_such_param.*allowed: bonus_value"):
        load_weights(path)
    # a name longer than any parameter's is refused from the .npy header, before it is read
    np.savez(path, names=np.array(["no_such_weight"]), values=np.array([1.0]))
    with pytest.raises(ValueError, match="at most 13 characters.*bower_v0 heuristic's: bonus_"):
        load_weights(path)
    np.savez(path, names=np.array(["bonus_value"]), values=np.array([math.nan]))
    with pytest.raises(ValueError, match="bonus_value are not finite"):
        load_weights(path)
    np.savez(path, values=np.array([1.0]))
    with pytest.raises(ValueError, match="expected names, values"):
        load_weights(path)
    np.savez(path, names=np.array(["bonus_value", "keep_weight"]), values=np.array([1.0]))
    with pytest.raises(ValueError, match="same length"):
        load_weights(path)
    path.with_suffix(".json").unlink()
    with pytest.raises(ValueError, match="needs its card"):
        load_weights(path)
    path.with_suffix(".json").write_text(json.dumps(card))
    with pytest.raises(FileNotFoundError, match="no model file"):
        load_weights(tmp_path / "missing.npz")
