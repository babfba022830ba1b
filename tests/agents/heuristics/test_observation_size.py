"""A heuristic given an observation of the wrong length (another env's, or another player
count's) says so, naming the sizes, instead of failing inside its own code (an IndexError or a
reshape error far from the cause)."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import make_agent

CASES = [("bauer_trick_v0", {}), ("bauer_draft_v0", {"num_players": 3}), ("bower_v0", {})]


def _position(env_name: str, options: dict) -> tuple[np.ndarray, np.ndarray, object, int]:
    game = envs.make_game(env_name, **options)
    state = game.new_state(3)
    seat = state.acting_players()[0]
    return state.observe(seat), state.legal_mask(seat), state, seat


@pytest.mark.parametrize("env_name,options", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("change", [1, -1])
def test_a_wrong_length_is_named(env_name, options, change):
    obs, mask, _, _ = _position(env_name, options)
    agent = make_agent("heuristic", env_name=env_name, seed=0)
    assert mask[agent.act(obs, mask)]  # the right length plays
    wrong = np.zeros(obs.size + change, obs.dtype)
    with pytest.raises(ValueError, match=f"shape \\({obs.size + change},\\).*size.*{obs.size}"):
        agent.act(wrong, mask)


def test_ethnos_with_a_state_checks_the_length_too():
    """Given the engine state, the ethnos heuristic reads the layout of the state's game."""
    obs, mask, state, seat = _position("ethnos_v0", {"num_players": 3})
    agent = make_agent("heuristic", env_name="ethnos_v0", seed=0)
    assert mask[agent.act(obs, mask, state, seat)]
    other, _, _, _ = _position("ethnos_v0", {"num_players": 4})
    with pytest.raises(ValueError, match=f"3-player ethnos observations have size {obs.size}"):
        agent.act(other, mask, state, seat)
