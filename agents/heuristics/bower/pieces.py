"""The heuristic's view of the board: constants, per-cell facts and the nests and tiles decoded
from its own observation (mutable ``Nest`` objects it can try placements on)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from envs.bower.actions import PHASES
from envs.bower.components import BONUS_INDEX, END_MAT_LIST, END_UNITS_LIST, NB_FIRST
from envs.bower.geometry import NUM_CELLS
from envs.bower.observation import CH_BRANCH, CH_FLAG, CH_MAT, CH_PINK_TILE, CH_TOKEN, CH_UNITS

PHASE = {name: i for i, name in enumerate(PHASES)}
NUM_CODES = 13
# Item codes (components.CODES): 0-3 coloured feathers, 4 white feather, 5-8 coloured flowers,
# 9 white flower, 10 gem, 11 shell, 12 pink shell. Requested codes map to 8 "request slots".
REQ_SLOT = {0: 0, 1: 1, 2: 2, 3: 3, 5: 4, 6: 5, 7: 6, 8: 7}
EMPTY_UNITS = (0,) * NUM_CODES
FULL = (1 << NUM_CELLS) - 1
# Token indices of the observation's token channels / supply: X, white feather, white
# flower, shell, branch.
TOK_X, TOK_WFE, TOK_WFL, TOK_SHELL, TOK_BRANCH = range(5)
TK = [BONUS_INDEX[f"TK{i}"] for i in range(1, 6)]
EB = [BONUS_INDEX[f"EB{i}"] for i in range(1, 6)]
NB = [BONUS_INDEX[f"NB{i}"] for i in range(1, 5)]
SP1, SP2 = BONUS_INDEX["SP1"], BONUS_INDEX["SP2"]
IA1, IA2, IA3, IA4 = (BONUS_INDEX[f"IA{i}"] for i in range(1, 5))


# ---------------------------------------------------------------------- per-cell facts
ZERO8 = (0,) * 8


@lru_cache(maxsize=8192)
def cell_stats(units: tuple[int, ...], toks: int, x_one: bool):
    """Scoring facts of one visible cell: (request counts[8], colour units[4], shells, gems).
    ``toks`` bits: X, white feather, white flower, shell token on this cell."""
    u = list(units)
    if toks & 1:
        if x_one:
            for k in range(10):
                if u[k]:
                    u[k] -= 1
                    break
        else:
            u[0:10] = [0] * 10
    wild_fe, wild_fl = u[4], u[9]
    fe = u[0:4]
    fl = u[5:9]
    if toks & 2:
        wild_fe += sum(fe)
        fe = [0, 0, 0, 0]
    if toks & 4:
        wild_fl += sum(fl)
        fl = [0, 0, 0, 0]
    req = tuple([x + wild_fe for x in fe] + [x + wild_fl for x in fl])
    colour = tuple(a + b for a, b in zip(fe, fl))
    shells = (u[11] + u[12]) * (2 if toks & 8 else 1)
    return req, colour, shells, u[10]


# ---------------------------------------------------------------------- decoded pieces
class Nest:
    """One seat's visible nest: material (-1 empty) and unit counts per cell, tokens, flags,
    and per-cell scoring facts kept up to date as cells change (cheap what-if copies)."""

    __slots__ = (
        "branch",
        "cell_flags",
        "col_flags",
        "colour",
        "g1",
        "g2",
        "mat",
        "matbits",
        "pink_cells",
        "pinkbits",
        "req",
        "shells",
        "tok",
        "units",
        "x_one",
    )

    def __init__(self, x_one: bool = False) -> None:
        self.mat = [-1] * NUM_CELLS
        self.units = [EMPTY_UNITS] * NUM_CELLS
        self.tok = [-1, -1, -1, -1]  # cell of the X / white feather / white flower / shell token
        self.branch = -1  # 2 * cell + orient
        self.cell_flags = 0
        self.col_flags = 0
        self.pink_cells = 0  # cells showing NB4
        self.x_one = x_one
        self.matbits = [0, 0, 0, 0]
        self.g1 = self.g2 = self.pinkbits = 0  # cells with >= 1 gem, 2 gems, a pink shell
        self.req = np.zeros((NUM_CELLS, 8))
        self.colour = np.zeros((NUM_CELLS, 4))
        self.shells = np.zeros(NUM_CELLS)

    def copy(self) -> Nest:
        n = Nest.__new__(Nest)
        n.mat = self.mat[:]
        n.units = self.units[:]
        n.tok = self.tok[:]
        n.branch = self.branch
        n.cell_flags = self.cell_flags
        n.col_flags = self.col_flags
        n.pink_cells = self.pink_cells
        n.x_one = self.x_one
        n.matbits = self.matbits[:]
        n.g1, n.g2, n.pinkbits = self.g1, self.g2, self.pinkbits
        n.req = self.req.copy()
        n.colour = self.colour.copy()
        n.shells = self.shells.copy()
        return n

    @property
    def occ(self) -> int:
        return self.matbits[0] | self.matbits[1] | self.matbits[2] | self.matbits[3]

    def refresh(self, cell: int) -> None:
        """Recompute the facts of ``cell`` from its material, units and tokens."""
        bit = 1 << cell
        keep = ~bit
        mb = self.matbits
        mb[0] &= keep
        mb[1] &= keep
        mb[2] &= keep
        mb[3] &= keep
        m = self.mat[cell]
        if m < 0:
            self.req[cell] = 0
            self.colour[cell] = 0
            self.shells[cell] = 0
            self.g1 &= keep
            self.g2 &= keep
            self.pinkbits &= keep
            return
        mb[m] |= bit
        t = self.tok
        toks = (t[0] == cell) | (t[1] == cell) << 1 | (t[2] == cell) << 2 | (t[3] == cell) << 3
        units = self.units[cell]
        req, colour, shells, gems = cell_stats(units, toks, self.x_one)
        self.req[cell] = req
        self.colour[cell] = colour
        self.shells[cell] = shells
        self.g1 = self.g1 | bit if gems >= 1 else self.g1 & keep
        self.g2 = self.g2 | bit if gems >= 2 else self.g2 & keep
        self.pinkbits = self.pinkbits | bit if units[12] else self.pinkbits & keep

    def put(self, cell: int, end: tuple[int, tuple[int, ...], bool], cover: bool = False) -> None:
        """Show tile end ``(material, units, is_nb4)`` on ``cell``; a cover removes tokens."""
        mat, units, pink = end
        self.mat[cell] = mat
        self.units[cell] = units
        bit = 1 << cell
        self.pink_cells = self.pink_cells | bit if pink else self.pink_cells & ~bit
        if cover:
            for k in range(4):
                if self.tok[k] == cell:
                    self.tok[k] = -1
            if self.branch >= 0 and self.branch >> 1 == cell:
                self.branch = -1
        self.refresh(cell)

    def set_token(self, k: int, cell: int) -> None:
        old = self.tok[k]
        self.tok[k] = cell
        if old >= 0:
            self.refresh(old)
        self.refresh(cell)


Tile = tuple[tuple[int, tuple[int, ...], bool], tuple[int, tuple[int, ...], bool]]


def decode_tile(features: np.ndarray) -> Tile:
    """Both ends of a display/hand/cover row's 34 tile features. NB4 is the only tile with a
    pink shell, so a pink end marks both ends as NB4 cells (they decide the pink columns)."""
    ends = []
    for e in range(2):
        f = features[17 * e : 17 * e + 17]
        ends.append((int(np.argmax(f[:4])), tuple(int(x) for x in f[4:17])))
    pink = any(units[12] > 0 for _mat, units in ends)
    return (ends[0][0], ends[0][1], pink), (ends[1][0], ends[1][1], pink)


def nb_tile(k: int) -> Tile:
    """Tile ends of nest bonus tile NB(k+1), from the public component list."""
    t = NB_FIRST + k
    ends = tuple(
        (END_MAT_LIST[2 * t + e], END_UNITS_LIST[2 * t + e], k == 3) for e in (0, 1)
    )
    return ends[0], ends[1]


def decode_nest(planes: np.ndarray, col_flags: np.ndarray, x_one: bool = False) -> Nest:
    """A ``Nest`` from one seat's nest planes (channels x 24 cells, ``encoding.CH_*``)."""
    n = Nest(x_one)
    mat_planes = planes[CH_MAT : CH_MAT + 4]
    occupied = mat_planes.sum(axis=0) > 0
    mats = np.argmax(mat_planes, axis=0)
    units = planes[CH_UNITS : CH_UNITS + NUM_CODES].T.astype(np.int64)
    for i in np.flatnonzero(occupied):
        i = int(i)
        n.mat[i] = int(mats[i])
        n.units[i] = tuple(int(x) for x in units[i])
    for k in range(4):
        cells = np.flatnonzero(planes[CH_TOKEN + k])
        if cells.size:
            n.tok[k] = int(cells[0])
    for o in (0, 1):
        cells = np.flatnonzero(planes[CH_BRANCH + o])
        if cells.size:
            n.branch = 2 * int(cells[0]) + o
    n.cell_flags = _bits(planes[CH_FLAG])
    n.pink_cells = _bits(planes[CH_PINK_TILE])
    n.col_flags = _bits(col_flags)
    for i in range(NUM_CELLS):
        if n.mat[i] >= 0:
            n.refresh(i)
    return n


def _bits(row: np.ndarray) -> int:
    out = 0
    for i in np.flatnonzero(row):
        out |= 1 << int(i)
    return out


