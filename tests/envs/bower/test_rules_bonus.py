"""Gem triggers, the bonus draw and all 20 bonus tiles (spec §5), examples X7-X10.

Each test builds a position with ``build_state`` and plays the decisions through the mask.
"""

import numpy as np
import pytest

from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    DISPLAY,
    HAND,
    KEEP,
    PASS,
    PLAY,
    TARGET,
)
from tablezoo.envs.bower.components import BONUS_INDEX, EGG_IDS, TOK_REMOVED, TOK_SHELL
from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.bower.scoring import gem_conditions, groups, nest_stats
from tests.envs.bower.positions import GAME, T, finish_turns_of, keep_position, legal, phase
from tests.envs.bower.positions import piece as obs_piece


# ------------------------------------------------------------------ X9 triggers pay once
def play_next(prev, tile, game=GAME):
    """Seat 0 plays ``tile`` next on the nest (and flags) of ``prev``."""
    return build_state(
        game,
        nests=[[e[:2] for e in prev["nests"][0]], []],
        hands=[[tile], ["T31"]],
        hand_limits=[0, 1],
        phase="play",
        turn_player=0,
        start_player=0,
        turns=[3, 3],
        column_flags=prev["column_flags"],
        cell_flags=prev["cell_flags"],
    )


def test_x9_bonus_triggers_once():
    empty = build_state(GAME, nests=[[], []], phase="take", turn_player=0).to_dict()
    s = play_next(empty, "T12")
    s.step(PLAY + 44)  # a: (0,2) gravel [fl-red, gem], (1,2) gravel [gem]
    assert phase(s) == "take" and s.turn_player == 1  # nothing met, turn over
    s = play_next(s.to_dict(), "T25")
    s.step(PLAY + 25)  # b: (2,2) gravel [fe-blue, gem], (2,3) straw [gem]
    assert phase(s) == "bonus" and legal(s) == [PASS, ACCEPT]  # two conditions, one bonus
    assert s.col_flags[0] == 1 << 2
    assert s.cell_flags[0] == (1 << 2) | (1 << 8) | (1 << 14)
    s.step(PASS)  # declined: still flagged (flag_all_triggers)
    assert s.col_flags[0] == 1 << 2 and s.turn_player == 1
    s = play_next(s.to_dict(), "T07")
    s.step(PLAY + 34)  # c: (3,2) moss [gem, gem], (3,3) moss [fe-red]: column 2 flagged
    assert phase(s) == "take" and s.turn_player == 1
    s = play_next(s.to_dict(), "T04")
    s.step(PLAY + 47)  # d: straw group (0,3),(1,3),(2,3) and column 3: one bonus
    assert phase(s) == "bonus"
    assert s.col_flags[0] == (1 << 2) | (1 << 3)
    assert s.cell_flags[0] == (1 << 2) | (1 << 8) | (1 << 14) | (1 << 3) | (1 << 9) | (1 << 15)
    s.step(PASS)
    s = play_next(s.to_dict(), "T36")
    s.step(PLAY + 10)  # (1,1) gravel [gem, shell] joins the flagged gravel group: nothing
    assert phase(s) == "take" and s.turn_player == 1


def test_trigger_not_flagged_when_declined_without_flag_all():
    game = BowerGame(flag_all_triggers=False)
    base = build_state(game, nests=[[("T12", 44)], []], phase="take", turn_player=0).to_dict()
    s = play_next(base, "T25", game)
    s.step(PLAY + 25)
    assert phase(s) == "bonus" and s.col_flags[0] == 0 and s.cell_flags[0] == 0
    s.step(PASS)
    assert s.col_flags[0] == 0
    # the next placement pays again for the same column and group
    s = play_next(s.to_dict(), "T07", game)
    s.step(PLAY + 34)
    assert phase(s) == "bonus"
    s.step(ACCEPT)
    s.step(KEEP + 0)
    assert s.col_flags[0] == 1 << 2


def test_gem_conditions_earth_counts_for_columns_not_groups():
    top = [-1] * 24
    top[0], top[6] = 2 * T["T07"], 2 * T["T07"] + 1  # (0,0) moss [gem, gem], (1,0) moss
    top[12], top[18] = 2 * T["NB3"], 2 * T["NB3"] + 1  # (2,0) earth [gem], (3,0) earth
    assert gem_conditions(top, -1, 0, 0) == (1, 0)  # column 0: 3 gems; moss group only 2
    assert [m for m, _ in groups(top)] == [1]  # earth forms no group
    assert nest_stats(top).sizes == [0, 2, 0]


def test_branch_link_counts_for_group_trigger():
    # straw (0,1) [gem, shell] and (2,1) [gem]... linked over (1,1) moss by the branch
    top = [-1] * 24
    top[1], top[7], top[13] = 2 * T["T24"], 2 * T["T33"], 2 * T["T25"]
    top[0] = 2 * T["T04"]  # (0,0) straw [fl-red, gem]
    assert gem_conditions(top, -1, 0, 0) == (0, 0)  # column 1: 2 gems; straw groups 2 and 1
    assert gem_conditions(top, 2 * 7 + 1, 0, 0) == (0, (1 << 0) | (1 << 1) | (1 << 13))


# ------------------------------------------------------------------ §5.1 triggers
def test_cover_is_not_a_trigger_the_next_placement_is():
    # A: T12 V(0,2)-(1,2): (0,2) gravel [fl-red, gem], (1,2) gravel [gem]; T03 H(2,2)-(2,3):
    # straw [fl-blue], straw [fl-yellow]. Column 2 holds 2 gems. A keeps IA1 and covers
    # (1,2)-(2,2) with T07, o = 1: (2,2) moss [gem, gem], (1,2) moss [fe-red]. Column 2 now
    # holds 1 + 0 + 2 = 3 gems, but a Cover triggers nothing; A's next placement pays.
    s = keep_position(
        ["IA1"],
        nests=[[("T12", 44), ("T03", 24)], [("T02", 0)]],
        hands=[["T20"], ["T34"]],
        stack_top=["T07"],
        bonus_deck_top=["EB1", "EB2", "EB3"],
    )
    s.step(KEEP)
    s.step(ACCEPT)
    assert s.cover_tile == T["T07"]
    s.step(COVER + 2 * 28 + 1)
    assert s.col_flags[0] == 0 and s.turn_player == 1  # no bonus step
    finish_turns_of(s, 1)
    assert s.turn_player == 0
    s.step(DISPLAY)
    # T20 (straw [fl-yellow] / moss [shell]) on H(0,0)-(0,1): no gem, column 2 untouched
    s.step(PLAY + 0)
    assert phase(s) == "bonus"
    assert s.col_flags[0] == 1 << 2


def test_branch_with_an_empty_end_links_once_the_end_is_filled():
    # A: T01 V(0,0)-(1,0): straw [fe-red, gem], straw [shell]; T05 V(0,1)-(1,1): moss
    # [fe-blue, gem], moss [fe-purple]; branch on (1,1) horizontal: ends (1,0) straw and (1,2)
    # empty. A plays T04 V(1,2)-(2,2): straw [fl-red, gem], straw [fl-purple, gem]. Through the
    # branch the straw group {(0,0),(1,0),(1,2),(2,2)} holds 3 gems: one bonus. Without the
    # branch the groups hold 1 and 2 gems and no column reaches 3: nothing.
    for branch, expect in ((True, "bonus"), (False, "take")):
        s = build_state(
            GAME,
            nests=[[("T01", 40), ("T05", 42)], [("T02", 0)]],
            hands=[["T04"], ["T34"]],
            hand_limits=[0, 1],
            phase="play",
            turn_player=0,
            start_player=0,
            turns=[3, 3],
            bonus_kept=[["TK5"] if branch else [], []],
            tokens={"branch": (0, 7, 0)} if branch else None,
        )
        s.step(PLAY + 2 * 28)
        assert phase(s) == expect
        if branch:
            assert s.cell_flags[0] == (1 << 0) | (1 << 6) | (1 << 8) | (1 << 14)
            assert s.col_flags[0] == 0


# ------------------------------------------------------------------ bonus draw
NB_GONE = ["NB1", "NB2", "NB3", "NB4"]  # kept by B earlier and discarded from hand


def trigger_position(kept_b, **kw):
    """Seat 0 will trigger column 2 and the gravel group by playing T25 at p 25 (X9 b)."""
    return build_state(
        GAME,
        nests=[[("T12", 44)], []],
        hands=[["T25"], ["T31"]],
        hand_limits=[0, 1],
        phase="play",
        turn_player=0,
        start_player=0,
        turns=[3, 3],
        bonus_kept=[[], kept_b],
        tile_discards=NB_GONE,
        **kw,
    )


def test_bonus_draw_reshuffles_the_discard_pile():
    s = trigger_position(
        [b for b in BONUS_INDEX if b not in ("EB1", "EB2", "EB3", "SP1")],
        bonus_discard=[["EB2", 1], ["EB3", 0], ["SP1", 1]],
    )
    assert s.bonus_deck == [BONUS_INDEX["EB1"]]
    s.step(PLAY + 25)
    s.step(ACCEPT)
    assert phase(s) == "keep" and len(s.drawn) == 3 and s.drawn[0] == BONUS_INDEX["EB1"]
    assert len(s.bonus_deck) == 1 and s.bonus_discard == []
    rest = s.drawn[1:]
    s.step(KEEP + 0)
    assert s.bonus_discard == rest and s.discard_by == [0, 0]


def test_bonus_draw_stops_early_and_no_decision_when_nothing_left():
    s = trigger_position([b for b in BONUS_INDEX if b not in ("EB1", "EB2")])
    s.step(PLAY + 25)
    s.step(ACCEPT)
    assert legal(s) == [KEEP, KEEP + 1]
    s = trigger_position(list(BONUS_INDEX))
    s.step(PLAY + 25)
    assert phase(s) == "take" and s.turn_player == 1  # condition met, nothing to draw
    assert s.col_flags[0] == 1 << 2


def test_bonus_not_optional_and_bonus_tiles_off():
    for game, expect in (
        (BowerGame(bonus_optional=False), "keep"),
        (BowerGame(bonus_tiles=False), "take"),
    ):
        base = build_state(game, nests=[[("T12", 44)], []], phase="take", turn_player=0)
        s = play_next(base.to_dict(), "T25", game)
        s.step(PLAY + 25)
        assert phase(s) == expect


# ------------------------------------------------------------------ nest bonus tiles
@pytest.mark.parametrize("nb", ["NB1", "NB2", "NB3", "NB4"])
def test_nest_bonus_tile_goes_to_hand_and_raises_limit(nb):
    s = keep_position(["EB1", nb, "SP1"])
    s.step(KEEP + 1)
    assert s.hands[0] == [T["T05"], T[nb]] and s.limits[0] == 2
    assert s.kept[0] == [BONUS_INDEX[nb]]
    assert s.turn_player == 1  # no hand check discard: 2 tiles, limit 2
    assert sorted(s.bonus_discard) == sorted([BONUS_INDEX["EB1"], BONUS_INDEX["SP1"]])


def test_nb3_earth_tile_triggers_column_through_play():
    s = build_state(
        GAME,
        nests=[[("T07", 40)], []],
        hands=[["NB3", "T05"], ["T31"]],
        hand_limits=[1, 1],
        phase="play",
        turn_player=0,
        start_player=0,
        turns=[3, 3],
    )
    s.step(PLAY + 2 * 32)  # NB3 on (2,0)-(3,0): earth gem below the 2 moss gems
    assert phase(s) == "bonus" and s.col_flags[0] == 1 and s.cell_flags[0] == 0


# ------------------------------------------------------------------ egg bonus tiles
@pytest.mark.parametrize(
    "eb, colour_tile", [("EB1", "T22"), ("EB2", "T31"), ("EB3", "T09"), ("EB4", "T14")]
)
def test_colour_egg_tiles(eb, colour_tile):
    # A's tile holds 2 units of the colour on one end (T22 fe-red x2, T31 fe-yellow x2,
    # T09 fe-blue x2, T14 fe-purple x2); B holds one tile with none of them.
    for b_tile, gains in (("T03", True), (colour_tile, False)):
        nests = [[(colour_tile, 0)], [(b_tile, 0)]] if b_tile != colour_tile else None
        if nests is None:  # equal counts: B holds the same kind of tile (another copy)
            same = {"T22": "T29", "T31": "T30", "T09": "T21", "T14": "T28"}[colour_tile]
            nests = [[(colour_tile, 0)], [(same, 0)]]
        s = build_state(
            GAME,
            nests=nests,
            hands=[[], []],
            hand_limits=[0, 0],
            phase="over",
            turns=[12, 12],
            turn_player=0,
            bonus_kept=[[eb], []],
        )
        h = int(eb[2]) - 1
        a, b = nest_stats(s.top[0]), nest_stats(s.top[1])
        assert (a.colour_units(h) > b.colour_units(h)) == gains
        assert s.score_breakdown()[0][eb] == int(gains)
        assert s.score_breakdown()[1][eb] == 0  # the opponent never gains from A's tile


def test_egg_tile_keep_is_public_record():
    s = keep_position(["EB4", "EB5"])
    s.step(KEEP + 1)
    assert s.kept[0] == [BONUS_INDEX["EB5"]] and s.turn_player == 1
    assert obs_piece(s, 1, "bonus_kept")[1, BONUS_INDEX["EB5"]] == 1


# ------------------------------------------------------------------ spy tiles
def test_sp1_reveals_one_opponent_egg_to_the_spy_only():
    owner = [0, 1, 0, 1, 1, 0]
    s = keep_position(
        ["SP1", "EB1"], egg_owner=owner, eggs=["E3", "E5", "E1", "E8", "E2", "E4", "E6", "E7"]
    )
    s.step(KEEP + 0)
    assert phase(s) == "spy" and legal(s) == [COLUMN + 1, COLUMN + 3, COLUMN + 4]
    before_b = s.observe(1).copy()
    assert obs_piece(s, 0, "column_eggs")[3].sum() == 0
    s.step(COLUMN + 3)
    eggs_a = obs_piece(s, 0, "column_eggs")
    assert eggs_a[3, EGG_IDS.index("E8")] == 1 and eggs_a[1].sum() == eggs_a[4].sum() == 0
    assert obs_piece(s, 1, "spied_columns")[1].tolist() == [0, 0, 0, 1, 0, 0]
    assert (obs_piece(s, 1, "column_eggs") == OBS_SPEC.view(before_b, "column_eggs")).all()
    # A's information set now fixes column 3: determinize never changes it
    for k in range(5):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.eggs[3] == s.eggs[3] and sorted(d.eggs) == sorted(s.eggs)


def test_sp2_reveals_the_removed_eggs_automatically():
    s = keep_position(["EB1", "SP2"], eggs=["E3", "E5", "E1", "E8", "E2", "E4", "E6", "E7"])
    assert obs_piece(s, 0, "removed_eggs").sum() == 0
    s.step(KEEP + 1)
    assert s.turn_player == 1  # no decision
    removed = obs_piece(s, 0, "removed_eggs")
    assert np.flatnonzero(removed).tolist() == [EGG_IDS.index("E6"), EGG_IDS.index("E7")]
    assert obs_piece(s, 1, "removed_eggs").sum() == 0
    assert obs_piece(s, 1, "bonus_kept")[1, BONUS_INDEX["SP2"]] == 1


# ------------------------------------------------------------------ token tiles: PASS/none
@pytest.mark.parametrize("tk", ["TK1", "TK2", "TK3", "TK4", "TK5"])
def test_token_pass_keeps_token_unplaced(tk):
    nests = [[("T18", 0)], [("T02", 0)]]  # straw [fe-yellow, shell] / moss [fl-red x2]
    s = keep_position([tk], nests=nests)
    s.step(KEEP + 0)
    assert PASS in legal(s)
    s.step(PASS)
    assert s.turn_player == 1 and s.tok_status == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("tk", ["TK2", "TK3", "TK4"])
def test_token_without_target_asks_nothing(tk):
    nests = [[("T12", 0)], [("T02", 0)]]  # gravel [fl-red, gem] / gravel [gem]
    if tk == "TK3":
        nests = [[("T09", 0)], [("T02", 0)]]  # gravel [fe-blue x2] / [fe-yellow]
    s = keep_position([tk], nests=nests)
    s.step(KEEP + 0)
    assert s.turn_player == 1 and s.kept[0] == [BONUS_INDEX[tk]]


def test_x_token_on_own_nest_and_tokens_share_a_cell():
    s = keep_position(["TK1"], nests=[[("T06", 0)], [("T02", 0)]], tokens={"shell": (0, 0)})
    s.step(KEEP + 0)
    s.step(470 + 0)  # own (0,0) moss [fe-blue, shell], where the shell token lies
    assert s.tok_seat[0] == 0 and s.tok_cell[0] == 0 and s.tok_cell[TOK_SHELL] == 0
    st = nest_stats(s.top[0], x_cell=0, shell_cell=0)
    assert st.coloured[0][2] == 0 and st.shells[0] == 2  # X never touches shells


def test_branch_targets_need_an_occupied_base_and_both_ends_inside():
    # §5.3 TK5 on A's nest T01 H(0,0)-(0,1): (0,0) has no left end and no upper end; (0,1)
    # horizontal has ends (0,0) and (0,2) (empty is allowed); vertical on row 0 is off-grid.
    s = keep_position(["TK5"])
    s.step(KEEP)
    assert phase(s) == "branch"
    assert legal(s) == [PASS, BRANCH + 2 * 1 + 0]


def test_x_targets_white_items_in_either_nest_but_not_gem_only_cells():
    # §5.3 TK1: a visible cell holding >= 1 feather/flower unit, white included.
    # A: NB1 H(0,0)-(0,1): straw [fe-white], moss [fe-white]; T12 V(0,2)-(1,2): gravel
    # [fl-red, gem], gravel [gem]. B: T25 H(0,0)-(0,1): straw [gem], gravel [fe-blue, gem].
    s = keep_position(
        ["TK1"],
        nests=[[("NB1", 0), ("T12", 44)], [("T25", 0)]],
        bonus_kept=[["NB1"], []],
        hand_limits=[2, 1],
    )
    s.step(KEEP)
    assert legal(s) == [PASS, TARGET + 0, TARGET + 1, TARGET + 2, TARGET + 24 + 1]


# ------------------------------------------------------------------ X7 cover (IA1)
def test_x7_cover():
    s = build_state(
        GAME,
        nests=[[("T01", 0)], []],
        hands=[["T07", "T05"], ["T31"]],
        hand_limits=[1, 1],
        phase="play",
        turn_player=0,
        start_player=0,
        turns=[5, 5],
        bonus_kept=[["TK4"], []],
        tokens={"shell": (0, 1)},
        stack_top=["T34"],
        bonus_deck_top=["EB1", "EB2", "IA1"],
    )
    s.step(PLAY + 10)  # T07 at f = 5: (1,0) moss [gem, gem], (1,1) moss [fe-red]
    assert phase(s) == "bonus" and s.col_flags[0] == 1
    before = nest_stats(s.top[0], shell_cell=1)
    assert before.sizes == [2, 2, 0] and before.column_shells(1) == 2
    assert before.column_count(1, 0) == 1
    s.step(ACCEPT)
    assert s.drawn[0] == BONUS_INDEX["IA1"]
    s.step(KEEP + 0)
    assert phase(s) == "cover_ask" and legal(s) == [PASS, ACCEPT]
    s.step(ACCEPT)
    assert phase(s) == "cover" and s.cover_tile == T["T34"]
    assert obs_piece(s, 1, "cover_tile")[0] == 1  # revealed to both
    assert legal(s) == [COVER + x for x in (0, 1, 10, 11, 40, 41, 42, 43)]
    s.step(608)
    assert s.top[0][1] == 2 * T["T34"] and s.top[0][7] == 2 * T["T34"] + 1
    assert s.tok_status[TOK_SHELL] == TOK_REMOVED
    after = nest_stats(s.top[0])
    assert after.sizes == [1, 1, 1]
    assert after.column_shells(1) == 0
    assert (after.column_count(1, 0), after.column_count(1, 5), after.column_count(1, 6)) == (
        0, 1, 2)  # fmt: skip
    assert s.col_flags[0] == 1  # column 0 keeps its 3 gems and its flag
    assert s.turn_player == 1 and s.hands[0] == [T["T05"]]
    assert s.depth[0][1] == s.depth[0][7] == 1
    assert obs_piece(s, 0, "nests")[0, 24].reshape(-1)[[1, 7]].tolist() == [1, 1]


def test_cover_pass():
    s = keep_position(["IA1"])
    s.step(KEEP + 0)
    s.step(PASS)
    assert s.turn_player == 1 and s.cover_tile == -1


def test_cover_branch_base_removed_end_relinks():
    s = keep_position(
        ["IA1"],
        nests=[[("T03", 0), ("T21", 44), ("T29", 11), ("T01", 22)], [("T02", 0)]],
        tokens={"branch": (0, 7, 1)},
        stack_top=["T11"],
    )
    s.step(KEEP + 0)
    s.step(ACCEPT)
    s.step(COVER + 2 * 11)  # cover (2,1)-(2,2): the branch end (2,1) becomes gravel
    assert s.tok_status[4] == 1
    s2 = keep_position(
        ["IA1"],
        nests=[[("T03", 0), ("T21", 44), ("T29", 11), ("T01", 22)], [("T02", 0)]],
        tokens={"branch": (0, 7, 1)},
        stack_top=["T11"],
    )
    s2.step(KEEP + 0)
    s2.step(ACCEPT)
    s2.step(COVER + 2 * 5)  # cover (1,0)-(1,1): the branch base goes
    assert s2.tok_status[4] == TOK_REMOVED


# ------------------------------------------------------------------ X8 double turn (IA3)
def turn_sequence(state, rng_seed=0):
    """Who takes each turn from now on (the current turn, already finished, not included)."""
    rng = np.random.default_rng(rng_seed)
    seq = []
    while not state.is_terminal():
        before = list(state.turns)
        p = state.actor
        state.step(int(rng.choice(np.flatnonzero(state.legal_mask(p)))))
        for q in (0, 1):
            if state.turns[q] != before[q]:
                seq.append("AB"[q])
    return "".join(seq)


@pytest.mark.parametrize("mode, expect", [
    ("shift", "BB" + "AB" * 8 + "A"),
    ("swap", "BBAA" + "BA" * 7 + "B"),
])  # fmt: skip
def test_x8_double_turn_a_starts(mode, expect):
    game = BowerGame(double_turn_mode=mode)
    s = keep_position(
        ["IA3"], game=game, turns=[2, 2], start_player=0, hands=[[], []], hand_limits=[0, 0]
    )
    s.step(KEEP + 0)
    assert phase(s) == "double_ask" and legal(s) == [PASS, ACCEPT]
    s.step(ACCEPT)
    for seed in range(3):
        assert turn_sequence(s.clone(), seed) == expect
    assert s.turns == [3, 2]  # A1 B1 A2 B2 A3 played


def test_x8_double_turn_b_starts():
    s = keep_position(["IA3"], turns=[4, 5], start_player=1, hands=[[], []], hand_limits=[0, 0])
    s.step(KEEP + 0)
    s.step(ACCEPT)
    assert turn_sequence(s) == "BB" + "AB" * 5 + "AA"


def test_x8_double_turn_too_late_or_passed():
    s = keep_position(["IA3"], turns=[10, 11], start_player=1, hands=[[], []], hand_limits=[0, 0])
    s.step(KEEP + 0)
    assert s.turn_player == 1 and s.extra == [False, False]  # no decision, no effect
    assert turn_sequence(s) == "BA"
    s = keep_position(["IA3"], turns=[2, 2], hands=[[], []], hand_limits=[0, 0])
    s.step(KEEP + 0)
    s.step(PASS)
    assert turn_sequence(s) == "BA" * 9 + "B"


# ------------------------------------------------------------------ X10 force / discard
FULL = [
    (f"T{13 + k:02d}", 2 * (5 * r + c))
    for k, (r, c) in enumerate((r, c) for r in range(4) for c in (0, 2, 4))
]


def test_x10b_force():
    s = keep_position(
        ["IA2"],
        seat=1,
        hands=[["T05"], []],
        hand_limits=[1, 0],
        display=["T10", "T11", "T12"],
        stack_top=["T33"],
    )
    s.step(KEEP + 0)
    assert phase(s) == "force" and legal(s) == [DISPLAY, DISPLAY + 1, DISPLAY + 2, PASS]
    s.step(DISPLAY + 1)
    assert s.hands[0] == [T["T05"], T["T11"]] and s.forced[0] == T["T11"]
    assert s.display[1] == T["T33"]
    assert s.turn_player == 0 and phase(s) == "play"  # no Take
    ids = legal(s)
    assert ids and all(79 <= a <= 154 for a in ids)
    s.step(ids[0])
    assert s.hands[0] == [T["T05"]] and s.forced == [-1, -1]


def test_x10b_force_without_room():
    s = keep_position(
        ["IA2"],
        seat=1,
        hands=[["T05"], []],
        hand_limits=[1, 0],
        nests=[FULL, [("T02", 0)]],
        display=["T10", "T11", "T12"],
    )
    s.step(KEEP + 0)
    s.step(DISPLAY + 1)
    assert s.turn_player == 0 and phase(s) == "hand" and legal(s) == [HAND, HAND + 1]
    s.step(HAND)
    assert s.hands[0] == [T["T11"]] and s.forced[0] == -1 and s.turn_player == 1


def test_force_pass_and_too_late():
    s = keep_position(["IA2"], seat=1, hands=[["T05"], []], hand_limits=[1, 0])
    s.step(KEEP + 0)
    s.step(PASS)
    assert s.forced == [-1, -1] and phase(s) == "take" and s.turn_player == 0
    s = keep_position(["IA2"], seat=1, turns=[12, 11], hands=[["T05"], []], hand_limits=[1, 0])
    s.step(KEEP + 0)
    assert s.is_terminal() and s.forced == [-1, -1]


def test_x10c_discard():
    s = keep_position(["IA4"], seat=1, hands=[["T05"], []], hand_limits=[1, 0])
    s.step(KEEP + 0)
    assert phase(s) == "discard_ask" and legal(s) == [PASS, ACCEPT]
    s.step(ACCEPT)
    assert phase(s) == "opp_discard" and s.actor == 0 and s.acting_players() == (0,)
    assert legal(s) == [HAND]
    s.step(HAND)
    assert s.hands[0] == [] and s.limits[0] == 0 and T["T05"] in s.tile_discards
    assert s.turn_player == 0 and phase(s) == "take"
    s.step(DISPLAY)
    assert phase(s) == "play"
    s.step(legal(s)[0])
    assert s.hands[0] == [] and s.turn_player == 1


def test_discard_of_a_forced_tile_ends_the_obligation():
    s = keep_position(
        ["IA4"],
        seat=1,
        hands=[["T05", "T11"], []],
        hand_limits=[1, 0],
        forced=["T11", None],
        extra_turn=[False, True],
    )
    s.step(KEEP + 0)
    s.step(ACCEPT)
    s.step(HAND + 1)
    assert s.forced == [-1, -1] and s.hands[0] == [T["T05"]] and s.limits[0] == 0
    assert s.turn_player == 1  # B's extra turn
    assert phase(s) == "take"


def test_discard_pass_and_no_effect():
    s = keep_position(["IA4"], seat=1, hands=[["T05"], []], hand_limits=[1, 0])
    s.step(KEEP + 0)
    s.step(PASS)
    assert s.limits[0] == 1 and s.hands[0] == [T["T05"]]
    s = keep_position(["IA4"], seat=1, hands=[[], []], hand_limits=[0, 0])
    s.step(KEEP + 0)
    assert s.turn_player == 0 and s.limits == [0, 0]  # nothing to lose: no decision
