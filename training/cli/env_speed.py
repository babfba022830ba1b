"""Speed of every tablezoo env: random legal play through the AEC API, with the observation and
the action mask of the acting agent fetched every step (what a training loop pays). Two columns:
the default fresh arrays, and ``reuse_buffers=True`` (in-place buffers, the opt-in), measured
alternately in rounds so machine noise hits both alike.

    tablezoo bench                      # every env, default options, 3 s each
    tablezoo bench --env bower_v0 --seconds 10
    tablezoo bench --variants --json    # every player count / mode, machine-readable
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.envs.registry import VARIANTS
from tablezoo.training.cli.options import add_env, add_env_options, make_parser, parse_env_options


@dataclass
class Result:
    env: str
    options: dict
    steps_per_s: float
    games_per_s: float
    steps: int
    games: int
    seconds: float
    reuse_buffers: bool = False


def measure(name: str, options: dict, seconds: float, reuse_buffers: bool = False) -> Result:
    """Play random legal games for ``seconds`` of wall time; count decisions and finished games."""
    env = envs.make(name, reuse_buffers=reuse_buffers, **options)
    pick = random.Random(0)
    steps = games = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[pick.randrange(len(legal))]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return Result(name, options, steps / elapsed, games / elapsed, steps, games, elapsed,
                  reuse_buffers)


def measure_both(name: str, options: dict, seconds: float, rounds: int = 2) -> list[Result]:
    """``[fresh, reused]``: alternating rounds of ``seconds / rounds``, summed per mode."""
    totals = []
    for reuse in (False, True):
        totals.append(Result(name, options, 0.0, 0.0, 0, 0, 0.0, reuse))
    for _ in range(rounds):
        for total in totals:
            r = measure(name, options, seconds / rounds, total.reuse_buffers)
            total.steps += r.steps
            total.games += r.games
            total.seconds += r.seconds
    for total in totals:
        total.steps_per_s = total.steps / total.seconds
        total.games_per_s = total.games / total.seconds
    return totals


def option_sets(name: str, variants: bool, given: dict[str, Any]) -> list[dict[str, Any]]:
    """The option sets to measure for env ``name``, each once: ``given`` (``--env-option``)
    over the defaults or over every set of ``envs.VARIANTS``, where ``num_players=3`` turns
    every player count into 3 (it gave four identical rows)."""
    merged = [{**options, **given} for options in (VARIANTS[name] if variants else [{}])]
    return [options for k, options in enumerate(merged) if options not in merged[:k]]


def main(argv: list[str] | None = None) -> int:
    parser = make_parser("bench", __doc__)
    add_env(parser, required=False, multiple=True,
            help="env to measure (repeatable; default: all)")
    add_env_options(parser, help="a game option for every measured env, repeatable "
                                 "(default: each env's defaults, or --variants)")
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per measurement")
    parser.add_argument("--variants", action="store_true",
                        help="measure every option set of envs.VARIANTS, not just the defaults")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if not 0 < args.seconds < float("inf"):
        parser.error(f"--seconds {args.seconds}: allowed: a finite number more than 0")
    try:
        given = parse_env_options(args.env_option)
    except ValueError as exc:
        parser.error(str(exc))
    name = ""
    try:  # every env's option set, checked before any measurement
        for name in args.env or envs.ENVS:
            for options in option_sets(name, args.variants, given):
                envs.make_game(name, **options)
    except ValueError as exc:  # InvalidOptionError names the allowed options and values
        parser.error(f"{name}: {exc}" + ("" if args.env else " (options apply to every env; "
                                              "name one with --env)"))
    results = []
    for name in args.env or envs.ENVS:
        for options in option_sets(name, args.variants, given):
            try:
                results.append(measure_both(name, options, args.seconds))
            except ImportError as exc:  # a game module not installed/built
                print(f"{name}: skipped ({exc})", file=sys.stderr)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "results": [asdict(r) for pair in results for r in pair]},
                         indent=2))
        return 0
    labels = [",".join(f"{k}={v}" for k, v in fresh.options.items()) or "(defaults)"
              for fresh, _ in results]
    width = max([len("options"), *map(len, labels)])
    print(f"{'env':<16} {'options':<{width}} {'steps/s fresh':>14} {'steps/s reuse':>14} "
          f"{'games/s fresh':>14}")
    for (fresh, reused), label in zip(results, labels):
        print(f"{fresh.env:<16} {label:<{width}} {fresh.steps_per_s:>14,.0f} "
              f"{reused.steps_per_s:>14,.0f} {fresh.games_per_s:>14,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
