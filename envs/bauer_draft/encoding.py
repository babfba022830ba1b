"""Action table and observation layout of ``bauer_draft`` (rules spec §9).

Actions are one flat ``Discrete(NUM_ACTIONS)`` space; the decision kind (the ``phase`` piece of
the observation) says which block is live. Card blocks are indexed by card id (``cards.json``
order). The core adds ``NOOP = NUM_ACTIONS`` for the parallel env.
"""

from __future__ import annotations

import numpy as np

from envs.bauer_draft.cards import CARDS, NUM_CARDS
from envs.core.obs_spec import ObsPiece, ObsSpec

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
COPIER_NAMES = ("Princess Bella", "Adventure Boy", "Humpe")
# how a card entered a tableau (public, spec §7: "which effect played it")
PLAYED_BY = ("select", "martin", "olle", "daga", "yule")
BY_SELECT, BY_MARTIN, BY_OLLE, BY_DAGA, BY_YULE = range(len(PLAYED_BY))


# --- observation -----------------------------------------------------------------------------
def build_obs_spec(num_players: int, num_rounds: int) -> ObsSpec:
    """The observation pieces; seats are relative: row 0 is me, row r the r-th seat after me."""
    n, c = num_players, NUM_CARDS
    return ObsSpec([
        ObsPiece("hand", (c,), "cards in my hand: the 3 drawn cards while selecting, or the "
                 "card(s) Brother Martin, Olle or the Yule Goat gave me to choose from"),
        ObsPiece("my_selection", (2, c), "row 0: the card I already chose to play in this "
                 "decision's first sub-step (shown while I answer a Ville sub-step); row 1: "
                 "the same card if chosen via Daga"),
        ObsPiece("tableau", (n, c), "cards I can see in each seat's tableau: all of mine, the "
                 "Day cards of the others (every card once the game is over)"),
        ObsPiece("copies", (n, c), "the card each seat's copier (Bella/Adventure Boy/Humpe) "
                 "copied, where visible (another seat's Humpe target is hidden until the end)"),
        ObsPiece("copiers", (n, 3, 3), "per seat and copier (Bella, Adventure Boy, Humpe) in "
                 "that seat's tableau: one-hot [no choice yet, copy later, copied]"),
        ObsPiece("night_count", (n,), "Night cards in each seat's tableau (a Humpe copy counts)",
                 high=float(c)),
        ObsPiece("night_by", (n, len(PLAYED_BY)), "Night cards in each seat's tableau by how "
                 "they were played (public): " + ", ".join(PLAYED_BY) + " (select = selected "
                 "from the hand, Ville included; a Humpe copy is not counted)", high=float(c)),
        ObsPiece("discards", (c,), "discarded cards (public, face up)"),
        ObsPiece("passed", (n, c), "cards I know were put on a pile (the ones I passed; Ville "
                 "when someone took him back), at the seat whose pile it is now"),
        ObsPiece("daga_available", (n,), "this seat can still use Daga's ability (deferred)"),
        ObsPiece("ville_ready", (n,), "this seat has Ville in its tableau from an earlier round"),
        ObsPiece("round", (num_rounds + 1,), "one-hot round; the last entry is the Yule Goat "
                 "stage after the final round"),
        ObsPiece("pile_size", (n,), "cards in the pile in front of each seat", high=12.0),
        ObsPiece("pile_shift", (n,), "one-hot k: the Witch has moved every pile k seats to the "
                 "left (net) since the deal"),
        ObsPiece("central_size", (1,), "cards left in the central deck", high=float(c)),
        ObsPiece("phase", (len(KINDS),), "one-hot decision kind: " + ", ".join(KINDS)),
        ObsPiece("decider", (n,), "seats that decide now"),
        ObsPiece("focus", (c,), "when I decide an effect: its character card, and the card "
                 "offered to a copy-later copier"),
    ])


def card_codes(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(CARDS[c].code for c in cards) or "-"


DAY_ROW = (~CARDS.night).astype(np.float32)
