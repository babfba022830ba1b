"""The layout of bower's compiled engine: the columns of the position matrix, the options
vector, the phase numbers and the tables (global arrays: compile-time constants to numba), with
the small bit helpers every kernel module uses (groups, placements, tokens).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bower import observation as ob
from tablezoo.envs.bower.components import (
    BONUS_KIND,
    BONUS_TILE,
    EGG_CODES,
    END_GEMS,
    END_MAT,
    END_UNITS,
)
from tablezoo.envs.bower.geometry import (
    BRANCH_ENDS,
    FOOTPRINTS,
    FP_BITS,
    FP_CONTACT,
    FP_ROW0,
    PLACEMENT_CELLS,
)

# --- the position matrix S [B, NCOL] (POS_DTYPE) -----------------------------------------------
# Ordered by use, 16 entries to a 64-byte cache line: the first line holds what checking an
# action reads, the next ones what every step reads; the stack and bonus deck come last.
_COLUMNS = (
    ("PHASE", 1), ("TP", 1), ("ACTOR", 1), ("EFFECT", 1), ("DISPLAY", 3), ("NHAND", 2),
    ("FORCED", 2), ("OCC", 2), ("NDRAWN", 1), ("NSTACK", 1), ("START", 1),
    ("DECISIONS", 1), ("COVER_TILE", 1), ("BORIENT", 1), ("NDECK", 1), ("NDISC", 1), ("NTD", 1),
    ("COND_C", 1), ("COND_X", 1), ("LIMITS", 2), ("TURNS", 2), ("EXTRA", 2), ("OWED", 2),
    ("HANDS", 16),
    ("COLF", 2), ("CELLF", 2), ("SPIEDC", 2), ("SPIEDR", 2), ("NPLACED", 2), ("NKEPT", 2),
    ("GEM1", 2), ("GEM2", 2),
    ("MATB", 8), ("EGGS", 8),
    ("OWNER", 6), ("TOKST", 5), ("TOKSEAT", 5),
    ("TOKCELL", 5), ("DRAWN", 3), ("TOP", 48), ("DEPTH", 48), ("PLACED", 96), ("KEPT", 40),
    ("DISC", 20), ("DISC_BY", 20), ("TD", 40), ("STACK", 36), ("DECK", 20),
)  # fmt: skip
_at = 0
COL: dict[str, int] = {}
for _name, _width in _COLUMNS:
    COL[_name] = _at
    _at += _width
NCOL = -(-_at // 16) * 16  # whole cache lines per row (the last entries unused)
(PHASE, ACTOR, TP, START, EFFECT, DECISIONS, COVER_TILE, BORIENT, NSTACK, NDECK, NDISC, NDRAWN,
 NTD, COND_C, COND_X, EGGS, OWNER, STACK, DISPLAY, HANDS, NHAND, FORCED, LIMITS, TURNS, EXTRA,
 OWED, TOP, DEPTH, OCC, PLACED, NPLACED, COLF, CELLF, DECK, DISC, DISC_BY, KEPT, NKEPT, DRAWN,
 TOKST, TOKSEAT, TOKCELL, SPIEDC, SPIEDR, TD, MATB, GEM1, GEM2) = (COL[n] for n in (
    "PHASE", "ACTOR", "TP", "START", "EFFECT", "DECISIONS", "COVER_TILE", "BORIENT", "NSTACK",
    "NDECK", "NDISC", "NDRAWN", "NTD", "COND_C", "COND_X", "EGGS", "OWNER", "STACK", "DISPLAY",
    "HANDS", "NHAND", "FORCED", "LIMITS", "TURNS", "EXTRA", "OWED", "TOP", "DEPTH", "OCC",
    "PLACED", "NPLACED", "COLF", "CELLF", "DECK", "DISC", "DISC_BY", "KEPT", "NKEPT", "DRAWN",
    "TOKST", "TOKSEAT", "TOKCELL", "SPIEDC", "SPIEDR", "TD", "MATB", "GEM1", "GEM2"))
POS_DTYPE = np.int32  # every entry fits (bit masks have 24 bits); half of int64's cache lines
HAND_STRIDE = 8  # HANDS: seat q's slots at HANDS + 8q (at most 6 used)
MAX_PLACED = 16  # PLACED: seat q's (tile, placement, cover) at PLACED + 48q + 3k
PLACED_STRIDE = 3 * MAX_PLACED

# --- the options vector opts (int64) -----------------------------------------------------------
(O_BONUS_TILES, O_ALTERNATE, O_SWAP, O_FLAG_ALL, O_X_ONE, O_PINK_SCOPE, O_PINK_IN_GROUP,
 O_ZERO_TIE, O_MAT_SHELLS, O_SINGLE, O_BONUS_OPTIONAL, O_HANDS_PUBLIC, O_EGG_DIFF) = range(13)
NUM_OPTS = 13
PINK_TILE_SCOPE, PINK_CELL_SCOPE, PINK_ALL_SCOPE = 0, 1, 2

# phases (``actions.PHASES``)
(DRAFT, TAKE, PLAYP, BONUS, KEEPP, SPY, TOKEN, BRANCHP, COVER_ASK, COVERP, FORCE, DOUBLE_ASK,
 DISCARD_ASK, OPP_DISCARD, HANDP, OVER) = range(16)
# what ``_flow`` does next
DONE, ENTER_PLAY, HAND_CHECK, START_TURN = 0, 1, 2, 3
SUPPLY, PLACED_TOK, REMOVED = 0, 1, 2
TURNS_PER_PLAYER = 12

# --- tables (global arrays are compile-time constants to numba) ---------------------------------
FPB = np.array(FP_BITS, np.int64)
FPC = np.array(FP_CONTACT, np.int64)
FPR0 = np.array(FP_ROW0, np.bool_)
FPCELLS = np.array(FOOTPRINTS, np.int64)
PLCELLS = np.array(PLACEMENT_CELLS, np.int64)
BENDS = np.array([e if e is not None else (-1, -1) for e in BRANCH_ENDS], np.int64)
EMAT = END_MAT.astype(np.int64)
EUNITS = END_UNITS.astype(np.int64)
EGEMS = np.array(END_GEMS, np.int64)
ECODES = np.array(EGG_CODES, np.int64)
KINDS = ("nest", "egg", "spy", "token", "interactive")
BKIND = np.array([KINDS.index(k) for k in BONUS_KIND], np.int64)
NEST_KIND, EGG_KIND, TOKEN_KIND = 0, 1, 3
BTILE = np.array(BONUS_TILE, np.int64)
# TARGET_OK[tok, end]: a TK1-TK4 token may go on a visible cell showing tile end ``end``
TARGET_OK = np.zeros((4, EUNITS.shape[0]), np.bool_)
for _e in range(EUNITS.shape[0]):
    _u = EUNITS[_e]
    TARGET_OK[0, _e] = _u[0:10].sum() > 0
    TARGET_OK[1, _e] = _u[0:5].sum() > 0
    TARGET_OK[2, _e] = _u[5:10].sum() > 0
    TARGET_OK[3, _e] = _u[11] + _u[12] > 0
FULL = (1 << 24) - 1
COL_FIRST = sum(1 << (6 * r) for r in range(4))
COL_LAST = COL_FIRST << 5
COLUMN_BITS = np.array([COL_FIRST << c for c in range(6)], np.int64)

# observation pieces (``observation.OBS_SPEC``) and tables
OBS_SIZE = ob.OBS_SIZE
STATE_SIZE = ob.STATE_SPEC.size
NEST_SIZE = ob.NEST_SIZE
OB_NESTS, OB_COLF, OB_OWNER, OB_EGGS, OB_REMOVED, OB_SPIED = (
    ob.NESTS[0], ob.COL_FLAGS[0], ob.EGG_OWNER[0], ob.COLUMN_EGGS[0], ob.REMOVED[0], ob.SPIED[0])
OB_DISPLAY, OB_HANDS, OB_COVER, OB_DRAW, OB_KEPT, OB_MYDISC = (
    ob.DISPLAY[0], ob.HANDS[0], ob.COVER[0], ob.DRAW[0], ob.KEPT[0], ob.MY_DISCARDS[0])
OB_TOKENS, OB_DISCARDED, OB_COVERED, OB_EFFECT, OB_PHASE, OB_SCALARS = (
    ob.TOKENS[0], ob.DISCARDED[0], ob.COVERED[0], ob.EFFECT[0], ob.PHASE[0], ob.SCALARS_SPAN[0])
DROW, HROW = ob.DISPLAY_ROW, ob.HAND_ROW
CH_TOKEN, CH_BRANCH, CH_FLAG, CH_COVERED, CH_PINK = (
    ob.CH_TOKEN, ob.CH_BRANCH, ob.CH_FLAG, ob.CH_COVERED, ob.CH_PINK_TILE)
NBASE = ob.CH_COVERED  # channels 0..23 of a tile end's base row that a tile end sets (material,
# units); CH_PINK is set separately
CELL_BASE = ob.CELL_BASE.copy()
# a tile end's nonzero nest-plane channels (material, unit counts, NB4): count, channels, values
NZ_N = np.count_nonzero(CELL_BASE[:-1], axis=1).astype(np.int64)
NZ_CH = np.zeros((CELL_BASE.shape[0] - 1, int(NZ_N.max())), np.int64)
NZ_V = np.zeros(NZ_CH.shape, np.float32)
for _e in range(NZ_CH.shape[0]):
    _nz = np.flatnonzero(CELL_BASE[_e])
    NZ_CH[_e, :len(_nz)] = _nz
    NZ_V[_e, :len(_nz)] = CELL_BASE[_e, _nz]
# the same padded to 3 entries (a repeat of the first) with an all-zero row first, for cell
# index ``end + 1`` (0: empty): a nest cell is written with 3 stores and no branch.
# NZP_OFF holds the offsets ``24 * channel`` in a nest's planes.
NZP_OFF = np.zeros((NZ_CH.shape[0] + 1, 3), np.int64)
NZP_V = np.zeros(NZP_OFF.shape, np.float32)
for _e in range(NZ_CH.shape[0]):
    for _k in range(3):
        _j = _k if _k < NZ_N[_e] else 0
        NZP_OFF[_e + 1, _k] = 24 * NZ_CH[_e, _j]
        NZP_V[_e + 1, _k] = NZ_V[_e, _j]
# the index of a single set bit b < 64: CELL_OF_BIT[((b * DEBRUIJN) >> 58) & 63] (a de Bruijn
# sequence: every 6-bit window differs; the product wraps in int64)
DEBRUIJN = 0x03F79D71B4CB0A89
CELL_OF_BIT = np.zeros(64, np.int64)
for _k in range(64):
    CELL_OF_BIT[(((1 << _k) * DEBRUIJN) >> 58) & 63] = _k
DISPLAY_ROWS = ob.DISPLAY_ROWS.copy()
HAND_ROWS = ob.HAND_ROWS.copy()
TILE_ROWS = ob.TILE_FEATURE_ROWS.copy()
_G = ob.STATE_SPEC.offsets
GS_HANDS, GS_EGGS, GS_DRAW, GS_DISC = (
    _G["all_hands"], _G["all_eggs"], _G["all_bonus_draw"], _G["all_bonus_discards"])
GS_STACK, GS_STACK_TOP, GS_DECK, GS_DECK_TOP = (
    _G["stack_tiles"], _G["stack_top"], _G["bonus_deck_tiles"], _G["bonus_deck_top"])



# --- small helpers -----------------------------------------------------------------------------
U = np.uint64  # a row index of this type skips numba's negative-index check (kernels index the
# slot's row ``s = S[i]`` with U(column))


@njit(cache=True)
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def spread(bits):
    return (bits | ((bits << 1) & ~COL_FIRST) | ((bits >> 1) & ~COL_LAST) | (bits << 6)
            | (bits >> 6)) & FULL


@njit(cache=True)
def components(mb, branch, out):
    """The connected groups (bit masks) of the cells ``mb`` into ``out``; their count. A branch
    (``2 * cell + orient``, -1 for none) links its two ends when both lie in ``mb``."""
    if branch >= 0 and BENDS[branch, 0] >= 0:
        return linked_components(mb, 1 << BENDS[branch, 0], 1 << BENDS[branch, 1], out)
    return linked_components(mb, 0, 0, out)


@njit(cache=True)
def linked_components(mb, la, lb, out):
    """``components`` with the branch given as the bits of the two cells it joins (0, 0: none);
    they are linked only when both lie in ``mb``."""
    if (la & mb) == 0 or (lb & mb) == 0:
        la = 0
        lb = 0
    n = 0
    rest = mb
    while rest:
        comp = rest & -rest
        while True:
            grown = spread(comp) & mb
            if la:
                if grown & la:
                    grown |= lb
                if grown & lb:
                    grown |= la
            if grown == comp:
                break
            comp = grown
        out[n] = comp
        n += 1
        rest &= ~comp
    return n


@njit(cache=True)
def has_placement(occ):
    found = False
    for f in range(38):
        if (occ & FPB[f]) == 0 and (FPR0[f] or (occ & FPC[f]) != 0):
            found = True
            break
    return found


@njit(cache=True)
def has_cover(occ):
    found = False
    for f in range(38):
        if (occ & FPB[f]) == FPB[f]:
            found = True
            break
    return found


@njit(cache=True, inline="always")
def branch_code(s, q):
    if s[U(TOKST + 4)] == PLACED_TOK and s[U(TOKSEAT + 4)] == q:
        return 2 * s[U(TOKCELL + 4)] + s[BORIENT]
    return -1


@njit(cache=True, inline="always")
def token_cell(s, tok, q):
    if s[U(TOKST + tok)] == PLACED_TOK and s[U(TOKSEAT + tok)] == q:
        return s[U(TOKCELL + tok)]
    return -1



@njit(cache=True, inline="always")
def token_target_ok(s, tok, seat, cell):
    t = s[U(TOP + 24 * seat + cell)]
    return t >= 0 and TARGET_OK[tok, t]


