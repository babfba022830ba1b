"""The heuristic's position value: nest statistics and the expected egg difference they give
(materials, columns weighted by request probabilities, egg tiles, gems, holes)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from agents.heuristics.bower.pieces import FULL, Nest
from envs.bower.geometry import BRANCH_ENDS, NUM_CELLS
from envs.bower.scoring import COLUMN_BITS, components


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


def nest_stats(n: Nest, gems_matter: bool = True) -> Stats:
    st = Stats()
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
    empty = FULL & ~(matbits[0] | matbits[1] | matbits[2] | matbits[3])
    st.sizes = sizes
    st.req = n.req.reshape(4, 6, 8).sum(axis=0)
    st.col_shells = n.shells.reshape(4, 6).sum(axis=0)
    st.colour = n.colour.sum(axis=0)
    st.shells = float(st.col_shells.sum())
    st.pink = n.pinkbits != 0
    st.pink_cols = (
        {i % 6 for i in range(NUM_CELLS) if n.pink_cells >> i & 1} if st.pink else set()
    )
    st.new_condition = new_condition
    st.gem_potential = potential
    st.odd_regions = _odd_regions(empty)
    return st


# ---------------------------------------------------------------------- position value
class Context:
    """Per-decision facts: request probabilities, egg tiles held, how far the game is."""

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


def _tanh(x: float) -> float:
    return math.tanh(x)


def contest_value(me: Stats, them: Stats, ctx: Context) -> float:
    """Expected egg difference (me minus them) from materials, columns and egg tiles."""
    v = 0.0
    for m in range(3):
        d = me.sizes[m] - them.sizes[m]
        if d == 0 and m == 1 and me.sizes[1] > 0 and (me.pink or them.pink):
            d = 0.5 if me.pink else -0.5
        v += _tanh(d / ctx.s_mat)
    diff = me.req - them.req
    tie = (diff == 0) & (me.req > 0)
    if tie.any():
        tb = np.zeros(6)
        for c in range(6):
            if c in me.pink_cols:
                tb[c] = 0.5
            elif c in them.pink_cols:
                tb[c] = -0.5
            elif me.col_shells[c] != them.col_shells[c]:
                tb[c] = 0.5 if me.col_shells[c] > them.col_shells[c] else -0.5
        diff = diff + tie * tb[:, None]
    v += float((ctx.probs * np.tanh(diff / ctx.s_col)).sum())
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


