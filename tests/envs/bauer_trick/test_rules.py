"""The worked examples of the rules' §7 and every option of §4 (see envs/bauer_trick/README.md),
each on a built position or a scripted deal, and the options' defaults."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import STRENGTH, parse_card
from tablezoo.envs.core import IllegalActionError
from tests.envs.bauer_trick.positions import cards, legal_cards, play, play_position

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


def last_trick(game, winner_cards, tricks_before, trump="clubs", caller=0, points=None):
    """Seat 0 leads the 8th trick with the top trump (the right Bauer) and wins it."""
    return play_position(game, {0: "J♣", 1: "7♥", 2: "8♥", 3: "9♥"}, trump=trump, caller=caller,
                         leader=0, tricks=tricks_before, points=points)


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


def test_reward_points_and_deal_episode():
    game = BauerTrickGame(reward="points")
    state = last_trick(game, None, (4, 3), points=(5, 5))
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]
    state = last_trick(game, None, (4, 3), points=(1, 5))
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.returns() == [2.0, -2.0, 2.0, -2.0]  # the point and the win
    deal = BauerTrickGame(episode="deal")
    state = last_trick(deal, None, (3, 4), caller=1)
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.is_terminal() and state.returns() == [0.0] * 4
    state = last_trick(deal, None, (4, 3))
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.is_terminal() and state.returns() == [1.0, -1.0, 1.0, -1.0]
    assert deal.max_decisions == 36 and game.max_decisions == 3600


def test_truncation_at_max_deals():
    game = BauerTrickGame(max_deals=2)
    rng = np.random.default_rng(0)
    for seed in range(20):
        state = game.new_state(seed)
        while not state.is_over():
            state.step(int(rng.choice(state.legal_actions(state.to_act))))
        assert state.deals_played <= 2
        if state.is_truncated():
            assert state.deals_played == 2 and min(state.points) > 0
            assert state.returns() == [0.0] * 4
            return
    pytest.fail("no truncated game in 20 seeds with max_deals=2")


def test_win_on_the_last_allowed_deal_is_a_termination():
    game = BauerTrickGame(max_deals=1)
    state = last_trick(game, None, (4, 3), points=(1, 5))
    play(state, "J♣", "7♥", "8♥", "9♥")
    assert state.is_terminal() and not state.is_truncated()


def test_determinize_depends_only_on_what_the_seat_saw():
    """Two deals that agree on seat 0's information give the same sample for the same seed."""
    game = BauerTrickGame()
    state = play_position(game, {0: "7♣ 8♣", 1: "9♣ 10♣", 2: "J♣ Q♣", 3: "K♣ A♣"},
                          trump="hearts", caller=0, leader=0, tricks=(3, 3))
    swapped = state.clone()
    swapped.hands[1], swapped.hands[3] = swapped.hands[3], swapped.hands[1]
    swapped.encode()
    a = state.determinize(0, np.random.default_rng(5))
    b = swapped.determinize(0, np.random.default_rng(5))
    assert a.hands == b.hands
    assert game.teams == ((0, 2), (1, 3))


def test_terminal_legend_states_the_deal_result_the_engine_scores():
    """The terminal player's legend once read '3 of the 5 tricks' (Euchre's count)."""
    from tablezoo.envs.bauer_trick.render import LEGEND

    game = BauerTrickGame(episode="deal")
    state = game.new_state(0)
    rng = np.random.default_rng(0)
    while not state.is_over():
        (p,) = state.acting_players()
        state.step(int(rng.choice(np.flatnonzero(state.legal_mask(p)))))
    total = sum(state.tricks)
    assert f"{total} tricks a deal" in LEGEND
    assert f"{total // 2 + 1} or more tricks" in LEGEND and f"{total // 2}-{total // 2}" in LEGEND


# --- the options' defaults ------------------------------------------------------------------------
def test_option_defaults_and_decision_bound():
    game = BauerTrickGame()
    assert game.options == {"episode": "game", "start_score": 8, "max_deals": 100,
                            "no_trump_leader": "dealer", "defenders_score_on_fail": False,
                            "trump_selection": "call_or_pass", "reward": "game"}
    assert game.max_decisions == 3600 and BauerTrickGame(max_deals=7).max_decisions == 252
    assert BauerTrickGame(episode="deal").max_decisions == 36
    assert game.num_actions == 37 and game.teams == ((0, 2), (1, 3))
