"""What every tool's settings share: game options, a run folder's files, the settings error.

The tools (``tablezoo train``, ``evaluate``, ``evolve``, ...) are library functions that take a
settings object; these helpers turn its game options into a game's and keep a run folder tidy.
``training/cli/`` reads the same things from flags and reports a ``SettingsError`` as a usage
error (exit status 2), so a bad setting reads the same from Python and from the command line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.agents.registry import parse_value


class SettingsError(ValueError):
    """A tool's settings cannot run (a value out of range, an unknown option, a missing file),
    found before any work; the message names the setting by its flag."""


def parse_env_options(items: list[str] | None) -> dict[str, Any]:
    """``["episode=deal", "start_score=4"]`` -> ``{"episode": "deal", "start_score": 4}``; a
    value in brackets is a JSON list (``band_glory=[0,1,3,6,10,15]``,
    ``tribes=["dwarves","elves",...]``)."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"--env-option expects key=value, got {item!r}")
        value = value.strip()
        if value.startswith("["):
            try:
                out[key.strip()] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError(f"--env-option {item}: a list value must be JSON, such as "
                                 f'{key.strip()}=[0,1,3] or {key.strip()}=["a","b"] '
                                 f"({exc.msg})") from None
        else:
            out[key.strip()] = parse_value(value)
    return out


def option_item(key: str, value: Any) -> str:
    """``KEY=VALUE`` text that ``parse_env_options`` reads back as ``value`` (lists as JSON)."""
    if isinstance(value, list | tuple):
        return f"{key}={json.dumps(list(value))}"
    return f"{key}={value}"


def env_options_for(env_name: str, given: dict[str, Any]) -> dict[str, Any]:
    """The tool defaults for ``env_name`` overridden by ``given``, validated by building the game
    (an unknown option or bad value raises ``InvalidOptionError`` naming the allowed ones)."""
    options = {**envs.spec(env_name).tool_options, **given}
    envs.make_game(env_name, **options)
    return options


def eval_options(env_options: dict[str, Any]) -> dict[str, Any]:
    """A run's game options for measuring it: evaluation always scores with the game's default
    reward (rank / win-loss), whatever reward the learner was trained on (e.g. ``margin``)."""
    return {k: v for k, v in env_options.items() if k != "reward"}


# What a training run leaves in its folder; an existing run is only continued (--resume) or
# replaced on purpose (--force), so stale checkpoints never join a new run's self-play pool.
RUN_FILES = ("config.json", "model.zip", "model.npz", "model.json", "summary.json", "eval.csv",
             "learning_curve.png")


def existing_run(out: Path) -> list[str]:
    """The run files (and ``checkpoints/``) already in ``out``."""
    found = [name for name in RUN_FILES if (out / name).exists()]
    if (out / "checkpoints").is_dir() and any((out / "checkpoints").iterdir()):
        found.append("checkpoints/")
    return found


def earlier_run_problem(out: Path, *, force: bool, resume: bool | None = None,
                        also: tuple[str, ...] = ()) -> str | None:
    """Why ``out`` cannot take a new run: it already holds one (or one of the tool's own files
    ``also``) and neither ``force`` nor, where the tool has it (``resume`` not None), ``resume``
    says what to do with it; the message names only the flags the tool has (``None``: it can)."""
    found = existing_run(out) + [name for name in also if (out / name).exists()]
    if not found or force or resume:
        return None
    how = ("pass --resume to continue it or --force to start afresh" if resume is not None
           else "pass --force to replace it")
    return f"--out {out} already holds a run ({', '.join(found)}); {how}"


def clear_run(out: Path) -> None:
    """Remove a previous run's files from ``out`` (``--force``); other files stay."""
    for name in RUN_FILES:
        (out / name).unlink(missing_ok=True)
    if (out / "checkpoints").is_dir():
        shutil.rmtree(out / "checkpoints")
