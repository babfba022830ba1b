"""bauer_draft_v0 — Bauer – The Card Game: simultaneous card drafting for 2-5 players.

Rules: our specification, from the original Japanese rules summary (README.md beside this); the
card list is the spec's own composition in ``cards.json`` (replaceable by the published list). Each
round every seat draws 3 cards from the pile in front of it, secretly keeps 1 (2 with Ville) and
passes 2 onto the left neighbour's pile; the kept cards are revealed and the Day characters'
effects resolve (Uggel-Guggel, Witch, Brother Martin, Olle, Daga, Yule Goat, Bella, Adventure Boy,
Humpe, Ville, Toyvik). 10 rounds (8 with 5 players), then Events, Journeys, Dangers, themes,
quests and Night prizes score.

- Agents: ``player_0`` .. ``player_{n-1}``; ``acting_players()`` is every seat at the select step
  and the one deciding seat during effects (the parallel env gives the others only ``NOOP``).
- Actions: 227 ids (play / play via Daga / Daga discard / copy, per card; no Ville; Witch left,
  right, none; Daga keep; copy later; do not copy) + ``NOOP`` in the parallel env.
- Observation: 18 seat-relative pieces (hand, tableaux with others' Night cards hidden, Night
  counts and how each seat's Night cards were played, copies, discards, remembered passes, round,
  sizes, decision kind, ...).
- Options: ``num_players`` (2-5, default 4), ``reward`` (``rank`` default, ``score``, ``margin``).
- Every (assumed) rule, the option/observation/action tables and the version history (v0) are in
  ``envs/bauer_draft/README.md``.
"""

from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

__all__ = ["BauerDraftGame", "BauerDraftState"]
