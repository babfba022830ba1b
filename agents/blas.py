"""One BLAS thread for the numpy networks' small matrix products, whatever the process set up.

A ``trained`` agent multiplies one observation by its weight matrices. OpenBLAS splits a product
that large over all its threads (``ethnos`` 4 players: 2,134 x 256 weights in the first layer),
and waking, spinning and joining them costs far more than the product: on the 2-core machine
with both cores busy, that agent took 6.6 ms a move instead of 0.39 ms. The ``training`` tools
set ``OPENBLAS_NUM_THREADS=1`` before numpy loads, but a script or notebook that imported numpy
first keeps the default of one thread per core. So each forward pass runs under
``threadpoolctl``'s limit of one BLAS thread when the process's BLAS has more, and the process's
own setting is back as soon as the pass ends (about 15 µs a pass; none where BLAS already has
one thread).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

_limit: Callable[[], AbstractContextManager[Any]] | None = None  # decided at the first call


def one_blas_thread() -> AbstractContextManager[Any]:
    """A context in which BLAS uses one thread (a no-op where it already does)."""
    global _limit
    if _limit is None:
        from threadpoolctl import ThreadpoolController

        blas = ThreadpoolController().select(user_api="blas")
        if any(info["num_threads"] > 1 for info in blas.info()):
            _limit = lambda: blas.limit(limits=1)  # noqa: E731
        else:
            _limit = contextlib.nullcontext
    return _limit()
