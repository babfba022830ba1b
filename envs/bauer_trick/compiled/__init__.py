"""bauer_trick's compiled engine (numba): ``make_vector`` of ``vector``, stepped by ``kernels``."""

from __future__ import annotations

from tablezoo.envs.vector.kernels import drop_stale_cache

drop_stale_cache(__file__)  # before the kernels load: numba's cache misses changes elsewhere

from tablezoo.envs.bauer_trick.compiled.vector import BauerTrickVector, make_vector  # noqa: E402

__all__ = ["BauerTrickVector", "make_vector"]
