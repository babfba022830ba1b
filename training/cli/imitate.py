"""Clone a teacher agent into a MaskablePPO policy: a ``tablezoo train`` run with no PPO steps.

    tablezoo imitate --env bower_v0 --games 400 --out runs/bower_bc
    tablezoo imitate --config training/configs/bower.json --out runs/bower_bc --processes 2

writes ``OUT/model.zip`` (a MaskablePPO model ``tablezoo train --init`` continues from) and the
``bc`` record of ``OUT/summary.json`` (samples, agreement with the teacher on held-out games).
``tablezoo train --bc-games N`` does the same inside a training run. ``--dagger-rounds K`` then
runs DAgger (``training.imitation.cloning``); ``--processes K`` plays the teacher's games in K
worker processes, with the same samples as one process.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from tablezoo.training.cli.options import (
    add_env,
    add_out,
    add_seed,
    make_parser,
    non_negative_int,
    positive_int,
    refuse_earlier_run,
    usage_of,
)
from tablezoo.training.cli.selfplay import train
from tablezoo.training.imitation.cloning import VALUE_TARGETS

DEFAULT_GAMES = 400  # where neither --games nor the config's bc_games says
# imitate's flag -> tablezoo train's; a flag left out leaves the config's value (or train's
# default) in place, so `--config` runs the config's own warm start
TRAIN_FLAGS = {"games": "--bc-games", "teacher": "--bc-teacher", "epochs": "--bc-epochs",
               "dagger_rounds": "--dagger-rounds", "dagger_games": "--dagger-games",
               "seed": "--seed", "processes": "--processes", "env": "--env",
               "temperature": "--bc-temperature", "value_target": "--bc-value-target"}


def build_parser() -> argparse.ArgumentParser:
    p = make_parser("imitate", __doc__)
    p.add_argument("--config", type=Path,
                   help="a training/configs/*.json: its env, options, network and warm start "
                        "(bc_games, bc_teacher, bc_epochs, dagger_*, processes); flags on the "
                        "command line win")
    add_env(p, required=False, help="the env to clone on (required here or in --config)")
    add_out(p, help="run folder for model.zip and summary.json")
    p.add_argument("--games", type=positive_int, default=None,
                   help=f"teacher games to clone (default: the config's bc_games, else "
                        f"{DEFAULT_GAMES})")
    p.add_argument("--teacher", default=None, metavar="SPEC",
                   help="agent spec of the teacher, playing every seat (default: the config's "
                        "bc_teacher, else heuristic)")
    p.add_argument("--epochs", type=positive_int, default=None,
                   help="passes over the samples (default: the config's bc_epochs, else 10)")
    p.add_argument("--dagger-rounds", type=non_negative_int, default=None,
                   help="DAgger rounds after cloning, the clone playing and the teacher "
                        "labelling (default: the config's, else 0)")
    p.add_argument("--dagger-games", type=positive_int, default=None,
                   help="games per DAgger round (default: the config's, else --games)")
    p.add_argument("--temperature", type=float, default=None,
                   help="soft targets: fit the softmax of the teacher's move values at this "
                        "temperature (default: the config's bc_temperature, else its chosen "
                        "move)")
    p.add_argument("--value-target", default=None, choices=VALUE_TARGETS,
                   help="the critic's target: the final return or the search's value "
                        "(default: the config's bc_value_target, else return)")
    add_seed(p, default=None, help="seed of the teacher's games (game k uses seed + k) and of "
                                   "the network (default: the config's, else 0)")
    p.add_argument("--processes", type=int, default=None,
                   help="worker processes playing the teacher's games (default: the config's, "
                        "else 1)")
    p.add_argument("--force", action="store_true",
                   help="clone again into an --out folder that holds an earlier run (replacing "
                        "it)")
    return p


def config_value(config: Path | None, key: str) -> Any:
    """``key`` of a ``--config`` file, or None (``tablezoo train`` reports a missing or
    malformed file, or a bad value, itself, naming the file, under this tool's name)."""
    if config is None or not config.is_file():
        return None
    try:
        values = json.loads(config.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return values.get(key) if isinstance(values, dict) else None


def _as_count(value: Any) -> int | None:
    """A config's count as ``tablezoo train`` will read it (``"0"`` included: its config check
    converts strings), or None where it is no integer (train refuses that, naming the file)."""
    if isinstance(value, bool):
        return None
    try:
        return int(value) if isinstance(value, int | str) else None
    except ValueError:
        return None


def train_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    """``tablezoo train``'s arguments for a run that only clones: no PPO steps, no evaluation,
    the flags given here over the config's values."""
    argv = ["--timesteps", "0", "--out", str(args.out), "--eval-games", "0", "--no-progress"]
    if args.config:
        argv = ["--config", str(args.config), *argv]
    for name, flag in TRAIN_FLAGS.items():
        if getattr(args, name) is not None:
            argv += [flag, str(getattr(args, name))]
    if args.games is None:
        configured = config_value(args.config, "bc_games")
        count = _as_count(configured)
        if configured is None:
            argv += ["--bc-games", str(DEFAULT_GAMES)]
        elif count is not None and count < 1:
            parser.error(f"--config {args.config}: bc_games={configured!r} clones nothing; "
                         "allowed: 1 or more, or pass --games N")
    return argv + (["--force"] if args.force else [])


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    refuse_earlier_run(parser, args.out, force=args.force)
    t0 = time.perf_counter()
    code = train.main(train_command(args, parser), prog="imitate",
                      usage=usage_of(parser))
    print(json.dumps({"seconds": round(time.perf_counter() - t0, 1)}))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
