"""``tablezoo evolve``: its flags and ``--config`` file into ``EvolutionSettings``, then the run
(``training/evolution/cma_es.py``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_out,
    add_seed,
    make_parser,
    parse_with_config,
)
from tablezoo.training.evolution import cma_es
from tablezoo.training.evolution.cma_es import EvolutionSettings, evolve
from tablezoo.training.runs import SettingsError, parse_env_options
from tablezoo.training.shipping.commands import RUN, join, portable


def build_parser() -> argparse.ArgumentParser:
    p = make_parser("evolve", cma_es.__doc__)
    p.add_argument("--config", type=Path, help="a JSON file of these flags (flags given on the "
                   "command line win)")
    add_env(p, required=False, default="bower_v0")
    add_env_options(p, help="a game option of the env, repeatable (bauer_trick: single deals "
                    "unless told otherwise, as in the other tools)")
    p.add_argument("--param", action="append", metavar="NAME=LOW:HIGH",
                   help="a heuristic parameter to evolve and its bounds (repeatable)")
    add_out(p)
    add_seed(p)
    p.add_argument("--population", type=int, default=8,
                   help="candidates per generation (at least 4)")
    p.add_argument("--pairs", type=int, default=120,
                   help="deals per candidate and generation, each played once from every seat")
    p.add_argument("--sigma", type=float, default=0.15,
                   help="CMA-ES's initial step size, in units of each parameter's range")
    p.add_argument("--generations", type=int, default=1000,
                   help="generations to play: the run's budget")
    p.add_argument("--max-minutes", type=float, default=None,
                   help="also stop before a generation that would end past this wall time, a "
                        "guard for exploration runs: where it stops depends on the machine, so "
                        "the run cannot be rerun (default: none)")
    p.add_argument("--eval-every", type=int, default=3,
                   help="generations between curve points (0: only the first and the last)")
    p.add_argument("--eval-games", type=int, default=400, help="games per curve point")
    p.add_argument("--tail-average", type=float, default=0.0, metavar="F",
                   help="save the average of the distribution's means over the last fraction F "
                   "of the generations (0 < F <= 1) instead of the final mean; 0: the final mean")
    p.add_argument("--processes", type=int, default=2, help="worker processes for the games")
    p.add_argument("--force", action="store_true", help="replace a run already in OUT")
    return p


def settings_from_args(args: argparse.Namespace) -> EvolutionSettings:
    """The run the flags ask for (``--env-option KEY=VALUE`` items read into a dict)."""
    values = {k: v for k, v in vars(args).items() if k not in ("config", "env_option")}
    return EvolutionSettings(**values, env_options=parse_env_options(args.env_option))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parse_with_config(parser, argv)
    try:
        settings = settings_from_args(args)
    except ValueError as exc:  # a malformed --env-option
        parser.error(str(exc))
    try:
        evolve(settings, join("evolve", portable(argv, {str(args.out): RUN})), vars(args))
    except SettingsError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
