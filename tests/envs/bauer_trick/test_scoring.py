"""The deal result of bauer_trick (tricks to points, with and without defenders_score_on_fail),
the end of the game, truncation and the rewards."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.components import parse_card
from tests.envs.bauer_trick.positions import last_trick, piece, play, play_position


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
