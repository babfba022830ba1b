"""Each game's agent parts, one package per game (``agents/games/<game>/``), declared in one
``GameAgents`` record that the game's ``GameSpec`` names (its ``agents`` field).

A game's package holds its heuristic (Python, and compiled for the batched trainer where it has
one) and its search hooks: ISMCTS's defaults, the named leaf values, the beliefs. Generic code
(``agents/search``, the agent registry, the trainers) reaches them only through ``agents_of``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.search.defaults import FALLBACK, GameDefaults
from tablezoo.envs.core.game import Game
from tablezoo.envs.core.spec import spec_named

if TYPE_CHECKING:
    from tablezoo.agents.base import BaseAgent
    from tablezoo.agents.search.belief import Rebuild, WorldBelief
    from tablezoo.agents.search.leaf_values import LeafValue

# (obs [n, D], mask [n, A]) -> actions [n]: an agent's decisions for a batch of seats
BatchedAgent = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class GameAgents:
    """A game's agent parts; every one is optional and the tools say so when one is missing."""

    heuristic: type[BaseAgent] | None = None
    # module whose ``heuristic_for(**options)`` gives a ``BatchedAgent`` (numba) that decides as
    # ``heuristic`` does in the game with those options, from observations alone, for a batch
    compiled_heuristic: str | None = None
    # keywords under which ``heuristic`` decides exactly as the compiled one (no random
    # tie-breaks): how tests and references play the batched heuristic's games in Python
    exact_heuristic: Mapping[str, Any] = field(default_factory=dict)
    search: GameDefaults = FALLBACK  # ISMCTS's budget and playout set-up
    # evaluator name -> the game's leaf value at a search cut-off (``agents/search/leaf_values``)
    leaf_values: Mapping[str, LeafValue] = field(default_factory=dict)
    rebuild: Rebuild | None = None  # belief="policy": the earlier public choices to check
    world_belief: WorldBelief | None = None  # belief="items": the redraw of hidden pieces
    # the rank reward is ``envs.core.game.rank_rewards`` of the ``reward="score"`` returns (ties
    # shared, no tie-breaks): the rollout agent's ``margin_weight`` plays for the scores then
    rank_from_scores: bool = False
    # player count -> the spec of the agent that beat today's ``ismcts`` head to head there
    # (``agents/strongest.py``; a count not named plays ``ismcts``)
    strongest: Mapping[int, str] = field(default_factory=dict)


NO_AGENTS = GameAgents()


def agents_of(game: str | Game) -> GameAgents:
    """The agent parts of an env id (``"bower_v0"``) or of a ``Game``; ``NO_AGENTS`` for a game
    whose record names none."""
    record = envs.spec(game) if isinstance(game, str) else envs.spec_of(game)
    if record.agents is None:
        return NO_AGENTS
    parts = importlib.import_module(record.agents).AGENTS
    if not isinstance(parts, GameAgents):
        raise TypeError(f"{record.agents}.AGENTS is not a GameAgents record")
    return parts


def game_agents(game_name: str) -> GameAgents:
    """The agent parts of the game called ``game_name`` (``Game.name``, e.g. ``"bower"``)."""
    record = spec_named(game_name)
    return NO_AGENTS if record is None else agents_of(record.env_id)


def games_with(has: Callable[[GameAgents], bool]) -> list[str]:
    """The names of the registered games whose agent parts pass ``has`` (for error messages)."""
    return [record.name for record in envs.SPECS.values() if has(agents_of(record.env_id))]


def heuristic_class(env_name: str) -> type[BaseAgent]:
    """The heuristic agent class of ``env_name``; a clear error if that game has none."""
    envs.spec(env_name)  # an unknown env is refused naming the known ones
    cls = agents_of(env_name).heuristic
    if cls is None:
        with_one = [e for e in envs.SPECS if agents_of(e).heuristic is not None]
        raise ValueError(f"no heuristic agent for env {env_name!r}; envs with one: "
                         f"{', '.join(with_one)}")
    return cls


def batched_agents(env_name: str | None, options: Mapping[str, Any] | None = None
                   ) -> dict[str, BatchedAgent]:
    """Agent specs answered from ``(obs, mask)`` arrays alone in ``env_name`` with ``options``
    (its compiled heuristic's ``heuristic_for(**options)``, where it has one): spec ->
    ``BatchedAgent``."""
    if env_name is None:
        return {}
    module = agents_of(env_name).compiled_heuristic
    if module is None:
        return {}
    return {"heuristic": importlib.import_module(module).heuristic_for(**(options or {}))}


def run_batched(game: str, kernel: Callable[..., None], obs: np.ndarray, mask: np.ndarray,
                num_actions: int, *tables: Any) -> np.ndarray:
    """One batch of a compiled heuristic: ``mask`` checked against ``obs`` (at least
    ``num_actions`` columns), both made contiguous, ``kernel(obs, mask, *tables, out)`` run;
    a row the kernel finds no action for (-1) is refused by name."""
    mask = np.asarray(mask)
    if mask.ndim != 2 or mask.shape[0] != obs.shape[0] or mask.shape[1] < num_actions:
        raise ValueError(f"{game} compiled heuristic: mask of shape {mask.shape} for obs of "
                         f"shape {obs.shape}; expected [{obs.shape[0]}, >= {num_actions}]")
    out = np.empty(len(obs), np.int64)
    kernel(np.ascontiguousarray(obs, np.float32), np.ascontiguousarray(mask, np.bool_), *tables,
           out)
    if (out < 0).any():
        raise ValueError(f"{game} compiled heuristic: rows {np.flatnonzero(out < 0).tolist()} "
                         "allow no action")
    return out
