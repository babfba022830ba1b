"""ethnos' compiled engine (numba): ``make_vector`` of ``vector``, stepped by ``kernels``."""

from tablezoo.envs.ethnos.compiled.vector import EthnosVector, make_vector

__all__ = ["EthnosVector", "make_vector"]
