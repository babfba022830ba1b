"""Self-play training and evaluation entry points (``python -m training.train`` / ``.evaluate`` /
``.tournament``) and the single-agent gymnasium view they share.

Importing ``training`` needs only numpy and gymnasium; torch, sb3-contrib, openskill and
matplotlib are imported by the modules that use them.
"""

import os

# One BLAS thread: the collector's numpy forward passes are small matrix products, and a
# multi-threaded OpenBLAS on a busy 2-core machine made each one ~200x slower (51 ms instead of
# 0.2 ms, measured). Set before numpy is imported by the entry points (python -m training.*).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

