"""Learning curves pooled over seeds, from a folder of training runs.

Every run of ``tablezoo train`` writes ``OUT/eval.csv`` (the greedy learner evaluated
against random and heuristic seats every ``--eval-every`` steps; read by
``tablezoo plot``).
The training notebook compares *conditions* (fixed opponents, a self-play league, an imitation
warm start, ...) over several seeds each, from a folder laid out ``ROOT/<condition>/<run>/``:
``find_runs`` lists it, ``seed_band`` gives per step the mean over the seeds with a 95% interval
across them (the seed is the unit: the spread between seeds is the noise that matters).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tablezoo.training.evaluation.stats import Interval, mean_interval
from tablezoo.training.figures.learning_curve import read_eval

__all__ = ["find_runs", "read_eval", "seed_band"]


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
    95% interval across runs."""
    tables = [{row["step"]: row[metric] for row in read_eval(run).get(opponent, [])}
              for run in runs]
    if not tables or not all(tables):
        raise ValueError(f"opponent {opponent!r} missing in some of {[str(r) for r in runs]}")
    steps = sorted(set.intersection(*(set(t) for t in tables)))
    return steps, [mean_interval([t[s] for t in tables]) for s in steps]
