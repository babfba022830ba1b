"""Setup and the draft (§2) of bower_v0, from new games and built positions, and the options
refused with their allowed values; component data (spec §1): the JSON file matches the spec's
totals and lists."""

import copy

import numpy as np
import pytest

from tablezoo.envs.bower import components as C
from tablezoo.envs.bower.actions import DISPLAY
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.bower_v0 import raw_env
from tablezoo.envs.core.errors import InvalidOptionError
from tests.envs.bower.positions import GAME, T, legal, phase


# ------------------------------------------------------------------ §2 setup and draft
def test_new_state_setup():
    starts = set()
    for seed in range(40):
        s = GAME.new_state(seed)
        starts.add(s.start)
        assert sorted(s.eggs) == list(range(8))  # 6 on the columns, 2 removed
        assert sorted(s.col_owner) == [0, 0, 0, 1, 1, 1]
        assert len(set(s.display)) == 3 and min(s.display) >= 0
        assert len(s.stack) == 33 and len(set(s.stack) | set(s.display)) == 36
        assert sorted(s.bonus_deck) == list(range(20)) and s.bonus_discard == []
        assert s.tok_status == [0] * 5
        assert s.hands == [[], []] and s.limits == [1, 1] and s.turns == [0, 0]
        assert s.extra == [False, False] and s.forced == [-1, -1]
        assert phase(s) == "draft" and s.acting_players() == (s.start,)
        assert legal(s) == [DISPLAY, DISPLAY + 1, DISPLAY + 2]
    assert starts == {0, 1}


def test_draft_then_refill_in_increasing_slot_order():
    # §2.5: start player (seat 1) takes slot 2, the other takes slot 0 of the remaining two;
    # then slot 0 is refilled first (stack top T11), slot 2 second (T10).
    s = build_state(
        GAME,
        nests=[[], []],
        hands=[[], []],
        display=["T01", "T02", "T03"],
        stack_top=["T10", "T11"],
        phase="draft",
        turn_player=1,
        start_player=1,
        turns=[0, 0],
        hand_limits=[1, 1],
    )
    s.step(DISPLAY + 2)
    assert s.hands[1] == [T["T03"]] and s.actor == 0
    assert legal(s) == [DISPLAY, DISPLAY + 1]
    s.step(DISPLAY + 0)
    assert s.hands[0] == [T["T01"]]
    assert s.display == [T["T11"], T["T02"], T["T10"]]
    assert phase(s) == "take" and s.turn_player == 1 and s.turns == [0, 0]  # §3.1 start first


def test_take_refills_the_slot_from_the_stack_top():
    s = build_state(
        GAME,
        nests=[[], []],
        hands=[["T05"], ["T06"]],
        display=["T01", "T02", "T03"],
        stack_top=["T10", "T11"],
        phase="take",
        turn_player=0,
        start_player=0,
        turns=[1, 1],
    )
    s.step(DISPLAY + 1)
    assert s.hands[0] == [T["T05"], T["T02"]]  # new tile in the newest slot
    assert s.display == [T["T01"], T["T11"], T["T03"]]
    assert phase(s) == "play"


def test_bad_options_are_rejected_with_allowed_values():
    with pytest.raises(InvalidOptionError, match="allowed values: 'shift', 'swap'"):
        BowerGame(double_turn_mode="triple")
    with pytest.raises(InvalidOptionError, match="unknown option"):
        BowerGame(num_players=3)
    with pytest.raises(InvalidOptionError):
        raw_env(reward="score")


def test_counts_and_ids():
    assert C.TILE_IDS[:36] == tuple(f"T{i:02d}" for i in range(1, 37))
    assert C.TILE_IDS[36:] == ("NB1", "NB2", "NB3", "NB4")
    assert C.EGG_IDS == tuple(f"E{i}" for i in range(1, 9))
    assert len(C.BONUS_IDS) == 20
    kinds = [C.BONUS_KIND.count(k) for k in ("nest", "egg", "spy", "token", "interactive")]
    assert kinds == [4, 5, 2, 5, 4]


def test_per_material_unit_totals_from_spec_table():
    # spec §1.3 table, rows in CODES order for feathers/flowers, then gem and shell
    table = {
        "fe-red": (4, 4, 2), "fe-yellow": (3, 3, 4), "fe-blue": (3, 3, 4),
        "fe-purple": (4, 3, 3), "fl-red": (3, 4, 3), "fl-yellow": (3, 3, 4),
        "fl-blue": (4, 4, 2), "fl-purple": (2, 4, 4), "gem": (8, 8, 8), "shell": (4, 4, 4),
    }  # fmt: skip
    mats = C.END_MAT[:72]
    units = C.END_UNITS[:72]
    for code, per in table.items():
        k = C.CODE_INDEX[code]
        assert tuple(int(units[mats == m, k].sum()) for m in range(3)) == per, code
    assert [int((mats == m).sum()) for m in range(4)] == [24, 24, 24, 0]
    # no white items or pink shells on the 36 nest tiles
    assert units[:, [C.FE_WHITE, C.FL_WHITE, C.SHELL_PINK]].sum() == 0


def test_single_and_mixed_tiles():
    single = [0, 0, 0]
    mixed = {}
    for t in range(36):
        a, b = int(C.END_MAT[2 * t]), int(C.END_MAT[2 * t + 1])
        if a == b:
            single[a] += 1
        else:
            mixed[(a, b)] = mixed.get((a, b), 0) + 1
    assert single == [4, 4, 4]
    assert mixed == {(0, 1): 8, (0, 2): 8, (1, 2): 8}


def test_nest_bonus_tiles_and_eggs():
    # NB1 straw fe-white / moss fe-white ... NB4 moss shell-pink / gravel gem
    assert C.END_MAT[72:80].tolist() == [0, 1, 2, 0, 3, 3, 1, 2]
    assert C.END_UNITS[72, C.FE_WHITE] == 1 and C.END_UNITS[73, C.FE_WHITE] == 1
    assert C.END_UNITS[74, C.FL_WHITE] == 1 and C.END_UNITS[75, C.FL_WHITE] == 1
    assert C.END_UNITS[76, C.GEM] == 1 and C.END_UNITS[77, C.SHELL] == 1
    assert C.END_UNITS[78, C.SHELL_PINK] == 1 and C.END_UNITS[79, C.GEM] == 1
    assert [C.CODES[c] for c in C.EGG_CODES] == [
        "fe-red", "fe-yellow", "fe-blue", "fe-purple", "fl-red", "fl-yellow", "fl-blue",
        "fl-purple",
    ]  # fmt: skip
    # every cell holds at most one feather/flower code (spec §1.1)
    assert (np.count_nonzero(C.END_UNITS[:, :10], axis=1) <= 1).all()


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d["nest_tiles"].pop(), "36 nest tiles"),
        (lambda d: d["nest_tiles"][0]["cells"][0]["items"].append("gem"), "gem units"),
        (lambda d: d["nest_tiles"][0]["cells"][0].update(mat="lava"), "unknown material"),
        (lambda d: d["nest_tiles"][2]["cells"][0]["items"].append("fe-red"), "more than one"),
        (lambda d: d["bonus_tiles"][4].update(kind="spy"), "bonus kind counts"),
        (lambda d: d["request_eggs"][0].update(code="fe-white"), "egg E1"),
    ],
)
def test_bad_data_is_rejected(edit, message):
    data = copy.deepcopy(C.load_raw())
    edit(data)
    with pytest.raises(ValueError, match=message):
        C.build_tables(data)
