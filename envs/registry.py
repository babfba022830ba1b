"""Name -> game module registry, and the option sets the cross-game test suites cover."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from tablezoo.envs.core.aec import TablezooAECEnv
from tablezoo.envs.core.env_options import ENV_OPTION_NAMES
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.game import OBSERVATION_KINDS, Game, short
from tablezoo.envs.core.parallel import TablezooParallelEnv

if TYPE_CHECKING:
    from tablezoo.envs.vector.base import VectorEnv

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


VECTOR_BACKENDS = ("auto", "python", "compiled")


def _compiled(name: str) -> tuple[ModuleType | None, str]:
    """The game's compiled vector engine (module ``<game package>.batched``), or ``None`` and
    why not. A module that is there but fails to import is an error, not a fallback."""
    module_name = _MODULES[name] + ".batched"
    if importlib.util.find_spec(module_name) is None:
        return None, f"{name} has no compiled engine (no module {module_name})"
    if importlib.util.find_spec("numba") is None:
        return None, f"{module_name} needs numba, which is not installed (pip install numba)"
    module = importlib.import_module(module_name)
    if not callable(getattr(module, "make_vector", None)):
        raise ImportError(f"{module_name} defines no make_vector(num_envs, seed=None, "
                          "**options)")
    return module, ""


def vector_backends(name: str) -> tuple[str, ...]:
    """The backends ``make_vector`` can run for env ``name`` here: ``"python"`` always, then
    ``"compiled"`` where the game has a compiled engine and numba is installed."""
    _module(name)
    return ("python", "compiled") if _compiled(name)[0] is not None else ("python",)


def make_vector(name: str, num_envs: int, seed: int | None = None, *, backend: str = "auto",
                num_workers: int = 0, observation: str = "default",
                **options: Any) -> VectorEnv:
    """``num_envs`` games of env ``name`` stepped together (``tablezoo.envs.vector.base``);
    ``options`` are the game's options. Call ``reset()`` first.

    ``observation``: ``"default"`` (the game's observation) or ``"information_state"`` (each
    asked seat's information state, ``State.information_state``; the Python engines only, so
    ``"auto"`` then runs the loop).

    ``backend``: ``"auto"`` runs the game's compiled engine where it has one (numba installed)
    and ``num_workers`` is 0, else the Python engines in a loop; ``"python"`` always the loop;
    ``"compiled"`` the compiled engine or an error. ``num_workers=K`` (loop only) steps the
    slots in K worker processes, each holding a shard.
    """
    _module(name)
    if backend not in VECTOR_BACKENDS:
        raise InvalidOptionError(f"{name}: backend={short(backend)} is not allowed; allowed "
                                 f"values: {', '.join(map(repr, VECTOR_BACKENDS))}")
    if type(num_envs) is not int or num_envs < 1:
        raise InvalidOptionError(f"{name}: num_envs={short(num_envs)} is not allowed; allowed "
                                 "values: an int >= 1")
    adapter = sorted(set(options) & {*ENV_OPTION_NAMES, "render_mode"})
    if adapter:
        raise InvalidOptionError(f"{name}: make_vector takes the game's options; "
                                 f"{', '.join(adapter)} are options of the AEC and parallel envs")
    game = make_game(name, **options)
    if observation not in OBSERVATION_KINDS:
        raise InvalidOptionError(f"{name}: observation={short(observation)} is not allowed; "
                                 f"allowed values: {', '.join(map(repr, OBSERVATION_KINDS))}")
    if observation != "default":
        try:
            game.observation_spec(observation)
        except NotImplementedError as exc:
            raise InvalidOptionError(f"{name}: observation={observation!r}: {exc}") from None
        if backend == "compiled":
            raise InvalidOptionError(f"{name}: observation={observation!r} is not available "
                                     "with backend='compiled' (its engine encodes the default "
                                     "observation); allowed backends: 'python', 'auto'")
        backend = "python"
    if backend != "python" and not (backend == "auto" and num_workers):
        module, why = _compiled(name)
        if module is not None:
            if num_workers:
                raise InvalidOptionError(f"{name}: num_workers={short(num_workers)} is not "
                                         "allowed with backend='compiled'; allowed values: 0 "
                                         "(worker processes are the 'python' backend's)")
            return module.make_vector(num_envs, seed, **options)
        if backend == "compiled":
            raise InvalidOptionError(f"{name}: backend='compiled' is not available: {why}; "
                                     "available backends: 'python' (or 'auto')")
    from tablezoo.envs.vector.loop import LoopVectorEnv

    return LoopVectorEnv(name, game, num_envs, seed, num_workers=num_workers,
                         observation=observation)
