"""Action table of ``bauer_draft`` (rules spec §9) and the decision kinds that pick its live block.

Actions are one flat ``Discrete(NUM_ACTIONS)`` space; the decision kind (the ``phase`` piece of
the observation, ``State.kind``) says which block is live. Card blocks are indexed by card id
(``cards.json`` order). The core adds ``NOOP = NUM_ACTIONS`` for the parallel env.
"""

from __future__ import annotations

from tablezoo.envs.bauer_draft.components import CARDS, NUM_CARDS

# --- actions ---------------------------------------------------------------------------------
PLAY = 0                        # play card c (also "Ville: play c too" in a Ville sub-step)
DAGA_PLAY = PLAY + NUM_CARDS    # select c, then discard it via Daga and play 2 central cards
DISCARD = DAGA_PLAY + NUM_CARDS  # Daga on play: discard tableau card c
COPY = DISCARD + NUM_CARDS      # copy card c (copy now, or yes to a copy-later offer)
NO_VILLE = COPY + NUM_CARDS     # Ville sub-step: do not use Ville
WITCH_LEFT = NO_VILLE + 1       # every pile moves to the left neighbour (seat i -> i+1)
WITCH_RIGHT = WITCH_LEFT + 1    # every pile moves to the right neighbour (seat i -> i-1)
WITCH_NONE = WITCH_RIGHT + 1
DAGA_KEEP = WITCH_NONE + 1      # Daga on play: discard nothing, keep the ability for later
COPY_LATER = DAGA_KEEP + 1      # copier: copy a later card instead of an earlier one
COPY_DECLINE = COPY_LATER + 1   # copy-later offer: this card is not the copy
NUM_ACTIONS = COPY_DECLINE + 1

_SINGLE_NAMES = {
    NO_VILLE: "no Ville", WITCH_LEFT: "Witch: move piles left", WITCH_RIGHT:
    "Witch: move piles right", WITCH_NONE: "Witch: do not move piles", DAGA_KEEP:
    "Daga: discard nothing (keep for later)", COPY_LATER: "copy a later card",
    COPY_DECLINE: "do not copy this card",
}
_BLOCKS = ((PLAY, "play {}"), (DAGA_PLAY, "play {} via Daga (discard it, play 2 central)"),
           (DISCARD, "Daga: discard {}"), (COPY, "copy {}"))


def action_name(action: int) -> str:
    if action in _SINGLE_NAMES:
        return _SINGLE_NAMES[action]
    for base, text in reversed(_BLOCKS):
        if base <= action < base + NUM_CARDS:
            card = CARDS[action - base]
            return text.format(f"{card.code} {card.name}" if card.kind == 3 else card.code)
    raise ValueError(f"bauer_draft: no action {action}; ids are 0..{NUM_ACTIONS - 1}")


def action_table_markdown() -> str:
    rows = ["| ids | action |", "|---|---|"]
    for base, text in _BLOCKS:
        card = f"card c = id - {base}"
        rows.append(f"| {base}..{base + NUM_CARDS - 1} | {text.format(card)} |")
    for a, text in _SINGLE_NAMES.items():
        rows.append(f"| {a} | {text} |")
    rows.append(f"| {NUM_ACTIONS} | NOOP (parallel env only, added by the core) |")
    return "\n".join(rows)


# --- decision kinds --------------------------------------------------------------------------
KINDS = ("select", "select_ville", "witch", "martin", "olle", "olle_ville", "yule", "yule_ville",
         "daga", "copy_choice", "copy_offer", "over")
(SELECT, SELECT_VILLE, WITCH, MARTIN, OLLE, OLLE_VILLE, YULE, YULE_VILLE, DAGA, COPY_CHOICE,
 COPY_OFFER, OVER) = range(len(KINDS))
