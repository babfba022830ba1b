"""The worked examples of the rules' §7 (see envs/bauer_trick/README.md), each on a built position
or a scripted deal."""

from __future__ import annotations

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import STRENGTH, parse_card
from tests.envs.bauer_trick.positions import cards, last_trick, legal_cards, play, play_position

HEARTS, CLUBS, SPADES, DIAMONDS = 2, 0, 1, 3


def test_example1_trump_hearts_ranking():
    order = cards("J♥ J♦ A♥ K♥ Q♥ 10♥ 9♥ 8♥ 7♥")
    strengths = [STRENGTH[HEARTS][HEARTS][c] for c in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 9
    # J♦ also beats every diamond when diamonds are led (it is a trump, not a diamond)
    assert STRENGTH[HEARTS][DIAMONDS][parse_card("J♦")] > STRENGTH[HEARTS][DIAMONDS][
        parse_card("A♦")]


def test_example1_left_bauer_is_not_its_printed_suit():
    game = BauerTrickGame()
    # diamonds led; seat 1 holds J♦ and no other diamond: may play anything
    state = play_position(game, {0: "A♦ 7♣", 1: "J♦ 8♣"}, trump="hearts", caller=0, leader=0)
    play(state, "A♦")
    assert legal_cards(state) == set(cards("J♦ 8♣"))
    # hearts led; seat 1's only trump is J♦: must play it
    state = play_position(game, {0: "A♥ 7♣", 1: "J♦ 8♣"}, trump="hearts", caller=0, leader=0)
    play(state, "A♥")
    assert legal_cards(state) == {parse_card("J♦")}


def test_example2_trump_beats_led_ace():
    game = BauerTrickGame()
    state = play_position(game, {0: "A♠ 7♦", 1: "7♣ 8♦", 2: "8♥ 9♦", 3: "9♥ 10♦"},
                          trump="clubs", caller=0, leader=0, tricks=(3, 3))
    play(state, "A♠")
    assert legal_cards(state) == set(cards("7♣ 8♦"))  # void in spades: anything
    play(state, "7♣", "8♥", "9♥")
    assert state.tricks == [3, 4] and state.leader == 1  # seat 1 took it with 7♣


def test_example3_left_bauer_lead_forces_trump():
    game = BauerTrickGame()
    state = play_position(game, {0: "J♠ 7♥", 1: "7♣ A♠"},
                          trump="clubs", caller=0, leader=0)
    play(state, "J♠")
    assert legal_cards(state) == {parse_card("7♣")}  # not A♠: spades were not led


def test_example4_no_trump_offsuit_ace_loses():
    game = BauerTrickGame()
    state = play_position(game, {0: "J♥ 7♣", 1: "Q♥ 8♣", 2: "7♥ 9♣", 3: "A♦ 10♣"},
                          trump="none", caller=-1, leader=0, tricks=(3, 3))
    play(state, "J♥", "Q♥", "7♥", "A♦")
    assert state.tricks == [3, 4] and state.leader == 1  # Q♥ (seat 1) won


def test_example5_four_tricks_score_nothing_five_subtract_one():
    game = BauerTrickGame()
    state = last_trick(game, None, (3, 4))  # calling team 0 ends with 4-4
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.points == [8, 8] and state.scores() == [0.0] * 4
    state = last_trick(game, None, (4, 3))  # calling team 0 ends with 5
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.points == [7, 8]
    assert state.score_breakdown()[0] == {"calls_made": 1.0, "no_trump_won": 0.0}
    assert state.scores() == [1.0, 0.0, 1.0, 0.0]


def test_example6_all_pass_no_trump_dealer_leads_six_tricks_score():
    game = BauerTrickGame()
    state = game.new_state(5)
    dealer = state.dealer
    for _ in range(4):
        state.step(PASS)
    assert state.trump == 4 and state.caller == -1
    assert state.to_act == dealer and state.leader == dealer
    # a team that takes 6 tricks subtracts 1 (built on the last trick: 5 + 1)
    state = play_position(game, {0: "A♣", 1: "7♣", 2: "8♥", 3: "9♥"}, trump="none", caller=-1,
                          leader=0, tricks=(5, 2))
    play(state, "A♣", "7♣", "8♥", "9♥")
    assert state.points == [7, 8]
    assert state.score_breakdown()[2]["no_trump_won"] == 1.0


def test_no_trump_four_four_scores_nothing():
    game = BauerTrickGame()
    state = play_position(game, {0: "A♣", 1: "7♣", 2: "8♥", 3: "9♥"}, trump="none", caller=-1,
                          leader=0, tricks=(3, 4))
    play(state, "A♣", "7♣", "8♥", "9♥")
    assert state.points == [8, 8]


def test_example7_call_order_and_first_lead():
    game = BauerTrickGame()
    state = next(s for s in (game.new_state(i) for i in range(100)) if s.dealer == 3)
    assert state.acting_players() == (0,)
    state.step(PASS)
    assert state.acting_players() == (1,)
    state.step(CALL_BASE + SPADES)
    assert state.trump == SPADES and state.caller == 1
    assert state.calls == [4, SPADES, -1, -1]  # seats 2 and 3 never spoke
    assert state.acting_players() == (1,) and state.leader == 1


def test_example8_reaching_zero_ends_the_game():
    game = BauerTrickGame()
    state = last_trick(game, None, (4, 3), points=(1, 5))
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.points == [0, 5]
    assert state.is_terminal() and not state.is_truncated()
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]
    assert state.acting_players() == ()


def test_game_goes_on_with_next_dealer_after_a_deal():
    game = BauerTrickGame()
    state = last_trick(game, None, (4, 3), points=(5, 5))
    dealer = state.dealer
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert not state.is_over() and state.dealer == (dealer + 1) % 4
    assert [h.bit_count() for h in state.hands] == [8, 8, 8, 8]
    assert state.phase == 0 and state.to_act == (state.dealer + 1) % 4
