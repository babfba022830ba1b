"""The deal and the trump call of bauer_trick: the first dealer, the call order, passing to no
trump, the next deal's dealer, and the forehand_on_four trump selection."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import parse_card
from tablezoo.envs.core import IllegalActionError
from tests.envs.bauer_trick.positions import cards, legal_cards, piece, play, play_position

SPADES, HEARTS, DIAMONDS, NONE = 1, 2, 3, 4


# --- the first dealer -----------------------------------------------------------------------------
def test_first_dealer_uniform():
    game = BauerTrickGame()
    counts = np.bincount([game.new_state(s).dealer for s in range(800)], minlength=4)
    assert counts.min() > 150  # 200 expected per seat
    state = game.new_state(1)
    assert [h.bit_count() for h in state.hands] == [8] * 4 and not state.undealt


# --- §2.3: the trump call ------------------------------------------------------------------------
def seed_with_dealer(game, dealer):
    return next(s for s in (game.new_state(i) for i in range(200)) if s.dealer == dealer)


def test_call_order_all_pass_no_trump_dealer_leads():
    game = BauerTrickGame()
    state = seed_with_dealer(game, 1)
    order = []
    for _ in range(4):
        order.append(state.acting_players()[0])
        assert state.legal_actions(order[-1]) == [32, 33, 34, 35, 36]
        state.step(PASS)
    assert order == [2, 3, 0, 1]
    assert state.trump == NONE and state.caller == -1 and state.acting_players() == (1,)
    obs = state.observe(0)
    assert piece(obs, "trump").tolist() == [0, 0, 0, 0, 1]
    assert piece(obs, "caller").tolist() == [0, 0, 0, 0, 1]
    assert piece(obs, "leader").tolist() == [0, 1, 0, 0]  # dealer 1 is left of seat 0


def test_no_trump_leader_left_of_dealer():
    game = BauerTrickGame(no_trump_leader="left_of_dealer")
    state = seed_with_dealer(game, 1)
    for _ in range(4):
        state.step(PASS)
    assert state.acting_players() == (2,)


def test_last_seat_can_still_name_trump_and_any_suit_may_be_named():
    game = BauerTrickGame()
    state = seed_with_dealer(game, 2)
    for _ in range(3):
        state.step(PASS)
    assert state.acting_players() == (2,)  # the dealer speaks last
    assert state.legal_actions(2) == [32, 33, 34, 35, 36]  # every suit, held or not
    state.step(CALL_BASE + DIAMONDS)
    assert state.trump == DIAMONDS and state.caller == 2 and state.acting_players() == (2,)


def test_call_observation_from_a_seats_point_of_view():
    game = BauerTrickGame()
    state = seed_with_dealer(game, 3)
    state.step(PASS)  # seat 0
    obs = state.observe(2)
    assert not piece(obs, "trump").any() and not piece(obs, "caller").any()
    calls = piece(obs, "calls").reshape(4, 5)
    # seat 0 is seat 2's partner (relative 2): pass; the others have not spoken
    assert calls.tolist() == [[0] * 5, [0] * 5, [0, 0, 0, 0, 1], [0] * 5]
    assert piece(obs, "dealer").tolist() == [0, 1, 0, 0]  # seat 3 is left of seat 2
    assert piece(obs, "phase").tolist() == [1, 0, 0]
    state.step(CALL_BASE + HEARTS)  # seat 1
    obs = state.observe(2)
    assert piece(obs, "trump").tolist() == [0, 0, 1, 0, 0]
    assert piece(obs, "caller").tolist() == [0, 0, 0, 1, 0]  # seat 1 is right of seat 2
    calls = piece(obs, "calls").reshape(4, 5)
    assert calls[3].tolist() == [0, 0, 1, 0, 0] and calls[2].tolist() == [0, 0, 0, 0, 1]
    assert not calls[0].any() and not calls[1].any()  # seats 2 and 3 never speak
    assert piece(obs, "leader").tolist() == [0, 0, 0, 1]
    assert piece(obs, "trick_number").tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert piece(obs, "phase").tolist() == [0, 1, 0]


def test_dealer_passes_left_and_the_next_deal_starts_left_of_him():
    game = BauerTrickGame()
    state = play_position(game, {0: "J♣", 1: "7♥", 2: "8♥", 3: "9♥"}, trump="clubs", caller=0,
                          leader=0, dealer=2, tricks=(3, 4))
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.dealer == 3 and state.acting_players() == (0,) and state.phase == 0
    assert state.tricks == [0, 0] and state.trump == -1 and state.calls == [-1] * 4


# --- §4 forehand_on_four ------------------------------------------------------------------------
def test_forehand_must_lead_left_bauer_when_it_is_the_only_trump():
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = play_position(game, {0: "J♦ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣"}, trump="hearts", caller=0,
                          leader=0, tricks=(0, 0))
    assert legal_cards(state) == {parse_card("J♦")}
    # without any trump: anything, and the lead shows a void in trump
    state = play_position(game, {0: "7♦ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣"}, trump="hearts", caller=0,
                          leader=0, tricks=(0, 0))
    assert legal_cards(state) == set(cards("7♦ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣"))
    play(state, "7♦")
    assert state.voids[0] == 1 << HEARTS
    assert piece(state.observe(3), "void").reshape(4, 4)[1].tolist() == [0, 0, 1, 0]


def test_forehand_followers_of_trick_one_follow_normally():
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = play_position(game, {0: "A♥ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
                                 1: "7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠"},
                          trump="hearts", caller=0, leader=0, tricks=(0, 0))
    play(state, "A♥")
    assert legal_cards(state) == set(cards("7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠"))


def test_forehand_call_deals_four_then_four_more():
    game = BauerTrickGame(trump_selection="forehand_on_four", no_trump_leader="left_of_dealer")
    state = seed_with_dealer(game, 0)
    first = [state.hands[s] for s in range(4)]
    assert [h.bit_count() for h in first] == [4] * 4 and len(state.undealt) == 16
    obs = state.observe(1)
    assert piece(obs, "hand").sum() == 4
    with pytest.raises(IllegalActionError):
        state.step(PASS)
    state.step(CALL_BASE + SPADES)
    assert state.caller == 1 and state.trump == SPADES and state.acting_players() == (1,)
    for s in range(4):
        assert state.hands[s] & first[s] == first[s] and state.hands[s].bit_count() == 8
