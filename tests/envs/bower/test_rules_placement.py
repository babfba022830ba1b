"""Placement geometry (spec §4) and worked example X1, through the engine's PLAY mask."""

import numpy as np
import pytest

from tablezoo.envs.bower.actions import HAND, PHASES, PLAY, action_name
from tablezoo.envs.bower.geometry import FOOTPRINTS, PLACEMENT_CELLS, cover_mask, placement_mask
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.core.errors import IllegalActionError
from tests.envs.bower.positions import GAME


def play_position(hand, nest=(), seat=0, **kw):
    """Seat ``seat`` to play from ``hand`` with ``nest`` already placed (after the Take)."""
    nests = [[], []]
    nests[seat] = list(nest)
    hands = [["T30"], ["T31"]]
    hands[seat] = list(hand)
    kw.setdefault("hand_limits", [len(hands[0]) - (seat == 0), len(hands[1]) - (seat == 1)])
    return build_state(
        GAME, nests=nests, hands=hands, phase="play", turn_player=seat, start_player=seat, **kw
    )


def legal_footprints(state, seat=0, slot=0):
    mask = state.legal_mask(seat)[PLAY + 76 * slot : PLAY + 76 * (slot + 1)]
    assert (mask[0::2] == mask[1::2]).all()  # both orientations always together
    return np.flatnonzero(mask[0::2]).tolist()


def test_footprint_table_is_in_bounds_and_orthogonal():
    assert len(FOOTPRINTS) == 38
    for f, (a, b) in enumerate(FOOTPRINTS):
        ra, ca = divmod(a, 6)
        rb, cb = divmod(b, 6)
        assert 0 <= ra < 4 and 0 <= rb < 4 and 0 <= ca < 6 and 0 <= cb < 6
        if f < 20:
            assert (rb, cb) == (ra, ca + 1) and f == 5 * ra + ca
        else:
            assert (rb, cb) == (ra + 1, ca) and f == 20 + 6 * ra + ca
    assert len({frozenset(x) for x in FOOTPRINTS}) == 38  # every adjacent pair exactly once


def test_x1_empty_nest_then_first_tile():
    s = play_position(["T01"])
    assert legal_footprints(s) == [0, 1, 2, 3, 4, 20, 21, 22, 23, 24, 25]
    ids = np.flatnonzero(s.legal_mask(0)).tolist()
    assert ids == list(range(3, 13)) + list(range(43, 55))
    s.step(PLAY + 0)  # T01 with p = 0
    assert s.top[0][0] == 0 and s.top[0][1] == 1  # (0,0) = T01 cells[0], (0,1) = cells[1]
    nxt = play_position(["T02"], nest=[("T01", 0)])
    assert legal_footprints(nxt) == [2, 3, 4, 5, 6, 22, 23, 24, 25, 26, 27]
    assert 1 not in legal_footprints(nxt) and 10 not in legal_footprints(nxt)


def test_both_orientations_swap_the_ends():
    s = play_position(["T12"])
    s.step(PLAY + 2 * 22 + 0)  # f 22 = (0,2)-(1,2), o 0
    assert (s.top[0][2], s.top[0][8]) == (2 * 11, 2 * 11 + 1)
    s = play_position(["T12"])
    s.step(PLAY + 2 * 22 + 1)
    assert (s.top[0][2], s.top[0][8]) == (2 * 11 + 1, 2 * 11)
    assert PLACEMENT_CELLS[44] == (2, 8) and PLACEMENT_CELLS[45] == (8, 2)


def test_adjacency_to_a_tile_but_not_diagonal_or_far():
    # one vertical tile in column 0 rows 0-1: (2,0)-(2,1) touches it; (2,1)-(3,1) only
    # diagonally; (3,2)-(3,3) not at all
    s = play_position(["T03"], nest=[("T01", 2 * 20)])
    legal = legal_footprints(s)
    assert 10 in legal  # H (2,0)-(2,1) touches (1,0)
    assert 20 + 6 * 2 + 1 not in legal  # V (2,1)-(3,1): diagonal contact only
    assert 17 not in legal  # H (3,2)-(3,3): far away
    assert 0 not in legal and 20 not in legal  # overlaps
    assert 5 not in legal  # (1,0) is taken
    assert 6 in legal and 21 in legal  # next to the tile / on row 0


def test_rows_away_from_the_board_need_contact():
    s = play_position(["T03"])
    assert all(f in (0, 1, 2, 3, 4) or 20 <= f <= 25 for f in legal_footprints(s))


def test_unmasked_placement_rejected_and_state_unchanged():
    s = play_position(["T03"], nest=[("T01", 0)])
    before = s.to_dict()
    for a in (PLAY + 2, PLAY + 2 * 10, PLAY + 76 + 4):  # overlap f1, no contact f10, no slot 1
        with pytest.raises(IllegalActionError, match="illegal"):
            s.step(a)
    assert s.to_dict() == before
    assert action_name(PLAY + 2) == "PLAY h0 H(0,1)-(0,2)"


def test_no_placement_possible_skips_play_and_bonus():
    # X10(a): a full nest; A (limit 1) holds T05, takes T09 from slot 0, places nothing and
    # discards T09 (HAND 643).
    full = [
        (f"T{13 + k:02d}", 2 * (5 * r + c))
        for k, (r, c) in enumerate((r, c) for r in range(4) for c in (0, 2, 4))
    ]
    assert not placement_mask(sum(1 << i for i in range(24))).any()
    s = build_state(
        GAME,
        nests=[full, []],
        hands=[["T05"], ["T31"]],
        display=["T09", "T10", "T11"],
        phase="take",
        turn_player=0,
        start_player=0,
        turns=[3, 3],
    )
    s.step(0)
    assert s.hands[0] == [4, 8]
    assert PHASES[s.phase] == "hand"
    assert np.flatnonzero(s.legal_mask(0)).tolist() == [HAND, HAND + 1]
    s.step(HAND + 1)
    assert s.hands[0] == [4]  # kept T05
    assert s.turns == [4, 3] and s.turn_player == 1
    assert s.col_flags == [0, 0] and s.kept == [[], []]


def test_isolated_holes_are_never_playable():
    # row 0 filled except (0,5); (1,5) filled: the hole (0,5) has no empty neighbour
    nest = [("T01", 0), ("T02", 4), ("T03", 2 * 24), ("T04", 2 * 25)]
    s = play_position(["T06"], nest=nest)
    for f in legal_footprints(s):
        assert 5 not in FOOTPRINTS[f]


def test_cover_mask_needs_two_occupied_cells():
    occ = (1 << 0) | (1 << 1) | (1 << 6)
    legal = np.flatnonzero(cover_mask(occ)[0::2]).tolist()
    assert legal == [0, 20]  # (0,0)-(0,1) and (0,0)-(1,0)
