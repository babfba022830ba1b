"""Card ranking and trick play of bauer_trick: the Bauers and the trump order, following suit
(the left Bauer counts as a trump), who takes a trick and who leads the next."""

from __future__ import annotations

import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.components import parse_card
from tests.envs.bauer_trick.positions import cards, legal_cards, play, play_position

SUIT_WORDS = ("clubs", "spades", "hearts", "diamonds")


def winner_of_last_trick(trump: str, leader: int, played: list[str]) -> int:
    """Seat that takes an 8th trick whose cards are ``played`` in order from ``leader``."""
    game = BauerTrickGame(episode="deal")
    hands = {(leader + i) % 4: played[i] for i in range(4)}
    caller = leader if trump != "none" else -1
    state = play_position(game, hands, trump=trump, caller=caller, leader=leader, tricks=(4, 3))
    play(state, *played)
    assert state.is_over()
    return state.leader


# --- §1 and §2.4: cards and ranking ------------------------------------------------------------
def test_card_ids_and_suits():
    assert parse_card("7♣") == 0 and parse_card("A♣") == 7
    assert parse_card("J♠") == 12 and parse_card("10♥") == 19 and parse_card("A♦") == 31


@pytest.mark.parametrize(
    "trump, left, right",
    [("clubs", "J♠", "J♣"), ("spades", "J♣", "J♠"), ("hearts", "J♦", "J♥"),
     ("diamonds", "J♥", "J♦")],
)
def test_left_bauer_of_every_trump_suit(trump, left, right):
    sym = "♣♠♥♦"[SUIT_WORDS.index(trump)]
    other_colour = "♣♠♥♦"[SUIT_WORDS.index(trump) ^ 2]
    # 7 of trump led, the left Bauer beats the trump ace
    assert winner_of_last_trick(trump, 0, ["7" + sym, left, "A" + sym, "A" + other_colour]) == 1
    # the right Bauer beats the left Bauer
    assert winner_of_last_trick(trump, 0, [left, "A" + sym, right, "K" + sym]) == 2
    # the left Bauer's printed suit stays a plain suit: its ace loses to the 8 of trump
    printed = left[-1]
    assert winner_of_last_trick(trump, 0, ["A" + printed, "7" + other_colour, "8" + sym,
                                           "K" + printed]) == 2


def test_trump_order_below_the_bauers():
    # trump hearts: A > K > Q > 10 > 9 > 8 > 7
    assert winner_of_last_trick("hearts", 0, ["K♥", "Q♥", "A♥", "10♥"]) == 2
    assert winner_of_last_trick("hearts", 0, ["7♥", "8♥", "9♥", "10♥"]) == 3
    assert winner_of_last_trick("hearts", 0, ["Q♥", "10♥", "9♥", "8♥"]) == 0


def test_other_jacks_are_ordinary_between_queen_and_ten():
    # trump hearts: J♣ is an ordinary club, above 10♣, below Q♣
    assert winner_of_last_trick("hearts", 0, ["10♣", "J♣", "9♣", "8♣"]) == 1
    assert winner_of_last_trick("hearts", 0, ["Q♣", "J♣", "9♣", "8♣"]) == 0


def test_lowest_trump_beats_led_ace_and_overtrumping():
    # trump spades, hearts led: 7♠ trumps, 8♠ overtrumps, J♣ (left Bauer) beats both
    assert winner_of_last_trick("spades", 0, ["A♥", "7♠", "8♠", "K♥"]) == 2
    assert winner_of_last_trick("spades", 0, ["A♥", "7♠", "8♠", "J♣"]) == 3
    # trump diamonds: J♥ is trump, the led K♥ loses to it
    assert winner_of_last_trick("diamonds", 0, ["K♥", "J♥", "A♥", "Q♥"]) == 1


def test_no_trump_every_suit_a_to_7_and_jacks_plain():
    assert winner_of_last_trick("none", 0, ["10♥", "J♥", "J♦", "A♣"]) == 1
    assert winner_of_last_trick("none", 1, ["J♠", "Q♠", "A♣", "J♣"]) == 2
    assert winner_of_last_trick("none", 2, ["7♦", "A♥", "A♣", "A♠"]) == 2


# --- §2.5: following suit ------------------------------------------------------------------------
def test_left_bauer_is_not_its_printed_suit_for_following():
    game = BauerTrickGame()
    # trump clubs, spades led; J♠ is seat 1's only "spade": no obligation
    state = play_position(game, {0: "9♠ 7♥ 8♥", 1: "J♠ 7♦ 8♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "9♠")
    assert legal_cards(state) == set(cards("J♠ 7♦ 8♦"))
    # ... but with a real spade it must play that spade, not the J♠
    state = play_position(game, {0: "9♠ 7♥ 8♥", 1: "J♠ 10♠ 7♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "9♠")
    assert legal_cards(state) == {parse_card("10♠")}
    # a trump lead forces the J♠ out, a plain spade is not enough
    state = play_position(game, {0: "7♣ 7♥ 8♥", 1: "J♠ 10♠ 7♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "7♣")
    assert legal_cards(state) == {parse_card("J♠")}


def test_left_bauer_led_does_not_oblige_its_printed_suit():
    game = BauerTrickGame()
    state = play_position(game, {0: "J♠ 7♥ 8♥", 1: "A♠ K♠ 7♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "J♠")
    assert legal_cards(state) == set(cards("A♠ K♠ 7♦"))


def test_no_trump_jack_follows_its_own_suit():
    game = BauerTrickGame()
    state = play_position(game, {0: "9♠ 7♥ 8♥", 1: "J♠ 7♦ 8♦"}, trump="none", caller=-1,
                          leader=0, tricks=(3, 2))
    play(state, "9♠")
    assert legal_cards(state) == {parse_card("J♠")}


def test_leader_may_lead_anything_in_call_or_pass_mode():
    game = BauerTrickGame()
    state = play_position(game, {0: "7♥ A♣ 8♦"}, trump="hearts", caller=0, leader=0)
    assert legal_cards(state) == set(cards("7♥ A♣ 8♦"))


def test_trick_winner_leads_next_and_tricks_counted_per_team():
    game = BauerTrickGame()
    state = play_position(game, {0: "A♠ 7♦", 1: "K♠ 8♦", 2: "7♣ 9♦", 3: "Q♠ 10♦"},
                          trump="clubs", caller=1, leader=0, tricks=(2, 4))
    play(state, "A♠", "K♠", "7♣", "Q♠")  # partner of the leader trumps
    assert state.tricks == [3, 4] and state.leader == 2 and state.acting_players() == (2,)
