"""The heuristic's view of the board: constants, per-cell facts and the nests and tiles decoded
from its own observation (mutable ``Nest`` objects it can try placements on)."""

from __future__ import annotations

from functools import lru_cache
from operator import add

import numpy as np

from tablezoo.envs.bower.actions import PHASES
from tablezoo.envs.bower.components import BONUS_INDEX, END_MAT_LIST, END_UNITS_LIST, NB_FIRST
from tablezoo.envs.bower.geometry import NUM_CELLS
from tablezoo.envs.bower.observation import (
    CH_BRANCH,
    CH_FLAG,
    CH_MAT,
    CH_PINK_TILE,
    CH_TOKEN,
    CH_UNITS,
)

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
ZERO4 = (0,) * 4


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
    and the scoring facts the position value needs, kept up to date as cells change (cheap
    what-if copies). The facts are plain Python ints: per cell (request counts, colour units,
    shells) and their sums per column and over the nest, moved by the difference a changed
    cell makes, so valuing a placement never sums the whole nest again."""

    __slots__ = (
        "branch",
        "cell_colour",
        "cell_flags",
        "cell_req",
        "cell_shells",
        "col_flags",
        "col_req",
        "col_shells",
        "colour",
        "g1",
        "g2",
        "mat",
        "matbits",
        "pink_cells",
        "pinkbits",
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
        self.cell_req = [ZERO8] * NUM_CELLS  # request-slot counts of each cell
        self.cell_colour = [ZERO4] * NUM_CELLS  # colour units of each cell
        self.cell_shells = [0] * NUM_CELLS
        self.col_req = [ZERO8] * 6  # request-slot counts summed over each column
        self.col_shells = [0] * 6
        self.colour = ZERO4  # colour units summed over the nest
        self.shells = 0

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
        n.cell_req = self.cell_req[:]
        n.cell_colour = self.cell_colour[:]
        n.cell_shells = self.cell_shells[:]
        n.col_req = self.col_req[:]
        n.col_shells = self.col_shells[:]
        n.colour = self.colour
        n.shells = self.shells
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
            self._set_facts(cell, ZERO8, ZERO4, 0)
            self.g1 &= keep
            self.g2 &= keep
            self.pinkbits &= keep
            return
        mb[m] |= bit
        t = self.tok
        toks = (t[0] == cell) | (t[1] == cell) << 1 | (t[2] == cell) << 2 | (t[3] == cell) << 3
        units = self.units[cell]
        req, colour, shells, gems = cell_stats(units, toks, self.x_one)
        self._set_facts(cell, req, colour, shells)
        self.g1 = self.g1 | bit if gems >= 1 else self.g1 & keep
        self.g2 = self.g2 | bit if gems >= 2 else self.g2 & keep
        self.pinkbits = self.pinkbits | bit if units[12] else self.pinkbits & keep

    def _set_facts(self, cell: int, req: tuple[int, ...], colour: tuple[int, ...],
                   shells: int) -> None:
        """Store one cell's facts and move the column and nest sums by the change."""
        col = cell % 6
        old = self.cell_req[cell]
        if req != old:
            self.cell_req[cell] = req
            self.col_req[col] = (
                tuple(map(add, self.col_req[col], req)) if old is ZERO8 else
                tuple(s - o + n for s, o, n in zip(self.col_req[col], old, req)))
        old = self.cell_colour[cell]
        if colour != old:
            self.cell_colour[cell] = colour
            self.colour = (
                tuple(map(add, self.colour, colour)) if old is ZERO4 else
                tuple(s - o + n for s, o, n in zip(self.colour, old, colour)))
        old_shells = self.cell_shells[cell]
        if shells != old_shells:
            self.cell_shells[cell] = shells
            self.col_shells[col] += shells - old_shells
            self.shells += shells - old_shells

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


# decoded nests by their planes: a search's playouts decode the same nests again and again
_DECODED: dict[tuple[bytes, bytes, bool], Nest] = {}
DECODED_CAP = 4096  # entries (key and nest about 5 KB: at most about 20 MiB); then afresh


def decode_nest(planes: np.ndarray, col_flags: np.ndarray, x_one: bool = False) -> Nest:
    """A ``Nest`` from one seat's nest planes (channels x 24 cells, ``encoding.CH_*``); a copy
    of the memoised one when these planes were decoded before."""
    key = (planes.tobytes(), col_flags.tobytes(), x_one)
    nest = _DECODED.get(key)
    if nest is None:
        if len(_DECODED) >= DECODED_CAP:
            _DECODED.clear()
        nest = _DECODED[key] = _decode_nest(planes, col_flags, x_one)
    return nest.copy()


def _decode_nest(planes: np.ndarray, col_flags: np.ndarray, x_one: bool) -> Nest:
    """Decode the planes, read once as Python lists (per-cell numpy indexing cost more than
    the decoding itself)."""
    n = Nest(x_one)
    rows = planes.tolist()
    mat_rows = rows[CH_MAT : CH_MAT + 4]
    unit_rows = rows[CH_UNITS : CH_UNITS + NUM_CODES]
    for i in range(NUM_CELLS):
        one_hot = [row[i] for row in mat_rows]
        if max(one_hot) > 0:
            n.mat[i] = one_hot.index(max(one_hot))  # the first maximum, as np.argmax
            n.units[i] = tuple([int(row[i]) for row in unit_rows])
    for k in range(4):
        n.tok[k] = _first(rows[CH_TOKEN + k])
    for o in (0, 1):
        cell = _first(rows[CH_BRANCH + o])
        if cell >= 0:
            n.branch = 2 * cell + o
    n.cell_flags = _bits(rows[CH_FLAG])
    n.pink_cells = _bits(rows[CH_PINK_TILE])
    n.col_flags = _bits(col_flags.tolist())
    for i in range(NUM_CELLS):
        if n.mat[i] >= 0:
            n.refresh(i)
    return n


def _first(row: list[float]) -> int:
    """The first cell with a non-zero value, -1 if none."""
    for i, v in enumerate(row):
        if v:
            return i
    return -1


def _bits(row: list[float]) -> int:
    out = 0
    for i, v in enumerate(row):
        if v:
            out |= 1 << i
    return out
