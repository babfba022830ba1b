"""Shimmy: OpenSpiel's euchre as a PettingZoo AEC env, side by side with tablezoo's bauer_trick
(both four-seat partnership trick-taking games), driven by one masked random loop.

The only difference a user meets is where the mask lives: tablezoo puts it in the observation
dict, Shimmy's OpenSpiel env in ``info["action_mask"]``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("shimmy")
pytest.importorskip("pyspiel")
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

from tablezoo import envs

GAMES = 20


def legal_actions(obs, info) -> np.ndarray:
    """The legal action ids of either convention (tablezoo: in obs; Shimmy/OpenSpiel: in info)."""
    mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
    return np.flatnonzero(mask)


def play_random(env, games: int, seed: int) -> list[dict]:
    """Masked random games through the AEC loop; per game: decisions, returns, how it ended."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        env.reset(seed=seed + g)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        decisions, ended = 0, None
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            if term or trunc:
                ended = ended or ("terminated" if term else "truncated")
                env.step(None)
                continue
            env.step(int(rng.choice(legal_actions(obs, info))))
            decisions += 1
        out.append({"decisions": decisions, "returns": totals, "ended": ended})
    return out


def test_bauer_trick_and_euchre_run_through_the_same_loop():
    tablezoo = play_random(envs.make("bauer_trick_v0", episode="deal"), GAMES, seed=1)
    euchre = play_random(OpenSpielCompatibilityV0(game_name="euchre"), GAMES, seed=1)
    assert all(g["ended"] == "terminated" for g in tablezoo)
    assert all(g["decisions"] >= 32 for g in tablezoo)  # a full deal: calls + 32 cards played
    for games in (tablezoo, euchre):
        assert all(g["ended"] is not None for g in games)
        # partnership games: seats 0 and 2 share a result, as do seats 1 and 3
        for g in games:
            r = [g["returns"][f"player_{i}"] for i in range(4)]
            assert r[0] == r[2] and r[1] == r[3]


def test_shimmy_euchre_passes_the_pettingzoo_api_test():
    api_test(OpenSpielCompatibilityV0(game_name="euchre"), num_cycles=200)


@pytest.mark.xfail(strict=True, reason=(
    "Shimmy 2.0.1 counts OpenSpiel's chance nodes (euchre's 22-card deal) against "
    "max_game_length (29 decisions, chance excluded), so it truncates euchre after 7 decisions"))
def test_shimmy_euchre_plays_whole_deals():
    games = play_random(OpenSpielCompatibilityV0(game_name="euchre"), 5, seed=3)
    assert all(g["ended"] == "terminated" for g in games)
