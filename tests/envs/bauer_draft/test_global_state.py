"""The full-information global state of bauer_draft (``env.state()`` for centralised critics)."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tests.envs.bauer_draft.positions import random_step


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_deterministic_function_of_the_state_inside_its_space(n):
    game = BauerDraftGame(num_players=n)
    space = envs.make("bauer_draft_v0", num_players=n).state_space
    rng = np.random.default_rng(n)
    for seed in range(3):
        st = game.new_state(seed)
        while True:
            full = st.global_state()
            assert full.dtype == np.float32 and space.contains(full)
            np.testing.assert_array_equal(full, st.clone().global_state())
            np.testing.assert_array_equal(full, game.state_from_dict(st.to_dict()).global_state())
            out = np.full(game.state_spec.size, 3.0, np.float32)
            assert st.global_state(out) is out and np.array_equal(out, full)
            v = game.state_spec.split(full)
            for s in range(n):  # the truth, read back: hands, tableaux, piles in draw order
                assert sorted(np.flatnonzero(v["hands"][s])) == sorted(st.hands[s])
                assert sorted(np.flatnonzero(v["tableau"][s])) == sorted(st.tableau[s])
                row = v["piles"][s]
                by_depth = sorted(np.flatnonzero(row), key=lambda c: -row[c])
                assert by_depth == st.piles[s][::-1]
            assert np.flatnonzero(v["acting"]).tolist() == list(st.acting_players())
            if st.is_over():
                break
            random_step(st, rng)


def test_differs_where_only_hidden_information_differs():
    game = BauerDraftGame(num_players=4)
    st = game.new_state(2)
    rng = np.random.default_rng(0)
    for _ in range(3):
        random_step(st, rng)
    other = st.determinize(0, rng)
    np.testing.assert_array_equal(st.observe(0), other.observe(0))
    assert not np.array_equal(st.global_state(), other.global_state())
    # the order of a pile alone (no seat sees it) changes the global state too
    moved = st.clone()
    moved.piles[1] = moved.piles[1][::-1]
    for seat in range(4):
        np.testing.assert_array_equal(st.observe(seat), moved.observe(seat))
    assert not np.array_equal(st.global_state(), moved.global_state())
