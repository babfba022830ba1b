"""The generic training pieces on every registered env that is built (skipped until it lands)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games import agents_of
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.selfplay.seat_env import SeatEnv

CASES = [
    pytest.param(name, options, id=name + "".join(f"-{k}={v}" for k, v in options.items()))
    for name in envs.ENVS for options in envs.VARIANTS[name]
]


@pytest.mark.parametrize("name,options", CASES)
def test_seat_env_checks_and_masks(name, options):
    check_env(SeatEnv(name, options, on_illegal="random_legal"), skip_render_check=True)
    env = SeatEnv(name, options)
    rng = np.random.default_rng(0)
    for episode in range(2):
        _, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, env.state.legal_mask(info["seat"]))
            _, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            done = term or trunc
        assert total == pytest.approx(env.state.returns()[info["seat"]])


@pytest.mark.parametrize("name,options", CASES)
def test_generic_agents_play_whole_games(name, options):
    game = envs.make_game(name, **options)
    agents = [make_agent("random", env_name=name) for _ in range(game.num_players)]
    if agents_of(name).heuristic is not None:
        agents[0] = make_agent("heuristic", env_name=name)
    result = play_game(game, agents, seed=1)  # apply() rejects any illegal choice
    assert result.decisions <= game.max_decisions
    assert play_game(game, agents, seed=1) == result
