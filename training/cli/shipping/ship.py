"""``tablezoo ship``: the flags of ``training/shipping/ship.py``."""

from __future__ import annotations

import json
from pathlib import Path

from tablezoo.agents.learned.policy import PRETRAINED_DIR, load_model_file
from tablezoo.training.cli.options import add_games, add_seed, make_parser, out_dir
from tablezoo.training.shipping import ship as shipping
from tablezoo.training.shipping.ship import (
    DEFAULT_GAMES,
    DEFAULT_SEED,
    measure,
    measure_env_defaults,
    ship,
)


def main(argv: list[str] | None = None) -> int:
    p = make_parser("ship", shipping.__doc__)
    p.add_argument("run", type=Path, help="a run directory of tablezoo train or tablezoo evolve")
    add_games(p, default=DEFAULT_GAMES, help="games against each opponent (heuristic, random), "
                                             "seats rotated")
    add_seed(p, default=DEFAULT_SEED, help="seed of the first game (game k uses seed + k); "
                                           "keep it away from the seeds training looked at")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--dest", type=out_dir, default=None, metavar="DIR",
                       help="folder the model and its card are written to, as "
                            "<env>_<n>p.npz/.json (default: RUN itself)")
    where.add_argument("--install", action="store_true",
                       help=f"write them into the repository's agents/pretrained/ "
                            f"({PRETRAINED_DIR}), replacing the shipped model there")
    p.add_argument("--no-ship", action="store_true", help="measure only")
    args = p.parse_args(argv)
    try:
        load_model_file(args.run / "model.npz")  # the run's model, read before any game
        strength = measure(args.run, args.games, args.seed)
    except (ValueError, FileNotFoundError) as exc:
        p.error(f"{exc} (RUN: a folder of tablezoo train or tablezoo evolve with its model.npz)")
    env_defaults = measure_env_defaults(args.run, args.games, args.seed)
    measured = strength if env_defaults is None else {**strength, "env_defaults": env_defaults}
    (args.run / "strength.json").write_text(json.dumps(measured, indent=2) + "\n")
    if not args.no_ship:
        dest = PRETRAINED_DIR if args.install else args.dest
        print(f"shipped {ship(args.run, strength, dest, env_defaults, args.games, args.seed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
