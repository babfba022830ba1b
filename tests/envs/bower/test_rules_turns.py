"""The turn order (§3.1, with the IA2/IA3 cut-offs) and the hand limits (§3.3) of bower_v0, from
new games and built positions."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bower.actions import ACCEPT, DISPLAY, HAND, KEEP, PASS
from tablezoo.envs.bower.rules import BowerGame
from tests.envs.bower.positions import T, finish_turns_of, keep_position, legal, phase


# ------------------------------------------------------------------ §3.1 turn order
def test_plain_alternation_from_the_start_player():
    game = BowerGame(bonus_tiles=False)  # no IA3 can change the order
    for seed in range(6):
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        order = []
        while not s.is_terminal():
            before = list(s.turns)
            s.step(int(rng.choice(legal(s))))
            order += [q for q in (0, 1) if s.turns[q] != before[q]]
        first = s.start
        assert order == [first, 1 - first] * 12


@pytest.mark.parametrize("opp_turns, asks", [(10, True), (11, False)])
def test_double_turn_boundary(opp_turns, asks):
    # §5.3 IA3: no effect if O has played 11 or 12 turns; at 10 it still applies.
    s = keep_position(
        ["IA3"], turns=[opp_turns, opp_turns], start_player=1, hands=[[], []], hand_limits=[0, 0]
    )
    s.step(KEEP)
    assert (phase(s) == "double_ask") == asks
    if asks:
        s.step(ACCEPT)
        assert s.turn_player == 1
        finish_turns_of(s, 1)
        assert s.turns == [opp_turns + 1, opp_turns + 2]  # B played two turns in a row


@pytest.mark.parametrize("opp_turns, asks", [(11, True), (12, False)])
def test_force_boundary(opp_turns, asks):
    # §5.3 IA2: no effect only when O has played 12 turns.
    s = keep_position(["IA2"], seat=1, turns=[opp_turns, 11], hands=[["T05"], []],
                      hand_limits=[1, 0], start_player=1)  # fmt: skip
    s.step(KEEP)
    assert (phase(s) == "force") == asks


# ------------------------------------------------------------------ §3.3 hands
def test_discarded_forced_tile_leaves_limit_plus_one_until_next_hand_check():
    # §3.3 exception: A holds [T05, T11 forced] with limit 1; B (two turns in a row) keeps
    # IA4 and A discards the forced T11: A holds 1 tile with limit 0. On A's next turn A takes
    # normally (2 tiles), plays one (1 tile) and must discard the last one (1 > 0).
    s = keep_position(
        ["IA4"],
        seat=1,
        hands=[["T05", "T11"], []],
        hand_limits=[1, 0],
        forced=["T11", None],
        extra_turn=[False, True],
    )
    s.step(KEEP)
    s.step(ACCEPT)
    s.step(HAND + 1)
    assert s.hands[0] == [T["T05"]] and s.limits[0] == 0 and s.forced[0] == -1
    finish_turns_of(s, 1)  # B's extra turn
    assert s.turn_player == 0 and phase(s) == "take"
    s.step(DISPLAY)
    assert len(s.hands[0]) == 2
    s.step(legal(s)[0])
    if phase(s) == "bonus":
        s.step(PASS)
    assert phase(s) == "hand" and s.actor == 0 and legal(s) == [HAND]
    s.step(HAND)
    assert s.hands[0] == [] and s.turn_player == 1


def test_nest_bonus_limit_and_discard_limit_floor():
    # §3.3: +1 per nest bonus tile kept, -1 per discard suffered, never below 0.
    s = keep_position(["IA4"], seat=1, hands=[["T05"], []], hand_limits=[1, 0])
    s.step(KEEP)
    s.step(ACCEPT)
    s.step(HAND)
    assert s.limits[0] == 0
    s = keep_position(["NB3"], hands=[["T05"], ["T34"]], hand_limits=[1, 1])
    s.step(KEEP)
    assert s.limits == [2, 1] and s.hands[0] == [T["T05"], T["NB3"]]
