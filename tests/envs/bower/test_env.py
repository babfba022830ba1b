"""The PettingZoo env of bower_v0: a full episode's rewards, pickling and text rendering; the full-
information global state of bower_v0 (``env.state()`` for centralised critics)."""

from __future__ import annotations

import json
import pickle

import numpy as np

from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.bower_v0 import env
from tests.saved_states import random_positions


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


def test_global_state_is_full_information_deterministic_and_in_bounds():
    game = BowerGame(hands_public=False)
    spec = game.state_spec
    assert spec.size > game.obs_spec.size
    differs = total = 0
    rng = np.random.default_rng(0)
    for seed in range(6):
        for step, s in enumerate(random_positions(game, seed)):
            x = s.global_state()
            assert x.shape == (spec.size,) and x.dtype == np.float32
            assert (x >= spec.low).all() and (x <= spec.high).all()
            if step % 4:
                continue
            assert np.array_equal(s.clone().global_state(), x)
            again = game.state_from_dict(json.loads(json.dumps(s.to_dict())))
            assert np.array_equal(again.global_state(), x)
            out = np.full(spec.size, 7.0, np.float32)
            assert s.global_state(out=out) is out and np.array_equal(out, x)
            # Same information for player_0, hidden things re-sampled: the state must see it.
            other = s.determinize(0, rng)
            assert np.array_equal(other.observe(0), s.observe(0))
            total += 1
            differs += not np.array_equal(other.global_state(), x)
    assert differs > 0.9 * total
