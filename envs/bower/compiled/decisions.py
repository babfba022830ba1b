"""The decisions of bower's compiled engine: legality, the legal mask, the observation and the
global state written in place from a slot's row (``observation``'s encoding, bit for bit)."""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    HAND,
    KEEP,
    NUM_ACTIONS,
    PASS,
    PLAY,
    TARGET,
)
from tablezoo.envs.bower.compiled.layout import (
    ACTOR,
    BENDS,
    BONUS,
    BORIENT,
    BRANCHP,
    CELL_OF_BIT,
    CELLF,
    CH_BRANCH,
    CH_COVERED,
    CH_FLAG,
    CH_TOKEN,
    COLF,
    COND_C,
    COND_X,
    COVER_ASK,
    COVER_TILE,
    COVERP,
    DEBRUIJN,
    DECK,
    DEPTH,
    DISC,
    DISC_BY,
    DISCARD_ASK,
    DISPLAY,
    DISPLAY_ROWS,
    DOUBLE_ASK,
    DRAFT,
    DRAWN,
    DROW,
    EFFECT,
    EGGS,
    EXTRA,
    FORCE,
    FORCED,
    FPB,
    FPC,
    FPR0,
    GS_DECK,
    GS_DECK_TOP,
    GS_DISC,
    GS_DRAW,
    GS_EGGS,
    GS_HANDS,
    GS_STACK,
    GS_STACK_TOP,
    HAND_ROWS,
    HAND_STRIDE,
    HANDP,
    HANDS,
    HROW,
    KEEPP,
    KEPT,
    LIMITS,
    NDECK,
    NDISC,
    NDRAWN,
    NEST_SIZE,
    NHAND,
    NKEPT,
    NPLACED,
    NSTACK,
    NTD,
    NZP_OFF,
    NZP_V,
    O_HANDS_PUBLIC,
    OB_COLF,
    OB_COVER,
    OB_COVERED,
    OB_DISCARDED,
    OB_DISPLAY,
    OB_DRAW,
    OB_EFFECT,
    OB_EGGS,
    OB_HANDS,
    OB_KEPT,
    OB_MYDISC,
    OB_NESTS,
    OB_OWNER,
    OB_PHASE,
    OB_REMOVED,
    OB_SCALARS,
    OB_SPIED,
    OB_TOKENS,
    OBS_SIZE,
    OCC,
    OPP_DISCARD,
    OVER,
    OWED,
    OWNER,
    PHASE,
    PLACED,
    PLACED_STRIDE,
    PLACED_TOK,
    PLAYP,
    PLCELLS,
    SPIEDC,
    SPIEDR,
    SPY,
    STACK,
    START,
    STATE_SIZE,
    SUPPLY,
    TAKE,
    TD,
    TILE_ROWS,
    TOKCELL,
    TOKEN,
    TOKSEAT,
    TOKST,
    TOP,
    TP,
    TURNS,
    U,
    token_target_ok,
)
from tablezoo.envs.bower.components import (
    NUM_BONUS,
    TK1,
)


# --- legality and decisions ----------------------------------------------------------------------
@njit(cache=True)
def _legal(s, a):
    """Whether ``a`` is legal for the acting seat of the slot whose row is ``s``
    (``BowerState.legal_mask``)."""
    if a < 0 or a >= NUM_ACTIONS:
        return False
    ph = s[PHASE]
    p = s[TP]
    if ph in (DRAFT, TAKE):
        return a < 3 and s[U(DISPLAY + a)] >= 0
    if ph == PLAYP:
        if a < PLAY or a >= PASS:
            return False
        h = (a - PLAY) // 76
        f = ((a - PLAY) % 76) >> 1
        if h >= s[U(NHAND + p)]:
            return False
        forced = s[U(FORCED + p)]
        if forced >= 0 and s[U(HANDS + HAND_STRIDE * p + h)] != forced:
            return False
        occ = s[U(OCC + p)]
        return (occ & FPB[f]) == 0 and (FPR0[f] or (occ & FPC[f]) != 0)
    if ph in (BONUS, COVER_ASK, DOUBLE_ASK, DISCARD_ASK):
        return a in (PASS, ACCEPT)
    if ph == KEEPP:
        return KEEP <= a < KEEP + s[NDRAWN]
    if ph in (OPP_DISCARD, HANDP):
        return HAND <= a < HAND + s[U(NHAND + s[ACTOR])]
    if ph == FORCE:
        return a == PASS or (a < 3 and s[U(DISPLAY + a)] >= 0)
    if ph == SPY:
        return COLUMN <= a < COLUMN + 6 and s[U(OWNER + a - COLUMN)] != p
    if ph == TOKEN:
        if a == PASS:
            return True
        if a < TARGET or a >= BRANCH:
            return False
        tok = s[EFFECT] - TK1
        s_rel = (a - TARGET) // 24
        if s_rel == 1 and tok != 0:
            return False
        return token_target_ok(s, tok, p if s_rel == 0 else 1 - p, (a - TARGET) % 24)
    if ph == BRANCHP:
        if a == PASS:
            return True
        if a < BRANCH or a >= COVER:
            return False
        cell = (a - BRANCH) // 2
        return s[U(TOP + 24 * p + cell)] >= 0 and BENDS[a - BRANCH, 0] >= 0
    if ph == COVERP:
        if a < COVER or a >= HAND:
            return False
        f = (a - COVER) >> 1
        return (s[U(OCC + p)] & FPB[f]) == FPB[f]
    return False


@njit(cache=True)
def _write_mask(s, m):
    """The legal mask of the slot whose row is ``s`` into the bool row ``m``
    (``BowerState.legal_mask``)."""
    for a in range(NUM_ACTIONS):
        m[a] = False
    ph = s[PHASE]
    p = s[TP]
    if ph == PLAYP:
        occ = s[U(OCC + p)]
        forced = s[U(FORCED + p)]
        fits = 0  # bit f: footprint f is free and touches row 0 or a tile
        for f in range(38):
            free = (occ & FPB[f]) == 0
            touches = FPR0[f] | ((occ & FPC[f]) != 0)
            fits |= np.int64(free & touches) << f
        hands = HANDS + HAND_STRIDE * p
        for h in range(s[U(NHAND + p)]):
            if forced < 0 or s[U(hands + h)] == forced:
                row = PLAY + 76 * h
                for f in range(38):  # every id of the hand slot, no branch
                    ok = ((fits >> f) & 1) != 0
                    m[U(row + 2 * f)] = ok
                    m[U(row + 2 * f + 1)] = ok
    elif ph in (DRAFT, TAKE, FORCE):
        for d in range(3):
            m[d] = s[U(DISPLAY + d)] >= 0
        m[PASS] = ph == FORCE
    elif ph in (BONUS, COVER_ASK, DOUBLE_ASK, DISCARD_ASK):
        m[PASS] = True
        m[ACCEPT] = True
    elif ph == KEEPP:
        for j in range(s[NDRAWN]):
            m[KEEP + j] = True
    elif ph in (OPP_DISCARD, HANDP):
        for h in range(s[U(NHAND + s[ACTOR])]):
            m[HAND + h] = True
    elif ph == SPY:
        for c in range(6):
            m[COLUMN + c] = s[U(OWNER + c)] != p
    elif ph == TOKEN:
        tok = s[EFFECT] - TK1
        for s_rel in range(2 if tok == 0 else 1):
            seat = p if s_rel == 0 else 1 - p
            for cell in range(24):
                if token_target_ok(s, tok, seat, cell):
                    m[TARGET + 24 * s_rel + cell] = True
        m[PASS] = True
    elif ph == BRANCHP:
        for cell in range(24):
            if s[U(TOP + 24 * p + cell)] >= 0:
                for o in range(2):
                    if BENDS[2 * cell + o, 0] >= 0:
                        m[BRANCH + 2 * cell + o] = True
        m[PASS] = True
    elif ph == COVERP:
        occ = s[U(OCC + p)]
        for f in range(38):
            if (occ & FPB[f]) == FPB[f]:
                m[COVER + 2 * f] = True
                m[COVER + 2 * f + 1] = True


@njit(cache=True, inline="always")
def _knows_egg(s, me, pos):
    if s[PHASE] == OVER:
        return True
    if pos >= 6:
        return s[U(SPIEDR + me)] != 0
    return s[U(OWNER + pos)] == me or ((s[U(SPIEDC + me)] >> pos) & 1) != 0


@njit(cache=True, inline="always")
def _write_hand(s, q, o, at, visible):
    """Seat ``q``'s 6 hand slots at ``o[at:]`` (present, forced, tile features) from the slot's
    row ``s``."""
    forced = s[U(FORCED + q)]
    hands = HANDS + HAND_STRIDE * q
    for h in range(s[U(NHAND + q)]):
        t = s[U(hands + h)]
        base = at + HROW * h
        if visible:
            row = HAND_ROWS[U(t)]
            for k in range(HROW):
                o[U(base + k)] = row[k]
        else:
            o[U(base)] = 1.0
        if t == forced:
            o[U(base + 1)] = 1.0


@njit(cache=True)
def _write_obs(s, opts, me, o):
    """Seat ``me``'s observation of the slot whose row is ``s`` into ``o``
    (``observation.observe``). Every index is unsigned (no negative-index check); a nest's
    occupied cells are visited by their bits and each written with 4 stores, no branch."""
    op = 1 - me
    for k in range(OBS_SIZE):
        o[k] = 0.0
    over = s[PHASE] == OVER
    # nests
    for r in range(2):
        q = me if r == 0 else op
        base = OB_NESTS + NEST_SIZE * r
        flags = s[U(CELLF + q)]
        occ = s[U(OCC + q)]
        top = TOP + 24 * q
        depth = DEPTH + 24 * q
        for c in range(24):
            o[U(base + 24 * CH_FLAG + c)] = (flags >> c) & 1
        bits = occ
        while bits:  # the occupied cells, lowest first
            low = bits & -bits
            bits ^= low
            c = CELL_OF_BIT[U(((low * DEBRUIJN) >> 58) & 63)]
            e = U(s[U(top + c)] + 1)
            at = base + c
            o[U(at + NZP_OFF[e, 0])] = NZP_V[e, 0]
            o[U(at + NZP_OFF[e, 1])] = NZP_V[e, 1]
            o[U(at + NZP_OFF[e, 2])] = NZP_V[e, 2]
            o[U(at + 24 * CH_COVERED)] = s[U(depth + c)] != 0
        for tok in range(4):
            if s[U(TOKST + tok)] == PLACED_TOK and s[U(TOKSEAT + tok)] == q:
                o[U(base + 24 * (CH_TOKEN + tok) + s[U(TOKCELL + tok)])] = 1.0
        if s[U(TOKST + 4)] == PLACED_TOK and s[U(TOKSEAT + 4)] == q:
            o[U(base + 24 * (CH_BRANCH + s[BORIENT]) + s[U(TOKCELL + 4)])] = 1.0
    # covered tiles, column flags, eggs, spied columns
    for q in range(2):
        placed = PLACED + PLACED_STRIDE * q
        n = s[U(NPLACED + q)]
        hidden = False  # only a Cover hides cells
        for k in range(n):
            if s[U(placed + 3 * k + 2)]:
                hidden = True
        if hidden:
            top = TOP + 24 * q
            for k in range(n):
                t = s[U(placed + 3 * k)]
                pl = U(s[U(placed + 3 * k + 1)])
                if s[U(top + PLCELLS[pl, 0])] != 2 * t or s[U(top + PLCELLS[pl, 1])] != 2 * t + 1:
                    o[U(OB_COVERED + t)] = 1.0
    for r in range(2):
        q = me if r == 0 else op
        cf = s[U(COLF + q)]
        sc = s[U(SPIEDC + q)]
        for c in range(6):
            o[OB_COLF + 6 * r + c] = (cf >> c) & 1
            o[OB_SPIED + 6 * r + c] = (sc >> c) & 1
    for c in range(6):
        o[U(OB_OWNER + (c if s[U(OWNER + c)] == me else 6 + c))] = 1.0
        if _knows_egg(s, me, c):
            o[U(OB_EGGS + 8 * c + s[U(EGGS + c)])] = 1.0
    if _knows_egg(s, me, 6):
        o[U(OB_REMOVED + s[U(EGGS + 6)])] = 1.0
        o[U(OB_REMOVED + s[U(EGGS + 7)])] = 1.0
    # display, hands, cover tile, bonus draw and kept tiles
    for d in range(3):
        t = s[U(DISPLAY + d)]
        if t >= 0:
            row = DISPLAY_ROWS[U(t)]
            for k in range(DROW):
                o[OB_DISPLAY + DROW * d + k] = row[k]
    _write_hand(s, me, o, OB_HANDS, True)
    _write_hand(s, op, o, OB_HANDS + 6 * HROW, opts[O_HANDS_PUBLIC] != 0)
    t = s[COVER_TILE]
    if t >= 0:
        o[OB_COVER] = 1.0
        row = TILE_ROWS[U(t)]
        for k in range(DROW - 1):
            o[OB_COVER + 1 + k] = row[k]
    if s[TP] == me:
        for j in range(s[NDRAWN]):
            o[U(OB_DRAW + NUM_BONUS * j + s[U(DRAWN + j)])] = 1.0
    kept = KEPT + 20 * me
    for k in range(s[U(NKEPT + me)]):
        o[U(OB_KEPT + s[U(kept + k)])] = 1.0
    kept = KEPT + 20 * op
    for k in range(s[U(NKEPT + op)]):
        o[U(OB_KEPT + NUM_BONUS + s[U(kept + k)])] = 1.0
    for k in range(s[NDISC]):
        if s[U(DISC_BY + k)] == me:
            o[U(OB_MYDISC + s[U(DISC + k)])] = 1.0
    for tok in range(5):
        if s[U(TOKST + tok)] == SUPPLY:
            o[OB_TOKENS + tok] = 1.0
    for k in range(s[NTD]):
        o[U(OB_DISCARDED + s[U(TD + k)])] = 1.0
    # the tail: effect, phase, scalars
    if s[EFFECT] >= 0:
        o[U(OB_EFFECT + s[EFFECT])] = 1.0
    o[U(OB_PHASE + s[PHASE])] = 1.0
    sc = OB_SCALARS
    o[sc] = np.float32(s[U(TURNS + me)] / 12.0)
    o[sc + 1] = np.float32(s[U(TURNS + op)] / 12.0)
    o[sc + 2] = np.float32(s[U(LIMITS + me)] / 5.0)
    o[sc + 3] = np.float32(s[U(LIMITS + op)] / 5.0)
    o[sc + 4] = np.float32(s[NSTACK] / 36.0)
    o[sc + 5] = np.float32(s[NDECK] / 20.0)
    o[sc + 6] = np.float32(s[NDISC] / 20.0)
    o[sc + 7] = 1.0 if s[U(EXTRA + me)] else 0.0
    o[sc + 8] = 1.0 if s[U(EXTRA + op)] else 0.0
    o[sc + 9] = 1.0 if s[U(OWED + me)] else 0.0
    o[sc + 10] = 1.0 if s[U(OWED + op)] else 0.0
    o[sc + 11] = 1.0 if s[START] == me else 0.0
    o[sc + 12] = 1.0 if s[TP] == me and not over else 0.0
    o[sc + 13] = 1.0 if s[ACTOR] == me else 0.0
    o[sc + 14] = 1.0 if over else 0.0
    o[sc + 15] = 1.0 if s[COND_C] != 0 or s[COND_X] != 0 else 0.0


@njit(cache=True)
def write_decisions(S, opts, obs, mask, seat, lo, hi):
    """The acting seat, its observation and legal mask of slots ``lo..hi-1`` (never over)."""
    for i in range(lo, hi):
        s = S[i]
        me = s[ACTOR]
        seat[i] = me
        _write_obs(s, opts, me, obs[i])
        _write_mask(s, mask[i])


@njit(cache=True)
def first_illegal(S, actions):
    """The first slot whose action is illegal for its acting seat, or -1."""
    for i in range(S.shape[0]):
        if not _legal(S[i], actions[i]):
            return i
    return -1



@njit(cache=True)
def global_states(S, opts, out):
    """``State.global_state()`` of every slot (``observation.STATE_SPEC``) into ``out``."""
    for i in range(S.shape[0]):
        o = out[i]
        s = S[i]
        _write_obs(s, opts, 0, o)
        for k in range(OBS_SIZE, STATE_SIZE):
            o[k] = 0.0
        for q in range(2):
            _write_hand(s, q, o, GS_HANDS + 6 * HROW * q, True)
        for pos in range(8):
            o[GS_EGGS + 8 * pos + s[U(EGGS + pos)]] = 1.0
        for j in range(s[NDRAWN]):
            o[GS_DRAW + NUM_BONUS * j + s[U(DRAWN + j)]] = 1.0
        for k in range(s[NDISC]):
            o[GS_DISC + NUM_BONUS * s[U(DISC_BY + k)] + s[U(DISC + k)]] = 1.0
        for k in range(s[NSTACK]):
            o[GS_STACK + s[U(STACK + k)]] = 1.0
        for k in range(s[NDECK]):
            o[GS_DECK + s[U(DECK + k)]] = 1.0
        if s[NSTACK] > 0:
            o[GS_STACK_TOP + s[U(STACK + s[NSTACK] - 1)]] = 1.0
        if s[NDECK] > 0:
            o[GS_DECK_TOP + s[U(DECK + s[NDECK] - 1)]] = 1.0

