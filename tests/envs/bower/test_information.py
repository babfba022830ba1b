"""What ``determinize`` of bower_v0 keeps or re-deals (the bonus discards and draw, the hands,
the eggs, the stack and the bonus deck)."""

import numpy as np
import pytest

from tablezoo.envs.bower.components import BONUS_INDEX
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame
from tests.envs.bower.positions import keep_position

B = BONUS_INDEX


def test_determinize_keeps_own_discards_and_draw_resamples_the_opponents():
    # §7: the bonus discard pile is face down; each player knows only its own discards; the 3
    # tiles of a draw are seen by the drawer only.
    s = keep_position(
        ["EB1", "EB2", "EB3"],
        seat=1,
        bonus_discard=[["SP1", 0], ["SP2", 0], ["TK1", 1], ["TK2", 1]],
    )
    hidden_a = sorted(s.bonus_deck + s.drawn + [B["TK1"], B["TK2"]])
    draws = set()
    for k in range(25):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.bonus_discard[:2] == [B["SP1"], B["SP2"]] and d.discard_by == s.discard_by
        assert sorted(d.bonus_deck + d.drawn + d.bonus_discard[2:]) == hidden_a
        assert len(d.drawn) == 3 and len(d.bonus_deck) == len(s.bonus_deck)
        draws.add(tuple(d.drawn))
        e = s.determinize(1, np.random.default_rng(k))
        assert e.drawn == s.drawn and e.bonus_discard[2:] == [B["TK1"], B["TK2"]]
    assert len(draws) > 1


@pytest.mark.parametrize("public", [True, False])
def test_determinize_keeps_both_hands_whatever_hands_public_says(public):
    # Every hand tile came from the public display (draft, take, IA2 gift) or is a kept nest
    # bonus tile, and nothing leaves a hand face down: with hands_public=False a seat still
    # knows B's T05, NB2 and forced T11; only the default observation hides them. The stack
    # order is still re-sampled.
    s = build_state(
        BowerGame(hands_public=public),
        nests=[[("T01", 0)], [("T02", 0)]],
        hands=[["T06"], ["T05", "NB2", "T11"]],
        forced=[None, "T11"],
        hand_limits=[1, 2],
        phase="take",
        turn_player=0,
        start_player=0,
        turns=[5, 5],
    )
    stacks = set()
    for k in range(25):
        for me in (0, 1):
            d = s.determinize(me, np.random.default_rng(k))
            assert d.hands == s.hands and d.forced == s.forced
            assert sorted(d.stack) == sorted(s.stack)
            assert np.array_equal(d.observe(me), s.observe(me))
            stacks.add(tuple(d.stack))
    assert len(stacks) > 1


def test_determinize_resamples_hidden_information():
    game = BowerGame()
    s = game.new_state(3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        s.step(int(rng.choice(s.legal_actions(s.actor))))
    seen_eggs, seen_stack, seen_deck = set(), set(), set()
    me = 0
    for k in range(30):
        d = s.determinize(me, np.random.default_rng(k))
        assert np.array_equal(d.observe(me), s.observe(me))
        for pos in range(8):
            if s.knows_egg(me, pos):
                assert d.eggs[pos] == s.eggs[pos]
        seen_eggs.add(tuple(d.eggs))
        seen_stack.add(tuple(d.stack))
        seen_deck.add(tuple(d.bonus_deck))
        assert sorted(d.stack) == sorted(s.stack)
    assert len(seen_eggs) > 1 and len(seen_stack) > 1 and len(seen_deck) > 1
