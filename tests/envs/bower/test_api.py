"""Episode rewards, options, saved-state validation and text rendering of bower_v0."""

import json
import pickle

import numpy as np
import pytest

from tablezoo.envs.bower.actions import NUM_ACTIONS, action_name
from tablezoo.envs.bower.env import env, raw_env
from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.errors import IllegalActionError, InvalidOptionError, StateFormatError


def test_full_episode_rewards_and_pickle():
    e = env(render_mode="ansi")
    e.reset(seed=5)
    e2 = pickle.loads(pickle.dumps(e))
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (OBS_SPEC.size,)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert "player_0 nest" in e.render()
    assert e2.game_state.to_dict() != e.game_state.to_dict()


def test_action_space_and_names():
    game = BowerGame()
    assert game.num_actions == NUM_ACTIONS == 648
    names = game.action_names()
    assert len(set(names)) == 648
    assert names[0] == "DISPLAY 0" and names[459] == "PASS" and names[460] == "ACCEPT"
    assert names[533] == "BRANCH (1,1) V" and names[608].startswith("COVER V(0,1)-(1,1)")
    assert names[642] == "HAND 0" and names[495] == "TARGET other (0,1)"
    with pytest.raises(ValueError, match="outside"):
        action_name(648)


def test_bad_options_are_rejected_with_allowed_values():
    with pytest.raises(InvalidOptionError, match="allowed values: 'shift', 'swap'"):
        BowerGame(double_turn_mode="triple")
    with pytest.raises(InvalidOptionError, match="unknown option"):
        BowerGame(num_players=3)
    with pytest.raises(InvalidOptionError):
        raw_env(reward="score")


def test_illegal_actions_name_the_legal_ones():
    s = BowerGame().new_state(0)
    with pytest.raises(IllegalActionError, match=r"legal actions: 0 \(DISPLAY 0\)"):
        s.step(459)
    with pytest.raises(IllegalActionError, match="expected one action"):
        s.apply({1 - s.actor: 0})
    with pytest.raises(IllegalActionError, match="not an integer"):
        s.step(1.5)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.update(game="ethnos"), "'game' must be 'bower'"),
        (lambda d: d["stack"].pop(), "appears 0 times"),
        (lambda d: d["stack"].append(d["stack"][0]), "appears 2 times"),
        (lambda d: d.update(eggs=["E1"] * 8), "permutation"),
        (lambda d: d.update(egg_owner=[0, 0, 0, 0, 1, 1]), "3 columns each"),
        (lambda d: d.update(phase="dance"), "allowed"),
        (lambda d: d["nests"][0].append(["T99", 0, False]), "unknown tile"),
        (lambda d: d.update(hand_limits=[9, 1]), "hand_limits"),
        (lambda d: d["bonus_deck"].pop(), "every bonus tile"),
        (lambda d: d.update(rng={"bit_generator": "nope"}), "rng"),
        (lambda d: d.pop("turns"), "KeyError"),
        (lambda d: d.update(phase="keep"), "bonus_drawn is non-empty exactly"),
        (lambda d: d.update(phase="token"), "needs effect TK1-TK4"),
        (lambda d: d.update(phase="cover"), "cover_tile is set exactly"),
        (lambda d: d.update(phase="take", actor=1 - d["turn_player"]), "actor must be"),
    ],
)
def test_malformed_state_dicts(edit, message):
    game = BowerGame()
    d = json.loads(json.dumps(game.new_state(1).to_dict()))
    edit(d)
    with pytest.raises(StateFormatError, match=message):
        game.state_from_dict(d)


def test_illegal_nest_order_rejected():
    game = BowerGame()
    d = game.new_state(1).to_dict()
    tile = d["stack"].pop()
    d["nests"][0] = [[tile, 2 * 10, False]]  # (2,0)-(2,1) on an empty nest: no contact
    with pytest.raises(StateFormatError, match="not legal"):
        game.state_from_dict(d)
