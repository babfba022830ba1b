"""A numpy network's forward pass runs BLAS on one thread, and gives the process its own
setting back (``agents/blas.py``): a multi-threaded OpenBLAS made the 4-player ethnos model
about 17x slower a move on a busy 2-core machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
import numpy as np
from threadpoolctl import threadpool_info
from agents.policy import NumpyMLP

def blas_threads():
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

seen = []
class Spy(np.ndarray):  # records the BLAS threads at the moment each product runs
    def __rmatmul__(self, other):
        seen.append(blas_threads())
        return np.matmul(other, self.view(np.ndarray))

rng = np.random.default_rng(0)
mlp = NumpyMLP([rng.random((64, 32), np.float32), rng.random((32, 5), np.float32)],
               [np.zeros(32, np.float32), np.zeros(5, np.float32)])
plain = mlp.logits(rng.random((3, 64), np.float32))
before = blas_threads()
x = rng.random((3, 64), np.float32)
expected = mlp.logits(x)
mlp.weights = [w.view(Spy) for w in mlp.weights]
got = mlp.logits(x)
print(json.dumps({"before": before, "during": seen, "after": blas_threads(),
                  "same": bool(np.array_equal(np.asarray(got), expected))}))
"""


def test_forward_pass_runs_blas_on_one_thread_and_restores_the_setting():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "2",
           "OMP_NUM_THREADS": "2"}
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            env=env, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    if not seen["before"] or max(seen["before"]) < 2:
        import pytest

        pytest.skip(f"this numpy's BLAS runs {seen['before']} threads: nothing to limit")
    assert len(seen["during"]) == 2  # both layers' products went through the spy
    assert all(threads == [1] * len(threads) for threads in seen["during"])
    assert seen["after"] == seen["before"]
    assert seen["same"]
