"""Learning curves from run folders: evaluate saved checkpoints, read ``eval.csv``, pool seeds.

``OUT/eval.csv`` is the learning-curve file of a training run: one row per (step, opponent)
with the columns of ``EVAL_FIELDS`` (the format the league trainer of the learning issue writes
during training). For runs that have only checkpoints (``OUT/checkpoints/model_<steps>_steps.zip``,
as ``python -m training.train`` saves them), ``evaluate_checkpoints`` writes the same file
afterwards:

    python -m training.curves RUN [RUN ...] --games 200

The training notebook reads a folder of runs laid out ``ROOT/<condition>/<seed>/eval.csv`` and
draws, per condition, the mean over seeds with a 95% band.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import envs
from agents.registry import factory_from_spec
from training.evaluate import evaluate_seat
from training.stats import Interval, mean_interval, summarize

EVAL_FIELDS = ["step", "opponent", "games", "win", "win_low", "win_high", "mean_reward",
               "mean_reward_low", "mean_reward_high", "seconds"]
OPPONENTS = ("random", "heuristic")
_STEPS = re.compile(r"_(\d+)_steps\.zip$")


def checkpoints(run: Path) -> list[tuple[int, Path]]:
    """``(step, path)`` of every ``checkpoints/*_<steps>_steps.zip`` of ``run``, by step."""
    found = []
    for path in (Path(run) / "checkpoints").glob("*_steps.zip"):
        match = _STEPS.search(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def evaluate_checkpoints(run: Path, games: int = 200, seed: int = 10_000,
                         opponents: Sequence[str] = OPPONENTS) -> Path:
    """Evaluate each checkpoint of ``run`` against each opponent; write ``run/eval.csv``.

    The model plays one seat (rotating every game; its partners in team games are itself) and
    every other seat is the opponent; the same seeded games for every checkpoint.
    """
    from agents.policy import PolicyAgent, load_model

    run = Path(run)
    config = json.loads((run / "config.json").read_text())
    env_name = config["env"]
    game = envs.make_game(env_name, **config.get("env_options", {}))
    found = checkpoints(run)
    if not found:
        raise FileNotFoundError(f"{run}: no checkpoints/*_<steps>_steps.zip to evaluate")
    rows = []
    for step, path in found:
        model = load_model(path)

        def hero(s, model=model):
            return PolicyAgent(model=model, seed=s)

        for opponent in opponents:
            start = time.perf_counter()
            other = factory_from_spec(opponent, env_name)
            summary = summarize(evaluate_seat(game, hero, hero, other, games=games, seed=seed))
            rows.append({"step": step, "opponent": opponent, **_summary_row(summary),
                         "seconds": round(time.perf_counter() - start, 2)})
    out = run / "eval.csv"
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    return out


def _summary_row(summary) -> dict[str, float]:
    return {"games": summary.n, "win": summary.win.value, "win_low": summary.win.low,
            "win_high": summary.win.high, "mean_reward": summary.mean_reward.value,
            "mean_reward_low": summary.mean_reward.low,
            "mean_reward_high": summary.mean_reward.high}


def read_eval(run: Path) -> dict[str, list[dict[str, float]]]:
    """Rows of ``run/eval.csv`` per opponent, numbers as floats, sorted by step."""
    path = Path(run) / "eval.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no eval.csv in {run}")
    by_opponent: dict[str, list[dict[str, float]]] = {}
    with path.open() as f:
        for row in csv.DictReader(f):
            opponent = row.pop("opponent")
            by_opponent.setdefault(opponent, []).append({k: float(v) for k, v in row.items()})
    for rows in by_opponent.values():
        rows.sort(key=lambda r: r["step"])
    return by_opponent


def find_runs(root: Path) -> dict[str, list[Path]]:
    """``{condition: [run, ...]}`` for every ``root/<condition>/<run>/eval.csv``."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"runs folder {root} does not exist")
    runs: dict[str, list[Path]] = {}
    for path in sorted(root.glob("*/*/eval.csv")):
        runs.setdefault(path.parent.parent.name, []).append(path.parent)
    return runs


def seed_band(runs: Sequence[Path], opponent: str, metric: str = "win"
              ) -> tuple[list[float], list[Interval]]:
    """Steps evaluated in every run and, per step, the mean of ``metric`` over the runs with a
    95% interval across runs (seeds are the unit: the spread between seeds is the noise)."""
    tables = [{row["step"]: row[metric] for row in read_eval(run).get(opponent, [])}
              for run in runs]
    if not tables or not all(tables):
        raise ValueError(f"opponent {opponent!r} missing in some of {[str(r) for r in runs]}")
    steps = sorted(set.intersection(*(set(t) for t in tables)))
    return steps, [mean_interval([t[s] for t in tables]) for s in steps]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.curves",
                                     description="Evaluate run checkpoints into RUN/eval.csv.")
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args(argv)
    for run in args.runs:
        print(evaluate_checkpoints(run, games=args.games, seed=args.seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
