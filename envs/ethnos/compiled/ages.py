"""Ethnos' Ages over arrays (``ages`` and ``scoring`` of the Python engine): dealing an Age, its
end with the kingdoms, the Merfolk track, the Giant bonus, the Orc hordes and the bands, the next
Age's first player, and each seat's return (``scoring.returns``).

Every deal is the shared uniform ``shuffle`` of the Age's cards in type order, dealt from the top
as the Python engine deals, then the Dragons shuffled uniformly into the lower part.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.ethnos.compiled.layout import (
    ACTOR,
    AGE,
    BAND_CAT,
    BAND_W,
    BANDS,
    DECK,
    DISCARD,
    DISPLAY,
    DRAGON,
    DRAGONS,
    FIRST,
    GIANT_BONUS_CAT,
    GPLAYS,
    GSEAT,
    GSIZE,
    HAND_LEN,
    HANDS,
    HAS,
    KINGDOM_CAT,
    LOWER_LEFT,
    MAXB,
    MAXP,
    MERFOLK_CAT,
    NBANDS,
    NDECK,
    NGPLAYS,
    NORC,
    NPIECES,
    NT,
    O_2P_MERFOLK,
    O_AGES,
    O_GBONUS,
    O_GTROLL,
    O_MSLOTS,
    O_N,
    O_ORC_AUTO,
    O_ORC_GLORY,
    O_PER,
    O_REWARD,
    O_TIE_IPLUS,
    O_TROLL_RULEBOOK,
    ORC_CAT,
    ORC_PICK,
    ORCQ,
    OVER,
    PHASE,
    PIECE_AT,
    PIECE_COL,
    PIECE_W,
    REWARD_MARGIN,
    REWARD_SCORE,
    SC_FIRST,
    SC_GIANT,
    SC_GLORY,
    SC_HAND_SIZE,
    SC_HORDE,
    SC_KNOWN,
    SC_MARKERS,
    SC_MERFOLK,
    SC_THIRD,
    SC_TROLLS,
    SEAT,
    SK,
    TCOUNTS,
    TERMINAL,
    THIRD,
    TOKENS,
    TROLL_OWNER,
    TTRIBE,
    TURN,
    _band_value,
    _clear_band_context,
    _gain,
    _hand_to,
    _seat_at,
)
from tablezoo.envs.ethnos.components import DWARVES, MERFOLK, ORCS
from tablezoo.envs.vector.kernels import shuffle


@njit(cache=True)
def _troll_keys(S, i, opts, n, keys):
    """Per seat the Troll tie-break key as one int (order as the tuples of ``scoring``)."""
    s = S[i]
    rulebook = opts[O_TROLL_RULEBOOK] != 0
    for p in range(n):
        total = 0
        count = 0
        top = 0
        for v in range(6):
            if s[TROLL_OWNER + v] == p:
                total += v + 1
                count += 1
                top = v + 1
        keys[p] = total * 10 + top if rulebook else total * 100 + count * 10 + top


@njit(cache=True)
def _rank_award(values, keys, n, slots, nslots, award):
    """Algorithm R (``scoring.rank_award``) into ``award``."""
    order = np.empty(n, np.int64)
    combo = np.empty(n, np.int64)
    m = 0
    for p in range(n):
        award[p] = 0
        combo[p] = values[p] * 10000 + keys[p]
        if values[p] >= 1:
            order[m] = p
            m += 1
    for a in range(1, m):  # insertion sort, high first, stable
        p = order[a]
        b = a
        while b > 0 and combo[order[b - 1]] < combo[p]:
            order[b] = order[b - 1]
            b -= 1
        order[b] = p
    q = 0
    a = 0
    while a < m:
        b = a
        while b + 1 < m and combo[order[b + 1]] == combo[order[a]]:
            b += 1
        k = b - a + 1
        total = 0
        for s in range(q, q + k):
            if s < nslots:
                total += slots[s]
        for c in range(a, b + 1):
            award[order[c]] = total // k
        q += k
        a = b + 1


@njit(cache=True)
def _award(values, keys, n, low, high, two_p, tie_iplus, age_slots, nage, award):
    """``two_player_age_two`` when ``two_p``, else Algorithm R over ``age_slots``."""
    slots = np.empty(3, np.int64)
    if two_p:
        eligible = (1 if values[0] >= 1 else 0) + (1 if values[1] >= 1 else 0)
        if eligible == 1:
            slots[0] = low + high
            _rank_award(values, keys, n, slots, 1, award)
        elif eligible == 2 and values[0] == values[1] and keys[0] == keys[1]:
            slots[0] = high
            slots[1] = low
            _rank_award(values, keys, n, slots, 2 if tie_iplus else 1, award)
        else:
            slots[0] = high
            _rank_award(values, keys, n, slots, 1, award)
    else:
        _rank_award(values, keys, n, age_slots, nage, award)


@njit(cache=True)
def _score_age(S, i, opts, n):
    """§6 steps 2-4 (``scoring.score_age``)."""
    s = S[i]
    keys = np.empty(MAXP, np.int64)
    values = np.empty(MAXP, np.int64)
    award = np.empty(MAXP, np.int64)
    slots = np.empty(3, np.int64)
    _troll_keys(S, i, opts, n, keys)
    age = s[AGE]
    two_p = n == 2 and age == 1
    tie_iplus = opts[O_TIE_IPLUS] != 0
    per = opts[O_PER]
    for k in range(6):
        for p in range(n):
            values[p] = s[_seat_at(p, SC_MARKERS + k)]
        for a in range(age + 1):
            slots[a] = s[TOKENS + 3 * k + age - a]
        low = s[TOKENS + 3 * k]
        high = s[TOKENS + 3 * k + 1] if per > 1 else 0
        _award(values, keys, n, low, high, two_p, tie_iplus, slots, age + 1, award)
        for p in range(n):
            _gain(S, i, p, award[p], KINGDOM_CAT)
    if s[HAS + MERFOLK]:
        for p in range(n):
            values[p] = s[_seat_at(p, SC_MERFOLK)]
        for a in range(age + 1):
            slots[a] = opts[O_MSLOTS + age - a]
        _award(values, keys, n, opts[O_MSLOTS], opts[O_MSLOTS + 1],
               two_p and opts[O_2P_MERFOLK] != 0, tie_iplus, slots, age + 1, award)
        for p in range(n):
            _gain(S, i, p, award[p], MERFOLK_CAT)
    if s[GSEAT] >= 0:
        winner = s[GSEAT]
        if opts[O_GTROLL] != 0:
            size = s[GSIZE]
            best = -1
            best_key = -1
            for k in range(s[NGPLAYS]):  # the first play of each seat, in play order
                p = s[GPLAYS + 2 * k]
                if s[GPLAYS + 2 * k + 1] != size:
                    continue
                seen = False
                for j in range(k):
                    if s[GPLAYS + 2 * j] == p and s[GPLAYS + 2 * j + 1] == size:
                        seen = True
                if not seen and keys[p] > best_key:
                    best = p
                    best_key = keys[p]
            winner = best
        _gain(S, i, winner, opts[O_GBONUS + age], GIANT_BONUS_CAT)


@njit(cache=True)
def _start_age(S, rng, i, opts, age, deck):
    """§3 (``ages.start_age``): reshuffle every Ally, deal, insert the Dragons."""
    s = S[i]
    n = opts[O_N]
    s[AGE] = age
    for p in range(n):
        s[HAND_LEN + p] = 0
        for t in range(NT):
            s[HANDS + NT * p + t] = 0
        for j in range(NPIECES):  # known hand .. band glory, piece by piece
            if PIECE_COL[j] >= SC_KNOWN:
                at = np.uint64(SEAT + PIECE_AT[j] + p * PIECE_W[j])
                for k in range(np.uint64(PIECE_W[j])):
                    s[at + k] = 0
        s[_seat_at(p, SC_HAND_SIZE)] = 0
    for t in range(NT):
        s[DISCARD + t] = 0
        s[DISPLAY + t] = 0
    s[NBANDS] = 0
    m = 0
    for t in range(NT):
        c = 0
        for tribe in range(12):
            if s[HAS + tribe]:
                c += TCOUNTS[tribe, t]
        for _ in range(c):
            deck[m] = t
            m += 1
    state = shuffle(rng[i, 0], rng[i, 1], deck, m)
    for p in range(n):
        m -= 1
        c = deck[m]
        s[HANDS + NT * p + c] += 1
        s[HAND_LEN + p] = 1
        s[_seat_at(p, SC_HAND_SIZE)] = 1
    for _ in range(2 * n):
        m -= 1
        s[DISPLAY + deck[m]] += 1
    low = m // 2
    for k in range(m - 1, low - 1, -1):  # the upper part moves up by three
        deck[k + 3] = deck[k]
    for k in range(3):
        deck[low + k] = DRAGON
    state = shuffle(state, rng[i, 1], deck, low + 3)
    rng[i, 0] = state
    for k in range(m + 3):
        s[DECK + k] = deck[k]
    s[NDECK] = m + 3
    s[LOWER_LEFT] = low + 3
    s[DRAGONS] = 0
    for v in range(6):
        s[TROLL_OWNER + v] = -1
    for p in range(n):
        for v in range(6):
            s[_seat_at(p, SC_TROLLS) + v] = 0
        s[_seat_at(p, SC_GIANT)] = 0
        s[_seat_at(p, SC_FIRST)] = 0
        s[_seat_at(p, SC_THIRD)] = 0
    s[GSEAT] = -1
    s[GSIZE] = 0
    s[NGPLAYS] = 0
    s[_seat_at(s[FIRST], SC_FIRST)] = 1
    s[ACTOR] = s[FIRST]
    s[PHASE] = TURN
    _clear_band_context(S, i)


@njit(cache=True)
def _finish_age(S, rng, i, opts, deck):
    """§6 steps 6-8, then the next Age or the end (``ages.finish_age``)."""
    s = S[i]
    n = opts[O_N]
    for p in range(n):  # score_bands
        total = 0
        for b in range(s[NBANDS]):
            at = BANDS + BAND_W * b
            if s[at] != p:
                continue
            x = s[at + 1]
            size = x
            for c in range(x):
                if s[at + 2 + c] == SK:
                    size -= 1
            if TTRIBE[s[at + 2]] == DWARVES:
                size += 1
            total += _band_value(opts, size)
        _gain(S, i, p, total, BAND_CAT)
    for v in range(6):
        s[TROLL_OWNER + v] = -1
    for p in range(n):
        for v in range(6):
            s[_seat_at(p, SC_TROLLS + v)] = 0
        s[_seat_at(p, SC_GIANT)] = 0
    s[GSEAT] = -1
    s[GSIZE] = 0
    if s[AGE] == opts[O_AGES] - 1:
        s[TERMINAL] = 1
        s[PHASE] = OVER
        s[ACTOR] = -1
        return
    least = s[_seat_at(0, SC_GLORY)]
    for p in range(1, n):
        least = min(least, s[_seat_at(p, SC_GLORY)])
    start = s[THIRD] if s[THIRD] >= 0 else 0
    for k in range(n):
        p = (start + k) % n
        if s[_seat_at(p, SC_GLORY)] == least:
            s[FIRST] = p
            break
    _start_age(S, rng, i, opts, s[AGE] + 1, deck)


@njit(cache=True)
def _next_orc(S, rng, i, opts, deck):
    s = S[i]
    if s[NORC] > 0:
        s[ACTOR] = s[ORCQ]
        s[PHASE] = ORC_PICK
        return
    _finish_age(S, rng, i, opts, deck)


@njit(cache=True)
def _empty_horde(S, i, p, opts):
    s = S[i]
    count = 0
    for k in range(6):
        count += s[_seat_at(p, SC_HORDE + k)]
        s[_seat_at(p, SC_HORDE + k)] = 0
    _gain(S, i, p, opts[O_ORC_GLORY + count - 1], ORC_CAT)


@njit(cache=True)
def _end_age(S, rng, i, opts, deck):
    """§6 steps 1-5 (``ages.end_age``)."""
    s = S[i]
    n = opts[O_N]
    _clear_band_context(S, i)
    for p in range(n):
        _hand_to(s, p, DISCARD)
    _score_age(S, i, opts, n)
    s[NORC] = 0
    if s[HAS + ORCS]:
        auto = s[AGE] == opts[O_AGES] - 1 and opts[O_ORC_AUTO] != 0
        for k in range(n):
            p = (s[FIRST] + k) % n
            held = 0
            for c in range(6):
                held += s[_seat_at(p, SC_HORDE + c)]
            if held >= 1:
                if auto:
                    _empty_horde(S, i, p, opts)
                else:
                    s[ORCQ + s[NORC]] = p
                    s[NORC] += 1
    _next_orc(S, rng, i, opts, deck)


@njit(cache=True)
def _rank_better(S, i, p, q, sizes, nsizes):
    """-1, 0 or 1: seat ``p``'s §8 key below, equal to or above seat ``q``'s."""
    s = S[i]
    gp = s[_seat_at(p, SC_GLORY)]
    gq = s[_seat_at(q, SC_GLORY)]
    if gp != gq:
        return 1 if gp > gq else -1
    mp = 0
    mq = 0
    for k in range(6):
        mp += s[_seat_at(p, SC_MARKERS + k)]
        mq += s[_seat_at(q, SC_MARKERS + k)]
    if mp != mq:
        return 1 if mp > mq else -1
    for k in range(max(nsizes[p], nsizes[q])):
        a = sizes[p, k] if k < nsizes[p] else 0
        b = sizes[q, k] if k < nsizes[q] else 0
        if a != b:
            return 1 if a > b else -1
    return 0


@njit(cache=True)
def _returns(S, i, opts, out):
    """``scoring.returns`` of slot ``i`` into ``out[:n]`` (float64)."""
    s = S[i]
    n = opts[O_N]
    mode = opts[O_REWARD]
    if mode == REWARD_SCORE:
        for p in range(n):
            out[p] = np.float64(s[_seat_at(p, SC_GLORY)])
        return
    if mode == REWARD_MARGIN:
        for p in range(n):
            best = -(1 << 62)
            for q in range(n):
                if q != p:
                    best = max(best, s[_seat_at(q, SC_GLORY)])
            out[p] = np.float64(s[_seat_at(p, SC_GLORY)] - best)
        return
    if s[TERMINAL] == 0:
        for p in range(n):
            out[p] = 0.0
        return
    sizes = np.zeros((MAXP, MAXB), np.int64)
    nsizes = np.zeros(MAXP, np.int64)
    for b in range(s[NBANDS]):
        at = BANDS + BAND_W * b
        p = s[at]
        x = s[at + 1]
        size = x
        for c in range(x):
            if s[at + 2 + c] == SK:
                size -= 1
        k = nsizes[p]
        while k > 0 and sizes[p, k - 1] < size:  # descending
            sizes[p, k] = sizes[p, k - 1]
            k -= 1
        sizes[p, k] = size
        nsizes[p] += 1
    for p in range(n):
        better = 0
        equal = 0
        for q in range(n):
            c = _rank_better(S, i, q, p, sizes, nsizes)
            if c > 0:
                better += 1
            elif c == 0:
                equal += 1
        total = 0.0
        for k in range(better, better + equal):
            total += 1.0 - 2.0 * k / (n - 1)
        out[p] = total / equal
