"""Independent rules-fidelity review of bauer_trick: every rule of shared/rules/bauer_trick.md
pinned with numbers worked out by hand from the spec (not by running the engine)."""

from __future__ import annotations

import numpy as np
import pytest
from tests.envs.bauer_trick.positions import cards, legal_cards, play, play_position
from tablezoo import envs
from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick import hidden as sampling
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import parse_card
from tablezoo.envs.bauer_trick.observation import OBS_SPEC
from tablezoo.envs.core import IllegalActionError

CLUBS, SPADES, HEARTS, DIAMONDS, NONE = 0, 1, 2, 3, 4
SUIT_WORDS = ("clubs", "spades", "hearts", "diamonds")


def piece(obs: np.ndarray, name: str) -> np.ndarray:
    start = OBS_SPEC.offsets[name]
    size = int(np.prod(next(p.shape for p in OBS_SPEC.pieces if p.name == name)))
    return obs[start : start + size]


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


# --- §2.6 and §4: the deal result --------------------------------------------------------------
def finish_deal(game, trump, caller, final, points=(8, 8)):
    """Play the 8th trick so that the deal ends with ``final`` = (team 0, team 1) tricks."""
    winner = 0 if final[0] > 0 else 1  # the seat that takes the last trick
    before = (final[0] - 1, final[1]) if winner == 0 else (final[0], final[1] - 1)
    top = "J♣" if trump == "clubs" else "A♣"
    hands = {winner: top, (winner + 1) % 4: "7♥", (winner + 2) % 4: "8♥",
             (winner + 3) % 4: "9♥"}
    state = play_position(game, hands, trump=trump, caller=caller, leader=winner,
                          tricks=before, points=points)
    play(state, top, "7♥", "8♥", "9♥")
    return state


@pytest.mark.parametrize(
    "trump, caller, final, defenders, points",
    [
        ("clubs", 0, (5, 3), False, [7, 8]),
        ("clubs", 0, (8, 0), False, [7, 8]),
        ("clubs", 2, (6, 2), False, [7, 8]),
        ("clubs", 0, (4, 4), False, [8, 8]),
        ("clubs", 0, (0, 8), False, [8, 8]),  # defenders take all: nobody subtracts
        ("clubs", 1, (3, 5), False, [8, 7]),
        ("clubs", 3, (4, 4), False, [8, 8]),
        ("clubs", 1, (5, 3), False, [8, 8]),
        ("clubs", 0, (4, 4), True, [8, 7]),
        ("clubs", 0, (1, 7), True, [8, 7]),
        ("clubs", 1, (5, 3), True, [7, 8]),
        ("clubs", 3, (4, 4), True, [7, 8]),
        ("clubs", 0, (5, 3), True, [7, 8]),
        ("none", -1, (5, 3), False, [7, 8]),
        ("none", -1, (2, 6), False, [8, 7]),
        ("none", -1, (0, 8), False, [8, 7]),
        ("none", -1, (4, 4), False, [8, 8]),
        ("none", -1, (4, 4), True, [8, 8]),
        ("none", -1, (3, 5), True, [8, 7]),
    ],
)
def test_deal_result_table(trump, caller, final, defenders, points):
    game = BauerTrickGame(defenders_score_on_fail=defenders)
    state = finish_deal(game, trump, caller, final)
    assert state.points == points
    subtracted = [8 - p for p in points]
    assert state.scores() == [float(subtracted[s % 2]) for s in range(4)]
    category = ("no_trump_won" if trump == "none" else
                "calls_made" if subtracted[caller % 2] else "failed_calls_punished")
    for team in (0, 1):
        for name, value in state.score_breakdown()[team].items():
            assert value == (float(subtracted[team]) if name == category else 0.0)
    assert state.returns() == [0.0] * 4 and not state.is_over()


def test_score_breakdown_categories_follow_the_option():
    assert set(BauerTrickGame().new_state(0).score_breakdown()[0]) == {"calls_made",
                                                                        "no_trump_won"}
    assert set(BauerTrickGame(defenders_score_on_fail=True).new_state(0).score_breakdown()[0]) \
        == {"calls_made", "no_trump_won", "failed_calls_punished"}


# --- §3: the game, truncation and rewards -------------------------------------------------------
def test_defenders_punishing_a_failed_call_can_win_the_game():
    game = BauerTrickGame(defenders_score_on_fail=True)
    state = finish_deal(game, "clubs", 0, (4, 4), points=(1, 1))
    assert state.points == [1, 0] and state.is_terminal()
    assert state.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_no_trump_win_ends_the_game_for_team_one():
    game = BauerTrickGame()
    state = finish_deal(game, "none", -1, (3, 5), points=(2, 1))
    assert state.points == [2, 0] and state.is_terminal() and not state.is_truncated()
    assert state.returns() == [-1.0, 1.0, -1.0, 1.0]
    obs = state.observe(1)
    assert piece(obs, "phase").tolist() == [0, 0, 1]
    assert piece(obs, "points").tolist() == [0.0, 0.25]  # my team 0/8, other team 2/8


def test_custom_start_score():
    game = BauerTrickGame(start_score=3)
    state = game.new_state(0)
    assert state.points == [3, 3]
    assert piece(state.observe(0), "points").tolist() == [1.0, 1.0]
    state = finish_deal(game, "clubs", 0, (5, 3), points=(1, 3))
    assert state.points == [0, 3] and state.is_terminal()
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]


def test_truncation_after_max_deals_without_a_winner():
    game = BauerTrickGame(max_deals=1)
    state = finish_deal(game, "clubs", 0, (5, 3))
    assert state.points == [7, 8]
    assert state.is_truncated() and not state.is_terminal() and state.acting_players() == ()
    assert state.returns() == [0.0] * 4
    game = BauerTrickGame(max_deals=2)
    state = finish_deal(game, "clubs", 0, (5, 3))
    assert not state.is_over() and state.deals_played == 1


def test_points_reward_kept_at_truncation():
    game = BauerTrickGame(max_deals=1, reward="points")
    state = finish_deal(game, "none", -1, (2, 6))
    assert state.is_truncated() and state.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_points_reward_defenders_and_final_win():
    game = BauerTrickGame(reward="points", defenders_score_on_fail=True)
    state = finish_deal(game, "clubs", 1, (4, 4), points=(1, 3))
    assert state.is_terminal() and state.returns() == [2.0, -2.0, 2.0, -2.0]


def test_deal_episode_rewards():
    game = BauerTrickGame(episode="deal")
    state = finish_deal(game, "none", -1, (2, 6))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0, -1.0, 1.0]
    state = finish_deal(game, "none", -1, (4, 4))
    assert state.is_terminal() and state.returns() == [0.0] * 4
    state = finish_deal(game, "clubs", 3, (3, 5))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0, -1.0, 1.0]
    state = finish_deal(game, "clubs", 1, (5, 3))  # the defenders' 5 tricks score nothing
    assert state.is_terminal() and state.returns() == [0.0] * 4
    # a deal episode ends after one deal even when no team is near 0
    assert state.points == [8, 8]


def test_deal_episode_through_the_aec_env():
    game = BauerTrickGame(episode="deal")
    hands = {1: "J♣", 2: "7♥", 3: "8♥", 0: "9♥"}
    state = play_position(game, hands, trump="clubs", caller=3, leader=1, tricks=(3, 4))
    env = envs.make("bauer_trick_v0", episode="deal")
    env.reset(seed=0, options={"state": state.to_dict()})
    for name in ("J♣", "7♥", "8♥", "9♥"):
        env.step(parse_card(name))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env._cumulative_rewards == {"player_0": -1.0, "player_1": 1.0, "player_2": -1.0,
                                       "player_3": 1.0}


def test_option_defaults_and_decision_bound():
    game = BauerTrickGame()
    assert game.options == {"episode": "game", "start_score": 8, "max_deals": 100,
                            "no_trump_leader": "dealer", "defenders_score_on_fail": False,
                            "trump_selection": "call_or_pass", "reward": "game"}
    assert game.max_decisions == 3600 and BauerTrickGame(max_deals=7).max_decisions == 252
    assert BauerTrickGame(episode="deal").max_decisions == 36
    assert game.num_actions == 37 and game.teams == ((0, 2), (1, 3))


def test_first_dealer_uniform():
    game = BauerTrickGame()
    counts = np.bincount([game.new_state(s).dealer for s in range(800)], minlength=4)
    assert counts.min() > 150  # 200 expected per seat
    state = game.new_state(1)
    assert [h.bit_count() for h in state.hands] == [8] * 4 and not state.undealt


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


@pytest.mark.parametrize("shuffles", [0, sampling.REJECTION_TRIES])
def test_forehand_determinize_resamples_undealt_keeps_own_four(monkeypatch, shuffles):
    monkeypatch.setattr(sampling, "REJECTION_TRIES", shuffles)
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = game.new_state(4)
    me = state.to_act
    hidden = {c for s in range(4) if s != me for c in range(32) if state.hands[s] >> c & 1}
    hidden |= set(state.undealt)
    moved = False
    for seed in range(10):
        d = state.determinize(me, np.random.default_rng(seed))
        assert d.hands[me] == state.hands[me]
        got = {c for s in range(4) if s != me for c in range(32) if d.hands[s] >> c & 1}
        assert got | set(d.undealt) == hidden and len(d.undealt) == 16
        assert [d.hands[s].bit_count() for s in range(4)] == [4] * 4
        np.testing.assert_array_equal(d.observe(me), state.observe(me))
        moved |= d.undealt != state.undealt
    assert moved


# --- §6: information ------------------------------------------------------------------------------
def test_void_observation_and_effective_suits():
    game = BauerTrickGame()
    # trump clubs, J♠ led; seat 1 (no clubs) plays A♠: void in clubs, not in spades
    state = play_position(game, {0: "J♠ 7♥ 8♥", 1: "A♠ K♠ 7♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "J♠", "A♠")
    assert state.voids[1] == 1 << CLUBS
    void = piece(state.observe(2), "void").reshape(4, 4)
    assert void.tolist() == [[0] * 4, [0] * 4, [0] * 4, [1, 0, 0, 0]]  # seat 1 = right of 2
    # following suit shows no void
    state = play_position(game, {0: "9♠ 7♥ 8♥", 1: "10♠ 7♦ 8♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "9♠", "10♠")
    assert state.voids == [0, 0, 0, 0]


def test_trick_played_and_tricks_won_pieces():
    game = BauerTrickGame()
    state = play_position(game, {0: "A♠ 7♦", 1: "K♠ 8♦", 2: "7♣ 9♦", 3: "Q♠ 10♦"},
                          trump="clubs", caller=1, leader=0, tricks=(2, 4))
    play(state, "A♠", "K♠")
    obs = state.observe(1)
    trick = piece(obs, "trick").reshape(4, 32)
    assert trick[3, parse_card("A♠")] == 1 and trick[0, parse_card("K♠")] == 1
    assert trick.sum() == 2
    assert piece(obs, "leader").tolist() == [0, 0, 0, 1]
    won = piece(obs, "tricks_won").reshape(2, 9)
    assert won[0].tolist().index(1) == 4 and won[1].tolist().index(1) == 2
    play(state, "7♣", "Q♠")
    obs = state.observe(1)
    assert not piece(obs, "trick").any()
    played = piece(obs, "played").reshape(4, 32)
    assert played[3, parse_card("A♠")] == 1 and played[1, parse_card("7♣")] == 1
    assert played[2, parse_card("Q♠")] == 1 and played[0, parse_card("K♠")] == 1
    assert piece(obs, "leader").tolist() == [0, 1, 0, 0]  # seat 2 won: left of seat 1
    won = piece(obs, "tricks_won").reshape(2, 9)
    assert won[0].tolist().index(1) == 4 and won[1].tolist().index(1) == 3
    assert piece(obs, "trick_number").tolist().index(1) == 7


def test_observation_hides_other_hands():
    game = BauerTrickGame()
    state = game.new_state(11)
    other = state.clone()
    other.hands[1], other.hands[3] = other.hands[3], other.hands[1]
    other.encode()
    np.testing.assert_array_equal(state.observe(0), other.observe(0))
    np.testing.assert_array_equal(state.observe(2), other.observe(2))
    assert not np.array_equal(state.observe(1), other.observe(1))
    hand = piece(state.observe(0), "hand")
    assert [c for c in range(32) if hand[c]] == [c for c in range(32) if state.hands[0] >> c & 1]


def test_determinize_respects_voids_by_effective_suit():
    game = BauerTrickGame()
    state = play_position(game, {0: "7♣ 8♣ 9♣", 1: "J♥ 7♠ 8♠", 2: "A♥ K♥ 9♠",
                                 3: "Q♥ 10♠ 10♦"}, trump="diamonds", caller=0, leader=0)
    data = state.to_dict()
    data["voids"] = [0, 1 << HEARTS, 0, 0]  # seat 1 showed no hearts (J♥ is a diamond here)
    state = game.state_from_dict(data)
    jack_seen = False
    for seed in range(60):
        d = state.determinize(0, np.random.default_rng(seed))
        assert d.hands[0] == state.hands[0]
        assert [h.bit_count() for h in d.hands] == [3] * 4
        assert d.played == state.played and d.points == state.points
        hearts = [c for c in cards("A♥ K♥ Q♥") if d.hands[1] >> c & 1]
        assert not hearts
        jack_seen |= bool(d.hands[1] >> parse_card("J♥") & 1)
        np.testing.assert_array_equal(d.observe(0), state.observe(0))
    assert jack_seen


@pytest.mark.parametrize("shuffles", [0, sampling.REJECTION_TRIES])
def test_determinize_is_uniform_over_consistent_deals(monkeypatch, shuffles):
    """Seat 1 showed no hearts; A♥ K♥ Q♥ must be with seats 2 and 3 (3 cards each). Counting by
    hand: seat 1 takes 3 of the 6 other cards (20 ways), then seats 2 and 3 share the remaining
    6 (C(6,3) = 20 ways): 400 deals. Seat 2 holds all three hearts in 20 of them (seat 1's 3
    cards chosen, seat 3 takes the rest): 1/20; two hearts: C(3,2) x 20 x 3 = 180 (a greedy
    card-by-card deal would give 1/8 and 3/8). Checked with the exact counting sampler alone
    (no rejection shuffles) and with the default mix."""
    monkeypatch.setattr(sampling, "REJECTION_TRIES", shuffles)
    game = BauerTrickGame()
    state = play_position(game, {0: "7♣ 8♣ 9♣", 1: "J♥ 7♠ 8♠", 2: "A♥ K♥ 9♠",
                                 3: "Q♥ 10♠ 10♦"}, trump="diamonds", caller=0, leader=0)
    data = state.to_dict()
    data["voids"] = [0, 1 << HEARTS, 0, 0]
    state = game.state_from_dict(data)
    hearts = sum(1 << c for c in cards("A♥ K♥ Q♥"))
    rng = np.random.default_rng(2024)
    runs = 4000
    counts = np.zeros(4, int)  # hearts held by seat 2
    for _ in range(runs):
        d = state.determinize(0, rng)
        assert not d.hands[1] & hearts
        counts[(d.hands[2] & hearts).bit_count()] += 1
    # exact: 20, 180, 180, 20 of 400
    expected = np.array([0.05, 0.45, 0.45, 0.05])
    assert np.all(np.abs(counts / runs - expected) < 0.03), counts


@pytest.mark.parametrize("shuffles", [0, sampling.REJECTION_TRIES])
def test_determinize_during_random_deals(monkeypatch, shuffles):
    """Every sample keeps the seat's observation and hand sizes and breaks no shown void."""
    monkeypatch.setattr(sampling, "REJECTION_TRIES", shuffles)
    rng = np.random.default_rng(7)
    for options in ({}, {"trump_selection": "forehand_on_four"}):
        game = BauerTrickGame(episode="deal", **options)
        for seed in range(6):
            state = game.new_state(seed)
            while not state.is_over():
                me = state.to_act
                d = state.determinize(me, rng)
                np.testing.assert_array_equal(d.observe(me), state.observe(me))
                assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in state.hands]
                assert len(d.undealt) == len(state.undealt)
                trump = state.trump if state.trump >= 0 else 4
                for s in range(4):
                    for c in range(32):
                        if d.hands[s] >> c & 1:
                            suit = c >> 3
                            if trump < 4 and c & 7 == 4 and suit == trump ^ 1:
                                suit = trump
                            assert not state.voids[s] >> suit & 1
                state.step(int(rng.choice(state.legal_actions(me))))
