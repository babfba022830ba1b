"""Bower's flat action table (spec §8) and observation layout.

Actions: one ``Discrete(648)`` space shared by every decision; the mask says which ids the
current decision allows. Observation: seat-relative ("me" first) float32 pieces declared once in
``OBS_SPEC``; ``envs.bower.rules.BowerState.observe`` writes them.
"""

from __future__ import annotations

from envs.bower.components import BONUS_IDS, CODES, MATERIALS, NUM_BONUS, NUM_EGGS, NUM_TILES
from envs.bower.geometry import NUM_CELLS, NUM_PLACEMENTS, cell_name, placement_name
from envs.core.obs_spec import ObsPiece, ObsSpec

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


# --- observation ----------------------------------------------------------------------------
# Per-cell channels of the nest planes.
CH_MAT = 0  # 4 one-hot materials (straw, moss, gravel, earth)
CH_UNITS = 4  # 13 item-code unit counts (order of components.CODES)
CH_TOKEN = 17  # X, white feather, white flower, shell tokens on this cell
CH_BRANCH = 21  # branch base here: horizontal, vertical
CH_FLAG = 23  # cell flagged by a group trigger
CH_COVERED = 24  # a covered tile lies under the visible one
CH_PINK_TILE = 25  # the visible cell belongs to NB4 (pink-shell tile)
NEST_CHANNELS = 26

TILE_FEATURES = 2 * (len(MATERIALS) + len(CODES))  # both ends: material one-hot + unit counts

PHASES: tuple[str, ...] = (
    "draft", "take", "play", "bonus", "keep", "spy", "token", "branch",
    "cover_ask", "cover", "force", "double_ask", "discard_ask", "opp_discard", "hand", "over",
)  # fmt: skip
NUM_PHASES = len(PHASES)

SCALARS: tuple[str, ...] = (
    "my_turns/12", "opp_turns/12", "my_hand_limit/5", "opp_hand_limit/5", "stack_size/36",
    "bonus_deck/20", "bonus_discard/20", "my_extra_turn", "opp_extra_turn", "my_swap_owed",
    "opp_swap_owed", "i_started", "my_turn", "i_act", "game_over", "conditions_met",
)  # fmt: skip

OBS_SPEC = ObsSpec(
    [
        ObsPiece(
            "nests",
            (2, NEST_CHANNELS, 4, 6),
            "visible nest cells, [me, opponent] x channel x row x column; channels: 0-3 "
            "material one-hot (straw, moss, gravel, earth), 4-16 unit counts of fe-red, "
            "fe-yellow, fe-blue, fe-purple, fe-white, fl-red, fl-yellow, fl-blue, fl-purple, "
            "fl-white, gem, shell, shell-pink, 17-20 X / white-feather / white-flower / shell "
            "token, 21-22 branch base horizontal / vertical, 23 cell flagged, 24 covered tile "
            "below, 25 cell of NB4",
            high=3.0,
        ),
        ObsPiece("column_flags", (2, 6), "column flagged by a gem trigger, [me, opponent]"),
        ObsPiece("egg_owner", (2, 6), "column's request egg belongs to [me, opponent] (public)"),
        ObsPiece(
            "column_eggs",
            (6, NUM_EGGS),
            "one-hot E1-E8 of each column's egg when I know it (mine, spied, or game over)",
        ),
        ObsPiece(
            "removed_eggs", (NUM_EGGS,), "multi-hot of the 2 removed eggs when I know them (SP2)"
        ),
        ObsPiece("spied_columns", (2, 6), "columns looked at with SP1 by [me, opponent]"),
        ObsPiece(
            "display",
            (3, 1 + TILE_FEATURES),
            "display slots: present, then per end (cells[0], cells[1]) 4 material one-hot + "
            "13 unit counts",
            high=3.0,
        ),
        ObsPiece(
            "hands",
            (2, 6, 2 + TILE_FEATURES),
            "hand slots of [me, opponent]: present, forced, tile features as in display "
            "(opponent's features zero when hands_public=False)",
            high=3.0,
        ),
        ObsPiece(
            "cover_tile",
            (1 + TILE_FEATURES,),
            "the revealed stack tile awaiting a COVER placement: present + tile features",
            high=3.0,
        ),
        ObsPiece(
            "bonus_draw",
            (3, NUM_BONUS),
            "one-hot bonus ids of the tiles I drew and must KEEP one of (empty for the opponent)",
        ),
        ObsPiece("bonus_kept", (2, NUM_BONUS), "bonus tiles kept by [me, opponent] (public)"),
        ObsPiece(
            "bonus_my_discards",
            (NUM_BONUS,),
            "bonus tiles I put face down on the discard pile (still there)",
        ),
        ObsPiece(
            "token_supply", (5,), "X, white feather, white flower, shell, branch token unused"
        ),
        ObsPiece(
            "discarded_tiles",
            (NUM_TILES,),
            "nest tiles discarded face up (T01-T36, NB1-NB4)",
        ),
        ObsPiece(
            "covered_tiles",
            (NUM_TILES,),
            "nest tiles (T01-T36, NB1-NB4) with a cell hidden under a Cover tile, either nest",
        ),
        ObsPiece(
            "effect",
            (NUM_BONUS,),
            "one-hot id of the kept bonus tile whose effect is being decided now (public)",
        ),
        ObsPiece("phase", (NUM_PHASES,), "current decision: " + ", ".join(PHASES)),
        ObsPiece("scalars", (len(SCALARS),), "; ".join(SCALARS)),
    ]
)
OBS_SIZE = OBS_SPEC.size

__all__ = [
    "ACCEPT",
    "BONUS_IDS",
    "BRANCH",
    "COLUMN",
    "COVER",
    "DISPLAY",
    "HAND",
    "KEEP",
    "NUM_ACTIONS",
    "OBS_SPEC",
    "PASS",
    "PHASES",
    "PLAY",
    "TARGET",
    "action_name",
]
