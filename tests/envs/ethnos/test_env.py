"""The full-information global state of ethnos_v0 (``env.state()`` for centralised critics)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo.envs.ethnos import EthnosGame
from tests.saved_states import random_positions


@pytest.mark.parametrize("n", [2, 5])
def test_global_state_is_full_information_deterministic_and_in_bounds(n):
    game = EthnosGame(num_players=n)
    spec = game.state_spec
    differs = total = 0
    rng = np.random.default_rng(0)
    for step, s in enumerate(random_positions(game, 11)):
        x = s.global_state()
        assert x.shape == (spec.size,) and x.dtype == np.float32
        assert (x >= spec.low).all() and (x <= spec.high).all()
        if step % 10 or s.is_over():
            continue
        assert np.array_equal(s.clone().global_state(), x)
        again = game.state_from_dict(json.loads(json.dumps(s.to_dict())))
        assert np.array_equal(again.global_state(), x)
        out = np.full(spec.size, 7.0, np.float32)
        assert s.global_state(out=out) is out and np.array_equal(out, x)
        other = s.determinize(0, rng)  # same information for player_0, hidden re-sampled
        assert np.array_equal(other.observe(0), s.observe(0))
        total += 1
        differs += not np.array_equal(other.global_state(), x)
        assert np.array_equal(spec.split(x)["hands"], s.hands)
    assert total > 20 and differs > 0.8 * total
