"""Small pieces shared by the command-line tools: env name and ``key=value`` option parsing."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import envs
from agents.registry import parse_value

# Options the tools use unless told otherwise: train and evaluate on single deals, which are
# short episodes with a clear reward (the training acceptance is on single deals).
DEFAULT_ENV_OPTIONS: dict[str, dict[str, Any]] = {
    "bauer_trick_v0": {"episode": "deal"},
}


def check_env_name(name: str) -> str:
    if name not in envs.ENVS:
        raise argparse.ArgumentTypeError(
            f"unknown env {name!r}; known envs: {', '.join(envs.ENVS)}"
        )
    return name


def parse_env_options(items: list[str] | None) -> dict[str, Any]:
    """``["episode=deal", "start_score=4"]`` -> ``{"episode": "deal", "start_score": 4}``."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"--env-option expects key=value, got {item!r}")
        out[key.strip()] = parse_value(value.strip())
    return out


def env_options_for(env_name: str, given: dict[str, Any]) -> dict[str, Any]:
    """The tool defaults for ``env_name`` overridden by ``given``, validated by building the game
    (an unknown option or bad value raises ``InvalidOptionError`` naming the allowed ones)."""
    options = {**DEFAULT_ENV_OPTIONS.get(env_name, {}), **given}
    envs.make_game(env_name, **options)
    return options


def read_run_config(model_path: str | Path) -> dict[str, Any]:
    """The ``config.json`` that ``training.train`` writes next to ``model.zip`` (or ``{}``)."""
    from agents.policy import run_config

    return run_config(model_path)
