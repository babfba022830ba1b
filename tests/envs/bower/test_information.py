"""What each seat of bower_v0 sees (§7: the effect being decided, covered tiles) and what
``determinize`` keeps or re-deals (the bonus discards and draw, hidden hands)."""

import numpy as np
import pytest

from tablezoo.envs.bower.actions import ACCEPT, KEEP, TARGET
from tablezoo.envs.bower.components import BONUS_INDEX
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame
from tests.envs.bower.helpers import T, keep_position, phase, piece

B = BONUS_INDEX


# ------------------------------------------------------------------ §7 observation
def test_the_effect_being_decided_is_observed_by_both():
    # A kept TK2 earlier and passed (the white-feather token is still in the supply); now A
    # keeps TK3. Both tokens are unused, so only the effect piece says which one A places.
    s = keep_position(
        ["TK3", "EB1"],
        nests=[[("T03", 0)], [("T02", 0)]],  # A: straw [fl-blue], straw [fl-yellow]
        bonus_kept=[["TK2"], []],
    )
    assert piece(s, 0, "effect").sum() == 0
    s.step(KEEP)
    assert phase(s) == "token"
    for seat in (0, 1):
        eff = piece(s, seat, "effect")
        assert np.flatnonzero(eff).tolist() == [B["TK3"]]
    s.step(TARGET + 0)
    assert piece(s, 0, "effect").sum() == 0 and piece(s, 1, "effect").sum() == 0


def test_covered_tiles_are_observed():
    # X7: T01 at p 0 and T07 at p 10; cover (0,1)-(1,1) with T34: T01's (0,1) and T07's
    # (1,1) disappear under T34, so T01 and T07 are covered tiles (public: both were seen).
    s = keep_position(
        ["IA1"],
        nests=[[("T01", 0), ("T07", 10)], [("T02", 0)]],
        hands=[["T05"], ["T31"]],
        stack_top=["T34"],
    )
    s.step(KEEP)
    s.step(ACCEPT)
    for seat in (0, 1):
        assert piece(s, seat, "covered_tiles").sum() == 0
    s.step(608)
    for seat in (0, 1):
        covered = np.flatnonzero(piece(s, seat, "covered_tiles")).tolist()
        assert covered == [T["T01"], T["T07"]]


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
def test_determinize_redeals_hidden_opponent_hands(public):
    # §9 hands_public=False: only hand sizes are public, so A's determinization re-deals B's
    # nest tiles (T05, forced T11) with the stack; B's NB2 is known (kept record, not placed).
    # A's own hand never changes; with public hands nothing in the hands changes.
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
    unseen = sorted(s.stack + [T["T05"], T["T11"]])
    hands_seen = set()
    for k in range(25):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.hands[0] == [T["T06"]] and len(d.hands[1]) == 3
        assert d.hands[1][1] == T["NB2"] and d.forced[1] == d.hands[1][2]
        assert np.array_equal(d.observe(0), s.observe(0))
        if public:
            assert d.hands[1] == s.hands[1] and d.forced == s.forced
        else:
            assert sorted(d.stack + [d.hands[1][0], d.hands[1][2]]) == unseen
        hands_seen.add(tuple(d.hands[1]))
    assert (len(hands_seen) > 1) == (not public)
