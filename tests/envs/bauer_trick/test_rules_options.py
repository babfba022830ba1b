"""Every option of bauer_trick's §4 (see envs/bauer_trick/README.md) on a built position or a
scripted deal, and the options' defaults."""

from __future__ import annotations

import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import parse_card
from tablezoo.envs.core import IllegalActionError
from tests.envs.bauer_trick.positions import cards, last_trick, legal_cards, play, play_position

HEARTS, CLUBS, SPADES, DIAMONDS = 2, 0, 1, 3


def test_option_defenders_score_on_fail():
    game = BauerTrickGame(defenders_score_on_fail=True)
    state = last_trick(game, None, (3, 4))  # 4-4: the calling team fails
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.points == [8, 7]
    assert state.score_breakdown()[1]["failed_calls_punished"] == 1.0
    # no-trump deals are unaffected
    state = play_position(game, {0: "A♣", 1: "7♣", 2: "8♥", 3: "9♥"}, trump="none", caller=-1,
                          leader=0, tricks=(3, 4))
    play(state, "A♣", "7♣", "8♥", "9♥")
    assert state.points == [8, 8]


def test_option_no_trump_leader_left_of_dealer():
    game = BauerTrickGame(no_trump_leader="left_of_dealer")
    state = game.new_state(8)
    for _ in range(4):
        state.step(PASS)
    assert state.to_act == (state.dealer + 1) % 4


def test_option_forehand_on_four():
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = game.new_state(3)
    forehand = (state.dealer + 1) % 4
    assert [h.bit_count() for h in state.hands] == [4] * 4 and len(state.undealt) == 16
    assert state.acting_players() == (forehand,)
    assert state.legal_actions(forehand) == [32, 33, 34, 35]
    with pytest.raises(IllegalActionError, match="pass"):
        state.step(PASS)
    state.step(CALL_BASE + HEARTS)
    assert [h.bit_count() for h in state.hands] == [8] * 4 and not state.undealt
    assert state.to_act == forehand
    trumps = {c for c in range(32) if state.hands[forehand] >> c & 1
              and (c >> 3 == HEARTS or c == parse_card("J♦"))}
    if trumps:
        assert legal_cards(state) == trumps
    # only the first trick's lead is forced
    state2 = play_position(game, {0: "7♥ A♣", 1: "8♣ 9♣", 2: "10♣ J♣", 3: "Q♣ K♣"},
                           trump="hearts", caller=0, leader=0)
    assert legal_cards(state2) == set(cards("7♥ A♣"))


def test_forehand_leading_no_trump_marks_void_in_trump():
    game = BauerTrickGame(trump_selection="forehand_on_four")
    for seed in range(200):
        state = game.new_state(seed)
        forehand = state.to_act
        state.step(CALL_BASE + CLUBS)
        hand = state.hands[forehand]
        if not any(hand >> c & 1 for c in range(8)) and not hand >> parse_card("J♠") & 1:
            state.step(next(iter(legal_cards(state))))
            assert state.voids[forehand] == 1 << CLUBS
            return
    pytest.fail("no deal without clubs for the forehand in 200 seeds")


# --- the options' defaults ------------------------------------------------------------------------
def test_option_defaults_and_decision_bound():
    game = BauerTrickGame()
    assert game.options == {"episode": "game", "start_score": 8, "max_deals": 100,
                            "no_trump_leader": "dealer", "defenders_score_on_fail": False,
                            "trump_selection": "call_or_pass", "reward": "game"}
    assert game.max_decisions == 3600 and BauerTrickGame(max_deals=7).max_decisions == 252
    assert BauerTrickGame(episode="deal").max_decisions == 36
    assert game.num_actions == 37 and game.teams == ((0, 2), (1, 3))
