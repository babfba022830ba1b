"""Produce the small learning-curve runs that notebooks/training.ipynb shows by default.

    nice -n 10 python notebooks/training_runs.py --work /tmp/tablezoo_runs

Three seeds of three conditions on 2-player bauer_draft with ``tablezoo train``
(the league trainer): ``fixed`` (opponents: random and heuristic), ``self_play`` (the same
entries plus the learner and its frozen snapshots, PFSP-weighted) and ``imitation`` (``fixed``
after cloning the heuristic on ``--bc-games`` games). The trainer evaluates the greedy learner
every ``--every`` steps into ``eval.csv``; the small files (eval.csv, config.json, summary.json)
are copied to ``notebooks/data/training_runs/<condition>/seed<k>/``; the models stay in
``--work``. Budgets are small on purpose (a shared 2-core machine): these curves show the
method, not a trained agent's strength.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "notebooks" / "data" / "training_runs"
BASE = ["--env", "bauer_draft_v0", "--env-option", "num_players=2", "--n-envs", "4",
        "--n-steps", "256", "--batch-size", "256", "--n-epochs", "4", "--net-arch", "64,64",
        "--opponent", "random", "--opponent", "heuristic", "--no-progress"]
CONDITIONS = {"fixed": [], "self_play": ["--self-play", "--snapshot-every", "1024"],
              "imitation": ["--bc-games", "200"]}


def one_run(condition: str, seed: int, work: Path, steps: int, every: int, games: int) -> str:
    out = work / condition / f"seed{seed}"
    if out.exists():
        shutil.rmtree(out)
    train = [sys.executable, "-m", "tablezoo.training.cli.selfplay.train", *BASE, *CONDITIONS[condition],
             "--timesteps", str(steps), "--eval-every", str(every), "--eval-games", str(games),
             "--seed", str(seed), "--out", str(out)]
    subprocess.run(train, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    keep = DATA / condition / f"seed{seed}"
    keep.mkdir(parents=True, exist_ok=True)
    for name in ("eval.csv", "config.json", "summary.json"):
        shutil.copy(out / name, keep / name)
    return f"{condition} seed {seed}: done"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="folder for the full runs")
    parser.add_argument("--steps", type=int, default=6144)
    parser.add_argument("--every", type=int, default=1024, help="evaluate every N steps")
    parser.add_argument("--games", type=int, default=40, help="evaluation games per point")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--parallel", type=int, default=3)
    args = parser.parse_args(argv)
    jobs = [(c, s) for s in range(args.seeds) for c in CONDITIONS]
    with ThreadPoolExecutor(max_workers=args.parallel) as pool:
        for line in pool.map(lambda job: one_run(*job, args.work, args.steps, args.every,
                                                 args.games), jobs):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
