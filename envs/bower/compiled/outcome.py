"""§6 scoring in bower's compiled engine (``scoring.compute_final`` over a slot's row)."""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bower.compiled.layout import (
    BKIND,
    ECODES,
    EGG_KIND,
    EGGS,
    EUNITS,
    KEPT,
    MATB,
    NKEPT,
    O_MAT_SHELLS,
    O_PINK_IN_GROUP,
    O_PINK_SCOPE,
    O_SINGLE,
    O_X_ONE,
    O_ZERO_TIE,
    PINK_ALL_SCOPE,
    PINK_CELL_SCOPE,
    TOP,
    U,
    branch_code,
    components,
    popcount,
    token_cell,
)
from tablezoo.envs.bower.components import (
    EB_FIRST,
    PINK_TILE,
)


# --- scoring (§6) --------------------------------------------------------------------------------
@njit(cache=True)
def final_scores(s, opts, scores):
    """``scoring.compute_final``: each seat's egg tokens into ``scores``; the pink seat or -1."""
    coloured = np.zeros((2, 24, 10), np.int64)
    wild_fe = np.zeros((2, 24), np.int64)
    wild_fl = np.zeros((2, 24), np.int64)
    shells = np.zeros((2, 24), np.int64)
    sizes = np.zeros((2, 3), np.int64)
    largest = np.zeros((2, 3, 24), np.int64)
    nlargest = np.zeros((2, 3), np.int64)
    pink = np.zeros(2, np.bool_)
    pink_cell = np.full(2, -1, np.int64)
    tile_cols = np.zeros(2, np.int64)
    comps = np.zeros(24, np.int64)
    units = np.zeros(13, np.int64)
    x_one = opts[O_X_ONE] != 0
    for q in range(2):
        branch = branch_code(s, q)
        for m in range(3):
            n = components(s[U(MATB + 4 * q + m)], branch, comps)
            for k in range(n):
                size = popcount(comps[k])
                if size > sizes[q, m]:
                    sizes[q, m] = size
                    largest[q, m, 0] = comps[k]
                    nlargest[q, m] = 1
                elif size == sizes[q, m]:
                    largest[q, m, nlargest[q, m]] = comps[k]
                    nlargest[q, m] += 1
        x_cell = token_cell(s, 0, q)
        wfe_cell = token_cell(s, 1, q)
        wfl_cell = token_cell(s, 2, q)
        shell_cell = token_cell(s, 3, q)
        for c in range(24):
            t = s[U(TOP + 24 * q + c)]
            if t < 0:
                continue
            for k in range(13):
                units[k] = EUNITS[t, k]
            if c == x_cell:
                if not x_one:
                    for k in range(10):
                        units[k] = 0
                else:
                    for k in range(10):
                        if units[k]:
                            units[k] -= 1
                            break
            wfe = units[4]
            wfl = units[9]
            units[4] = 0
            units[9] = 0
            if c == wfe_cell:
                for k in range(4):
                    wfe += units[k]
                    units[k] = 0
            if c == wfl_cell:
                for k in range(5, 9):
                    wfl += units[k]
                    units[k] = 0
            for k in range(10):
                coloured[q, c, k] = units[k]
            wild_fe[q, c] = wfe
            wild_fl[q, c] = wfl
            sh = units[11] + units[12]
            shells[q, c] = 2 * sh if c == shell_cell else sh
            if units[12]:
                pink[q] = True
                pink_cell[q] = c
            if t >> 1 == PINK_TILE:
                tile_cols[q] |= 1 << (c % 6)
    pink_seat = 0 if pink[0] else 1 if pink[1] else -1
    scores[0] = 0.0
    scores[1] = 0.0
    # 1. materials
    for m in range(3):
        a = sizes[0, m]
        b = sizes[1, m]
        winner = -1
        if a != b:
            winner = 0 if a > b else 1
        elif a > 0:
            if m == 1 and pink_seat >= 0:
                ok = opts[O_PINK_IN_GROUP] == 0
                for k in range(nlargest[pink_seat, 1]):
                    if (largest[pink_seat, 1, k] >> pink_cell[pink_seat]) & 1:
                        ok = True
                if ok:
                    winner = pink_seat
            if winner < 0 and opts[O_MAT_SHELLS]:
                best = np.zeros(2, np.int64)
                for q in range(2):
                    best[q] = -1
                    for k in range(nlargest[q, m]):
                        g = largest[q, m, k]
                        total = 0
                        for c in range(24):
                            if (g >> c) & 1:
                                total += shells[q, c]
                        best[q] = max(best[q], total)
                if best[0] != best[1]:
                    winner = 0 if best[0] > best[1] else 1
        if winner >= 0:
            scores[winner] += 1.0
    # 2. columns
    scope = opts[O_PINK_SCOPE]
    pcols = np.zeros(2, np.int64)
    for q in range(2):
        if pink[q]:
            pcols[q] = (1 << (pink_cell[q] % 6)) if scope == PINK_CELL_SCOPE else tile_cols[q]
    for c in range(6):
        code = ECODES[s[U(EGGS + c)]]
        feather = code < 4
        cnt = np.zeros(2, np.int64)
        sh = np.zeros(2, np.int64)
        for q in range(2):
            for r in range(4):
                cell = 6 * r + c
                cnt[q] += coloured[q, cell, code] + (wild_fe[q, cell] if feather
                                                     else wild_fl[q, cell])
                sh[q] += shells[q, cell]
        na = cnt[0]
        nb = cnt[1]
        winner = -1
        if na != nb:
            winner = 0 if na > nb else 1
            if opts[O_SINGLE] and min(na, nb) == 0 and max(na, nb) == 1:
                scores[winner] += 1.0
        elif na > 0 or opts[O_ZERO_TIE]:
            if (pcols[0] >> c) & 1:
                winner = 0
            elif (pcols[1] >> c) & 1:
                winner = 1
            elif sh[0] != sh[1]:
                winner = 0 if sh[0] > sh[1] else 1
            elif scope == PINK_ALL_SCOPE and pink_seat >= 0:
                winner = pink_seat
        if winner >= 0:
            scores[winner] += 1.0
    # 4. egg tiles: only the holder gains
    for q in range(2):
        r = 1 - q
        for k in range(s[U(NKEPT + q)]):
            b = s[U(KEPT + 20 * q + k)]
            if BKIND[b] != EGG_KIND:
                continue
            eb = b - EB_FIRST
            if eb < 4:
                mine = 0
                theirs = 0
                for c in range(24):
                    mine += coloured[q, c, eb] + coloured[q, c, 5 + eb]
                    theirs += coloured[r, c, eb] + coloured[r, c, 5 + eb]
                gain = mine > theirs
            elif pink_seat >= 0:
                gain = pink_seat == q
            else:
                mine = 0
                theirs = 0
                for c in range(24):
                    mine += shells[q, c]
                    theirs += shells[r, c]
                gain = mine > theirs
            if gain:
                scores[q] += 1.0
    return pink_seat


