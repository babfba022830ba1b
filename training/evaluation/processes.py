"""Process pools that play games side by side, each process running BLAS on one thread.

``tablezoo ladder`` and ``tablezoo.training.figures.notebook_data`` fork their
workers from the caller, so each worker
inherits the caller's BLAS set-up. The ``training`` tools set ``OPENBLAS_NUM_THREADS=1`` before
numpy loads, but a notebook or script that imported numpy first keeps OpenBLAS's thread per core.
Two workers that each split a network's product over both cores of a 2-core machine wait on each
other's threads at every move; the 4-player ethnos model (2,134 x 256 weights in its first layer)
is where that shows. So every worker limits BLAS to one thread (``threadpoolctl``) before it plays.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor


def one_blas_thread() -> None:
    """Worker initializer: BLAS on one thread in this process."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def game_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` processes playing games side by side (BLAS on one thread in each)."""
    return ProcessPoolExecutor(max_workers=workers, initializer=one_blas_thread)
