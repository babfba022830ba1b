"""What every compiled engine's vector env shares: buffers, seeding, input checks, positions.

A game's compiled engine (numba kernels over its own position arrays, in the game's folder)
subclasses ``CompiledVector`` and fills in the hooks below; the vector contract
(``tablezoo.envs.vector.base``) is kept here once:

- ``reset()`` starts every slot's first game from the construction's ``seed``; later ``reset()``
  calls continue each slot's generator, ``reset(seed)`` reseeds. Call it first.
- ``step(actions)`` checks the array (a wrong shape or dtype raises ``IllegalActionError``);
  the game's kernel checks every action before applying any, so an illegal one in any slot
  raises the error naming the slot, seat, action and the legal ones, and nothing changes. It
  returns fresh arrays; ``step(actions, copy=False)`` returns the engine's own buffers (which
  the next ``step``, ``reset`` or ``set_state`` overwrites: copy what you keep).
- Slot ``i`` owns a PCG32 generator seeded from ``SeedSequence([seed, i])``
  (``tablezoo.envs.vector.kernels``), so its games do not depend on ``num_envs``;
  ``seed=None`` takes fresh entropy once.
- ``get_state(i)`` builds the engine's ``State`` through the game's ``state_from_dict`` (its
  checks vet the position); the copy's generator is derived from the slot's without advancing
  it. ``set_state(i, state)`` loads a position of this game and options (a ``State`` or its
  ``to_dict()``, not a finished one); the slot keeps its own generator for what follows.
  ``copy_slot(src, dst)`` copies a slot's position rows (``_position_arrays``), generator and
  decision into other slots, without building a ``State``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import IllegalActionError, InvalidOptionError
from tablezoo.envs.core.game import Game, State, short
from tablezoo.envs.vector.base import Decisions, StepResult, VectorEnv
from tablezoo.envs.vector.kernels import seed_rngs, slot_seed_words


def checked_seed(where: str, seed: Any) -> int | None:
    """``seed`` as an int, or ``None``; anything else raises ``InvalidOptionError``."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidOptionError(f"{where}: seed={short(seed)} is not allowed; allowed values: "
                                 "None or an int >= 0")
    return int(seed)


class CompiledVector(VectorEnv):
    """``num_envs`` games of ``game`` in arrays; a game's engine subclasses it (see the module).

    The buffers the kernels write in place: ``_obs`` ``[B, D]`` float32, ``_mask`` ``[B, A]``
    bool, ``_seat`` ``[B]`` int64, ``_rewards`` ``[B, P]`` float32, ``_terminated`` and
    ``_truncated`` ``[B]`` bool, and the generators ``_rng`` ``[B, 2]`` uint64."""

    _position_arrays: tuple[str, ...] = ("_S",)  # the per-slot rows a position is stored in

    def __init__(self, game: Game, num_envs: int, seed: int | None):
        self.game = game
        self.options = dict(game.options)
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidOptionError(f"{self.env_name}: num_envs={short(num_envs)} is not "
                                     "allowed; allowed values: an int >= 1")
        seed = checked_seed(f"{self.env_name}: make_vector", seed)
        self._seed = int(np.random.SeedSequence().entropy) % 2**63 if seed is None else seed
        self.num_envs = n = num_envs
        players = game.num_players
        self._rng = np.zeros((n, 2), np.uint64)
        self._obs = np.zeros((n, self.observation_size), np.float32)
        self._mask = np.zeros((n, game.num_actions), bool)
        self._seat = np.zeros(n, np.int64)
        self._rewards = np.zeros((n, players), np.float32)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._started = False

    def __str__(self) -> str:
        return self.env_name

    # --- the game's hooks --------------------------------------------------------------------
    @abstractmethod
    def _new_games(self, lo: int, hi: int) -> None:
        """Start a fresh game in slots ``lo..hi-1`` (from their generators) and write their
        first decisions."""

    @abstractmethod
    def _step_all(self, actions: np.ndarray) -> int:
        """The kernel's step over every slot (``actions`` int64 ``[B]``); the first slot whose
        action is illegal (nothing applied then), or -1."""

    @abstractmethod
    def _step_some(self, actions: np.ndarray, rows: np.ndarray) -> None:
        """The kernel's step over the slots ``rows`` only (actions already checked)."""

    @abstractmethod
    def _write_decisions(self, lo: int, hi: int) -> None:
        """Write the decisions of slots ``lo..hi-1`` from their positions."""

    @abstractmethod
    def _global_states(self, out: np.ndarray) -> None:
        """Write every slot's global state into ``out`` ``[B, S]`` float32."""

    @abstractmethod
    def _saved(self, i: int) -> dict[str, Any]:
        """Slot ``i``'s position as the engine's ``to_dict()`` (its generator: ``_derived_rng``)."""

    @abstractmethod
    def _load(self, i: int, state: State) -> None:
        """Write the checked, unfinished position ``state`` into slot ``i``'s arrays."""

    # --- stepping ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Decisions:
        seed = checked_seed(f"{self}: reset", seed)
        if seed is None and not self._started:
            seed = self._seed
        if seed is not None:
            seed_rngs(self._rng, slot_seed_words(seed, 0, self.num_envs))
        self._new_games(0, self.num_envs)
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._started = True
        return self.observe()

    def step(self, actions: Any, copy: bool = True) -> StepResult:
        """Play ``actions[i]`` for ``seat[i]`` in every game; ``copy=False``: see the module."""
        self._require_reset("step()")
        bad = self._step_all(self._checked_actions(actions))
        if bad >= 0:
            raise self._illegal_in(bad, np.asarray(actions)[bad])
        if not copy:
            return (self._obs, self._mask, self._seat, self._rewards, self._terminated,
                    self._truncated)
        return (self._obs.copy(), self._mask.copy(), self._seat.copy(), self._rewards.copy(),
                self._terminated.copy(), self._truncated.copy())

    def step_rows(self, actions: np.ndarray, rows: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._step_some(np.ascontiguousarray(actions, np.int64),
                        np.ascontiguousarray(rows, np.int64))
        return self._rewards, self._terminated, self._truncated

    def observe(self) -> Decisions:
        self._require_reset("observe()")
        return self._obs.copy(), self._mask.copy(), self._seat.copy()

    def state(self) -> np.ndarray:
        self._require_reset("state()")
        out = np.empty((self.num_envs, self.state_size), np.float32)
        self._global_states(out)
        return out

    # --- positions ---------------------------------------------------------------------------
    def get_state(self, i: int) -> State:
        self._require_reset("get_state()")
        return self.game.state_from_dict(self._saved(self._checked_slot(i)))

    def set_state(self, i: int, state: State | Mapping[str, Any]) -> None:
        self._require_reset("set_state()")
        i = self._checked_slot(i)
        self._load(i, self._position(i, state))
        self._write_decisions(i, i + 1)

    def copy_slot(self, src: int, dst: Any) -> None:
        self._require_reset("copy_slot()")
        src, dst = self._checked_slot(src), self._checked_slots(dst)
        for name in self._position_arrays + ("_rng", "_obs", "_mask", "_seat"):
            rows = getattr(self, name)
            rows[dst] = rows[src]

    def _derived_rng(self, i: int) -> dict[str, Any]:
        """A generator state for slot ``i``'s copy, derived from the slot's (not advancing it)."""
        words = [int(w) for w in self._rng[i]]
        return np.random.default_rng(np.random.SeedSequence(words)).bit_generator.state

    # --- checks ------------------------------------------------------------------------------
    def _checked_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as a C-contiguous int64 ``[B]`` (the kernel checks legality)."""
        if type(actions) is np.ndarray and actions.dtype == np.int64 \
                and actions.shape == (self.num_envs,) and actions.flags.c_contiguous:
            return actions  # the kernels only read it
        acts = self._action_array(actions)
        if acts.dtype.kind == "u":  # a uint64 above int64's range stays out of range
            acts = np.where(acts > self.game.num_actions, self.game.num_actions, acts)
        return np.ascontiguousarray(acts, np.int64)

    def _illegal_in(self, i: int, action: Any) -> IllegalActionError:
        """The error for slot ``i``'s illegal ``action`` (nothing was applied, so the slot's
        decision is the one its position gives)."""
        self._write_decisions(i, i + 1)
        return self._illegal(i, action, self._mask[i], int(self._seat[i]))
