"""Batched simulation: ``num_envs`` games of one env stepped together, arrays ``[B, ...]``.

The contract every vector env keeps (``make_vector`` builds one; games with a compiled engine run
it, the others loop over their Python engines behind the same API):

- One decision per game per step. ``seat[i]`` is the seat that decides now in game ``i``; its
  observation (``obs[i]``, float32: the env's default encoding, or the seat's information state
  with ``observation="information_state"``, ``observation_kind``) and legal mask (``mask[i]``, bool
  over the game's ``num_actions``; no NOOP) come with it. In a simultaneous phase (bauer_draft's
  selection) the acting seats are asked one after the other, lowest seat first, and their choices
  are applied together once the last has chosen: no seat sees another's choice of the same phase.
- ``step(actions)`` plays ``actions[i]`` for ``seat[i]`` in every game. ``rewards[i, p]`` is what
  seat ``p``'s return changed by in that step (the terminal reward of the env's reward mode at the
  end; per-point rewards where the mode has them). A game that ends in a step reports its last
  rewards and ``terminated[i]`` (or ``truncated[i]`` at the env's ``max_*`` bound) in that step,
  and is reset at once: the ``obs``/``mask``/``seat`` that step returns for it are the first
  decision of its next game.
- Game ``i`` draws its games' seeds from its own generator, seeded from ``seed`` and ``i``; the
  same ``seed`` gives the same games.
- Bad input changes nothing: an action array of the wrong shape or dtype, an illegal action in
  any slot (named: slot, seat, action, the legal ones), a position of another game or variant.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    ResetNeededError,
    StateFormatError,
)
from tablezoo.envs.core.fields import check_saved_options, options_record
from tablezoo.envs.core.game import Game, State, short

# (obs [B, D] float32, mask [B, A] bool, seat [B] int64)
Decisions = tuple[np.ndarray, np.ndarray, np.ndarray]
# Decisions + (rewards [B, P] float32, terminated [B] bool, truncated [B] bool)
StepResult = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class VectorEnv(ABC):
    """``num_envs`` games of env ``env_name`` (with ``options``) stepped together."""

    env_name: str
    num_envs: int
    options: dict[str, Any]
    game: Game  # the engine Game of every slot (its num_players, num_actions, obs_spec, ...)
    observation_kind: str = "default"  # or "information_state" (State.information_state)

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def num_actions(self) -> int:
        return self.game.num_actions

    @property
    def observation_size(self) -> int:
        return self.game.observation_spec(self.observation_kind).size

    @property
    def state_size(self) -> int:
        return self.game.state_spec.size

    @abstractmethod
    def reset(self, seed: int | None = None) -> Decisions:
        """Start a new game in every slot; ``seed`` reseeds every slot's generator."""

    @abstractmethod
    def step(self, actions: np.ndarray) -> StepResult:
        """Play ``actions[i]`` (int, ``[B]``) for ``seat[i]`` in every game."""

    @abstractmethod
    def observe(self) -> Decisions:
        """The current decisions again, without stepping (fresh arrays)."""

    @abstractmethod
    def get_state(self, i: int) -> State:
        """Game ``i`` as an engine ``State`` (a copy: to save, render or search from)."""

    @abstractmethod
    def set_state(self, i: int, state: State | Mapping[str, Any]) -> None:
        """Continue game ``i`` from ``state`` (a ``State`` or its ``to_dict()``) of this env's
        game and options."""

    def copy_slot(self, src: int, dst: Any) -> None:
        """Continue every game of ``dst`` (slot numbers) exactly as game ``src`` goes on: its
        position, pending decision and generator (so the same actions meet the same chance: a
        search compares its candidates on the same futures). Here by loading ``get_state(src)``,
        which carries the game's generator; compiled engines copy their arrays' rows."""
        self._require_reset("copy_slot()")
        src, dst = self._checked_slot(src), self._checked_slots(dst)
        state = self.get_state(src)
        for i in dst:
            self.set_state(int(i), state)

    @abstractmethod
    def state(self) -> np.ndarray:
        """``[B, S]`` float32: every game's global state, for centralised critics."""

    def step_rows(self, actions: np.ndarray, rows: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[i]`` (legal: the caller has checked) in the games ``rows`` only, in
        place, writing their next decisions into the engine's own arrays; the other games keep
        their position. Returns ``(rewards [B, P], terminated [B], truncated [B])``, zero and
        ``False`` outside ``rows`` (the engine's arrays: read them before the next step). Compiled
        engines offer it (the batched trainer's league steps the seats it answers this way)."""
        raise NotImplementedError(f"{type(self).__name__} cannot step some games alone")

    def close(self) -> None:  # noqa: B027 - nothing to release unless a subclass has workers
        """Release worker processes, if any."""

    # --- the checks every vector env makes (the bad-input clause above) ---------------------
    _started: bool = False  # set by a subclass's first reset()

    def _require_reset(self, what: str) -> None:
        if not self._started:
            raise ResetNeededError(f"{self}: {what} before the first reset(); call reset() "
                                   "first")

    def _checked_slots(self, slots: Any) -> np.ndarray:
        """``slots`` (a sequence of slot numbers) as an int64 array; a slot that does not exist
        raises ``InvalidOptionError`` naming it."""
        rows = np.asarray(slots)
        if rows.ndim != 1 or (rows.size and rows.dtype.kind not in "iu"):
            raise InvalidOptionError(f"{self}: slots {short(slots)} are not a list of slot "
                                     f"numbers; slots: 0..{self.num_envs - 1}")
        bad = rows[(rows < 0) | (rows >= self.num_envs)]
        if bad.size:
            self._checked_slot(bad[0])  # raises, naming it
        return rows.astype(np.int64)

    def _checked_slot(self, i: Any) -> int:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) \
                or not 0 <= i < self.num_envs:
            raise InvalidOptionError(f"{self}: slot {short(i)} does not exist; slots: 0.."
                                     f"{self.num_envs - 1}")
        return int(i)

    def _action_array(self, actions: Any) -> np.ndarray:
        """``actions`` as an integer array of shape ``[B]`` (not yet checked for legality)."""
        n = self.num_envs
        try:
            acts = np.asarray(actions)
        except (ValueError, TypeError):
            acts = None
        if acts is None or acts.shape != (n,) or acts.dtype.kind not in "iu":
            got = ("something numpy cannot read as an array" if acts is None
                   else f"shape {acts.shape} of dtype {acts.dtype}")
            raise IllegalActionError(
                f"{self}: step() takes one integer action id per game, an int array (or list) "
                f"of shape ({n},); got {got}")
        return acts

    def _illegal(self, i: int, action: Any, mask: np.ndarray, seat: int) -> IllegalActionError:
        """The error for slot ``i``'s illegal ``action``, naming its seat and legal ``mask``."""
        game = self.game
        a = int(action)
        shown = (f"{a} ({game.action_name(a)})" if 0 <= a < game.num_actions
                 else f"{a} (outside 0..{game.num_actions - 1})")
        names = ", ".join(f"{b} ({game.action_name(b)})" for b in np.flatnonzero(mask).tolist())
        return IllegalActionError(
            f"{self}: slot {i}: action {shown} is illegal for {game.player_name(seat)}; legal "
            f"actions: {names} (no slot was stepped)")

    def _position(self, i: int, state: State | Mapping[str, Any]) -> State:
        """``state`` (a ``State`` of this game and options, not copied, or its ``to_dict()``)
        checked for slot ``i``; not a finished one."""
        where = f"{self}: set_state(slot {i})"
        game = self.game
        if isinstance(state, State):
            if state.game.name != game.name:
                raise StateFormatError(f"{where}: a position of game {state.game.name!r}; this "
                                       f"vector env plays {game.name!r} ({self.env_name})")
            check_saved_options(game, {"options": options_record(state.game.options)}, where)
            loaded = state
        elif isinstance(state, Mapping):
            name = state.get("game", game.name)
            if name != game.name:
                raise StateFormatError(f"{where}: a saved position of game {short(name)}; this "
                                       f"vector env plays {game.name!r} ({self.env_name})")
            check_saved_options(game, state, where)
            try:
                loaded = game.state_from_dict(state)
            except StateFormatError as exc:
                raise StateFormatError(f"{where}: {exc}") from None
        else:
            raise StateFormatError(f"{where}: expected a {game.name} State or its to_dict(), got "
                                   f"{type(state).__name__}")
        if loaded.is_over():
            raise StateFormatError(f"{where}: the position is over (no seat acts); a slot "
                                   "continues from a position with a decision to make")
        return loaded

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.env_name!r}, num_envs={self.num_envs})"
