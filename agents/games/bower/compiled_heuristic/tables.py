"""The numbers the compiled bower heuristic reads: observation offsets, bonus tile and action
ids, board bitboards, and the heuristic's tanh/exp terms tabulated by Python itself.

The Python heuristic takes its column terms from ``numpy.tanh`` and its material and egg tile
terms and request weights from the ``math`` module; numba's functions may differ from those in
the last bit, so every such term the position value can meet is computed here, in Python, the
way the agent computes it, and the kernels look it up: the tables span every difference and count
a nest can show (checked here against the components)."""

from __future__ import annotations

import math

import numpy as np

from tablezoo.agents.games.bower.heuristic.pieces import EB, NB, REQ_SLOT, TK
from tablezoo.envs.bower import actions as act
from tablezoo.envs.bower.actions import PHASES
from tablezoo.envs.bower.components import (
    BONUS_INDEX,
    EGG_CODES,
    END_MAT_LIST,
    END_UNITS_LIST,
    NB_FIRST,
    NUM_BONUS,
)
from tablezoo.envs.bower.geometry import (
    BRANCH_ENDS,
    FOOTPRINTS,
    FP_BITS,
    FP_CONTACT,
    FP_ROW0,
    NUM_CELLS,
    NUM_PLACEMENTS,
    PLACEMENT_CELLS,
)
from tablezoo.envs.bower.observation import (
    CH_BRANCH,
    CH_FLAG,
    CH_MAT,
    CH_PINK_TILE,
    CH_TOKEN,
    CH_UNITS,
    NEST_CHANNELS,
    OBS_SPEC,
)
from tablezoo.envs.bower.scoring import COLUMN_BITS, FULL

# ---------------------------------------------------------------------- observation
OFF = OBS_SPEC.offsets
OBS_SIZE = OBS_SPEC.size
O_NESTS, O_COL_FLAGS, O_COL_EGGS = OFF["nests"], OFF["column_flags"], OFF["column_eggs"]
O_REMOVED, O_DISPLAY, O_HANDS = OFF["removed_eggs"], OFF["display"], OFF["hands"]
O_COVER, O_DRAW, O_KEPT = OFF["cover_tile"], OFF["bonus_draw"], OFF["bonus_kept"]
O_SUPPLY, O_EFFECT, O_PHASE = OFF["token_supply"], OFF["effect"], OFF["phase"]
O_SCALARS = OFF["scalars"]
NEST_OBS = NEST_CHANNELS * NUM_CELLS  # one seat's planes
TILE_FEATURES = 34
DISPLAY_ROW = 1 + TILE_FEATURES  # present, tile features
HAND_ROW = 2 + TILE_FEATURES  # present, forced, tile features
HAND_SLOTS = 6
CHANNELS = (CH_MAT, CH_UNITS, CH_TOKEN, CH_BRANCH, CH_FLAG, CH_PINK_TILE)
NUM_PHASES = len(PHASES)
PH = {name: i for i, name in enumerate(PHASES)}

# ---------------------------------------------------------------------- ids
NUM_ACTIONS = act.NUM_ACTIONS
DISPLAY, PLAY, PASS, ACCEPT, KEEP = act.DISPLAY, act.PLAY, act.PASS, act.ACCEPT, act.KEEP
COLUMN, TARGET, BRANCH, COVER, HAND = act.COLUMN, act.TARGET, act.BRANCH, act.COVER, act.HAND
NUM_CODES = 13
# a bonus id's kind for ``_bonus_value``: 0 none, 1 egg tile, 2 nest tile, 3 token, then the
# specials; and its number within its kind (EB k, NB k, TK k)
B_NONE, B_EB, B_NB, B_TK, B_SP1, B_SP2, B_IA1, B_IA2, B_IA3, B_IA4 = range(10)
BONUS_KIND = np.zeros(NUM_BONUS, np.int64)
BONUS_NUM = np.zeros(NUM_BONUS, np.int64)
for _kind, _ids in ((B_EB, EB), (B_NB, NB), (B_TK, TK)):
    for _k, _b in enumerate(_ids):
        BONUS_KIND[_b], BONUS_NUM[_b] = _kind, _k
for _name, _kind in (("SP1", B_SP1), ("SP2", B_SP2), ("IA1", B_IA1), ("IA2", B_IA2),
                     ("IA3", B_IA3), ("IA4", B_IA4)):
    BONUS_KIND[BONUS_INDEX[_name]] = _kind
EB_IDS = np.array(EB, np.int64)
TK_IDS = np.array(TK, np.int64)
EGG_SLOT = np.array([REQ_SLOT[code] for code in EGG_CODES], np.int64)
NUM_EGGS = len(EGG_CODES)
# NB(k+1)'s two ends: [k, end, material + 13 units + pink]
NB_TILES = np.zeros((4, 2, 15), np.int64)
for _k in range(4):
    for _e in range(2):
        _t = 2 * (NB_FIRST + _k) + _e
        NB_TILES[_k, _e, 0] = END_MAT_LIST[_t]
        NB_TILES[_k, _e, 1:14] = END_UNITS_LIST[_t]
        NB_TILES[_k, _e, 14] = _k == 3

# ---------------------------------------------------------------------- board
CELLS = NUM_CELLS
PLACEMENTS = NUM_PLACEMENTS
NUM_FOOTPRINTS = len(FOOTPRINTS)
PL_CELLS = np.array(PLACEMENT_CELLS, np.int64)
FPB = np.array(FP_BITS, np.int64)
FPC = np.array(FP_CONTACT, np.int64)
FPR = np.array(FP_ROW0, np.bool_)
BR_ENDS = np.array([(-1, -1) if e is None else e for e in BRANCH_ENDS], np.int64)
COL_BITS = np.array(COLUMN_BITS, np.int64)
FULL_BITS = FULL

# ---------------------------------------------------------------------- a nest as one row
# mat[24] (-1 empty), units[24 x 13], tokens[4] (cell or -1), branch (2 cell + o or -1), the
# flagged cells, flagged columns and NB4 cells (bitboards)
N_MAT, N_UNITS = 0, CELLS
N_TOK = N_UNITS + CELLS * NUM_CODES
N_BRANCH, N_CELL_FLAGS, N_COL_FLAGS, N_PINK_CELLS = N_TOK + 4, N_TOK + 5, N_TOK + 6, N_TOK + 7
NEST_LEN = N_TOK + 8
# a nest's statistics as one row: largest groups, request counts per column and slot, shells
# per column, colour units, shells, a pink shell, the pink columns (bits), a newly met gem
# condition, odd empty regions; then the bitboards they came from (cells of each material, with
# a gem, with two, with a pink shell), from which a changed nest's row is made
S_SIZES, S_REQ, S_COL_SHELLS, S_COLOUR = 0, 3, 51, 57
S_SHELLS, S_PINK, S_PINK_COLS, S_NEW, S_ODD = 61, 62, 63, 64, 65
S_MATBITS, S_G1, S_G2, S_PINKBITS = 66, 70, 71, 72
STATS_LEN = 73
# one cell's facts: request counts [8], colour units [4], shells, gems, a pink shell
F_REQ, F_COLOUR, F_SHELLS, F_GEMS, F_PINK = 0, 8, 12, 13, 14
FACTS_LEN = 15

# ---------------------------------------------------------------------- the terms
TURNS = 13  # my_turns 0..12 (12 and beyond: the same scales as 11)
# The spans of the tables, checked against the components: a cell shows at most
# ``_UNITS`` feather/flower units (so as many of one request slot or colour) and ``_SHELLS``
# shells, doubled by the shell token.
_UNITS = max(sum(units[:10]) for units in END_UNITS_LIST)
_SHELLS = max(units[11] + units[12] for units in END_UNITS_LIST)
COL_HALF = 40  # column differences in half units (a column: 4 cells)
MAT_HALF = 2 * CELLS + 2  # material differences in half units
EB_SPAN = 4 * CELLS  # egg tile differences (colour units or shells over the nest)
EXP_SPAN = 4 * 8 + 1  # a column's request count
if not (2 * 4 * _UNITS + 1 <= COL_HALF and CELLS * max(_UNITS, 2 * _SHELLS) <= EB_SPAN
        and 4 * _UNITS < EXP_SPAN):
    raise ValueError("bower compiled heuristic: a tile end holds more units than the term "
                     "tables span; widen COL_HALF, EB_SPAN and EXP_SPAN")


def scales(turn: int) -> tuple[float, float, float, float]:
    """(rem, s_col, s_mat, s_eb) as the agent's ``Context`` makes them for ``my_turns``."""
    rem = min(1.0, max(0.0, (12 - turn - 1) / 11.0))
    return rem, 0.6 + 1.6 * rem, 0.7 + 2.3 * rem, 0.6 + 2.0 * rem


def term_tables(read_opponent: float) -> tuple[np.ndarray, ...]:
    """(SCALES [13, 4], TCOL, TMAT, TEB [13, span], EXPW [span]): the terms as
    the agent computes them (numpy's tanh for columns, the math module's for the rest)."""
    sc = np.array([scales(t) for t in range(TURNS)], np.float64)
    tcol = np.empty((TURNS, 2 * COL_HALF + 1))
    tmat = np.empty((TURNS, 2 * MAT_HALF + 1))
    teb = np.empty((TURNS, 2 * EB_SPAN + 1))
    for t in range(TURNS):
        _rem, s_col, s_mat, s_eb = scales(t)
        for i in range(2 * COL_HALF + 1):
            tcol[t, i] = float(np.tanh(float(i - COL_HALF) / 2.0 / s_col))
        for i in range(2 * MAT_HALF + 1):
            tmat[t, i] = math.tanh(float(i - MAT_HALF) / 2.0 / s_mat)
        for i in range(2 * EB_SPAN + 1):
            teb[t, i] = math.tanh((i - EB_SPAN - 0.5) / s_eb)
    expw = np.array([math.exp(read_opponent * float(n)) for n in range(EXP_SPAN)])
    return sc, tcol, tmat, teb, expw
