"""A game's record (``GameSpec``) and the table of registered records.

Everything the rest of the library needs to reach a game is in its record: the env id, the
``Game`` class, the option sets the cross-game suites cover, the options the tools start from,
its text views and picture, its compiled engine and its agent parts. A game declares its record
in ``envs/<game>/spec.py`` and registers it there (``register``), as OpenSpiel's
``register_game`` does; the registry (``tablezoo.envs.registry``), the agents, the trainers, the
CLI and the web app look a game up here and never by a table of their own.

The compiled engine and the agent parts are named by module (imported when first asked for): the
engine needs numba, an optional dependency, and the agents live on the floor above ``envs``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

from tablezoo.envs.core.errors import InvalidOptionError

if TYPE_CHECKING:
    from tablezoo.envs.core.game import Game, State
    from tablezoo.envs.core.views import TextViews
    from tablezoo.envs.pictures import Picture


@dataclass(frozen=True)
class GameSpec:
    """One game's record. Only ``env_id`` and ``game`` are required; a game without a picture,
    compiled engine or agent parts leaves them ``None`` and the tools say so when asked."""

    env_id: str  # the registered name, e.g. "bower_v0"
    game: type[Game]  # its engine; ``game.name`` is the game's name, e.g. "bower"
    # option sets the PettingZoo API, determinism, golden and random-simulation suites cover
    # (one per player count and per structurally different mode)
    variants: tuple[Mapping[str, Any], ...] = ({},)
    # options the training tools and the web app start from when the user gives none
    # (bauer_trick: single deals, the unit its agents are measured on)
    tool_options: Mapping[str, Any] = field(default_factory=dict)
    views: TextViews | None = None  # the text views a person reads (its ``render`` module)
    picture: Picture | None = None  # the SVG picture (its ``picture`` module)
    # public facts of a finished game (the notebooks' tables): final state -> JSON-safe dict
    summary: Callable[[State], dict[str, Any]] | None = None
    # module with ``make_vector(num_envs, seed=None, **options)``: the numba engine
    compiled: str | None = None
    # module on the agents floor whose ``AGENTS`` (``tablezoo.agents.games.GameAgents``) holds
    # the game's heuristic and search hooks
    agents: str | None = None

    @property
    def name(self) -> str:
        """The game's name (``Game.name``), e.g. ``"bower"``."""
        return self.game.name

    def compiled_engine(self) -> tuple[ModuleType | None, str]:
        """The compiled engine's module, or ``None`` and why not (no engine, numba missing). A
        module that is there but fails to import is an error, not a fallback."""
        if self.compiled is None:
            return None, f"{self.env_id} has no compiled engine"
        if importlib.util.find_spec("numba") is None:
            return None, f"{self.compiled} needs numba, which is not installed (pip install numba)"
        module = importlib.import_module(self.compiled)
        if not callable(getattr(module, "make_vector", None)):
            raise ImportError(f"{self.compiled} defines no make_vector(num_envs, seed=None, "
                              "**options)")
        return module, ""


_SPECS: dict[str, GameSpec] = {}
SPECS: Mapping[str, GameSpec] = MappingProxyType(_SPECS)  # env id -> record, read-only


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the table (the registry's ``make``, ``make_vector`` and every tool then
    know the game). Registering the same env id again with another record is refused."""
    old = _SPECS.get(spec.env_id)
    if old is not None and old != spec:
        raise ValueError(f"env {spec.env_id!r} is already registered (game {old.name!r})")
    if any(s.name == spec.name and s.env_id != spec.env_id for s in _SPECS.values()):
        raise ValueError(f"game name {spec.name!r} is already registered under another env id")
    _SPECS[spec.env_id] = spec
    return spec


def unregister(env_id: str) -> None:
    """Remove a record (a game registered for a test or a notebook)."""
    _SPECS.pop(env_id, None)


def spec(env_id: str) -> GameSpec:
    """The record of ``env_id``; ``InvalidOptionError`` naming the known envs otherwise."""
    found = _SPECS.get(env_id) if isinstance(env_id, str) else None
    if found is None:
        raise InvalidOptionError(f"unknown env {env_id!r}; known envs: {', '.join(_SPECS)}")
    return found


def spec_named(game_name: str) -> GameSpec | None:
    """The record of the game called ``game_name`` (``Game.name``), or ``None``."""
    return next((s for s in _SPECS.values() if s.name == game_name), None)


def spec_of(game: Game | type[Game]) -> GameSpec:
    """The record of a ``Game`` (or ``Game`` class), found by its game name."""
    name = game.name
    found = spec_named(name)
    if found is not None:
        return found
    raise InvalidOptionError(f"game {name!r} has no registered record (tablezoo.envs.core.spec."
                             f"register); registered games: "
                             f"{', '.join(s.name for s in _SPECS.values())}")
