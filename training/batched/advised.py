"""Advice on the batched path: every observation followed by the heuristic's move, as one-hot.

An advised network (``tablezoo train --advice heuristic``, ``agents/learned/advice.py``) reads
its observation followed by the one-hot of the move its advisor would play, all zeros where at
most one move is legal. ``AdvisedStepper`` wraps another ``Stepper`` and keeps, beside its
games, observations widened that way: the batched heuristic (``agents.games.batched_agents``)
answers every game whose position changed, in one call per step. It works where the game's
heuristic reads only the observation and mask (bauer_trick's), so one advisor per seat and one
for the whole batch give the same moves (tested against the agent on the engine's states).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tablezoo.envs.core.game import State
from tablezoo.training.batched.stepping import Stepper

Advisor = Callable[[np.ndarray, np.ndarray], np.ndarray]


class AdvisedStepper(Stepper):
    """``inner``'s games, ``obs`` widened by the advice one-hot of ``advise(obs, mask)``."""

    def __init__(self, inner: Stepper, advise: Advisor):
        self.inner, self.advise = inner, advise
        self.game, self.num_envs = inner.game, inner.num_envs
        self.size = inner.obs.shape[1]
        self.obs = np.zeros((self.num_envs, self.size + self.game.num_actions), np.float32)

    @property
    def mask(self) -> np.ndarray:  # type: ignore[override]
        return self.inner.mask

    @property
    def seat(self) -> np.ndarray:  # type: ignore[override]
        return self.inner.seat

    @property
    def env_obs(self) -> np.ndarray:
        return self.inner.env_obs

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)
        self._write(np.arange(self.num_envs))

    def step(self, actions: np.ndarray, rows: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        out = self.inner.step(actions, rows)
        self._write(np.arange(self.num_envs) if rows is None else np.asarray(rows, np.int64))
        return out

    def get_state(self, i: int) -> State:
        return self.inner.get_state(i)

    def close(self) -> None:
        self.inner.close()

    def _write(self, rows: np.ndarray) -> None:
        """Rows ``rows`` of ``obs``: the inner observation, then the advice one-hot."""
        n = self.game.num_actions
        obs, mask = self.inner.obs[rows], self.inner.mask[rows, :n]
        self.obs[rows, :self.size] = obs
        advice = np.zeros((len(rows), n), np.float32)
        choices = np.flatnonzero(mask.sum(axis=1) > 1)  # no advice for a forced move
        if choices.size:
            advice[choices, self.advise(obs[choices], mask[choices])] = 1.0
        self.obs[rows, self.size:] = advice
