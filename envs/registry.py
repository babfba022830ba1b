"""Name -> game module registry, and the option sets the cross-game test suites cover."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tablezoo.envs.core.aec import TablezooAECEnv
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.game import Game
from tablezoo.envs.core.parallel import TablezooParallelEnv

_MODULES = {
    "bauer_trick_v0": "tablezoo.envs.bauer_trick",
    "bauer_draft_v0": "tablezoo.envs.bauer_draft",
    "bower_v0": "tablezoo.envs.bower",
    "ethnos_v0": "tablezoo.envs.ethnos",
}
ENVS: tuple[str, ...] = tuple(_MODULES)

# Every option set here is exercised by the PettingZoo API, determinism, golden and random-
# simulation suites (one entry per player count and per structurally different mode).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "bauer_trick_v0": [{}, {"episode": "deal"}, {"trump_selection": "forehand_on_four"}],
    "bauer_draft_v0": [{"num_players": n} for n in (2, 3, 4, 5)],
    "bower_v0": [{}, {"double_turn_mode": "swap"}, {"hands_public": False},
                 {"bonus_optional": False, "flag_all_triggers": False}],
    "ethnos_v0": [{"num_players": n} for n in (2, 3, 4, 5, 6)],
}


def _module(name: str):
    if name not in _MODULES:
        raise InvalidOptionError(f"unknown env {name!r}; known envs: {', '.join(ENVS)}")
    return importlib.import_module(_MODULES[name] + ".env")


def constructors(name: str) -> tuple[Callable[..., TablezooAECEnv],
                                      Callable[..., TablezooAECEnv],
                                      Callable[..., TablezooParallelEnv]]:
    """``(env, raw_env, parallel_env)`` of env ``name``: what ``envs.<name>`` modules export."""
    module = _module(name)
    return module.env, module.raw_env, module.parallel_env


def make(name: str, render_mode: str | None = None, **options: Any) -> TablezooAECEnv:
    """The AEC env ``name`` (one of ``ENVS``) with the env options (``reuse_buffers``,
    ``illegal_action``: see ``tablezoo.envs.core.env_options``) and the game's ``options``."""
    return _module(name).env(render_mode=render_mode, **options)


def make_parallel(name: str, render_mode: str | None = None, **options: Any) -> TablezooParallelEnv:
    """The parallel env ``name`` (one of ``ENVS``); options as for ``make``."""
    return _module(name).parallel_env(render_mode=render_mode, **options)


def make_game(name: str, **options: Any) -> Game:
    """The bare engine ``Game`` of env ``name``, for search agents, tests and notebooks."""
    return _module(name).raw_env(**options).game
