"""The three PettingZoo-style constructors of a game module, made from its ``Game`` class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.core.aec import TablezooAECEnv
from envs.core.game import Game
from envs.core.parallel import TablezooParallelEnv


def env_functions(
    game_cls: type[Game], env_name: str
) -> tuple[Callable[..., TablezooAECEnv], Callable[..., TablezooAECEnv],
           Callable[..., TablezooParallelEnv]]:
    """``(env, raw_env, parallel_env)``; each takes ``render_mode`` and the game's options.

    ``env`` and ``raw_env`` are the same lean env: it validates actions and options itself, so no
    PettingZoo wrapper stack is put on the hot path.
    """

    def raw_env(render_mode: str | None = None, **options: Any) -> TablezooAECEnv:
        return TablezooAECEnv(game_cls(**options), env_name, render_mode)

    def parallel_env(render_mode: str | None = None, **options: Any) -> TablezooParallelEnv:
        return TablezooParallelEnv(game_cls(**options), env_name, render_mode)

    raw_env.__doc__ = f"The {env_name} AEC env. Options: see {game_cls.__module__}."
    parallel_env.__doc__ = f"The {env_name} parallel env. Options: see {game_cls.__module__}."
    return raw_env, raw_env, parallel_env
