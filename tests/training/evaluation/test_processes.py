"""Worker processes that play side by side run BLAS on one thread (``evaluation/processes.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json
import numpy as np  # first, as a notebook does: OpenBLAS starts with the threads it was given
from threadpoolctl import threadpool_info
from tablezoo.training.evaluation.processes import game_pool

def blas(info):
    return [lib["num_threads"] for lib in info if lib["user_api"] == "blas"]

before = blas(threadpool_info())
with game_pool(2) as pool:
    workers = [blas(f.result()) for f in [pool.submit(threadpool_info) for _ in range(4)]]
print(json.dumps({"before": before, "after": blas(threadpool_info()), "workers": workers}))
"""


def test_pool_workers_run_blas_on_one_thread_and_the_caller_keeps_its_own():
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2",
           "OMP_NUM_THREADS": "2"}
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            env=env, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    if not seen["before"] or max(seen["before"]) < 2:
        pytest.skip(f"this numpy's BLAS runs {seen['before']} threads here: nothing to limit")
    assert len(seen["workers"]) == 4
    assert all(threads and set(threads) == {1} for threads in seen["workers"])
    assert seen["after"] == seen["before"]


@pytest.mark.parametrize("tool", ["evaluation.ladder", "figures.notebook_data"])
def test_ladder_and_notebook_data_play_in_such_pools(tool, monkeypatch):
    import importlib

    from tablezoo.training.evaluation import processes as workers

    module = importlib.import_module(f"tablezoo.training.{tool}")
    made = []

    def recording_pool(count):
        made.append(count)
        return workers.game_pool(count)

    monkeypatch.setattr(module, "game_pool", recording_pool)
    if tool == "evaluation.ladder":
        module.run_ladder("bower_v0", ["random", "heuristic", "trained"], 2, workers=2)
    else:
        module.collect("bower_v0", "random", 8, workers=2)
    assert made == [2]
