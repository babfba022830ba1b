"""A trained model reads the kind of observation its card names (``observation``: ``"default"``,
or ``"information_state"``; a card without the key reads the default), and is refused, with a
clear error, for an env handing out the other kind."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.learned.model_files import ModelFileError, ModelMismatchError
from tablezoo.agents.learned.policy import (
    NumpyMLP,
    TrainedAgent,
    load_mlp,
    load_model_file,
    load_trained,
)
from tests.envcases import shipped_envs


def _model(tmp_path, kind: str | None):
    game = envs.make_game("bauer_trick_v0")
    size = game.observation_spec(kind or "default").size
    card = {"env": "bauer_trick_v0", "num_players": 4}
    if kind is not None:
        card["observation"] = kind
    mlp = NumpyMLP([np.zeros((size, 4), np.float32), np.zeros((4, game.num_actions), np.float32)],
                   [np.zeros(4, np.float32), np.zeros(game.num_actions, np.float32)], card=card)
    return mlp.save(tmp_path / f"{kind}.npz")


def test_cards_record_the_kind_and_a_card_without_it_reads_the_default(tmp_path):
    path = _model(tmp_path, "information_state")
    assert json.loads(path.with_suffix(".json").read_text())["observation"] == \
        "information_state"
    assert load_mlp(path).observation == "information_state"
    old = _model(tmp_path, None)
    card = json.loads(old.with_suffix(".json").read_text())
    assert card["observation"] == "default"  # written by save
    del card["observation"]  # as the shipped cards, written before the key existed
    old.with_suffix(".json").write_text(json.dumps(card))
    assert load_mlp(old, observation="default").observation == "default"
    with pytest.raises(ModelMismatchError, match="reads 'default' observations"):
        load_mlp(old, "bauer_trick_v0", observation="information_state")


@pytest.mark.parametrize("kind", ["default", "information_state"])
def test_a_model_for_the_other_kind_is_refused(tmp_path, kind):
    other = "default" if kind == "information_state" else "information_state"
    path = _model(tmp_path, kind)
    assert load_model_file(path, "bauer_trick_v0", observation=kind).observation == kind
    with pytest.raises(ModelMismatchError, match=f"reads '{kind}' observations .* hands out "
                                                 f"'{other}' observations"):
        load_trained("bauer_trick_v0", path, 4, observation=other)
    agent = TrainedAgent("bauer_trick_v0", path=path, num_players=4, observation=kind)
    env = envs.make("bauer_trick_v0", observation=kind)
    env.reset(seed=1)
    obs = env.last()[0]
    assert obs["action_mask"][agent.act(obs["observation"], obs["action_mask"])]
    wrong = envs.make("bauer_trick_v0", observation=other)
    wrong.reset(seed=1)
    obs = wrong.last()[0]
    with pytest.raises(ModelMismatchError, match="no model for observations of size"):
        agent.act(obs["observation"], obs["action_mask"])


def test_shipped_models_read_the_default_observation():
    for env_name in shipped_envs():  # the tests' example game ships no model
        load_trained(env_name, None, None, observation="default")
        with pytest.raises(ModelMismatchError, match="information_state"):
            load_trained(env_name, None, None, observation="information_state")


def test_a_card_naming_an_unknown_kind_is_refused(tmp_path):
    path = _model(tmp_path, "default")
    card = json.loads(path.with_suffix(".json").read_text())
    card["observation"] = "beliefs"
    path.with_suffix(".json").write_text(json.dumps(card))
    with pytest.raises(ModelFileError, match="observation is 'beliefs'"):
        load_mlp(path)
