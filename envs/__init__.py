"""tablezoo environments: ``envs.make(name, **options)``, ``envs.make_parallel(...)`` and
``envs.make_vector(name, num_envs)`` (batched simulation, ``envs.vector``).

``envs.ENVS`` lists the registered names; each is also a PettingZoo-style module
(``from envs import bower_v0; bower_v0.env()``). Game modules are imported on first use, so
importing ``envs`` stays cheap and one game's import error cannot break the others.
"""

import importlib

from tablezoo.envs.registry import (
    ENVS,
    VARIANTS,
    make,
    make_game,
    make_parallel,
    make_vector,
    vector_backends,
)

__all__ = ["ENVS", "VARIANTS", "make", "make_game", "make_parallel", "make_vector",
           "vector_backends"]


def __getattr__(name: str):
    """``tablezoo.envs.bower_v0`` and the like, imported on first access."""
    if name in ENVS:
        return importlib.import_module(f"tablezoo.envs.{name}")
    raise AttributeError(f"module 'tablezoo.envs' has no attribute {name!r}")
