"""tablezoo environments: ``envs.make(name, **options)`` and ``envs.make_parallel(...)``.

``envs.ENVS`` lists the registered names; each is also a PettingZoo-style module
(``from envs import bower_v0; bower_v0.env()``). Game modules are imported on first use, so
importing ``envs`` stays cheap and one game's import error cannot break the others.
"""

import importlib

from tablezoo.envs.registry import ENVS, VARIANTS, make, make_game, make_parallel

__all__ = ["ENVS", "VARIANTS", "make", "make_game", "make_parallel"]


def __getattr__(name: str):
    """``tablezoo.envs.bower_v0`` and the like, imported on first access."""
    if name in ENVS:
        return importlib.import_module(f"tablezoo.envs.{name}")
    raise AttributeError(f"module 'tablezoo.envs' has no attribute {name!r}")
