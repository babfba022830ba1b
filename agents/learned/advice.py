"""Advice inputs: a network that also sees the move another agent would make.

A model trained with ``tablezoo train --advice heuristic`` reads the observation
followed by a
one-hot of the move the game's heuristic would play there (all zeros where the heuristic has no
move to give: a pass, or a finished game). This is residual policy learning (Silver et al.
2018, "Residual Policy Learning"; Johannink et al. 2019): cloning starts the network at the
heuristic's play in a few minutes instead of the hours a raw clone needs to agree with a
look-ahead teacher, and PPO then only has to learn where leaving the advice wins more. A
hand-written feature as network input is old practice (AlphaGo's input planes held ladder
captures); the advice is such a feature, and the agent that plays the model computes it.

Each seat has its own advisor for the whole game (a fresh agent seeded per seat), shown the
seat's positions in order, so a stateful heuristic keeps its plans (the ethnos heuristic
remembers which band it is building). The card of an advised model says ``"advice"``, and its
network input is the env's observation size plus the action count.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tablezoo.agents.base import Agent
from tablezoo.agents.games import heuristic_class
from tablezoo.envs.core.game import State

ADVISORS = ("heuristic",)


def check_advice(advice: str | None) -> None:
    """Refuse an unknown advisor with the allowed names."""
    if advice is not None and advice not in ADVISORS:
        raise ValueError(f"advice={advice!r}; allowed: {', '.join(ADVISORS)} (or none)")


def advisor_factory(advice: str, env_name: str) -> Callable[[int | None], Agent]:
    """``seed -> a fresh advisor`` for ``env_name`` (the game's heuristic, its defaults)."""
    check_advice(advice)
    heuristic = heuristic_class(env_name)
    return lambda seed: heuristic(seed=seed)


def advisor_seed(seed: int | None, seat: int) -> int | None:
    """The advisor of ``seat`` in a game or agent seeded ``seed`` (None stays unseeded)."""
    return None if seed is None else (int(seed) * 7919 + 104729 * (seat + 1)) % 2**63


def advice_of(advisor: Agent, state: State | None, player: int, observation: np.ndarray,
              mask: np.ndarray, num_actions: int) -> int:
    """The advisor's move for ``player``, or ``num_actions`` (no advice) when it only passes or
    the position has at most one legal move (the heuristic then has nothing to say)."""
    legal = np.asarray(mask[:num_actions], bool)
    if legal.sum() <= 1:
        return num_actions
    a = int(advisor.act(observation, mask, state=state, player=player))
    return a if 0 <= a < num_actions else num_actions


def write_advice(out: np.ndarray, action: int) -> None:
    """The one-hot of ``action`` into ``out`` (length = action count; all zeros for none)."""
    out[:] = 0.0
    if action < out.shape[0]:
        out[action] = 1.0


def with_advice(observation: np.ndarray, action: int, num_actions: int) -> np.ndarray:
    """A new ``float32`` array: the observation followed by the advice's one-hot."""
    obs = np.asarray(observation, np.float32)
    x = np.empty(obs.shape[0] + num_actions, np.float32)
    x[: obs.shape[0]] = obs
    write_advice(x[obs.shape[0]:], action)
    return x
