"""The main job: train a small agent, evaluate it against random and heuristic, leave results.

    tablezoo quickstart --env bauer_trick_v0 --out runs/quick
    tablezoo quickstart --env bower_v0 --out runs/quick-bower --timesteps 40000

Runs ``tablezoo train`` with a small budget, evaluated along the way: every network reads the
heuristic's move as an extra input (``--advice heuristic``); a behaviour-cloning warm start on
``--bc-games`` heuristic games (at most 25,000 decisions) brings it to the heuristic's level;
then PPO in small steps (learning rate 5e-5, clip 0.1, KL bound 0.01) learns where leaving the
advice pays, against random, heuristic and snapshot seats: the batched trainer where the game
has a compiled engine and heuristic, else MaskablePPO on the one-game collector. Then it plays
the trained numpy policy against ``random`` and against ``heuristic`` on ``--games`` seeded
games each, seats rotated, on seeds training never used. Prints a results table and
leaves in ``OUT``: ``eval.json`` (win/draw/loss and mean reward with 95% intervals per
opponent), ``learning_curve.png`` and ``eval.csv`` (reward during training), ``model.npz`` +
``model.json`` (play it with ``tablezoo play --opponent trained:OUT/model.npz``),
``model.zip``,
``config.json``, ``summary.json`` and TensorBoard logs in ``OUT/tb``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_games,
    add_out,
    add_seed,
    make_parser,
    non_negative_int,
    option_item,
    parse_with_env_options,
    refuse_earlier_run,
    usage_of,
)

OPPONENTS = ("random", "heuristic")
# (timesteps, cloned games, evaluation games per point of the curve, at most --games) of each
# engine: a few minutes on two cores, most of it the heuristic's advice and opponents on the
# Python engines.
BUDGET = {"compiled": (500_000, 400, 200), "python": (20_000, 400, 40)}
# the warm start cloned to the heuristic's level, then PPO in small steps (a small learning rate,
# clip and KL bound, no entropy bonus) that keep that level while it learns
RECIPE = ("--advice", "heuristic", "--bc-epochs", "30", "--bc-max-samples", "25000", "--lr",
          "5e-5", "--clip-range", "0.1", "--target-kl", "0.01", "--ent-coef", "0")
EVAL_SEED = 5_000_000  # far from the training (seed...) and in-training evaluation (1e6) seeds


def build_parser():
    p = make_parser("quickstart", __doc__)
    add_env(p, required=False, default="bauer_trick_v0", help="the env to train on")
    add_out(p, required=False, default=Path("runs/quick"), help="run folder for every result")
    add_env_options(p, help="a game option, repeatable (default: the tool defaults, e.g. "
                            "bauer_trick_v0 trains on single deals)")
    p.add_argument("--timesteps", type=non_negative_int, default=None,
                   help=f"learner decisions to train (default: {BUDGET['compiled'][0]:,} on a "
                        f"compiled engine, else {BUDGET['python'][0]:,})")
    p.add_argument("--bc-games", type=non_negative_int, default=None,
                   help=f"heuristic games to clone before PPO (0: no warm start; default: "
                        f"{BUDGET['compiled'][1]} on a compiled engine, else "
                        f"{BUDGET['python'][1]})")
    p.add_argument("--engine", default="auto", choices=("auto", "compiled", "python"),
                   help="tablezoo train's --engine: compiled: the batched trainer; "
                        "python: the one-game collector; auto: compiled where the env has "
                        "a compiled engine and heuristic")
    add_games(p, default=400, help="evaluation games against each opponent, seats rotated")
    add_seed(p, help="seed of training; evaluation uses other seeds")
    p.add_argument("--force", action="store_true",
                   help="run again in an --out folder that holds an earlier run (replacing it)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    return p


def engine_of(args) -> str:
    """The engine ``tablezoo train`` will run: ``--engine``, where ``auto`` takes the compiled
    engine only where the game also has a compiled heuristic (the recipe's advice needs it)."""
    from tablezoo.agents.games import batched_agents
    from tablezoo.training.selfplay import train

    engine = train.resolve_engine(args.env, args.engine)
    if engine == "compiled" and args.engine == "auto" and not batched_agents(args.env):
        return "python"
    return engine


def fill_budget(args) -> None:
    """``--timesteps``/``--bc-games`` left out: the engine's budget (``BUDGET``)."""
    timesteps, bc_games, _ = BUDGET[engine_of(args)]
    if args.timesteps is None:
        args.timesteps = timesteps
    if args.bc_games is None:
        args.bc_games = bc_games


def train_command(args, options: dict[str, Any]) -> list[str]:
    """The ``tablezoo train`` arguments of the small run."""
    engine = engine_of(args)
    every = max(args.timesteps // 4, 1000)
    argv = ["--env", args.env, "--timesteps", str(args.timesteps), "--out", str(args.out),
            "--seed", str(args.seed), "--bc-games", str(args.bc_games), "--engine", engine,
            "--eval-every", str(every),
            "--eval-games", str(min(BUDGET[engine][2], args.games)),
            "--checkpoint-every", "0", *RECIPE]
    if engine == "python":
        argv += ["--n-envs", "8", "--n-steps", "256", "--n-epochs", "4"]
    else:  # a budget in steps: smaller minibatches and two epochs learn more per step
        argv += ["--batch-size", "1024", "--n-epochs", "2"]
    for key, value in options.items():
        argv += ["--env-option", option_item(key, value)]
    return (argv + (["--no-progress"] if args.no_progress else [])
            + (["--force"] if args.force else []))


def evaluate(env: str, options: dict[str, Any], model: Path, games: int) -> dict[str, Any]:
    """The trained policy against each opponent on fresh seeds: summaries by opponent."""
    from tablezoo.agents.registry import factory_from_spec
    from tablezoo.training.evaluation.evaluate import evaluate_seat
    from tablezoo.training.evaluation.stats import summarize

    game = envs.make_game(env, **options)
    hero = factory_from_spec(f"trained:{model}", env)
    results = {}
    for opponent in OPPONENTS:
        other = factory_from_spec(opponent, env)
        rewards = evaluate_seat(game, hero, hero, other, games, EVAL_SEED)  # team: self
        results[opponent] = summarize(rewards).as_dict()
    return results


def table(results: dict[str, Any]) -> str:
    lines = ["| opponent | games | win | draw | loss | mean reward (95% CI) |",
             "|---|---|---|---|---|---|"]
    for opponent, r in results.items():
        low, high = r["mean_reward_low"], r["mean_reward_high"]
        interval = "(one game: no interval)" if low is None else f"[{low:+.3f}, {high:+.3f}]"
        lines.append(f"| {opponent} | {r['games']} | {r['win']:.1%} | {r['draw']:.1%} | "
                     f"{r['loss']:.1%} | {r['mean_reward']:+.3f} {interval} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, options = parse_with_env_options(parser, argv)
    refuse_earlier_run(parser, args.out, force=args.force)
    try:
        fill_budget(args)
    except ValueError as exc:  # --engine compiled where there is none
        parser.error(str(exc))
    from tablezoo.training.cli.selfplay import train

    t0 = time.perf_counter()
    code = train.main(train_command(args, options), prog="quickstart",
                      usage=usage_of(parser))
    if code:
        return code
    trained_s = time.perf_counter() - t0
    results = evaluate(args.env, options, args.out / "model.npz", args.games)
    wall = time.perf_counter() - t0
    # PPO collects whole rollouts, so it trains a little past --timesteps: report what it did
    steps = json.loads((args.out / "summary.json").read_text())["total_timesteps"]
    payload = {"env": args.env, "env_options": options, "timesteps": steps,
               "bc_games": args.bc_games, "seed": args.seed, "eval_seed": EVAL_SEED,
               "agent": f"trained:{args.out / 'model.npz'}", "results": results,
               "seats": "rotated; team-mates are the trained agent too",
               "train_seconds": round(trained_s, 1), "wall_seconds": round(wall, 1)}
    (args.out / "eval.json").write_text(json.dumps(payload, indent=2))
    print(f"\n{args.env} {options}: trained agent after {steps} steps, "
          f"{args.games} games per opponent (seeds {EVAL_SEED}..)\n")
    print(table(results))
    written = [args.out / name for name in ("eval.json", "learning_curve.png", "model.npz")]
    print("\nwrote " + ", ".join(str(p) for p in written if p.is_file())
          + f"  ({wall:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
