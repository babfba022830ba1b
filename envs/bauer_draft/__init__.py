"""bauer_draft_v0 — Bauer – The Card Game: simultaneous drafting for 2-5 players.

Full documentation is in ``envs/bauer_draft/README.md``.
"""

from envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

__all__ = ["BauerDraftGame", "BauerDraftState"]
