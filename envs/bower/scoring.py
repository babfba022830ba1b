"""Groups, gem triggers (spec §5.1) and end-game scoring (spec §6) on visible nest cells.

A nest is given as ``top``: 24 ints, the visible tile end of each cell (``2 * tile + end``) or -1
for an empty cell. Tokens are passed as plain cell indices (-1 when absent from this nest), so the
functions here are pure and can be tested on hand-built nests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from envs.bower.components import (
    EARTH,
    END_GEMS,
    END_MAT_LIST,
    END_UNITS_LIST,
    FE_WHITE,
    FL_WHITE,
    MOSS,
    PINK_TILE,
    SHELL,
    SHELL_PINK,
)
from envs.bower.geometry import BRANCH_ENDS, COLS, NEIGHBOURS, NUM_CELLS

MAT_NAMES = ("straw", "moss", "gravel")


def groups(top: Sequence[int], branch: int = -1) -> list[tuple[int, int]]:
    """Maximal same-material groups of visible cells: a list of (material, cell bitmask).

    ``branch`` is ``2 * cell + orient`` of a branch token in this nest (-1 if none); its two ends
    are adjacent when both are visible cells of the same material. Earth never forms groups.
    """
    mats = [END_MAT_LIST[t] if t >= 0 else -1 for t in top]
    extra: dict[int, int] = {}
    if branch >= 0:
        ends = BRANCH_ENDS[branch]
        if ends is not None:
            a, b = ends
            if mats[a] >= 0 and mats[a] != EARTH and mats[a] == mats[b]:
                extra[a] = b
                extra[b] = a
    seen = 0
    out: list[tuple[int, int]] = []
    for start in range(NUM_CELLS):
        m = mats[start]
        if m < 0 or m == EARTH or seen >> start & 1:
            continue
        bits = 1 << start
        seen |= bits
        todo = [start]
        while todo:
            x = todo.pop()
            nbrs = NEIGHBOURS[x]
            if x in extra:
                nbrs = (*nbrs, extra[x])
            for n in nbrs:
                if mats[n] == m and not seen >> n & 1:
                    seen |= 1 << n
                    bits |= 1 << n
                    todo.append(n)
        out.append((m, bits))
    return out


def _cells(bits: int) -> list[int]:
    return [i for i in range(NUM_CELLS) if bits >> i & 1]


def gem_conditions(
    top: Sequence[int], branch: int, col_flags: int, cell_flags: int
) -> tuple[int, int]:
    """§5.1: new (column bits, cell bits) to flag; (0, 0) when no condition is met.

    Column: >= 3 gems (earth included) and not flagged. Group: >= 3 gems, no cell flagged.
    """
    gems = [END_GEMS[t] if t >= 0 else 0 for t in top]
    new_cols = 0
    for c in range(COLS):
        if not col_flags >> c & 1 and gems[c] + gems[c + 6] + gems[c + 12] + gems[c + 18] >= 3:
            new_cols |= 1 << c
    new_cells = 0
    for _m, bits in groups(top, branch):
        if bits & cell_flags:
            continue
        if sum(gems[i] for i in _cells(bits)) >= 3:
            new_cells |= bits
    return new_cols, new_cells


@dataclass
class NestStats:
    """Everything §6 needs from one player's nest (visible cells, tokens applied)."""

    sizes: list[int] = field(default_factory=lambda: [0, 0, 0])
    largest: list[list[int]] = field(default_factory=lambda: [[], [], []])  # bitmasks per mat
    coloured: list[list[int]] = field(default_factory=list)  # [cell][code 0-9] after X and wild
    wild_fe: list[int] = field(default_factory=list)  # per cell
    wild_fl: list[int] = field(default_factory=list)
    shells: list[int] = field(default_factory=list)  # per cell, shell token applied
    pink: bool = False
    pink_cell: int = -1
    pink_tile_cols: list[int] = field(default_factory=list)

    def column_count(self, col: int, code: int) -> int:
        """n(Q, c): coloured units of ``code`` plus wild units of its kind in column ``col``."""
        feather = code < FE_WHITE
        total = 0
        for r in range(4):
            i = 6 * r + col
            total += self.coloured[i][code] + (self.wild_fe[i] if feather else self.wild_fl[i])
        return total

    def column_shells(self, col: int) -> int:
        return sum(self.shells[6 * r + col] for r in range(4))

    def colour_units(self, colour: int) -> int:
        """Coloured feathers + flowers of one colour (0 red .. 3 purple) in the whole nest."""
        return sum(c[colour] + c[5 + colour] for c in self.coloured)

    def total_shells(self) -> int:
        return sum(self.shells)

    def group_shells(self, bits: int) -> int:
        return sum(self.shells[i] for i in _cells(bits))


def nest_stats(
    top: Sequence[int],
    branch: int = -1,
    x_cell: int = -1,
    white_feather_cell: int = -1,
    white_flower_cell: int = -1,
    shell_cell: int = -1,
    x_cancels: str = "cell",
) -> NestStats:
    """Compute one nest's §6 statistics. Token cells are -1 when the token is not in this nest."""
    st = NestStats()
    for m, bits in groups(top, branch):
        size = bits.bit_count()
        if size > st.sizes[m]:
            st.sizes[m] = size
            st.largest[m] = [bits]
        elif size == st.sizes[m]:
            st.largest[m].append(bits)
    for i in range(NUM_CELLS):
        t = top[i]
        if t < 0:
            st.coloured.append([0] * 10)
            st.wild_fe.append(0)
            st.wild_fl.append(0)
            st.shells.append(0)
            continue
        units = list(END_UNITS_LIST[t])
        if i == x_cell:
            if x_cancels == "cell":
                for k in range(10):
                    units[k] = 0
            else:  # "one": one unit of the (single) feather/flower code
                for k in range(10):
                    if units[k]:
                        units[k] -= 1
                        break
        wild_fe = units[FE_WHITE]
        wild_fl = units[FL_WHITE]
        units[FE_WHITE] = units[FL_WHITE] = 0
        if i == white_feather_cell:
            wild_fe += sum(units[0:4])
            units[0:4] = [0, 0, 0, 0]
        if i == white_flower_cell:
            wild_fl += sum(units[5:9])
            units[5:9] = [0, 0, 0, 0]
        st.coloured.append(units[:10])
        st.wild_fe.append(wild_fe)
        st.wild_fl.append(wild_fl)
        shells = units[SHELL] + units[SHELL_PINK]
        st.shells.append(2 * shells if i == shell_cell else shells)
        if units[SHELL_PINK]:
            st.pink = True
            st.pink_cell = i
        if t >> 1 == PINK_TILE and i % COLS not in st.pink_tile_cols:
            st.pink_tile_cols.append(i % COLS)
    st.pink_tile_cols.sort()
    return st


def pink_columns(st: NestStats, scope: str) -> list[int]:
    """§6 pinkcols(Q): columns of NB4's visible cells ("tile"/"all") or of the pink cell."""
    if not st.pink:
        return []
    if scope == "cell":
        return [st.pink_cell % COLS]
    return list(st.pink_tile_cols)


CATEGORIES: tuple[str, ...] = (
    "straw", "moss", "gravel",
    "column_0", "column_1", "column_2", "column_3", "column_4", "column_5",
    "single_item", "EB1", "EB2", "EB3", "EB4", "EB5",
)  # fmt: skip


def empty_breakdown() -> dict[str, float]:
    return {k: 0.0 for k in CATEGORIES}


def final_scores(
    stats: Sequence[NestStats],
    column_codes: Sequence[int],
    egg_tiles: Sequence[Sequence[int]],
    options: dict,
) -> tuple[list[dict[str, float]], int]:
    """§6 steps 1-4: the per-seat breakdown of egg tokens, and the pink seat (-1 if none).

    ``column_codes[c]`` is the item code requested in column c; ``egg_tiles[q]`` lists the EB
    numbers (0 for EB1 .. 4 for EB5) held by seat q.
    """
    out = [empty_breakdown(), empty_breakdown()]
    pink_seat = 0 if stats[0].pink else 1 if stats[1].pink else -1

    # 1. Materials.
    for m in range(3):
        a, b = stats[0].sizes[m], stats[1].sizes[m]
        winner = -1
        if a != b:
            winner = 0 if a > b else 1
        elif a > 0:
            if m == MOSS and pink_seat >= 0:
                ps = stats[pink_seat]
                if options["pink_moss_scope"] == "any" or any(
                    bits >> ps.pink_cell & 1 for bits in ps.largest[MOSS]
                ):
                    winner = pink_seat
            if winner < 0 and options["material_tie"] == "shells_in_group":
                sa = max(stats[0].group_shells(g) for g in stats[0].largest[m])
                sb = max(stats[1].group_shells(g) for g in stats[1].largest[m])
                if sa != sb:
                    winner = 0 if sa > sb else 1
        if winner >= 0:
            out[winner][MAT_NAMES[m]] += 1

    # 2. Columns.
    scope = options["pink_column_scope"]
    pcols = [pink_columns(stats[0], scope), pink_columns(stats[1], scope)]
    for c in range(COLS):
        code = column_codes[c]
        na, nb = stats[0].column_count(c, code), stats[1].column_count(c, code)
        winner = -1
        if na != nb:
            winner = 0 if na > nb else 1
            if options["single_item_bonus"] and min(na, nb) == 0 and max(na, nb) == 1:
                out[winner]["single_item"] += 1
        elif na > 0 or options["column_zero_tie"] == "tiebreak":
            if c in pcols[0]:
                winner = 0
            elif c in pcols[1]:
                winner = 1
            else:
                sa, sb = stats[0].column_shells(c), stats[1].column_shells(c)
                if sa != sb:
                    winner = 0 if sa > sb else 1
                elif scope == "all" and pink_seat >= 0:
                    winner = pink_seat
        if winner >= 0:
            out[winner][f"column_{c}"] += 1

    # 4. Egg bonus tiles: only the holder can gain.
    for q in range(2):
        r = 1 - q
        for eb in egg_tiles[q]:
            if eb < 4:
                gain = stats[q].colour_units(eb) > stats[r].colour_units(eb)
            elif pink_seat >= 0:
                gain = pink_seat == q
            else:
                gain = stats[q].total_shells() > stats[r].total_shells()
            if gain:
                out[q][f"EB{eb + 1}"] += 1
    return out, pink_seat


__all__ = [
    "CATEGORIES",
    "NestStats",
    "empty_breakdown",
    "final_scores",
    "gem_conditions",
    "groups",
    "nest_stats",
    "pink_columns",
]
