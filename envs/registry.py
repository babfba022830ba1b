"""The registry: ``make``, ``make_parallel``, ``make_game`` and ``make_vector`` by env id, over
the games' records (``tablezoo.envs.core.spec``).

The built-in games register their records when this module is imported, and so do the games
that installed packages declare under the entry-point group ``tablezoo.games`` (so the
``tablezoo`` command knows them too); a game of your own registers its ``GameSpec`` with
``register`` and is then made, vectorised and played like them (``envs/ADDING_A_GAME.md``).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from tablezoo.envs.core.aec import TablezooAECEnv
from tablezoo.envs.core.env_options import ENV_OPTION_NAMES, split_env_options
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.game import OBSERVATION_KINDS, Game, short
from tablezoo.envs.core.parallel import TablezooParallelEnv
from tablezoo.envs.core.spec import SPECS, GameSpec, register, spec, spec_of, unregister

if TYPE_CHECKING:
    from tablezoo.envs.vector.base import VectorEnv

# the records of the games that ship with tablezoo, registered on import
BUILTIN = ("tablezoo.envs.bauer_trick.spec", "tablezoo.envs.bauer_draft.spec",
           "tablezoo.envs.bower.spec", "tablezoo.envs.ethnos.spec")
for _module in BUILTIN:
    importlib.import_module(_module)

PLUGIN_GROUP = "tablezoo.games"  # entry point: a module that registers a game's record


def load_plugins() -> list[str]:
    """Import every module installed packages declare under ``PLUGIN_GROUP`` (each registers
    its records); returns their names. One that fails to load is skipped with a warning naming
    it, so a broken plugin cannot take the built-in games down."""
    loaded = []
    for entry in importlib.metadata.entry_points(group=PLUGIN_GROUP):
        try:
            entry.load()
        except Exception as exc:  # any error of a third-party module
            warnings.warn(f"tablezoo: the game plugin {entry.name!r} ({entry.value}) failed to "
                          f"load and is skipped: {type(exc).__name__}: {exc}", stacklevel=2)
            continue
        loaded.append(entry.name)
    return loaded


load_plugins()

__all__ = ["PLUGIN_GROUP", "SPECS", "VARIANTS", "GameSpec", "constructors", "load_plugins",
           "make", "make_game", "make_parallel", "make_vector", "register", "spec", "spec_of",
           "unregister", "vector_backends"]


class _Variants(Mapping[str, list[dict[str, Any]]]):
    """``VARIANTS[env_id]``: the record's option sets, fresh dicts each time."""

    def __getitem__(self, env_id: str) -> list[dict[str, Any]]:
        if env_id not in SPECS:
            raise KeyError(env_id)
        return [dict(options) for options in SPECS[env_id].variants]

    def __iter__(self) -> Iterator[str]:
        return iter(SPECS)

    def __len__(self) -> int:
        return len(SPECS)


VARIANTS: Mapping[str, list[dict[str, Any]]] = _Variants()


def __getattr__(name: str) -> Any:
    """``ENVS``: the registered env ids, games registered after import included."""
    if name == "ENVS":
        return tuple(SPECS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def env_functions(
    game_cls: type[Game], env_name: str
) -> tuple[Callable[..., TablezooAECEnv], Callable[..., TablezooAECEnv],
           Callable[..., TablezooParallelEnv]]:
    """``(env, raw_env, parallel_env)``; each takes ``render_mode``, the env options
    (``reuse_buffers``, ``illegal_action``, ``observation``: see
    ``tablezoo.envs.core.env_options``) and the game's options.

    ``env`` and ``raw_env`` are the same lean env: it validates actions and options itself, so no
    PettingZoo wrapper stack is put on the hot path.
    """

    def game_of(game_options: dict[str, Any]) -> Game:
        """The game; an unknown option's error also names the env options, which the same
        keywords take (a misspelled ``reuse_buffers`` was told only the game's options)."""
        try:
            return game_cls(**game_options)
        except InvalidOptionError as exc:
            if "unknown option" not in str(exc):
                raise
            raise InvalidOptionError(f"{exc}; env options: {', '.join(ENV_OPTION_NAMES)}, "
                                     "render_mode") from None

    def raw_env(render_mode: str | None = None, **options: Any) -> TablezooAECEnv:
        env_options, game_options = split_env_options(env_name, options)
        return TablezooAECEnv(game_of(game_options), env_name, render_mode,
                              reuse_buffers=env_options.reuse_buffers,
                              illegal_action=env_options.illegal_action,
                              observation=env_options.observation)

    def parallel_env(render_mode: str | None = None, **options: Any) -> TablezooParallelEnv:
        env_options, game_options = split_env_options(env_name, options)
        return TablezooParallelEnv(game_of(game_options), env_name, render_mode,
                                   reuse_buffers=env_options.reuse_buffers,
                                   illegal_action=env_options.illegal_action,
                                   observation=env_options.observation)

    env_opts = ", ".join(ENV_OPTION_NAMES)
    where = f"(tablezoo.envs.core.env_options); game options: see {game_cls.__module__}."
    raw_env.__doc__ = f"The {env_name} AEC env. Env options: {env_opts} {where}"
    parallel_env.__doc__ = f"The {env_name} parallel env. Env options: {env_opts} {where}"
    return raw_env, raw_env, parallel_env


def constructors(name: str) -> tuple[Callable[..., TablezooAECEnv],
                                      Callable[..., TablezooAECEnv],
                                      Callable[..., TablezooParallelEnv]]:
    """``(env, raw_env, parallel_env)`` of env ``name``: what ``envs.<name>`` modules export."""
    return env_functions(spec(name).game, name)


def make(name: str, render_mode: str | None = None, **options: Any) -> TablezooAECEnv:
    """The AEC env ``name`` (one of ``ENVS``) with the env options (``reuse_buffers``,
    ``illegal_action``: see ``tablezoo.envs.core.env_options``) and the game's ``options``."""
    return constructors(name)[0](render_mode=render_mode, **options)


def make_parallel(name: str, render_mode: str | None = None, **options: Any) -> TablezooParallelEnv:
    """The parallel env ``name`` (one of ``ENVS``); options as for ``make``."""
    return constructors(name)[2](render_mode=render_mode, **options)


def make_game(name: str, **options: Any) -> Game:
    """The bare engine ``Game`` of env ``name``, for search agents, tests and notebooks."""
    return constructors(name)[1](**options).game


VECTOR_BACKENDS = ("auto", "python", "compiled")


def vector_backends(name: str) -> tuple[str, ...]:
    """The backends ``make_vector`` can run for env ``name`` here: ``"python"`` always, then
    ``"compiled"`` where the game has a compiled engine and numba is installed."""
    return ("python", "compiled") if spec(name).compiled_engine()[0] is not None else ("python",)


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
    record = spec(name)
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
        module, why = record.compiled_engine()
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
