"""Groups, gem triggers (spec §5.1) and end-game scoring (spec §6) on visible nest cells.

A nest is given as ``top``: 24 ints, the visible tile end of each cell (``2 * tile + end``) or -1
for an empty cell. Tokens are passed as plain cell indices (-1 when absent from this nest), so the
functions here are pure and can be tested on hand-built nests. At the end the state's outcome
(``compute_final``, its scores, winner and returns by reward mode) is read from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tablezoo.envs.bower.components import (
    BONUS_KIND,
    EB_FIRST,
    EGG_CODES,
    END_GEMS,
    END_MAT_LIST,
    END_UNITS_LIST,
    FE_WHITE,
    FL_WHITE,
    MOSS,
    PINK_TILE,
    SHELL,
    SHELL_PINK,
    TOK_SHELL,
    TOK_WFE,
    TOK_WFL,
    TOK_X,
)
from tablezoo.envs.bower.geometry import BRANCH_ENDS, COLS, NUM_CELLS
from tablezoo.envs.core.game import margin_rewards

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState

MAT_NAMES = ("straw", "moss", "gravel")


FULL = (1 << NUM_CELLS) - 1
COL_FIRST = sum(1 << (6 * r) for r in range(4))  # cells of column 0
COL_LAST = COL_FIRST << (COLS - 1)  # cells of column 5
COLUMN_BITS = tuple(COL_FIRST << c for c in range(COLS))


def _spread(bits: int) -> int:
    """``bits`` plus its orthogonal neighbours (bitboard of the 4x6 nest, cell i = bit i)."""
    return (
        bits
        | ((bits << 1) & ~COL_FIRST)
        | ((bits >> 1) & ~COL_LAST)
        | (bits << COLS)
        | (bits >> COLS)
    ) & FULL


def components(mat_bits: int, link: tuple[int, int] | None = None) -> list[int]:
    """Connected components (bitmasks) of the cells in ``mat_bits``; ``link`` is a pair of cell
    bits joined by a branch token (used only when both lie in ``mat_bits``)."""
    if link is not None and not (link[0] & mat_bits and link[1] & mat_bits):
        link = None
    out = []
    rest = mat_bits
    while rest:
        comp = rest & -rest
        while True:
            grown = _spread(comp) & mat_bits
            if link is not None:
                if grown & link[0]:
                    grown |= link[1]
                if grown & link[1]:
                    grown |= link[0]
            if grown == comp:
                break
            comp = grown
        out.append(comp)
        rest &= ~comp
    return out


def _cells(bits: int) -> list[int]:
    return [i for i in range(NUM_CELLS) if bits >> i & 1]


def branch_link(branch: int) -> tuple[int, int] | None:
    """The two cell bits a branch (``2 * cell + orient``, -1 for none) links, if inside."""
    if branch < 0:
        return None
    ends = BRANCH_ENDS[branch]
    return None if ends is None else (1 << ends[0], 1 << ends[1])


def material_bits(top: Sequence[int]) -> list[int]:
    """Bitmask of visible cells per material (straw, moss, gravel, earth)."""
    bits = [0, 0, 0, 0]
    for i, t in enumerate(top):
        if t >= 0:
            bits[END_MAT_LIST[t]] |= 1 << i
    return bits


def gem_bits(top: Sequence[int]) -> tuple[int, int]:
    """(cells with >= 1 gem, cells with 2 gems): a group's gems = popcounts of both."""
    g1 = g2 = 0
    for i, t in enumerate(top):
        if t >= 0:
            g = END_GEMS[t]
            if g >= 1:
                g1 |= 1 << i
            if g >= 2:
                g2 |= 1 << i
    return g1, g2


def groups(top: Sequence[int], branch: int = -1) -> list[tuple[int, int]]:
    """Maximal same-material groups of visible cells: a list of (material, cell bitmask).

    ``branch`` is ``2 * cell + orient`` of a branch token in this nest (-1 if none); its two ends
    are adjacent when both are visible cells of the same material. Earth never forms groups.
    """
    link = branch_link(branch)
    mats = material_bits(top)
    return [(m, g) for m in range(3) for g in components(mats[m], link)]


def conditions_from_bits(
    mats: Sequence[int], g1: int, g2: int, branch: int, col_flags: int, cell_flags: int
) -> tuple[int, int]:
    """§5.1 on bitboards: new (column bits, cell bits) to flag; (0, 0) when nothing is met.

    Column: >= 3 gems (earth included) and not flagged. Group: >= 3 gems, no cell flagged.
    """
    new_cols = 0
    for c in range(COLS):
        if not col_flags >> c & 1:
            cb = COLUMN_BITS[c]
            if (g1 & cb).bit_count() + (g2 & cb).bit_count() >= 3:
                new_cols |= 1 << c
    new_cells = 0
    if g1.bit_count() + g2.bit_count() >= 3:
        link = branch_link(branch)
        for m in range(3):
            mb = mats[m]
            if (g1 & mb).bit_count() + (g2 & mb).bit_count() < 3:
                continue
            for comp in components(mb, link):
                if not comp & cell_flags and (g1 & comp).bit_count() + (g2 & comp).bit_count() >= 3:
                    new_cells |= comp
    return new_cols, new_cells


def gem_conditions(
    top: Sequence[int], branch: int, col_flags: int, cell_flags: int
) -> tuple[int, int]:
    """§5.1 from a ``top`` array (see ``conditions_from_bits``)."""
    g1, g2 = gem_bits(top)
    return conditions_from_bits(material_bits(top), g1, g2, branch, col_flags, cell_flags)


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


# ---------------------------------------------------------------------- a state's outcome
def compute_final(s: BowerState) -> tuple[list[dict[str, float]], int]:
    """§6 on a finished state: its breakdown and pink seat (cached in ``s._final``)."""
    opts = s.opts
    stats = []
    for q in range(2):
        stats.append(
            nest_stats(
                s.top[q],
                branch=s._branch_code(q),
                x_cell=s._token_cell(TOK_X, q),
                white_feather_cell=s._token_cell(TOK_WFE, q),
                white_flower_cell=s._token_cell(TOK_WFL, q),
                shell_cell=s._token_cell(TOK_SHELL, q),
                x_cancels=opts["x_cancels"],
            )
        )
    codes = [EGG_CODES[s.eggs[c]] for c in range(6)]
    egg_tiles = [[b - EB_FIRST for b in s.kept[q] if BONUS_KIND[b] == "egg"] for q in (0, 1)]
    return final_scores(stats, codes, egg_tiles, opts)


def state_breakdown(s: BowerState) -> list[dict[str, float]]:
    if s._final is None:
        return [empty_breakdown(), empty_breakdown()]
    return [dict(d) for d in s._final[0]]


def state_scores(s: BowerState) -> list[float]:
    """Egg tokens; 0 for both until the end (Bower awards everything at the end)."""
    if s._final is None:
        return [0.0, 0.0]
    return [float(sum(d.values())) for d in s._final[0]]


def state_pink_seat(s: BowerState) -> int:
    """The seat showing the pink shell at the end (-1 if none or not over)."""
    return -1 if s._final is None else s._final[1]


def state_winner(s: BowerState) -> int:
    """§6 step 5: the winning seat, -1 for a draw or before the end."""
    if s._final is None:
        return -1
    a, b = state_scores(s)
    if a != b:
        return 0 if a > b else 1
    return s._final[1]


def state_returns(s: BowerState) -> list[float]:
    """Rewards by the ``reward`` option: +1/-1/0 (``win_loss``) or the egg margin."""
    if s._final is None:
        return [0.0, 0.0]
    if s.opts["reward"] == "egg_diff":
        return margin_rewards(state_scores(s))
    w = state_winner(s)
    if w < 0:
        return [0.0, 0.0]
    return [1.0, -1.0] if w == 0 else [-1.0, 1.0]


__all__ = [
    "CATEGORIES",
    "NestStats",
    "compute_final",
    "empty_breakdown",
    "final_scores",
    "gem_conditions",
    "groups",
    "nest_stats",
    "pink_columns",
    "state_breakdown",
    "state_pink_seat",
    "state_returns",
    "state_scores",
    "state_winner",
]
