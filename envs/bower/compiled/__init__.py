"""bower's compiled engine (numba): ``make_vector`` of ``vector``, stepped by ``kernels``."""

from tablezoo.envs.bower.compiled.vector import BowerVector, make_vector

__all__ = ["BowerVector", "make_vector"]
