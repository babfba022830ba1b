"""Every decision of the bower heuristic, compiled: the agent's ``act`` for one observation row
and mask (the same checks in the same order, the same values, the first tied id), and the batch
kernel that answers each row."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

import tablezoo.agents.games.bower.compiled_heuristic.tables as T
import tablezoo.agents.games.bower.compiled_heuristic.value as V

NUM_ACTIONS, CELLS, NUM_CODES = T.NUM_ACTIONS, T.CELLS, T.NUM_CODES
DISPLAY, PLAY, PASS, ACCEPT, KEEP = T.DISPLAY, T.PLAY, T.PASS, T.ACCEPT, T.KEEP
COLUMN, TARGET, BRANCH, COVER, HAND = T.COLUMN, T.TARGET, T.BRANCH, T.COVER, T.HAND
PLACEMENTS, NUM_FOOTPRINTS = T.PLACEMENTS, T.NUM_FOOTPRINTS
PL_CELLS, FPB, FPC, FPR, BR_ENDS = T.PL_CELLS, T.FPB, T.FPC, T.FPR, T.BR_ENDS
O_COL_EGGS, O_REMOVED, O_DISPLAY, O_HANDS = T.O_COL_EGGS, T.O_REMOVED, T.O_DISPLAY, T.O_HANDS
O_COVER, O_DRAW, O_KEPT, O_SUPPLY = T.O_COVER, T.O_DRAW, T.O_KEPT, T.O_SUPPLY
O_EFFECT, O_PHASE, O_SCALARS = T.O_EFFECT, T.O_PHASE, T.O_SCALARS
DISPLAY_ROW, HAND_ROW, HAND_SLOTS = T.DISPLAY_ROW, T.HAND_ROW, T.HAND_SLOTS
NUM_BONUS, NUM_EGGS, NUM_PHASES = len(T.BONUS_KIND), T.NUM_EGGS, T.NUM_PHASES
BONUS_KIND, BONUS_NUM, EB_IDS, TK_IDS = T.BONUS_KIND, T.BONUS_NUM, T.EB_IDS, T.TK_IDS
EGG_SLOT, NB_TILES, EXP_SPAN = T.EGG_SLOT, T.NB_TILES, T.EXP_SPAN
B_EB, B_NB, B_TK, B_SP1, B_SP2 = T.B_EB, T.B_NB, T.B_TK, T.B_SP1, T.B_SP2
B_IA1, B_IA2, B_IA4 = T.B_IA1, T.B_IA2, T.B_IA4
PH_FORCE, PH_BONUS, PH_DISCARD_ASK = T.PH["force"], T.PH["bonus"], T.PH["discard_ask"]
PH_DOUBLE_ASK, PH_COVER_ASK, PH_KEEP = T.PH["double_ask"], T.PH["cover_ask"], T.PH["keep"]
PH_SPY, PH_TOKEN, PH_BRANCH, PH_COVER = T.PH["spy"], T.PH["token"], T.PH["branch"], \
    T.PH["cover"]
N_MAT, N_UNITS, N_TOK, N_BRANCH = T.N_MAT, T.N_UNITS, T.N_TOK, T.N_BRANCH
S_REQ = T.S_REQ
I_TURN, I_EB_MINE, I_EB_THEIRS, I_GEMS, I_X_ONE = V.I_TURN, V.I_EB_MINE, V.I_EB_THEIRS, \
    V.I_GEMS, V.I_X_ONE
F_REM, F_BONUS, F_HOLE, F_KEEP, F_DENY = V.F_REM, V.F_BONUS, V.F_HOLE, V.F_KEEP, V.F_DENY
TOK_X, TOK_WFE, TOK_WFL, TOK_SHELL, TOK_BRANCH = range(5)
# the work rows of one batch: the two nests and a what-if nest; statistics of mine, theirs,
# the what-if nest's and mine again (recomputed where a value needs it)
W_ME, W_THEM, W_TRY = 0, 1, 2
ST_ME, ST_THEM, ST_TRY, ST_BASE = 0, 1, 2, 3


# ---------------------------------------------------------------------- reading
@njit(cache=True)
def _decode_tile(o, start, tile):
    """``decode_tile``: both ends of the 34 tile features at ``o[start:]``; a pink end marks
    both ends NB4's."""
    pink = 0
    for e in range(2):
        f = start + 17 * e
        best, top = 0, o[f]
        for m in range(1, 4):
            if o[f + m] > top:
                top, best = o[f + m], m
        tile[e, 0] = best
        for k in range(NUM_CODES):
            tile[e, 1 + k] = int(o[f + 4 + k])
        if tile[e, 13] > 0:
            pink = 1
    tile[0, 14] = pink
    tile[1, 14] = pink


@njit(cache=True)
def _argmax(o, start, n):
    best = 0
    for j in range(1, n):
        if o[start + j] > o[start + best]:
            best = j
    return best


@njit(cache=True)
def _any(o, start, n):
    found = False
    for j in range(n):
        found = found or o[start + j] != 0
    return found


@njit(cache=True)
def _request_probs(o, opp, expw, probs):
    """``_request_probs``: known eggs certain; the others uniform over the unseen eggs, leaning
    to the items the opponent has put in that column (``expw``: ``exp(read_opponent * units)``)."""
    seen = np.zeros(NUM_EGGS, np.bool_)
    for e in range(NUM_EGGS):
        if o[O_REMOVED + e] != 0:
            seen[e] = True
    for c in range(6):
        if _any(o, O_COL_EGGS + NUM_EGGS * c, NUM_EGGS):
            seen[_argmax(o, O_COL_EGGS + NUM_EGGS * c, NUM_EGGS)] = True
    for c in range(6):
        probs[c, :] = 0.0
        if _any(o, O_COL_EGGS + NUM_EGGS * c, NUM_EGGS):
            probs[c, EGG_SLOT[_argmax(o, O_COL_EGGS + NUM_EGGS * c, NUM_EGGS)]] = 1.0
            continue
        for e in range(NUM_EGGS):
            if not seen[e]:
                k = EGG_SLOT[e]
                n = opp[S_REQ + 8 * c + k]
                probs[c, k] += expw[min(max(n, 0), EXP_SPAN - 1)]
        p = probs[c]
        total = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]))
        for k in range(8):
            p[k] /= total


@njit(cache=True, inline="always")
def _occupancy(nest):
    occ = 0
    for i in range(CELLS):
        if nest[N_MAT + i] >= 0:
            occ |= 1 << i
    return occ


@njit(cache=True, inline="always")
def _footprint_legal(occ, f):
    return (FPB[f] & occ) == 0 and (FPR[f] or (FPC[f] & occ) != 0)


# ---------------------------------------------------------------------- one row
@njit(cache=True)
def _pick(ids, values, n):
    """The first id whose value is within 1e-9 of the best."""
    top = values[0]
    for j in range(1, n):
        if values[j] > top:
            top = values[j]
    for j in range(n):
        if values[j] >= top - 1e-9:
            return ids[j]
    return ids[0]


@njit(cache=True, inline="always")
def _copy(w, src):
    """The what-if nest made nest ``src`` again."""
    for j in range(w.shape[1]):
        w[W_TRY, j] = w[src, j]


@njit(cache=True)
def _placed(w, src, tile, p, cover):
    """The what-if nest: nest ``src`` with ``tile`` placed by ``p``; returns the cells changed."""
    _copy(w, src)
    a, b = PL_CELLS[p, 0], PL_CELLS[p, 1]
    V.put(w[W_TRY], a, tile[0], cover)
    V.put(w[W_TRY], b, tile[1], cover)
    return (1 << a) | (1 << b)


@njit(cache=True)
def _value_of(w, st, fa, comps, cells, them, probs, ix, fx, tabs):
    """My value of the what-if nest (mine changed in ``cells``) against ``them``."""
    return V.value(w[W_TRY], cells, st[ST_ME], fa[W_ME], them, probs, ix, fx, tabs, st[ST_TRY],
                   comps, fa[W_TRY, 0])


@njit(cache=True)
def _base_value(w, st, fa, comps, probs, ix, fx, tabs):
    return V.value(w[W_ME], 0, st[ST_ME], fa[W_ME], st[ST_THEM], probs, ix, fx, tabs,
                   st[ST_BASE], comps, fa[W_TRY, 0])


@njit(cache=True)
def _best_play(w, st, fa, comps, tile, probs, ix, fx, tabs):
    """``_best_play``: my value after the best legal placement of ``tile`` (now if none)."""
    occ = _occupancy(w[W_ME])
    best = -np.inf
    found = False
    for f in range(NUM_FOOTPRINTS):
        if not _footprint_legal(occ, f):
            continue
        for p in (2 * f, 2 * f + 1):
            cells = _placed(w, W_ME, tile, p, False)
            v = _value_of(w, st, fa, comps, cells, st[ST_THEM], probs, ix, fx, tabs)
            if not found or v > best:
                best = v
            found = True
    if not found:
        return _base_value(w, st, fa, comps, probs, ix, fx, tabs)
    return best


@njit(cache=True)
def _opponent_best(w, st, fa, comps, tile, probs, ix, fx, tabs):
    """``_opponent_best``: the opponent's value after its best placement of ``tile``."""
    occ = _occupancy(w[W_THEM])
    best = -np.inf
    found = False
    for f in range(NUM_FOOTPRINTS):
        if not _footprint_legal(occ, f):
            continue
        for p in (2 * f, 2 * f + 1):
            cells = _placed(w, W_THEM, tile, p, False)
            v = V.opponent_value(w[W_TRY], cells, st[ST_THEM], fa[W_THEM], st[ST_ME], probs, ix,
                                 fx, tabs, st[ST_TRY], comps, fa[W_TRY, 0])
            best = max(best, v)
            found = True
    return best if found else 0.0


@njit(cache=True)
def _token_target(w, k, s, cell):
    """Whether the engine offers TARGET ``s``/``cell`` for token ``k`` (``_token_ids``)."""
    nest = w[s]
    if nest[N_MAT + cell] < 0 or (s == 1 and k != TOK_X):
        return False
    ub = N_UNITS + NUM_CODES * cell
    if k == TOK_X:
        lo, hi = 0, 10
    elif k == TOK_WFE:
        lo, hi = 0, 5
    elif k == TOK_WFL:
        lo, hi = 5, 10
    else:
        return nest[ub + 11] + nest[ub + 12] > 0
    units = 0
    for j in range(lo, hi):
        units += nest[ub + j]
    return units > 0


@njit(cache=True)
def _effect_value(w, st, fa, comps, k, a, probs, ix, fx, tabs):
    """``_effect_values`` of one id: my value after token ``k`` (4: the branch) by ``a``."""
    if a == PASS:
        return _base_value(w, st, fa, comps, probs, ix, fx, tabs)
    if k == TOK_BRANCH:
        _copy(w, W_ME)
        w[W_TRY, N_BRANCH] = a - BRANCH
        return _value_of(w, st, fa, comps, 0, st[ST_THEM], probs, ix, fx, tabs)
    s, cell = divmod(a - TARGET, CELLS)
    _copy(w, s)
    old = w[s, N_TOK + k]
    w[W_TRY, N_TOK + k] = cell
    cells = (1 << cell) | ((1 << old) if old >= 0 else 0)
    if s == 0:
        return _value_of(w, st, fa, comps, cells, st[ST_THEM], probs, ix, fx, tabs)
    V.changed_stats(w[W_TRY], cells, st[ST_THEM], fa[W_THEM], ix[I_GEMS], ix[I_X_ONE],
                    st[ST_TRY], comps, fa[W_TRY, 0])
    return V.value(w[W_ME], 0, st[ST_ME], fa[W_ME], st[ST_TRY], probs, ix, fx, tabs,
                   st[ST_BASE], comps, fa[W_TRY, 0])


@njit(cache=True)
def _bonus_value(o, w, st, fa, comps, b, base, probs, ix, fx, tabs):
    """``_bonus_value``: the eggs a kept bonus tile ``b`` is estimated to be worth now."""
    kind = BONUS_KIND[b]
    if kind == B_EB:
        return V._eb_value(st[ST_ME], st[ST_THEM], 1 << BONUS_NUM[b], ix[I_TURN],
                           tabs[3]) + 0.05
    if kind == B_NB:
        k = BONUS_NUM[b]
        gain = _best_play(w, st, fa, comps, NB_TILES[k], probs, ix, fx, tabs) - base
        return 0.15 + max(0.0, gain) * fx[F_REM] + (0.3 if k == 3 else 0.0)
    if kind == B_TK:
        k = BONUS_NUM[b]
        if o[O_SUPPLY + k] <= 0:
            return 0.0
        found = False
        best = -np.inf
        if k < 4:
            for s in range(2):
                for cell in range(CELLS):
                    if _token_target(w, k, s, cell):
                        v = _effect_value(w, st, fa, comps, k, TARGET + CELLS * s + cell, probs,
                                          ix, fx, tabs)
                        best = max(best, v)
                        found = True
        else:
            for cell in range(CELLS):
                if w[W_ME, N_MAT + cell] < 0:
                    continue
                for orient in range(2):
                    if BR_ENDS[2 * cell + orient, 0] >= 0:
                        v = _effect_value(w, st, fa, comps, k, BRANCH + 2 * cell + orient, probs,
                                          ix, fx, tabs)
                        best = max(best, v)
                        found = True
        if not found:
            return 0.0
        return max(0.0, best - base)
    if kind == B_SP1:
        least = np.inf
        for c in range(6):
            least = min(least, probs[c].max())
        return 0.15 if least < 1.0 else 0.0
    if kind == B_SP2:
        return 0.0 if _any(o, O_REMOVED, NUM_EGGS) else 0.08
    if kind == B_IA1:
        return 0.1
    if kind == B_IA2:
        opp_turns = round(float(o[O_SCALARS + 1]) * 12)
        return 0.15 if opp_turns < 12 else 0.0
    if kind == B_IA4:
        held = float(o[O_SCALARS + 3]) > 0
        for h in range(HAND_SLOTS):
            if o[O_HANDS + HAND_ROW * (HAND_SLOTS + h)] != 0:
                held = True
        return 0.25 if held else 0.02
    return 0.0


@njit(cache=True)
def _current_token(o, w, m, nlegal, legal):
    """``_current_token``: the token of the kept tile named by the observation's ``effect``
    piece; without one, the one whose targets are those offered (X when none fits)."""
    if _any(o, O_EFFECT, NUM_BONUS):
        effect = _argmax(o, O_EFFECT, NUM_BONUS)
        for k in range(4):
            if TK_IDS[k] == effect:
                return k
    for j in range(nlegal):
        if legal[j] != PASS and legal[j] >= TARGET + CELLS:
            return TOK_X
    for k in (TOK_WFE, TOK_WFL, TOK_SHELL, TOK_X):
        if o[O_KEPT + TK_IDS[k]] <= 0 or o[O_SUPPLY + k] <= 0:
            continue
        same = True
        for j in range(nlegal):
            a = legal[j]
            if a != PASS and not (TARGET <= a < BRANCH):
                same = False
        for s in range(2):
            for cell in range(CELLS):
                if m[TARGET + CELLS * s + cell] != _token_target(w, k, s, cell):
                    same = False
        if same:
            return k
    return TOK_X


@njit(cache=True)
def decide(o, m, noop, par, tabs, expw, w, st, fa, comps, tiles, values, legal, probs):
    """The heuristic's action for one row (``HeuristicAgent.act``); -1 if nothing is legal."""
    nlegal = 0
    for a in range(NUM_ACTIONS):
        if m[a]:
            legal[nlegal] = a
            nlegal += 1
    if nlegal == 0:
        return NUM_ACTIONS if noop else -1
    if nlegal == 1:
        return legal[0]
    first = legal[0]
    # reading the observation
    ix = np.empty(5, np.int64)
    fx = np.empty(5, np.float64)
    phase = _argmax(o, O_PHASE, NUM_PHASES)
    V.decode_nest(o, 0, w[W_ME])
    V.decode_nest(o, 1, w[W_THEM])
    x_one, gems = int(par[0]), int(par[1])
    V.stats(w[W_THEM], gems, x_one, st[ST_THEM], comps, fa[W_THEM])
    _request_probs(o, st[ST_THEM], expw, probs)
    turn = min(max(round(float(o[O_SCALARS]) * 12), 0), 12)
    eb_mine = eb_theirs = 0
    for k in range(5):
        if o[O_KEPT + EB_IDS[k]] > 0:
            eb_mine |= 1 << k
        if o[O_KEPT + NUM_BONUS + EB_IDS[k]] > 0:
            eb_theirs |= 1 << k
    ix[I_TURN], ix[I_EB_MINE], ix[I_EB_THEIRS], ix[I_GEMS], ix[I_X_ONE] = \
        turn, eb_mine, eb_theirs, gems, x_one
    sc = tabs[0]
    fx[F_REM] = sc[turn, 0]
    fx[F_BONUS] = par[2] if gems else 0.0
    fx[F_HOLE], fx[F_KEEP], fx[F_DENY] = par[3], par[4], par[6]
    V.stats(w[W_ME], gems, x_one, st[ST_ME], comps, fa[W_ME])
    # the hand (present tiles, in slot order) and the display
    nhand = 0
    for h in range(HAND_SLOTS):
        row = O_HANDS + HAND_ROW * h
        if o[row] > 0:
            _decode_tile(o, row + 2, tiles[nhand])
            nhand += 1
    shown = np.zeros(3, np.bool_)
    for d in range(3):
        row = O_DISPLAY + DISPLAY_ROW * d
        if o[row] > 0:
            shown[d] = True
            _decode_tile(o, row + 1, tiles[HAND_SLOTS + d])

    if phase == PH_FORCE:
        for j in range(nlegal):
            a = legal[j]
            if a == PASS:
                values[j] = -1e9
            else:
                values[j] = -_opponent_best(w, st, fa, comps, tiles[HAND_SLOTS + a - DISPLAY],
                                            probs, ix, fx, tabs)
        return _pick(legal, values, nlegal)
    if first < PLAY:  # draft or take
        hand_best = np.empty(HAND_SLOTS)
        for h in range(nhand):
            hand_best[h] = _best_play(w, st, fa, comps, tiles[h], probs, ix, fx, tabs)
        deny = np.zeros(3)
        if fx[F_DENY] > 0:
            theirs = np.empty(3)
            for d in range(3):
                theirs[d] = (_opponent_best(w, st, fa, comps, tiles[HAND_SLOTS + d], probs, ix, fx,
                                            tabs) if shown[d] else -np.inf)
            top = max(theirs[0], max(theirs[1], theirs[2]))
            for d in range(3):
                rest = -np.inf
                for e in range(3):
                    if e != d:
                        rest = max(rest, theirs[e])
                deny[d] = top - rest if math.isfinite(rest) else 0.0
        for j in range(nlegal):
            d = legal[j] - DISPLAY
            top1 = _best_play(w, st, fa, comps, tiles[HAND_SLOTS + d], probs, ix, fx, tabs)
            top2 = -np.inf
            for h in range(nhand):
                v = hand_best[h]
                if v > top1:
                    top1, top2 = v, top1
                elif v > top2:
                    top2 = v
            values[j] = top1 + (fx[F_KEEP] * top2 if nhand > 0 else 0.0)
            values[j] += fx[F_DENY] * deny[d]
        return _pick(legal, values, nlegal)
    if first < PASS:  # play
        for j in range(nlegal):
            h, p = divmod(legal[j] - PLAY, PLACEMENTS)
            cells = _placed(w, W_ME, tiles[h], p, False)
            values[j] = _value_of(w, st, fa, comps, cells, st[ST_THEM], probs, ix, fx, tabs)
        return _pick(legal, values, nlegal)
    if phase in (PH_BONUS, PH_DISCARD_ASK):
        return ACCEPT if m[ACCEPT] else first
    if phase == PH_DOUBLE_ASK:
        return PASS if m[PASS] else first
    if phase == PH_COVER_ASK:
        base = _base_value(w, st, fa, comps, probs, ix, fx, tabs)
        cheapest = np.inf
        occ = _occupancy(w[W_ME])
        empty_end = tiles[HAND_SLOTS + 3]
        for p in range(0, PLACEMENTS, 2):
            a, b = PL_CELLS[p, 0], PL_CELLS[p, 1]
            if (occ >> a) & 1 and (occ >> b) & 1:
                _copy(w, W_ME)
                empty_end[:] = 0
                empty_end[0, 0] = w[W_ME, N_MAT + a]
                empty_end[1, 0] = w[W_ME, N_MAT + b]
                V.put(w[W_TRY], a, empty_end[0], True)
                V.put(w[W_TRY], b, empty_end[1], True)
                v = _value_of(w, st, fa, comps, (1 << a) | (1 << b), st[ST_THEM], probs, ix,
                              fx, tabs)
                cheapest = min(cheapest, base - v)
        if cheapest <= 0.15 and m[ACCEPT]:
            return ACCEPT
        return PASS if m[PASS] else first
    if phase == PH_KEEP:
        base = _base_value(w, st, fa, comps, probs, ix, fx, tabs)
        for j in range(nlegal):
            b = _argmax(o, O_DRAW + NUM_BONUS * (legal[j] - KEEP), NUM_BONUS)
            values[j] = _bonus_value(o, w, st, fa, comps, b, base, probs, ix, fx, tabs)
        return _pick(legal, values, nlegal)
    if phase == PH_SPY:
        for j in range(nlegal):
            c = legal[j] - COLUMN
            total = 0.0
            for s in range(2):
                for r in range(4):
                    ub = N_UNITS + NUM_CODES * (6 * r + c)
                    units = 0
                    for k in range(10):
                        units += w[s, ub + k]
                    total += units
            if probs[c].max() >= 1.0:
                total -= 100.0
            values[j] = total
        return _pick(legal, values, nlegal)
    if phase in (PH_TOKEN, PH_BRANCH):
        k = _current_token(o, w, m, nlegal, legal) if phase == PH_TOKEN else TOK_BRANCH
        for j in range(nlegal):
            values[j] = _effect_value(w, st, fa, comps, k, legal[j], probs, ix, fx, tabs)
        return _pick(legal, values, nlegal)
    if phase == PH_COVER:
        tile = tiles[HAND_SLOTS + 3]
        _decode_tile(o, O_COVER + 1, tile)
        for j in range(nlegal):
            cells = _placed(w, W_ME, tile, legal[j] - COVER, True)
            values[j] = _value_of(w, st, fa, comps, cells, st[ST_THEM], probs, ix, fx, tabs)
        return _pick(legal, values, nlegal)
    if first >= HAND:  # the hand check or the opponent's discard effect
        for j in range(nlegal):
            values[j] = -_best_play(w, st, fa, comps, tiles[legal[j] - HAND], probs, ix, fx, tabs)
        return _pick(legal, values, nlegal)
    return first


@njit(cache=True)
def actions(obs, mask, par, sc, tcol, tmat, teb, expw, out):
    """Every row's action into ``out`` (``par``: x cancels one, gems matter, bonus value, hole
    penalty, keep weight, read opponent, deny weight)."""
    tabs = (sc, tcol, tmat, teb)
    w = np.zeros((3, T.NEST_LEN), np.int64)
    st = np.zeros((4, T.STATS_LEN), np.int64)
    comps = np.zeros(24, np.int64)
    fa = np.zeros((3, CELLS, T.FACTS_LEN), np.int64)  # each cell's facts: mine, theirs, scratch
    tiles = np.zeros((HAND_SLOTS + 4, 2, 15), np.int64)
    values = np.zeros(NUM_ACTIONS, np.float64)
    legal = np.zeros(NUM_ACTIONS, np.int64)
    probs = np.zeros((6, 8), np.float64)
    wide = mask.shape[1] > NUM_ACTIONS
    for i in range(obs.shape[0]):
        noop = wide and mask.shape[1] == NUM_ACTIONS + 1 and mask[i, NUM_ACTIONS]
        out[i] = decide(obs[i], mask[i], noop, par, tabs, expw, w, st, fa, comps, tiles, values,
                        legal, probs)
