"""The generic pieces on a simultaneous-move, no-team toy game (training_toy_games.BidGame)."""

from __future__ import annotations

import numpy as np

from tablezoo.agents import make_agent
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.teams import partners_of, teams_of
from tablezoo.training.selfplay.seat_env import SeatEnv
from tests.training.selfplay.toy_games import BidGame


def test_seat_env_answers_every_other_acting_seat_in_the_same_joint_decision():
    env = SeatEnv(BidGame())
    rng = np.random.default_rng(0)
    for episode in range(20):
        _, info = env.reset(seed=episode)
        steps, done = 0, False
        while not done:
            assert len(env.state.acting_players()) == 3
            mask = env.action_masks()
            _, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            done = term or trunc
        assert steps == 3 and term
        assert env.state.used.all()  # every seat played all three cards
        assert reward == env.state.returns()[info["seat"]]


def test_agents_and_play_game_on_simultaneous_moves():
    game = BidGame()
    agents = [make_agent("search", seed=1, rollouts=8), make_agent("random"),
              make_agent("random")]
    result = play_game(game, agents, seed=3)
    assert result.decisions == 3 and not result.truncated
    assert sorted(result.returns) == [-1.0, 0.0, 1.0] or sum(result.returns) == 0
    assert play_game(game, agents, seed=3) == result


def test_games_without_teams_have_no_partners():
    game = BidGame()
    assert teams_of(game) == ((0,), (1,), (2,))
    assert partners_of(game, 1) == ()
