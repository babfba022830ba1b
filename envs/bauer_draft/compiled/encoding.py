"""What a slot's asked seat sees and may do: the seat asked (a select asks every seat in turn),
legality, the mask and the observation (``bauer_draft_v0``'s encoding, written in place), and
the full-information global state."""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bauer_draft.actions import (
    COPY,
    COPY_CHOICE,
    COPY_DECLINE,
    COPY_LATER,
    COPY_OFFER,
    DAGA,
    DAGA_KEEP,
    DAGA_PLAY,
    DISCARD,
    MARTIN,
    NO_VILLE,
    NUM_ACTIONS,
    OLLE,
    OLLE_VILLE,
    OVER,
    PLAY,
    SELECT,
    SELECT_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
    WITCH_RIGHT,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.compiled.layout import (
    ASKED,
    C_COPIER,
    C_NIGHT,
    CENTRAL,
    COPIERS,
    COPY_MODE,
    COPY_TARGET,
    DAGA_READY,
    DAGA_USED,
    DAY_BITS,
    DECIDER,
    DISC,
    DISCB,
    ELIG,
    FIRST_C,
    FIRST_V,
    GS_ACTING,
    GS_CENTRAL,
    GS_COPIES,
    GS_DAGA,
    GS_DISC,
    GS_FOCUS,
    GS_HANDS,
    GS_MODE,
    GS_PASSED,
    GS_PHASE,
    GS_PILES,
    GS_ROUND,
    GS_SEL,
    GS_TAB,
    GS_VILLE,
    HAND,
    HAND_CAP,
    HAND_N,
    KIND,
    MEMB,
    NC,
    NCENTRAL,
    NDISC,
    NIGHT_BY,
    NIGHT_N,
    O_N,
    O_OBS_SIZE,
    O_PILE,
    O_STATE_SIZE,
    OB_CENTRAL,
    OB_COPIERS,
    OB_COPIES,
    OB_DAGA,
    OB_DECIDER,
    OB_DISC,
    OB_FOCUS,
    OB_HAND,
    OB_NIGHT,
    OB_NIGHT_BY,
    OB_PASSED,
    OB_PHASE,
    OB_PILE,
    OB_ROUND,
    OB_SEL,
    OB_SHIFT,
    OB_TAB,
    OB_VILLE,
    OFFER,
    OWNER,
    PILE,
    PILE_CAP,
    PILE_IDS,
    PILE_N,
    ROUND,
    SEL_C,
    SEL_N,
    SEL_V,
    SOURCE,
    TAB,
    _bit_index,
    _daga_available,
    _in_hand,
    _remembered_pile,
    _ville_ready,
)
from tablezoo.envs.bauer_draft.components import (
    DAGA_CARD,
    VILLE,
)
from tablezoo.envs.bauer_draft.effects import (
    COPY_DONE,
)


# --- who decides, what is legal -------------------------------------------------------------------
@njit(cache=True, inline="always")
def _seat(S, i):
    """The seat asked now: the lowest seat of a select not yet answered, else the decider."""
    return S[i, ASKED] if S[i, KIND] == SELECT else S[i, DECIDER]


@njit(cache=True, inline="always")
def _first_pick(S, i, p):
    """The first card of a Ville sub-step and whether it went via Daga (-1: none)."""
    if S[i, KIND] == SELECT_VILLE:
        return S[i, SEL_C + 2 * p], S[i, SEL_V + 2 * p] != 0
    return S[i, FIRST_C], S[i, FIRST_V] != 0


@njit(cache=True, inline="always")
def _legal(S, opts, i, p, a):
    """Action ``a`` is legal for seat ``p`` (the seat asked) in slot ``i``."""
    if a < 0 or a >= NUM_ACTIONS:
        return False
    kind = S[i, KIND]
    if kind in (SELECT, MARTIN, OLLE, YULE):
        if a >= DISCARD or (a >= DAGA_PLAY and not _daga_available(S, i, p)):
            return False
        return _in_hand(S, i, p, a % NC)
    if kind in (SELECT_VILLE, OLLE_VILLE, YULE_VILLE):
        if a == NO_VILLE:
            return True
        if a >= DISCARD:
            return False
        first, via = _first_pick(S, i, p)
        if a >= DAGA_PLAY and (via or not _daga_available(S, i, p)):
            return False
        return a % NC != first and _in_hand(S, i, p, a % NC)
    if kind == WITCH:
        return a in (WITCH_LEFT, WITCH_NONE) or (a == WITCH_RIGHT and opts[O_N] > 2)
    if kind == DAGA:
        if a == DAGA_KEEP:
            return True
        c = a - DISCARD
        return 0 <= c < NC and c != DAGA_CARD and S[i, OWNER + c] == p
    if kind == COPY_CHOICE:
        if a == COPY_LATER:
            return True
        c = a - COPY
        return 0 <= c < NC and S[i, OWNER + c] == p and ELIG[C_COPIER[S[i, SOURCE]], c] != 0
    if kind == COPY_OFFER:
        return a == COPY_DECLINE or a == COPY + S[i, OFFER]
    return False


@njit(cache=True)
def first_illegal(S, opts, actions):
    """The first slot whose action is illegal for its asked seat, or -1."""
    for i in range(S.shape[0]):
        if not _legal(S, opts, i, _seat(S, i), actions[i]):
            return i
    return -1


@njit(cache=True, inline="always")
def _write_mask(S, opts, i, p, mask):
    """Seat ``p``'s legal mask of slot ``i`` into ``mask[i]``."""
    for a in range(NUM_ACTIONS):
        mask[i, a] = False
    kind = S[i, KIND]
    daga = _daga_available(S, i, p)
    if kind in (SELECT, MARTIN, OLLE, YULE):
        for k in range(S[i, HAND_N + p]):
            c = S[i, HAND + p * HAND_CAP + k]
            mask[i, PLAY + c] = True
            if daga:
                mask[i, DAGA_PLAY + c] = True
    elif kind in (SELECT_VILLE, OLLE_VILLE, YULE_VILLE):
        mask[i, NO_VILLE] = True
        first, via = _first_pick(S, i, p)
        for k in range(S[i, HAND_N + p]):
            c = S[i, HAND + p * HAND_CAP + k]
            if c != first:
                mask[i, PLAY + c] = True
                if daga and not via:
                    mask[i, DAGA_PLAY + c] = True
    elif kind == WITCH:
        mask[i, WITCH_LEFT] = True
        mask[i, WITCH_NONE] = True
        mask[i, WITCH_RIGHT] = opts[O_N] > 2
    elif kind == DAGA:
        bits = S[i, TAB + p]
        for c in range(NC):
            if (bits >> c) & 1 and c != DAGA_CARD:
                mask[i, DISCARD + c] = True
        mask[i, DAGA_KEEP] = True
    elif kind == COPY_CHOICE:
        k = C_COPIER[S[i, SOURCE]]
        bits = S[i, TAB + p]
        for c in range(NC):
            if (bits >> c) & 1 and ELIG[k, c]:
                mask[i, COPY + c] = True
        mask[i, COPY_LATER] = True
    elif kind == COPY_OFFER:
        mask[i, COPY + S[i, OFFER]] = True
        mask[i, COPY_DECLINE] = True


# --- the observation ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _write_obs(S, opts, i, p, obs):
    """Seat ``p``'s observation of slot ``i`` (``bauer_draft_v0``'s encoding) into ``obs[i]``."""
    n = opts[O_N]
    kind = S[i, KIND]
    over = kind == OVER
    for k in range(opts[O_OBS_SIZE]):
        obs[i, k] = 0.0
    at = opts[OB_HAND]
    for k in range(S[i, HAND_N + p]):
        obs[i, at + S[i, HAND + p * HAND_CAP + k]] = 1.0
    if S[i, DECIDER] == p:
        c, via = -1, False
        if kind == SELECT_VILLE:
            c, via = S[i, SEL_C + 2 * p], S[i, SEL_V + 2 * p] != 0
        elif S[i, FIRST_C] >= 0:
            c, via = S[i, FIRST_C], S[i, FIRST_V] != 0
        if c >= 0:
            obs[i, opts[OB_SEL] + c] = 1.0
            if via:
                obs[i, opts[OB_SEL] + NC + c] = 1.0
        if S[i, SOURCE] >= 0:
            obs[i, opts[OB_FOCUS] + S[i, SOURCE]] = 1.0
        if S[i, OFFER] >= 0:
            obs[i, opts[OB_FOCUS] + S[i, OFFER]] = 1.0
    at = opts[OB_TAB]
    for r in range(n):
        s = (p + r) % n
        bits = S[i, TAB + s]
        if r > 0 and not over:
            bits &= DAY_BITS
        base = at + r * NC
        while bits:
            low = bits & -bits
            obs[i, base + _bit_index(low)] = 1.0
            bits ^= low
    at_night = opts[OB_NIGHT]
    for r in range(n):
        obs[i, at_night + r] = S[i, NIGHT_N + (p + r) % n]
    for k in range(3):
        s = S[i, OWNER + COPIERS[k]]
        if s < 0:
            continue
        r = (s - p) % n
        mode = S[i, COPY_MODE + k]
        obs[i, opts[OB_COPIERS] + (r * 3 + k) * 3 + mode] = 1.0
        if mode == COPY_DONE:
            target = S[i, COPY_TARGET + k]
            if C_NIGHT[target]:
                obs[i, at_night + r] += 1.0
                if r == 0 or over:
                    obs[i, opts[OB_COPIES] + r * NC + target] = 1.0
            else:
                obs[i, opts[OB_COPIES] + r * NC + target] = 1.0
    at = opts[OB_NIGHT_BY]
    for r in range(n):
        counts = S[i, NIGHT_BY + (p + r) % n]
        for b in range(5):
            obs[i, at + r * 5 + b] = (counts >> (8 * b)) & 255
    at = opts[OB_DISC]
    bits = S[i, DISCB]
    while bits:
        low = bits & -bits
        obs[i, at + _bit_index(low)] = 1.0
        bits ^= low
    rel = 0  # the seat (relative to p) of each pile id, 4 bits each
    for s in range(n):
        rel |= ((s - p) % n) << (4 * S[i, PILE_IDS + s])
    at = opts[OB_PASSED]
    bits = S[i, MEMB + p]
    while bits:
        low = bits & -bits
        c = _bit_index(low)
        obs[i, at + ((rel >> (4 * _remembered_pile(S, i, p, c))) & 15) * NC + c] = 1.0
        bits ^= low
    d = S[i, OWNER + DAGA_CARD]
    if d >= 0 and _daga_available(S, i, d):
        obs[i, opts[OB_DAGA] + (d - p) % n] = 1.0
    v = S[i, OWNER + VILLE]
    if v >= 0 and _ville_ready(S, i, v):
        obs[i, opts[OB_VILLE] + (v - p) % n] = 1.0
    obs[i, opts[OB_ROUND] + S[i, ROUND]] = 1.0
    at = opts[OB_PILE]
    for r in range(n):
        obs[i, at + r] = S[i, PILE_N + (p + r) % n]
    obs[i, opts[OB_SHIFT] + (n - S[i, PILE_IDS]) % n] = 1.0
    obs[i, opts[OB_CENTRAL]] = S[i, NCENTRAL]
    obs[i, opts[OB_PHASE] + kind] = 1.0
    at = opts[OB_DECIDER]
    if kind == SELECT:
        for r in range(n):
            obs[i, at + r] = 1.0
    elif not over:
        obs[i, at + (S[i, DECIDER] - p) % n] = 1.0


@njit(cache=True)
def write_decisions(S, opts, obs, mask, seat, lo, hi):
    """The asked seat, its observation and legal mask of slots ``lo..hi-1`` (never over:
    finished games were restarted)."""
    for i in range(lo, hi):
        write_decision(S, opts, obs, mask, seat, i)


@njit(cache=True, inline="always")
def write_decision(S, opts, obs, mask, seat, i):
    """Slot ``i``'s asked seat, observation and mask."""
    p = _seat(S, i)
    seat[i] = p
    _write_obs(S, opts, i, p, obs)
    _write_mask(S, opts, i, p, mask)


# --- the global state -----------------------------------------------------------------------------
@njit(cache=True)
def global_states(S, opts, out):
    """``State.global_state()`` of every slot (absolute seats) into ``out``."""
    n = opts[O_N]
    pile_size = np.float64(opts[O_PILE])
    for i in range(S.shape[0]):
        o = out[i]
        for k in range(opts[O_STATE_SIZE]):
            o[k] = 0.0
        kind = S[i, KIND]
        for s in range(n):
            for k in range(S[i, HAND_N + s]):
                o[opts[GS_HANDS] + s * NC + S[i, HAND + s * HAND_CAP + k]] = 1.0
            bits = S[i, TAB + s]
            for c in range(NC):
                if (bits >> c) & 1:
                    o[opts[GS_TAB] + s * NC + c] = 1.0
                if (S[i, MEMB + s] >> c) & 1:
                    o[opts[GS_PASSED] + s * NC + c] = 1.0
            for k in range(S[i, SEL_N + s]):
                via = S[i, SEL_V + 2 * s + k]
                o[opts[GS_SEL] + (s * 2 + via) * NC + S[i, SEL_C + 2 * s + k]] = 1.0
            size = S[i, PILE_N + s]
            for k in range(size):
                depth = size - 1 - k
                o[opts[GS_PILES] + s * NC + S[i, PILE + s * PILE_CAP + k]] = np.float32(
                    1.0 - depth / pile_size)
        if S[i, FIRST_C] >= 0:
            o[opts[GS_SEL] + (S[i, DECIDER] * 2 + S[i, FIRST_V]) * NC + S[i, FIRST_C]] = 1.0
        for k in range(3):
            o[opts[GS_MODE] + 3 * k + S[i, COPY_MODE + k]] = 1.0
            if S[i, COPY_MODE + k] == COPY_DONE:
                o[opts[GS_COPIES] + k * NC + S[i, COPY_TARGET + k]] = 1.0
        size = S[i, NCENTRAL]
        for k in range(size):
            depth = size - 1 - k
            o[opts[GS_CENTRAL] + S[i, CENTRAL + k]] = np.float32(1.0 - depth / NC)
        for k in range(S[i, NDISC]):
            o[opts[GS_DISC] + S[i, DISC + k]] = 1.0
        o[opts[GS_DAGA]] = S[i, DAGA_READY]
        o[opts[GS_DAGA] + 1] = S[i, DAGA_USED]
        v = S[i, OWNER + VILLE]
        if v >= 0 and _ville_ready(S, i, v):
            o[opts[GS_VILLE] + v] = 1.0
        o[opts[GS_ROUND] + S[i, ROUND]] = 1.0
        o[opts[GS_PHASE] + kind] = 1.0
        if kind == SELECT:
            for s in range(n):
                o[opts[GS_ACTING] + s] = 1.0
        elif kind != OVER:
            o[opts[GS_ACTING] + S[i, DECIDER]] = 1.0
        if S[i, SOURCE] >= 0:
            o[opts[GS_FOCUS] + S[i, SOURCE]] = 1.0
        if S[i, OFFER] >= 0:
            o[opts[GS_FOCUS] + S[i, OFFER]] = 1.0
