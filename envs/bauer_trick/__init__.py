"""bauer_trick_v0 — Bauer, the Saarland partnership trick-taking game (Euchre family).

Full documentation (rules summary, every (assumed) rule, options, observation and action tables,
rewards, version history) is in ``envs/bauer_trick/README.md`` and the project README.
"""

from envs.bauer_trick.rules import BauerTrickGame, BauerTrickState

__all__ = ["BauerTrickGame", "BauerTrickState"]
