"""The three PettingZoo-style constructors of a game module, made from its ``Game`` class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablezoo.envs.core.aec import TablezooAECEnv
from tablezoo.envs.core.env_options import ENV_OPTION_NAMES, split_env_options
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.game import Game
from tablezoo.envs.core.parallel import TablezooParallelEnv


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
