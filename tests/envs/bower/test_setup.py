"""Setup and the draft (§2) of bower_v0, from new games and built positions, and the options
refused with their allowed values."""

import pytest

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
