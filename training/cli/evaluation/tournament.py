"""``tablezoo tournament``: the flags of ``tablezoo.training.evaluation.tournament``."""

from __future__ import annotations

import argparse
import json
import sys

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.cli import options as flags
from tablezoo.training.evaluation import tournament
from tablezoo.training.evaluation.report import write_plot, write_tables
from tablezoo.training.evaluation.tournament import check_games, run_tournament


def build_parser() -> argparse.ArgumentParser:
    p = flags.make_parser("tournament", tournament.__doc__)
    flags.add_env(p, help="the env of the tournament")
    p.add_argument("--agents", required=True, nargs="+", metavar="SPEC",
                   help="two or more distinct agent specs, e.g. random heuristic "
                        "ismcts:iterations=200 policy:RUN/model.zip trained")
    flags.add_games(p, default=400, help="seeded games in all, seats rotated")
    flags.add_seed(p)
    flags.add_env_options(p)
    flags.add_out(p, help="folder for results.{csv,md,png} and tournament.json")
    p.add_argument("--no-plot", action="store_true", help="skip the ratings plot")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, options = flags.parse_with_env_options(parser, argv)
    try:
        players = envs.make_game(args.env, **options).num_players
        factories = [factory_from_spec(spec, args.env, players) for spec in args.agents]
        if len(args.agents) < 2 or len(set(args.agents)) != len(args.agents):
            raise ValueError(f"--agents needs at least two distinct specs, got {args.agents}")
        check_games(args.games, len(args.agents))
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if any(spec.startswith("policy") for spec in args.agents):
        import torch

        torch.set_num_threads(1)
    game = envs.make_game(args.env, **options)
    bar = None
    if not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=args.games, file=sys.stderr, desc="tournament")
    rows = run_tournament(game, args.agents, factories, args.games, args.seed,
                          progress=bar.update if bar else None)
    if bar is not None:
        bar.close()
    written = write_tables(rows, args.out)
    if not args.no_plot:
        plot = write_plot(rows, args.out, f"{args.env} {options}")
        if plot is not None:
            written.append(plot)
    summary = args.out / "tournament.json"
    summary.write_text(json.dumps(
        {"env": args.env, "env_options": options, "games": args.games, "seed": args.seed,
         "agents": args.agents, "results": rows}, indent=2))
    written.append(summary)
    print(f"{args.env} {options}: {args.games} games, seeds from {args.seed}")
    print((args.out / "results.md").read_text())
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
