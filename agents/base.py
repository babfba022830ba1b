"""The one agent protocol every tablezoo agent follows, and a small base class.

Agents see what an env hands a seat (``observation``, ``action_mask``) and, optionally, the engine
``State`` so that search agents can ``determinize`` and ``clone`` it. The ``player`` keyword says
which seat is asked; it is only needed when several seats decide at once (simultaneous moves) and
the agent uses ``state``. Every agent owns a ``numpy.random.Generator`` and is re-seeded with
``reset(seed)``, so a seeded tournament replays exactly; no agent touches the global RNGs.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from tablezoo.envs.core.game import State


@runtime_checkable
class Agent(Protocol):
    """What tournaments, the single-agent training view and ``tablezoo play`` rely on."""

    name: str

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        """A legal action id for the seat that sees ``observation`` and ``action_mask``."""

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; with ``seed``, the agent's choices become reproducible."""

    def action_values(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> dict[int, float] | None:
        """How much the agent likes each legal action (higher: better), which a search ranks
        its candidates by; ``None`` for an agent that does not value its moves (the default)."""

    # the search iterations of the agent's last decision (0 for an agent that does not search)
    last_iterations: int


def _generator(agent: str, seed: int | None) -> np.random.Generator:
    """numpy's generator, with the error naming the agent's seed (numpy's own says only
    "expected non-negative integer")."""
    if seed is not None and (isinstance(seed, bool)
                             or not (isinstance(seed, int | np.integer) and seed >= 0)):
        raise ValueError(f"agent {agent!r}: seed={seed!r}; allowed: an integer >= 0, or None")
    return np.random.default_rng(seed)


class BaseAgent:
    """Holds the agent's own generator; subclasses implement ``act``, and where they can
    ``action_values`` (the default values nothing) and ``last_iterations``."""

    name = "base"
    last_iterations = 0

    def __init__(self, seed: int | None = None):
        self.rng = _generator(self.name, seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = _generator(self.name, seed)

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        raise NotImplementedError

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None,
                      player: int | None = None) -> dict[int, float] | None:
        """``None``: this agent does not value its moves (``Agent.action_values``)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def legal_ids(action_mask: np.ndarray) -> np.ndarray:
    """The allowed action ids of a mask (a game mask, or an env mask with the NOOP slot).

    Raises a clear error on an empty mask rather than letting an agent pick an arbitrary id.
    """
    ids = np.flatnonzero(action_mask)
    if ids.size == 0:
        raise ValueError("action_mask allows no action: this seat has nothing to decide now")
    return ids


def only_noop(action_mask: np.ndarray, num_actions: int) -> bool:
    """True for a parallel-env mask of a waiting seat (only the NOOP id ``num_actions`` set)."""
    return (
        len(action_mask) == num_actions + 1
        and bool(action_mask[num_actions])
        and not np.any(action_mask[:num_actions])
    )


def acting_seat(state: State, player: int | None) -> int:
    """The seat an agent answers for: ``player`` if given, else the single acting player."""
    if player is not None:
        return player
    acting = state.acting_players()
    if len(acting) != 1:
        raise ValueError(
            f"{state.game.name}: several seats act now {list(acting)}; pass player= to act()"
        )
    return acting[0]


def search_preamble(
    agent_name: str, action_mask: np.ndarray, state: State | None
) -> tuple[int | None, np.ndarray]:
    """What every search agent checks before searching: ``(forced action or None, legal ids)``.

    A search needs the engine state; a waiting seat answers NOOP and a single legal action needs
    no search, so both come back as the forced action.
    """
    if state is None:
        raise ValueError(f"{agent_name} agent: act() needs the engine state (state=...) to search")
    num_actions = state.game.num_actions
    if only_noop(action_mask, num_actions):
        return num_actions, np.empty(0, dtype=np.int64)
    ids = legal_ids(action_mask[:num_actions])
    return (int(ids[0]) if ids.size == 1 else None), ids
