"""Bower's action table (spec §8): the decisions (phases) and the 648 action ids answering them.

One ``Discrete(648)`` space is shared by every decision; the state's ``phase`` names the decision
asked now and its legal mask says which ids that decision allows.
"""

from __future__ import annotations

from tablezoo.envs.bower.geometry import NUM_CELLS, NUM_PLACEMENTS, cell_name, placement_name

# --- actions (spec §8) ----------------------------------------------------------------------
DISPLAY = 0  # 0-2: display slot
PLAY = 3  # 3 + 76h + p
PASS = 459
ACCEPT = 460
KEEP = 461  # 461-463
COLUMN = 464  # 464-469
TARGET = 470  # 470 + 24s + cell
BRANCH = 518  # 518 + 2 cell + o
COVER = 566  # 566 + p
HAND = 642  # 642-647
NUM_ACTIONS = 648
HAND_SLOTS = 6


def action_name(a: int) -> str:
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"bower: action id {a} outside 0..{NUM_ACTIONS - 1}")
    if a < PLAY:
        return f"DISPLAY {a}"
    if a < PASS:
        h, p = divmod(a - PLAY, NUM_PLACEMENTS)
        return f"PLAY h{h} {placement_name(p)}"
    if a == PASS:
        return "PASS"
    if a == ACCEPT:
        return "ACCEPT"
    if a < COLUMN:
        return f"KEEP {a - KEEP}"
    if a < TARGET:
        return f"COLUMN {a - COLUMN}"
    if a < BRANCH:
        s, cell = divmod(a - TARGET, NUM_CELLS)
        return f"TARGET {'own' if s == 0 else 'other'} {cell_name(cell)}"
    if a < COVER:
        cell, o = divmod(a - BRANCH, 2)
        return f"BRANCH {cell_name(cell)} {'H' if o == 0 else 'V'}"
    if a < HAND:
        return f"COVER {placement_name(a - COVER)}"
    return f"HAND {a - HAND}"


# --- decisions --------------------------------------------------------------------------------
PHASES: tuple[str, ...] = (
    "draft", "take", "play", "bonus", "keep", "spy", "token", "branch",
    "cover_ask", "cover", "force", "double_ask", "discard_ask", "opp_discard", "hand", "over",
)  # fmt: skip
NUM_PHASES = len(PHASES)

# Phases (indices into PHASES).
(
    PH_DRAFT, PH_TAKE, PH_PLAY, PH_BONUS, PH_KEEP, PH_SPY, PH_TOKEN, PH_BRANCH, PH_COVER_ASK,
    PH_COVER, PH_FORCE, PH_DOUBLE_ASK, PH_DISCARD_ASK, PH_OPP_DISCARD, PH_HAND, PH_OVER,
) = range(len(PHASES))  # fmt: skip

__all__ = [
    "ACCEPT",
    "BRANCH",
    "COLUMN",
    "COVER",
    "DISPLAY",
    "HAND",
    "KEEP",
    "NUM_ACTIONS",
    "PASS",
    "PHASES",
    "PLAY",
    "TARGET",
    "action_name",
]
