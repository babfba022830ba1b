"""``tablezoo tournament``: the flags of ``tablezoo.training.evaluation.tournament``."""

from __future__ import annotations

import argparse

from tablezoo.training.cli import options as flags
from tablezoo.training.evaluation import tournament
from tablezoo.training.evaluation.tournament import TournamentSettings, play_tournament
from tablezoo.training.runs import SettingsError


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
    p.add_argument("--duplicate", action="store_true",
                   help="count each deal (one block: the deal played once per rotation) as "
                        "one sample of an agent's mean reward, so its luck cancels and the "
                        "intervals narrow")
    p.add_argument("--no-plot", action="store_true", help="skip the ratings plot")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = TournamentSettings(
        env=args.env, agents=args.agents, games=args.games, seed=args.seed,
        env_options=flags.given_env_options(parser, args.env_option), out=args.out,
        plot=not args.no_plot, progress=not args.no_progress, duplicate=args.duplicate)
    try:
        play_tournament(settings)
    except SettingsError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
