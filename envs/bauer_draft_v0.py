"""``bauer_draft_v0`` as a PettingZoo-style module: ``env()``, ``raw_env()`` and ``parallel_env()``.

    from tablezoo.envs import bauer_draft_v0
    env = bauer_draft_v0.env(render_mode="ansi")                   # AEC
    par = bauer_draft_v0.parallel_env(illegal_action="random_legal")  # parallel

Each takes ``render_mode``, the env options (``reuse_buffers``, ``illegal_action``) and the
game's options, exactly as ``envs.make("bauer_draft_v0", ...)`` / ``envs.make_parallel``.
"""

from tablezoo.envs.registry import constructors

env, raw_env, parallel_env = constructors("bauer_draft_v0")

__all__ = ["env", "parallel_env", "raw_env"]
