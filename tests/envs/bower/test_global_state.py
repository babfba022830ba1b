"""The full-information global state of bower_v0 (``env.state()`` for centralised critics)."""

from __future__ import annotations

import json

import numpy as np

from tablezoo.envs.bower.rules import BowerGame
from tests.saved_states import random_positions


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
