"""tablezoo environments: ``envs.make(name, **options)`` and ``envs.make_parallel(...)``.

``envs.ENVS`` lists the registered names. Game modules are imported on first use, so importing
``envs`` stays cheap and one game's import error cannot break the others.
"""

from envs.registry import ENVS, VARIANTS, make, make_game, make_parallel

__all__ = ["ENVS", "VARIANTS", "make", "make_game", "make_parallel"]
