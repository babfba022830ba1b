"""bauer_trick's compiled engine (numba): ``make_vector`` of ``vector``, stepped by ``kernels``."""

from tablezoo.envs.bauer_trick.compiled.vector import BauerTrickVector, make_vector

__all__ = ["BauerTrickVector", "make_vector"]
