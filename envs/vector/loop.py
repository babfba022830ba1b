"""``LoopVectorEnv``: the vector API over the Python engines of any game.

``num_envs`` engine ``State``s are stepped one after the other in this process, or in
``num_workers`` worker processes that each hold a shard of the slots (``vector.workers``). Either
way this class validates every input first (so bad input changes no slot), and hands out fresh
copies of its own arrays, so a caller may keep or edit what it gets.

Seeding: slot ``i`` draws its games' seeds from
``numpy.random.default_rng(numpy.random.SeedSequence([seed, i]))`` (``vector.slots``); the same
``seed`` gives the same games whatever ``num_workers``. ``seed=None`` takes fresh entropy once.
Call ``reset()`` before the first ``step``: it starts every slot's first game (with the seed given
at construction, if any); later ``reset()`` calls continue each slot's generator, and
``reset(seed)`` reseeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import (
    InvalidOptionError,
)
from tablezoo.envs.core.game import Game, State, short
from tablezoo.envs.vector.base import Decisions, StepResult, VectorEnv
from tablezoo.envs.vector.slots import Slots
from tablezoo.envs.vector.workers import WorkerPool, local_arrays


def check_seed(where: str, seed: Any) -> int | None:
    """``seed`` as a non-negative ``int`` (numpy integers pass) or ``None``."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
            or seed < 0:
        raise InvalidOptionError(f"{where}: seed={short(seed)} is not allowed; allowed values: "
                                 "None or an int >= 0")
    return int(seed)


class LoopVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` (env ``env_name``), engine states stepped in a loop, in this
    process (``num_workers=0``) or in ``num_workers`` worker processes."""

    def __init__(self, env_name: str, game: Game, num_envs: int, seed: int | None = None, *,
                 num_workers: int = 0, observation: str = "default"):
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidOptionError(f"{env_name}: num_envs={short(num_envs)} is not allowed; "
                                     "allowed values: an int >= 1")
        if type(num_workers) is not int or not 0 <= num_workers <= num_envs:
            raise InvalidOptionError(
                f"{env_name}: num_workers={short(num_workers)} is not allowed; allowed values: "
                f"0 (step in this process) to num_envs={num_envs} (worker processes)")
        self.env_name = env_name
        self.game = game
        self.observation_kind = observation
        self.options = dict(game.options)
        self.num_envs = num_envs
        self.num_workers = num_workers
        seed = check_seed(f"{env_name}: make_vector", seed)
        self._seed = int(np.random.SeedSequence().entropy) if seed is None else seed
        self._started = False
        self._pool: WorkerPool | None = None
        if num_workers:
            self._pool = WorkerPool(game, num_envs, num_workers, str(self), observation)
            arrays = self._pool.arrays
            self._slots = None
        else:
            arrays = local_arrays(game, num_envs, observation)
            self._slots = Slots(game, 0, num_envs, tuple(arrays[:6]), observation)
        self._obs, self._mask, self._seat, self._rewards, self._term, self._trunc = arrays[:6]
        self._actions = arrays[6]
        self._rows = np.arange(num_envs)

    def __repr__(self) -> str:
        workers = f", num_workers={self.num_workers}" if self.num_workers else ""
        return f"LoopVectorEnv({self.env_name!r}, num_envs={self.num_envs}{workers})"

    def __str__(self) -> str:
        return self.env_name

    # --- stepping ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Decisions:
        seed = check_seed(f"{self}: reset", seed)
        if seed is None and not self._started:
            seed = self._seed  # the construction's seed; later reset()s continue each generator
        self._run("reset", seed)
        self._started = True
        return self.observe()

    def step(self, actions: Any) -> StepResult:
        self._require_reset("step()")
        acts = self._checked_actions(actions)
        self._actions[:] = acts
        self._run("step")
        return (*self.observe(), self._rewards.copy(), self._term.copy(), self._trunc.copy())

    def observe(self) -> Decisions:
        self._require_reset("observe()")
        return self._obs.copy(), self._mask.copy(), self._seat.copy()

    def state(self) -> np.ndarray:
        self._require_reset("state()")
        if self._pool is None:
            return self._slots.global_states()
        return np.concatenate(self._pool.call_all("state"))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    # --- positions ---------------------------------------------------------------------------
    def get_state(self, i: int) -> State:
        self._require_reset("get_state()")
        i = self._checked_slot(i)
        if self._pool is None:
            return self._slots.get(i).clone()
        return self.game.state_from_dict(self._pool.call(i, "get", i))

    def set_state(self, i: int, state: State | Mapping[str, Any]) -> None:
        self._require_reset("set_state()")
        i = self._checked_slot(i)
        loaded = self._position(i, state)
        if isinstance(state, State):
            loaded = loaded.clone()  # the slot plays on; the caller keeps its own
        if self._pool is None:
            self._slots.set(i, loaded)
        else:
            self._pool.call(i, "set", (i, loaded.to_dict()))

    # --- checks ------------------------------------------------------------------------------
    def _run(self, command: str, arg: Any = None) -> None:
        if self._pool is not None:
            self._pool.call_all(command, arg)
        elif command == "step":
            self._slots.step(self._actions)
        else:
            self._slots.reset(arg)

    def _checked_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as int64 ``[B]``, every one legal for its slot's seat; else raise."""
        n = self.num_envs
        acts = self._action_array(actions)
        num_actions = self.game.num_actions
        if acts.min() >= 0 and acts.max() < num_actions:
            legal = self._mask[self._rows, acts]
        else:
            in_range = (acts >= 0) & (acts < num_actions)
            legal = np.zeros(n, bool)
            rows = np.flatnonzero(in_range)
            legal[rows] = self._mask[rows, acts[rows]]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise self._illegal(i, acts[i], self._mask[i], int(self._seat[i]))
        return acts.astype(np.int64, copy=False)
