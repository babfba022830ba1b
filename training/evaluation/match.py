"""Play one seeded game between agents through the engine ``State`` (no PettingZoo on this path).

Shared by evaluation, tournaments and tests. One seed fixes everything: the deal and every
agent's generator are derived from it with ``numpy.random.SeedSequence``, so a game replays
exactly whatever ran before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tablezoo.agents.base import Agent
from tablezoo.envs.core.game import Game


@dataclass(frozen=True)
class GameResult:
    """Outcome of one game, per seat."""

    returns: list[float]
    scores: list[float]
    decisions: int
    truncated: bool


def seeds_for(seed: int, count: int) -> list[int]:
    """``count`` independent 63-bit seeds derived from ``seed``."""
    children = np.random.SeedSequence(seed).spawn(count)
    return [int(c.generate_state(2, np.uint64)[0] >> np.uint64(1)) for c in children]


def play_game(game: Game, agents: Sequence[Agent], seed: int) -> GameResult:
    """Play ``game`` from a new state seeded by ``seed``; ``agents[p]`` plays seat ``p``.

    Every acting seat is asked each step (several at once in simultaneous phases) and their
    actions are applied together. A game longer than ``game.max_decisions`` joint decisions is
    cut there, like the envs do.
    """
    if len(agents) != game.num_players:
        raise ValueError(
            f"{game.name}: {len(agents)} agents given for {game.num_players} seats"
        )
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"play_game: seed={seed!r}; allowed: an integer >= 0")
    state_seed, *agent_seeds = seeds_for(seed, game.num_players + 1)
    for agent, agent_seed in zip(agents, agent_seeds):
        agent.reset(agent_seed)
    state = game.new_state(state_seed)
    decisions = 0
    while not state.is_over() and decisions < game.max_decisions:
        joint = {}
        for p in state.acting_players():
            mask = state.legal_mask(p)
            joint[p] = agents[p].act(state.observe(p), mask, state=state, player=p)
        state.apply(joint)
        decisions += 1
    return GameResult(
        returns=[float(r) for r in state.returns()],
        scores=[float(s) for s in state.scores()],
        decisions=decisions,
        truncated=not state.is_terminal(),
    )
