"""The heuristic's position value: nest statistics and the expected egg difference they give
(materials, columns weighted by request probabilities, egg tiles, gems, holes)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from tablezoo.agents.games.bower.heuristic.pieces import FULL, Nest
from tablezoo.envs.bower.geometry import BRANCH_ENDS, NUM_CELLS
from tablezoo.envs.bower.scoring import COLUMN_BITS, components


# ---------------------------------------------------------------------- nest statistics
@lru_cache(maxsize=1 << 16)
def _groups(bits: int, link: tuple[int, int] | None) -> tuple[int, ...]:
    """``components`` of one material's cells, cached: a what-if placement changes two cells,
    so most of a nest's material bitboards recur from one evaluation to the next."""
    return tuple(components(bits, link))


@lru_cache(maxsize=1 << 16)
def _odd_regions(empty: int) -> int:
    """Empty regions of odd size (a domino can never fill their last cell)."""
    return sum(1 for comp in components(empty) if comp.bit_count() & 1)


class Stats:
    """What the position value needs from one nest."""

    __slots__ = (
        "col_shells",
        "colour",
        "gem_potential",
        "new_condition",
        "odd_regions",
        "pink",
        "pink_cols",
        "req",
        "shells",
        "sizes",
    )


# the group facts of nests by their bitboards (a search meets the same nests many times);
# about 0.35 KB an entry, so at most about 23 MiB; the memo starts afresh when full
_GROUP_FACTS: dict[tuple, tuple[tuple[int, int, int], bool, float]] = {}
GROUP_FACTS_CAP = 1 << 16


def _group_facts(n: Nest, gems_matter: bool) -> tuple[tuple[int, int, int], bool, float]:
    """The largest group of each material, whether a gem condition is newly met, and the gem
    progress credit: everything of ``nest_stats`` that the cells' bitboards decide."""
    g1, g2 = n.g1, n.g2
    matbits = n.matbits
    link = None
    if n.branch >= 0 and BRANCH_ENDS[n.branch] is not None:
        a, b = BRANCH_ENDS[n.branch]
        link = (1 << a, 1 << b)
    sizes = [0, 0, 0]
    new_condition = False
    potential = 0.0
    for m in range(3):
        for comp in _groups(matbits[m], link):
            size = comp.bit_count()
            if size > sizes[m]:
                sizes[m] = size
            if gems_matter and g1 & comp and not comp & n.cell_flags:
                g = (g1 & comp).bit_count() + (g2 & comp).bit_count()
                if g >= 3:
                    new_condition = True
                else:
                    potential += 0.08 * g
    if gems_matter and g1:
        for c in range(6):
            if not n.col_flags >> c & 1:
                cb = COLUMN_BITS[c]
                g = (g1 & cb).bit_count() + (g2 & cb).bit_count()
                if g >= 3:
                    new_condition = True
                else:
                    potential += 0.12 * g
    return (sizes[0], sizes[1], sizes[2]), new_condition, potential


def nest_stats(n: Nest, gems_matter: bool = True) -> Stats:
    st = Stats()
    matbits = n.matbits
    key = (matbits[0], matbits[1], matbits[2], n.branch, n.g1, n.g2, n.cell_flags,
           n.col_flags, gems_matter)
    groups = _GROUP_FACTS.get(key)
    if groups is None:
        if len(_GROUP_FACTS) >= GROUP_FACTS_CAP:
            _GROUP_FACTS.clear()
        groups = _GROUP_FACTS[key] = _group_facts(n, gems_matter)
    sizes, new_condition, potential = groups
    empty = FULL & ~(matbits[0] | matbits[1] | matbits[2] | matbits[3])
    st.sizes = list(sizes)
    st.req = tuple(n.col_req)
    st.col_shells = tuple(n.col_shells)
    st.colour = n.colour
    st.shells = n.shells
    st.pink = n.pinkbits != 0
    st.pink_cols = (
        {i % 6 for i in range(NUM_CELLS) if n.pink_cells >> i & 1} if st.pink else set()
    )
    st.new_condition = new_condition
    st.gem_potential = potential
    st.odd_regions = _odd_regions(empty)
    return st


# ---------------------------------------------------------------------- position value
# Column-term tables by (s_col, request probabilities), and tanh(diff / s_col) tables by s_col
# (the agent makes 12 values of s_col). Worst case about 36 MiB: 32 tables of 2,048 entries of
# about 0.55 KB; each starts afresh when full, and so does the table of tables.
_COLUMN_TABLES: dict[tuple[float, bytes], tuple[dict, dict]] = {}
COLUMN_TABLES_CAP = 32
COLUMN_TABLE_CAP = 2048
_TANH_TABLES: dict[float, dict[float, float]] = {}
TANH_TABLES_CAP = 64


class Context:
    """Per-decision facts: request probabilities, egg tiles held, how far the game is; and the
    column terms of the position value computed so far (a decision values many placements,
    and each changes at most two columns)."""

    def __init__(self, probs: np.ndarray, eb_mine: list[int], eb_theirs: list[int],
                 remaining: float, bonus_value: float, hole_penalty: float = 0.25):
        self.probs = probs  # (6, 8) P(column c requests slot k)
        self.eb_mine = eb_mine  # EB numbers 0-4 I hold
        self.eb_theirs = eb_theirs
        rem = min(1.0, max(0.0, remaining))
        self.s_col = 0.6 + 1.6 * rem
        self.s_mat = 0.7 + 2.3 * rem
        self.s_eb = 0.6 + 2.0 * rem
        self.rem = rem
        self.bonus_value = bonus_value
        self.hole_penalty = hole_penalty
        # probs is read here once (rows and table key): it must not change afterwards
        self._prob_rows = probs.tolist()
        # the terms depend only on the probabilities and s_col: decisions that share them (the
        # opponent's context, a search's playouts) share one table
        table_key = (self.s_col, probs.tobytes())
        tables = _COLUMN_TABLES.get(table_key)
        if tables is None:
            if len(_COLUMN_TABLES) >= COLUMN_TABLES_CAP:
                _COLUMN_TABLES.clear()
            if len(_TANH_TABLES) >= TANH_TABLES_CAP:
                _TANH_TABLES.clear()
            tables = _COLUMN_TABLES[table_key] = ({}, _TANH_TABLES.setdefault(self.s_col, {}))
        self._column_terms, self._tanh_col = tables

    def column_terms(self, c: int, mine: tuple[int, ...], theirs: tuple[int, ...],
                     me: Stats, them: Stats) -> tuple[float, ...]:
        """``P(column c requests slot k) * tanh(count difference / s_col)`` for the 8 slots;
        a tied slot that I have items of leans to the pink column, then to more shells."""
        key = (c, mine, theirs)
        terms = self._column_terms.get(key)
        if terms is None:
            if len(self._column_terms) >= COLUMN_TABLE_CAP:
                self._column_terms.clear()
            tied = any(m == t and m > 0 for m, t in zip(mine, theirs))
            terms = self._column_terms[key] = _TIED if tied else self._terms(c, mine, theirs)
        if terms is _TIED:  # the lean depends on the pink columns and shells too
            lean = _pink_or_shell_lean(c, me, them)
            key = (c, mine, theirs, lean)
            terms = self._column_terms.get(key)
            if terms is None:
                if len(self._column_terms) >= COLUMN_TABLE_CAP:
                    self._column_terms.clear()
                terms = self._column_terms[key] = self._terms(c, mine, theirs, lean)
        return terms

    def _terms(self, c: int, mine: tuple[int, ...], theirs: tuple[int, ...],
               lean: float = 0.0) -> tuple[float, ...]:
        probs = self._prob_rows[c]
        return tuple(
            probs[k] * self._tanh_of(float(m - t) + lean if m == t and m > 0 else float(m - t))
            for k, (m, t) in enumerate(zip(mine, theirs)))

    def _tanh_of(self, diff: float) -> float:
        """``tanh(diff / s_col)`` as numpy computes it (numpy's tanh and the math module's can
        differ in the last bit, and the heuristic's choices must not change)."""
        t = self._tanh_col.get(diff)
        if t is None:
            t = self._tanh_col[diff] = float(np.tanh(diff / self.s_col))
        return t


# column_terms' mark for a column with a tied slot: its terms depend on the lean too
_TIED: tuple = (None,)


def _tanh(x: float) -> float:
    return math.tanh(x)


def _pink_or_shell_lean(c: int, me: Stats, them: Stats) -> float:
    """How a tied column item leans at scoring: to the pink column, then to more shells."""
    if c in me.pink_cols:
        return 0.5
    if c in them.pink_cols:
        return -0.5
    mine, theirs = me.col_shells[c], them.col_shells[c]
    if mine != theirs:
        return 0.5 if mine > theirs else -0.5
    return 0.0


def contest_value(me: Stats, them: Stats, ctx: Context) -> float:
    """Expected egg difference (me minus them) from materials, columns and egg tiles."""
    v = 0.0
    for m in range(3):
        d = me.sizes[m] - them.sizes[m]
        if d == 0 and m == 1 and me.sizes[1] > 0 and (me.pink or them.pink):
            d = 0.5 if me.pink else -0.5
        v += _tanh(d / ctx.s_mat)
    # The 48 column terms, summed in the order numpy's pairwise sum of the (6, 8) array
    # takes (8 running sums, one per slot, then pairwise), so the value is the same to the bit.
    r0, r1, r2, r3, r4, r5, r6, r7 = ctx.column_terms(0, me.req[0], them.req[0], me, them)
    for c in range(1, 6):
        t = ctx.column_terms(c, me.req[c], them.req[c], me, them)
        r0 += t[0]
        r1 += t[1]
        r2 += t[2]
        r3 += t[3]
        r4 += t[4]
        r5 += t[5]
        r6 += t[6]
        r7 += t[7]
    v += ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    v += _eb_value(me, them, ctx.eb_mine, ctx) - _eb_value(them, me, ctx.eb_theirs, ctx)
    return v


def _eb_value(holder: Stats, other: Stats, tiles: list[int], ctx: Context) -> float:
    v = 0.0
    for eb in tiles:
        if eb < 4:
            d = holder.colour[eb] - other.colour[eb]
        elif holder.pink or other.pink:
            v += 1.0 if holder.pink else 0.0
            continue
        else:
            d = holder.shells - other.shells
        v += 0.5 * (1.0 + _tanh((d - 0.5) / ctx.s_eb))
    return v


def own_extras(me: Stats, ctx: Context) -> float:
    """Terms of my nest alone: a bonus now, gem progress, unfillable holes."""
    v = 0.0
    if me.new_condition:
        v += ctx.bonus_value
    v += ctx.bonus_value * ctx.rem * me.gem_potential
    v -= ctx.hole_penalty * me.odd_regions
    return v


