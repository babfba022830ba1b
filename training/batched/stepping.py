"""Vector envs stepped with some games held: what an SB3 ``VecEnv`` over them needs.

The vector contract (``tablezoo.envs.vector.base``) steps every game one decision per call. An
SB3 ``VecEnv`` with one learner seat per game steps until every game waits for its learner; the
games that reach their learner first must wait there while the others play on. A ``Stepper``
holds ``num_envs`` games behind the contract's arrays (``obs``, ``mask``, ``seat``: the current
decision of every game, updated in place) and steps the ``rows`` it is given, leaving the others
as they are:

- ``CompiledStepper``: the fast path, over a compiled engine that has one
  (``bauer_trick_v0``'s ``BauerTrickVector``): one call steps all games (``step(copy=False)``),
  and a call with ``rows`` runs the engine's own numba kernels (``step_rules`` and
  ``write_decisions``) on just those rows, in place (tested equal to stepping the same games
  alone).
- ``SlotStepper``: any env, any backend: one single-game vector env per slot (slot ``i`` seeded
  from ``SeedSequence([seed, i])``), each stepped on its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.envs.core.errors import IllegalActionError
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.vector.base import VectorEnv


class Stepper(ABC):
    """``num_envs`` games of ``game``: ``obs`` ``[B, D]``, ``mask`` ``[B, A]``, ``seat`` ``[B]``
    are every game's current decision (owned here, rewritten by ``reset``/``step``)."""

    game: Game
    num_envs: int
    obs: np.ndarray
    mask: np.ndarray
    seat: np.ndarray

    @property
    def env_obs(self) -> np.ndarray:
        """The env's own observations ``[B, D]`` (no columns a wrapper adds): what agents other
        than the league's networks read."""
        return self.obs

    @abstractmethod
    def reset(self, seed: int | None = None) -> None:
        """A new game in every slot (``seed``: reseed the slots' generators)."""

    @abstractmethod
    def step(self, actions: np.ndarray, rows: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[i]`` (int64 ``[B]``) for ``seat[i]`` in every game ``i`` of ``rows``
        (all when ``None``); the others keep their position. Returns ``(rewards [B, P],
        terminated [B], truncated [B])`` with zeros and ``False`` outside ``rows`` (the engine's
        arrays: read them before the next step). A finished game restarts at once."""

    @abstractmethod
    def get_state(self, i: int) -> State:
        """Game ``i`` as an engine ``State`` (a copy)."""

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release what the games hold."""

    def check_actions(self, actions: np.ndarray, rows: np.ndarray) -> None:
        """Raise ``IllegalActionError`` unless ``actions[rows]`` are legal (nothing stepped)."""
        acts = actions[rows]
        n = self.game.num_actions
        ok = (acts >= 0) & (acts < n)
        ok[ok] = self.mask[rows[ok], acts[ok]]
        if not ok.all():
            k = int(np.flatnonzero(~ok)[0])
            i, a = int(rows[k]), int(acts[k])
            legal = ", ".join(map(str, np.flatnonzero(self.mask[i]).tolist()))
            raise IllegalActionError(f"{self.game.name}: slot {i}: action {a} is illegal for "
                                     f"{self.game.player_name(int(self.seat[i]))}; legal "
                                     f"actions: {legal} (no slot was stepped)")


def make_stepper(env_name: str, num_envs: int, seed: int, backend: str = "auto",
                 **options: Any) -> Stepper:
    """``num_envs`` games of ``env_name``: the compiled fast path where the env has one and
    ``backend`` allows it (``"auto"``, ``"compiled"``), else one vector env per slot."""
    if backend != "python" and "compiled" in envs.vector_backends(env_name):
        vec = envs.make_vector(env_name, num_envs, seed=seed, backend="compiled", **options)
        return CompiledStepper(vec)
    return SlotStepper([envs.make_vector(env_name, 1, seed=slot_seed(seed, i), backend=backend,
                                         **options) for i in range(num_envs)])


def slot_seed(seed: int, i: int) -> int:
    """The seed of ``SlotStepper``'s slot ``i`` under ``seed``."""
    return int(np.random.SeedSequence([seed, i]).generate_state(1, np.uint64)[0] >> np.uint64(1))


class CompiledStepper(Stepper):
    """A game's compiled engine (its record's ``compiled``), its arrays stepped in place; some
    rows alone through its ``step_rows``."""

    def __init__(self, vec: VectorEnv):
        self.vec = vec
        self.game = vec.game
        self.num_envs = vec.num_envs
        self.obs, self.mask, self.seat = vec._obs, vec._mask, vec._seat

    def reset(self, seed: int | None = None) -> None:
        self.vec.reset(seed)

    def step(self, actions: np.ndarray, rows: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        vec = self.vec
        if rows is None or len(rows) == self.num_envs:
            _, _, _, rewards, terminated, truncated = vec.step(actions, copy=False)
            return rewards, terminated, truncated
        self.check_actions(actions, rows)
        return vec.step_rows(actions, rows)

    def get_state(self, i: int) -> State:
        return self.vec.get_state(i)


class SlotStepper(Stepper):
    """One single-game vector env per slot (any env, any backend)."""

    def __init__(self, vecs: list[VectorEnv]):
        if not vecs or any(v.num_envs != 1 for v in vecs):
            raise ValueError("SlotStepper: give one vector env of one game per slot")
        self.vecs = vecs
        self.game = vecs[0].game
        self.num_envs = len(vecs)
        self.obs = np.zeros((self.num_envs, vecs[0].observation_size), np.float32)
        self.mask = np.zeros((self.num_envs, self.game.num_actions), bool)
        self.seat = np.zeros(self.num_envs, np.int64)
        self.rewards = np.zeros((self.num_envs, self.game.num_players), np.float32)
        self.terminated = np.zeros(self.num_envs, bool)
        self.truncated = np.zeros(self.num_envs, bool)

    def reset(self, seed: int | None = None) -> None:
        for i, vec in enumerate(self.vecs):
            o, m, s = vec.reset(None if seed is None else slot_seed(seed, i))
            self.obs[i], self.mask[i], self.seat[i] = o[0], m[0], s[0]

    def step(self, actions: np.ndarray, rows: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = np.arange(self.num_envs) if rows is None else np.asarray(rows, np.int64)
        self.check_actions(actions, rows)
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        for i in rows.tolist():
            o, m, s, r, te, tr = self.vecs[i].step(actions[i:i + 1])
            self.obs[i], self.mask[i], self.seat[i] = o[0], m[0], s[0]
            self.rewards[i], self.terminated[i], self.truncated[i] = r[0], te[0], tr[0]
        return self.rewards, self.terminated, self.truncated

    def get_state(self, i: int) -> State:
        return self.vecs[i].get_state(0)

    def close(self) -> None:
        for vec in self.vecs:
            vec.close()
