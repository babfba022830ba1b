"""``tablezoo evaluate``: its flags into ``EvaluationSettings`` (evaluation/evaluate.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_games,
    add_opponent,
    add_out,
    add_seed,
    given_env_options,
    make_parser,
    out_file,
)
from tablezoo.training.evaluation import evaluate
from tablezoo.training.evaluation.evaluate import EvaluationSettings, run_evaluation
from tablezoo.training.runs import SettingsError


def build_parser() -> argparse.ArgumentParser:
    p = make_parser("evaluate", evaluate.__doc__)
    add_env(p, help="the env to evaluate on")
    hero = p.add_mutually_exclusive_group(required=True)
    hero.add_argument("--model", type=Path, help="a model.zip from tablezoo train")
    hero.add_argument("--agent", metavar="SPEC",
                      help="evaluate any agent spec instead (e.g. heuristic, trained), for "
                           "baselines")
    add_opponent(p, help="agent spec of the opponents")
    p.add_argument("--partner", metavar="SPEC",
                   help="agent spec of the evaluated agent's team-mates (team games); without "
                        "it the evaluated agent partners itself, so its team plays as one")
    add_games(p, default=2000, help="seeded games, seats rotated (with --duplicate: games in "
                                    "all, a multiple of the sides)")
    add_seed(p)
    add_env_options(p, help="a game option, repeatable (default: the options in the run's "
                            "config.json, else the tool defaults)")
    p.add_argument("--stochastic", action="store_true",
                   help="sample the policy's actions instead of taking the most likely one")
    add_out(p, required=False, help="also write the results to DIR/eval.json (default: print "
                                    "only)")
    p.add_argument("--json", type=out_file, metavar="FILE",
                   help="also write the results to this file (default: print only)")
    p.add_argument("--records", type=Path, metavar="FILE",
                   help="append one JSON line per finished game to FILE; run the same command "
                        "again to resume: games already in FILE are not played again "
                        "(training/evaluation/records.py)")
    p.add_argument("--duplicate", action="store_true",
                   help="play every deal once from every side (the teams', or every seat's, "
                        "cards in turn; deal j uses seed + j), so the luck of the deal cancels; "
                        "the mean's interval is over the deals' means")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--timing", action="store_true",
                   help="also report the evaluated agent's CPU time per decision (median, p90) "
                        "and, for search agents, iterations per second")
    return p


def settings_from_args(parser: argparse.ArgumentParser,
                       args: argparse.Namespace) -> EvaluationSettings:
    """The settings the flags ask for (``--env-option`` left out: the run's options)."""
    return EvaluationSettings(
        env=args.env, model=args.model, agent=args.agent, opponent=args.opponent,
        partner=args.partner, games=args.games, seed=args.seed,
        env_options=(None if args.env_option is None
                     else given_env_options(parser, args.env_option)),
        stochastic=args.stochastic, out=args.out, json=args.json, records=args.records,
        progress=not args.no_progress, timing=args.timing, duplicate=args.duplicate)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = settings_from_args(parser, args)
    try:
        run_evaluation(settings)
    except SettingsError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
