"""Options of the env adapters themselves (not of a game): which observation and how it is handed
out, and what an illegal action does.

They are declared as ``Option`` records like game options, so a bad value fails with the allowed
values named, and they are split off the keyword arguments before the rest reach the ``Game``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablezoo.envs.core.game import OBSERVATION_KINDS
from tablezoo.envs.core.options import Option, resolve_options

ILLEGAL_ACTION_MODES = ("raise", "terminate", "random_legal")

ENV_OPTIONS: tuple[Option, ...] = (
    Option(
        "reuse_buffers", False,
        "False: every observe/last/reset/step hands out fresh arrays (safe to store, as replay "
        "buffers do). True: one observation and one mask buffer per agent, overwritten in place "
        "on every call (faster; copy what you keep).",
        allowed=(False, True),
    ),
    Option(
        "illegal_action", "raise",
        "'raise': IllegalActionError, state unchanged. 'terminate': the offender gets -1, every "
        "other agent 0, and the episode ends (as PettingZoo's TerminateIllegalWrapper). "
        "'random_legal': a uniformly random legal action is played instead, drawn from the env's "
        "own seeded generator, and counted in info['illegal_actions']. Except under 'raise', the "
        "parallel env takes any action of an agent with nothing to decide as NOOP.",
        allowed=ILLEGAL_ACTION_MODES,
    ),
    Option(
        "observation", "default",
        "'default': the game's observation (obs_spec), a summary of the position. "
        "'information_state': the seat's perfect-recall information state "
        "(State.information_state, layout information_state_spec): the default observation "
        "followed by the history the seat has seen, in order (each game's README).",
        allowed=OBSERVATION_KINDS,
    ),
)
ENV_OPTION_NAMES = tuple(o.name for o in ENV_OPTIONS)


@dataclass(frozen=True)
class EnvOptions:
    """The validated adapter options of one env."""

    reuse_buffers: bool = False
    illegal_action: str = "raise"
    observation: str = "default"

    @classmethod
    def resolve(cls, env_name: str, given: Mapping[str, Any]) -> EnvOptions:
        return cls(**resolve_options(env_name, ENV_OPTIONS, given))


def split_env_options(
    env_name: str, options: Mapping[str, Any]
) -> tuple[EnvOptions, dict[str, Any]]:
    """``(adapter options, game options)`` from one keyword dict of ``envs.make``."""
    env_given = {k: v for k, v in options.items() if k in ENV_OPTION_NAMES}
    game_given = {k: v for k, v in options.items() if k not in ENV_OPTION_NAMES}
    return EnvOptions.resolve(env_name, env_given), game_given
