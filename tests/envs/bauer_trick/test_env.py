"""The full-information global state of bauer_trick (``env.state()`` for centralised critics)."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.components import cards_of


def split(state) -> dict[str, np.ndarray]:
    return state.game.state_spec.split(state.global_state())


@pytest.mark.parametrize("options", [{}, {"trump_selection": "forehand_on_four"},
                                     {"episode": "deal"}], ids=str)
def test_a_deterministic_function_of_the_state_inside_its_space(options):
    game = BauerTrickGame(**options)
    space = envs.make("bauer_trick_v0", **options).state_space
    rng = np.random.default_rng(0)
    for seed in range(4):
        state = game.new_state(seed)
        while True:
            full = state.global_state()
            assert full.dtype == np.float32 and space.contains(full)
            np.testing.assert_array_equal(full, state.clone().global_state())
            np.testing.assert_array_equal(
                full, game.state_from_dict(state.to_dict()).global_state())
            out = np.full(game.state_spec.size, 7.0, np.float32)
            assert state.global_state(out) is out and np.array_equal(out, full)
            pieces = split(state)
            for seat in range(4):  # the truth, read back piece by piece
                assert np.flatnonzero(pieces["hands"][seat]).tolist() == cards_of(
                    state.hands[seat])
            acting = state.acting_players()
            assert np.flatnonzero(pieces["to_act"]).tolist() == list(acting)
            if state.is_over():
                break
            state.step(int(rng.choice(state.legal_actions(state.to_act))))


def test_differs_where_only_hidden_information_differs():
    state = BauerTrickGame().new_state(11)
    other = state.clone()
    other.hands[1], other.hands[3] = other.hands[3], other.hands[1]
    other.encode()
    np.testing.assert_array_equal(state.observe(0), other.observe(0))
    assert not np.array_equal(state.global_state(), other.global_state())
    # forehand_on_four: who receives which of the 16 undealt cards is hidden from every seat
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = game.new_state(5)
    other = state.clone()
    other.undealt = other.undealt[4:] + other.undealt[:4]
    for seat in range(4):
        np.testing.assert_array_equal(state.observe(seat), other.observe(seat))
    assert not np.array_equal(state.global_state(), other.global_state())
    dealt = split(state)["to_be_dealt"]
    assert dealt.sum(axis=1).tolist() == [4.0] * 4 and dealt.sum(axis=0).max() == 1.0
    state.step(32)  # the call deals exactly those cards
    for seat in range(4):
        assert set(np.flatnonzero(dealt[seat])) <= set(cards_of(state.hands[seat]))
