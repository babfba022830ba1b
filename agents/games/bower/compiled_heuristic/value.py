"""The heuristic's position value, compiled: a nest decoded from the observation into one int
row, its statistics (``evaluation.nest_stats``) and the value of a pair of nests
(``contest_value`` + ``own_extras``), with the same float operations in the same order.

The Python agent keeps a nest's sums up to date cell by cell and memoises group facts and
column terms; every one of those is an exact integer or a pure function of its key, so
recomputing them here from the nest row gives the same numbers, and the float sums are made
term by term in the agent's order (the 48 column terms in numpy's pairwise order)."""

from __future__ import annotations

from numba import njit

import tablezoo.agents.games.bower.compiled_heuristic.tables as T
from tablezoo.envs.bower.compiled.layout import linked_components

CELLS, NUM_CODES = T.CELLS, T.NUM_CODES
N_MAT, N_UNITS, N_TOK, N_BRANCH = T.N_MAT, T.N_UNITS, T.N_TOK, T.N_BRANCH
N_CELL_FLAGS, N_COL_FLAGS, N_PINK_CELLS = T.N_CELL_FLAGS, T.N_COL_FLAGS, T.N_PINK_CELLS
S_SIZES, S_REQ, S_COL_SHELLS, S_COLOUR = T.S_SIZES, T.S_REQ, T.S_COL_SHELLS, T.S_COLOUR
S_SHELLS, S_PINK, S_PINK_COLS, S_NEW, S_ODD = T.S_SHELLS, T.S_PINK, T.S_PINK_COLS, T.S_NEW, \
    T.S_ODD
S_MATBITS, S_G1, S_G2, S_PINKBITS = T.S_MATBITS, T.S_G1, T.S_G2, T.S_PINKBITS
F_REQ, F_COLOUR, F_SHELLS, F_GEMS, F_PINK = T.F_REQ, T.F_COLOUR, T.F_SHELLS, T.F_GEMS, T.F_PINK
FULL_BITS = T.FULL_BITS
COL_BITS, BR_ENDS = T.COL_BITS, T.BR_ENDS
COL_HALF, MAT_HALF, EB_SPAN, EXP_SPAN = T.COL_HALF, T.MAT_HALF, T.EB_SPAN, T.EXP_SPAN
NEST_OBS, O_NESTS, O_COL_FLAGS = T.NEST_OBS, T.O_NESTS, T.O_COL_FLAGS
CH_MAT, CH_UNITS, CH_TOKEN, CH_BRANCH, CH_FLAG, CH_PINK_TILE = T.CHANNELS
# the per-row numbers: ints [turn, my egg tiles, theirs (bits), gems matter, x cancels one]
I_TURN, I_EB_MINE, I_EB_THEIRS, I_GEMS, I_X_ONE = range(5)
# floats [rem, bonus value (0 without bonus tiles), hole penalty, keep weight, deny weight]
F_REM, F_BONUS, F_HOLE, F_KEEP, F_DENY = range(5)


@njit(cache=True, inline="always")
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# ---------------------------------------------------------------------- decoding
@njit(cache=True)
def decode_nest(o, seat, nest):
    """``pieces.decode_nest`` of ``seat``'s planes in observation row ``o`` into ``nest``."""
    base = O_NESTS + seat * NEST_OBS
    for i in range(CELLS):
        best = 0
        top = o[base + CH_MAT * CELLS + i]
        for m in range(1, 4):
            v = o[base + (CH_MAT + m) * CELLS + i]
            if v > top:
                top, best = v, m
        if top > 0:
            nest[N_MAT + i] = best
            for k in range(NUM_CODES):
                nest[N_UNITS + NUM_CODES * i + k] = int(o[base + (CH_UNITS + k) * CELLS + i])
        else:
            nest[N_MAT + i] = -1
            for k in range(NUM_CODES):
                nest[N_UNITS + NUM_CODES * i + k] = 0
    for k in range(4):
        nest[N_TOK + k] = -1
        for i in range(CELLS):
            if o[base + (CH_TOKEN + k) * CELLS + i] != 0:
                nest[N_TOK + k] = i
                break
    nest[N_BRANCH] = -1
    for orient in range(2):
        for i in range(CELLS):
            if o[base + (CH_BRANCH + orient) * CELLS + i] != 0:
                nest[N_BRANCH] = 2 * i + orient
                break
    flags = 0
    pink = 0
    for i in range(CELLS):
        if o[base + CH_FLAG * CELLS + i] != 0:
            flags |= 1 << i
        if o[base + CH_PINK_TILE * CELLS + i] != 0:
            pink |= 1 << i
    cols = 0
    for c in range(6):
        if o[O_COL_FLAGS + 6 * seat + c] != 0:
            cols |= 1 << c
    nest[N_CELL_FLAGS] = flags
    nest[N_PINK_CELLS] = pink
    nest[N_COL_FLAGS] = cols


@njit(cache=True, inline="always")
def put(nest, cell, end, cover):
    """``Nest.put``: tile end ``end`` (material, 13 units, NB4) shown on ``cell``; a cover
    removes the tokens and the branch based there."""
    nest[N_MAT + cell] = end[0]
    for k in range(NUM_CODES):
        nest[N_UNITS + NUM_CODES * cell + k] = end[1 + k]
    if end[14]:
        nest[N_PINK_CELLS] |= 1 << cell
    else:
        nest[N_PINK_CELLS] &= ~(1 << cell)
    if cover:
        for k in range(4):
            if nest[N_TOK + k] == cell:
                nest[N_TOK + k] = -1
        if nest[N_BRANCH] >= 0 and nest[N_BRANCH] >> 1 == cell:
            nest[N_BRANCH] = -1


# ---------------------------------------------------------------------- statistics
@njit(cache=True, inline="always")
def cell_facts(nest, cell, x_one, f):
    """``pieces.cell_stats`` of ``cell`` into ``f`` (all 0 for an empty cell): its request
    counts, colour units, shells (doubled by the shell token), gems and pink shell."""
    f[:] = 0
    if nest[N_MAT + cell] < 0:
        return
    toks = ((nest[N_TOK] == cell) * 1) | ((nest[N_TOK + 1] == cell) * 2) \
        | ((nest[N_TOK + 2] == cell) * 4) | ((nest[N_TOK + 3] == cell) * 8)
    ub = N_UNITS + NUM_CODES * cell
    u0, u1, u2, u3, u4 = nest[ub], nest[ub + 1], nest[ub + 2], nest[ub + 3], nest[ub + 4]
    u5, u6, u7, u8, u9 = nest[ub + 5], nest[ub + 6], nest[ub + 7], nest[ub + 8], nest[ub + 9]
    if toks & 1:
        if not x_one:
            u0 = u1 = u2 = u3 = u4 = u5 = u6 = u7 = u8 = u9 = 0
        elif u0 != 0:
            u0 -= 1
        elif u1 != 0:
            u1 -= 1
        elif u2 != 0:
            u2 -= 1
        elif u3 != 0:
            u3 -= 1
        elif u4 != 0:
            u4 -= 1
        elif u5 != 0:
            u5 -= 1
        elif u6 != 0:
            u6 -= 1
        elif u7 != 0:
            u7 -= 1
        elif u8 != 0:
            u8 -= 1
        elif u9 != 0:
            u9 -= 1
    wild_fe, wild_fl = u4, u9
    if toks & 2:
        wild_fe += u0 + u1 + u2 + u3
        u0 = u1 = u2 = u3 = 0
    if toks & 4:
        wild_fl += u5 + u6 + u7 + u8
        u5 = u6 = u7 = u8 = 0
    f[F_REQ], f[F_REQ + 1], f[F_REQ + 2], f[F_REQ + 3] = \
        u0 + wild_fe, u1 + wild_fe, u2 + wild_fe, u3 + wild_fe
    f[F_REQ + 4], f[F_REQ + 5], f[F_REQ + 6], f[F_REQ + 7] = \
        u5 + wild_fl, u6 + wild_fl, u7 + wild_fl, u8 + wild_fl
    f[F_COLOUR], f[F_COLOUR + 1], f[F_COLOUR + 2], f[F_COLOUR + 3] = \
        u0 + u5, u1 + u6, u2 + u7, u3 + u8
    f[F_SHELLS] = (nest[ub + 11] + nest[ub + 12]) * (2 if toks & 8 else 1)
    f[F_GEMS] = nest[ub + 10]
    f[F_PINK] = nest[ub + 12] != 0


@njit(cache=True, inline="always")
def _add_cell(st, cell, mat, f, sign):
    """Move ``st``'s sums and bitboards by ``cell``'s facts ``f`` (``sign`` -1 takes them out)."""
    rb = S_REQ + 8 * (cell % 6)
    for k in range(8):
        st[rb + k] += sign * f[F_REQ + k]
    for k in range(4):
        st[S_COLOUR + k] += sign * f[F_COLOUR + k]
    st[S_COL_SHELLS + cell % 6] += sign * f[F_SHELLS]
    st[S_SHELLS] += sign * f[F_SHELLS]
    bit = 1 << cell
    if sign > 0:
        if mat >= 0:
            st[S_MATBITS + mat] |= bit
        if f[F_GEMS] >= 1:
            st[S_G1] |= bit
        if f[F_GEMS] >= 2:
            st[S_G2] |= bit
        if f[F_PINK]:
            st[S_PINKBITS] |= bit
    else:
        for m in range(4):
            st[S_MATBITS + m] &= ~bit
        st[S_G1] &= ~bit
        st[S_G2] &= ~bit
        st[S_PINKBITS] &= ~bit


@njit(cache=True)
def stats(nest, gems_matter, x_one, st, comps, facts):
    """``nest_stats`` of ``nest`` into ``st``, each cell's facts into ``facts`` [24, 15];
    returns the gem progress credit."""
    st[:] = 0
    for cell in range(CELLS):
        cell_facts(nest, cell, x_one, facts[cell])
        _add_cell(st, cell, nest[N_MAT + cell], facts[cell], 1)
    return _groups(nest, gems_matter, st, comps)


@njit(cache=True)
def changed_stats(nest, cells, base, base_facts, gems_matter, x_one, st, comps, f):
    """``nest_stats`` of ``nest``, which differs from the nest of ``base``/``base_facts`` only
    in the cells of bitboard ``cells`` (and perhaps its branch): the sums moved by those cells,
    as the agent's ``Nest`` moves them. Returns the gem progress credit."""
    st[:] = base
    rest = cells
    while rest:
        bit = rest & -rest
        rest &= ~bit
        cell = popcount(bit - 1)
        _add_cell(st, cell, -1, base_facts[cell], -1)
        cell_facts(nest, cell, x_one, f)
        _add_cell(st, cell, nest[N_MAT + cell], f, 1)
    return _groups(nest, gems_matter, st, comps)


@njit(cache=True)
def _groups(nest, gems_matter, st, comps):
    """The rest of ``nest_stats`` from the bitboards in ``st`` (``_group_facts``, the odd
    empty regions, the pink columns): into ``st``; returns the gem progress credit."""
    mb0, mb1, mb2, mb3 = st[S_MATBITS], st[S_MATBITS + 1], st[S_MATBITS + 2], st[S_MATBITS + 3]
    g1, g2, pinkbits = st[S_G1], st[S_G2], st[S_PINKBITS]
    la = lb = 0
    br = nest[N_BRANCH]
    if br >= 0 and BR_ENDS[br, 0] >= 0:
        la, lb = 1 << BR_ENDS[br, 0], 1 << BR_ENDS[br, 1]
    flags = nest[N_CELL_FLAGS]
    new_condition = False
    potential = 0.0
    for m in range(3):
        bits = mb0 if m == 0 else mb1 if m == 1 else mb2
        n = linked_components(bits, la, lb, comps)
        size_max = 0
        for j in range(n):
            comp = comps[j]
            size = popcount(comp)
            if size > size_max:
                size_max = size
            if gems_matter and g1 & comp and not comp & flags:
                g = popcount(g1 & comp) + popcount(g2 & comp)
                if g >= 3:
                    new_condition = True
                else:
                    potential += 0.08 * g
        st[S_SIZES + m] = size_max
    if gems_matter and g1 != 0:
        col_flags = nest[N_COL_FLAGS]
        for c in range(6):
            if not (col_flags >> c) & 1:
                cb = COL_BITS[c]
                g = popcount(g1 & cb) + popcount(g2 & cb)
                if g >= 3:
                    new_condition = True
                else:
                    potential += 0.12 * g
    empty = FULL_BITS & ~(mb0 | mb1 | mb2 | mb3)
    n = linked_components(empty, 0, 0, comps)
    odd = 0
    for j in range(n):
        odd += popcount(comps[j]) & 1
    st[S_ODD] = odd
    st[S_NEW] = new_condition
    st[S_PINK] = pinkbits != 0
    cols = 0
    if pinkbits != 0:
        pc = nest[N_PINK_CELLS]
        for i in range(CELLS):
            if (pc >> i) & 1:
                cols |= 1 << (i % 6)
    st[S_PINK_COLS] = cols
    return potential


# ---------------------------------------------------------------------- the value
# The terms are looked up, the index held inside the table (which spans every value a nest can
# give: ``tables``); a lookup costs nothing beside a call into numba's tanh.
@njit(cache=True, inline="always")
def _tanh_col(tcol, t, d2):
    return tcol[t, min(max(d2 + COL_HALF, 0), 2 * COL_HALF)]


@njit(cache=True, inline="always")
def _tanh_mat(tmat, t, d2):
    return tmat[t, min(max(d2 + MAT_HALF, 0), 2 * MAT_HALF)]


@njit(cache=True, inline="always")
def _eb_value(h, o, tiles, t, teb):
    """``_eb_value``: the egg tiles ``tiles`` (bits of EB1-EB5) held by ``h`` against ``o``."""
    v = 0.0
    for e in range(5):
        if not (tiles >> e) & 1:
            continue
        if e < 4:
            d = h[S_COLOUR + e] - o[S_COLOUR + e]
        elif h[S_PINK] or o[S_PINK]:
            v += 1.0 if h[S_PINK] else 0.0
            continue
        else:
            d = h[S_SHELLS] - o[S_SHELLS]
        v += 0.5 * (1.0 + teb[t, min(max(d + EB_SPAN, 0), 2 * EB_SPAN)])
    return v


@njit(cache=True, inline="always")
def _term(me, them, probs, c, k, lean2, t, tcol):
    m = me[S_REQ + 8 * c + k]
    th = them[S_REQ + 8 * c + k]
    d2 = lean2 if m == th and m > 0 else 2 * (m - th)
    return probs[c, k] * _tanh_col(tcol, t, d2)


@njit(cache=True)
def contest(me, them, probs, eb_me, eb_them, t, tabs):
    """``contest_value``: materials, the 48 column terms (numpy's pairwise order) and egg
    tiles, me minus them."""
    _sc, tcol, tmat, teb = tabs
    v = 0.0
    for m in range(3):
        d2 = 2 * (me[S_SIZES + m] - them[S_SIZES + m])
        if d2 == 0 and m == 1 and me[S_SIZES + 1] > 0 and (me[S_PINK] or them[S_PINK]):
            d2 = 1 if me[S_PINK] else -1
        v += _tanh_mat(tmat, t, d2)
    r0 = r1 = r2 = r3 = r4 = r5 = r6 = r7 = 0.0
    for c in range(6):
        tied = False
        for k in range(8):
            m = me[S_REQ + 8 * c + k]
            if m == them[S_REQ + 8 * c + k] and m > 0:
                tied = True
        lean2 = 0
        if tied:
            if (me[S_PINK_COLS] >> c) & 1:
                lean2 = 1
            elif (them[S_PINK_COLS] >> c) & 1:
                lean2 = -1
            elif me[S_COL_SHELLS + c] != them[S_COL_SHELLS + c]:
                lean2 = 1 if me[S_COL_SHELLS + c] > them[S_COL_SHELLS + c] else -1
        x0 = _term(me, them, probs, c, 0, lean2, t, tcol)
        x1 = _term(me, them, probs, c, 1, lean2, t, tcol)
        x2 = _term(me, them, probs, c, 2, lean2, t, tcol)
        x3 = _term(me, them, probs, c, 3, lean2, t, tcol)
        x4 = _term(me, them, probs, c, 4, lean2, t, tcol)
        x5 = _term(me, them, probs, c, 5, lean2, t, tcol)
        x6 = _term(me, them, probs, c, 6, lean2, t, tcol)
        x7 = _term(me, them, probs, c, 7, lean2, t, tcol)
        if c == 0:
            r0, r1, r2, r3, r4, r5, r6, r7 = x0, x1, x2, x3, x4, x5, x6, x7
        else:
            r0 += x0
            r1 += x1
            r2 += x2
            r3 += x3
            r4 += x4
            r5 += x5
            r6 += x6
            r7 += x7
    v += ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    v += _eb_value(me, them, eb_me, t, teb) - _eb_value(them, me, eb_them, t, teb)
    return v


@njit(cache=True, inline="always")
def extras(me, potential, fx):
    """``own_extras``: a bonus now, gem progress, unfillable holes."""
    v = 0.0
    if me[S_NEW]:
        v += fx[F_BONUS]
    v += fx[F_BONUS] * fx[F_REM] * potential
    v -= fx[F_HOLE] * me[S_ODD]
    return v


@njit(cache=True)
def value(nest, cells, base, base_facts, them, probs, ix, fx, tabs, st, comps, f):
    """The agent's ``_value``: my ``nest`` (``base``'s nest changed in ``cells``) against the
    opponent's statistics ``them``."""
    potential = changed_stats(nest, cells, base, base_facts, ix[I_GEMS], ix[I_X_ONE], st, comps,
                              f)
    return (contest(st, them, probs, ix[I_EB_MINE], ix[I_EB_THEIRS], ix[I_TURN], tabs)
            + extras(st, potential, fx))


@njit(cache=True)
def opponent_value(nest, cells, base, base_facts, me, probs, ix, fx, tabs, st, comps, f):
    """The opponent's value of its ``nest`` (``base``'s changed in ``cells``) against my
    statistics ``me`` (egg tiles swapped)."""
    potential = changed_stats(nest, cells, base, base_facts, ix[I_GEMS], ix[I_X_ONE], st, comps,
                              f)
    return (contest(st, me, probs, ix[I_EB_THEIRS], ix[I_EB_MINE], ix[I_TURN], tabs)
            + extras(st, potential, fx))
