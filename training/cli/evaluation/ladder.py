"""``tablezoo ladder``: the flags of ``tablezoo.training.evaluation.ladder``."""

from __future__ import annotations

import argparse
import json

from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_seed,
    make_parser,
    out_file,
    parse_with_env_options,
    positive_int,
)
from tablezoo.training.evaluation import ladder
from tablezoo.training.evaluation.ladder import format_ladder, ladder_json, run_ladder


def build_parser() -> argparse.ArgumentParser:
    p = make_parser("ladder", ladder.__doc__)
    add_env(p, help="the env of the ladder")
    p.add_argument("--agents", required=True, nargs="+", metavar="SPEC",
                   help="two or more distinct agent specs, e.g. random heuristic ismcts trained")
    p.add_argument("--games-per-pair", type=positive_int, default=100,
                   help="games of each pair, an even number (each deal with both seatings)")
    add_seed(p, help="seed of the ladder (each pair's deals are drawn from it)")
    add_env_options(p)
    p.add_argument("--workers", type=positive_int, default=1,
                   help="processes playing pairs side by side")
    p.add_argument("--json", type=out_file, metavar="FILE",
                   help="also write the matrix, ratings and times to FILE")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, options = parse_with_env_options(parser, argv)
    try:
        result = run_ladder(args.env, args.agents, args.games_per_pair, args.seed, options,
                            args.workers)
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    print(f"{args.env} {options}: {result.games_per_pair} games a pair, seed {args.seed}\n")
    print(format_ladder(result))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(ladder_json(result, args.env, options, args.seed),
                                        indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
