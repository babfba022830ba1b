"""tablezoo environments: ``envs.make(name, **options)``, ``envs.make_parallel(...)`` and
``envs.make_vector(name, num_envs)`` (batched simulation, ``envs.vector``).

``envs.ENVS`` lists the registered names; each is also a PettingZoo-style module
(``from tablezoo.envs import bower_v0; bower_v0.env()``). A game is reached through its record
(``envs.spec(name)``, ``tablezoo.envs.core.spec.GameSpec``); ``envs.register`` adds one.
"""

import importlib
import types

from tablezoo.envs import registry
from tablezoo.envs.registry import (
    SPECS,
    VARIANTS,
    GameSpec,
    make,
    make_game,
    make_parallel,
    make_vector,
    register,
    spec,
    spec_of,
    unregister,
    vector_backends,
)

__all__ = ["ENVS", "SPECS", "VARIANTS", "GameSpec", "make", "make_game", "make_parallel",
           "make_vector", "register", "spec", "spec_of", "unregister", "vector_backends"]


def __getattr__(name: str):
    """``ENVS`` (the registered names, live) and ``tablezoo.envs.bower_v0`` and the like: the
    built-in envs' modules, or for a game registered at run time a module made from its record."""
    if name == "ENVS":
        return registry.ENVS
    if name in SPECS:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
        module = types.ModuleType(name, f"The {name} env's PettingZoo constructors.")
        module.env, module.raw_env, module.parallel_env = registry.constructors(name)
        return module
    raise AttributeError(f"module 'tablezoo.envs' has no attribute {name!r}")
