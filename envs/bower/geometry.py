"""Nest geometry (spec §4): cells, footprints, placements and their legality, precomputed.

A nest is 4 rows x 6 columns; cell ``(r, c)`` has index ``6r + c`` and row 0 touches the bird
board. Occupancy is a 24-bit int, so legality of all 38 footprints is a few bit operations; the
resulting 76-entry placement masks are cached per occupancy because the same occupancies recur
across games (this is the hot spot of ``legal_mask``).
"""

from __future__ import annotations

import numpy as np

ROWS, COLS = 4, 6
NUM_CELLS = ROWS * COLS
NUM_FOOTPRINTS = 38
NUM_PLACEMENTS = 2 * NUM_FOOTPRINTS

# Footprint f -> (first cell, second cell). Horizontal f = 5r + c, vertical f = 20 + 6r + c.
FOOTPRINTS: list[tuple[int, int]] = []
for _r in range(ROWS):
    for _c in range(COLS - 1):
        FOOTPRINTS.append((6 * _r + _c, 6 * _r + _c + 1))
for _r in range(ROWS - 1):
    for _c in range(COLS):
        FOOTPRINTS.append((6 * _r + _c, 6 * (_r + 1) + _c))
assert len(FOOTPRINTS) == NUM_FOOTPRINTS

# Orthogonal neighbours of each cell.
NEIGHBOURS: list[tuple[int, ...]] = []
for _i in range(NUM_CELLS):
    _r, _c = divmod(_i, COLS)
    _n = []
    for _dr, _dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        _rr, _cc = _r + _dr, _c + _dc
        if 0 <= _rr < ROWS and 0 <= _cc < COLS:
            _n.append(6 * _rr + _cc)
    NEIGHBOURS.append(tuple(_n))

FP_BITS: list[int] = [(1 << a) | (1 << b) for a, b in FOOTPRINTS]
# Cells orthogonally adjacent to the footprint (outside it): an occupied one gives contact.
FP_CONTACT: list[int] = []
FP_ROW0: list[bool] = []
for _a, _b in FOOTPRINTS:
    _bits = 0
    for _x in (_a, _b):
        for _n in NEIGHBOURS[_x]:
            _bits |= 1 << _n
    FP_CONTACT.append(_bits & ~((1 << _a) | (1 << _b)))
    FP_ROW0.append(_a < COLS or _b < COLS)


def placement_cells(p: int) -> tuple[int, int]:
    """The cells that receive ``cells[0]`` and ``cells[1]`` of a tile placed with id ``p``."""
    a, b = FOOTPRINTS[p >> 1]
    return (a, b) if p & 1 == 0 else (b, a)


PLACEMENT_CELLS: list[tuple[int, int]] = [placement_cells(p) for p in range(NUM_PLACEMENTS)]


def cell_name(cell: int) -> str:
    return f"({cell // COLS},{cell % COLS})"


def placement_name(p: int) -> str:
    f, o = divmod(p, 2)
    a, b = FOOTPRINTS[f]
    kind = "H" if f < 20 else "V"
    return f"{kind}{cell_name(a)}-{cell_name(b)}{'~' if o else ''}"


def legal_footprint(occ: int, f: int) -> bool:
    """§4: both cells empty and one of them in row 0 or next to an occupied cell."""
    if occ & FP_BITS[f]:
        return False
    return FP_ROW0[f] or bool(occ & FP_CONTACT[f])


_FP_BITS_NP = np.array(FP_BITS, np.int64)
_FP_CONTACT_NP = np.array(FP_CONTACT, np.int64)
_FP_ROW0_NP = np.array(FP_ROW0, bool)
_place_cache: dict[int, np.ndarray] = {}
_any_cache: dict[int, bool] = {}
_cover_cache: dict[int, np.ndarray] = {}
# Bounded so a long run's RSS plateaus within a few MB (issue 10: the soak measures it); the
# occupancies that recur most are re-cached within a few games after a clear.
_CACHE_LIMIT = 1 << 12


def placement_mask(occ: int) -> np.ndarray:
    """Bool[76]: placements legal for a normal play on a nest with occupancy ``occ`` (cached).

    Vectorized over the 38 footprints (§4: both cells empty, and row 0 or an occupied
    neighbour). The returned array is shared: never modify it.
    """
    m = _place_cache.get(occ)
    if m is None:
        free = (_FP_BITS_NP & occ) == 0
        legal = free & (_FP_ROW0_NP | ((_FP_CONTACT_NP & occ) != 0))
        m = np.repeat(legal, 2)
        m.flags.writeable = False
        if len(_place_cache) >= _CACHE_LIMIT:
            _place_cache.clear()
            _any_cache.clear()
        _place_cache[occ] = m
        _any_cache[occ] = bool(legal.any())
    return m


def has_placement(occ: int) -> bool:
    """Whether any normal placement is legal (cached as a plain bool: no numpy call)."""
    found = _any_cache.get(occ)
    if found is None:
        placement_mask(occ)
        found = _any_cache[occ]
    return found


def cover_mask(occ: int) -> np.ndarray:
    """Bool[76]: COVER placements (both cells occupied, any orientation), cached."""
    m = _cover_cache.get(occ)
    if m is None:
        m = np.repeat((_FP_BITS_NP & occ) == _FP_BITS_NP, 2)
        m.flags.writeable = False
        if len(_cover_cache) >= _CACHE_LIMIT:
            _cover_cache.clear()
        _cover_cache[occ] = m
    return m


def branch_ends(cell: int, orient: int) -> tuple[int, int] | None:
    """§5.3 TK5: the two end positions of a branch on ``cell`` (o 0 horizontal, 1 vertical),
    or None if one end falls outside the grid."""
    r, c = divmod(cell, COLS)
    if orient == 0:
        if 1 <= c <= COLS - 2:
            return cell - 1, cell + 1
        return None
    if 1 <= r <= ROWS - 2:
        return cell - COLS, cell + COLS
    return None


BRANCH_ENDS: list[tuple[int, int] | None] = [
    branch_ends(i // 2, i % 2) for i in range(2 * NUM_CELLS)
]
