"""Ethnos' decisions over arrays (``EthnosState._do`` and ``bands``): drawing, recruiting, building
and resolving a band (marker step, leader ability, Centaur follow-up, discard, Wizard draw),
Orc choices, the legality of one action and ``auto_single_choice``.

``_resolve`` runs the chain of ``bands`` from a given stage and stops where a seat must decide.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.ethnos.compiled.ages import (
    _empty_horde,
    _end_age,
    _next_orc,
)
from tablezoo.envs.ethnos.compiled.layout import (
    A_ADD,
    A_CSTOP,
    A_ELF_DONE,
    A_ELF_KEEP,
    A_FINISH,
    A_KINGDOM,
    A_LEADER,
    A_OEMPTY,
    A_OKEEP,
    A_PASS,
    A_RECRUIT_DECK,
    A_TROLL,
    A_WDRAW,
    A_WSKIP,
    ACTOR,
    BAND_W,
    BANDS,
    BLEAD,
    BLEN,
    BUILD,
    BUILDING,
    CENTAUR_PICK,
    COLOUR_OK,
    CUR_LEADER,
    CUR_PLACED,
    CUR_X,
    DECK,
    DISPLAY,
    DRAGON,
    DRAGONS,
    ELF_KEPT,
    ELF_N,
    ELF_PICK,
    GIANT_CLAIM_CAT,
    GPLAYS,
    GSEAT,
    GSIZE,
    HAND_LEN,
    HANDS,
    LOWER_LEFT,
    MERFOLK_PICK,
    MLEFT,
    NBANDS,
    NDECK,
    NGPLAYS,
    NORC,
    NT,
    NUM_ACTIONS,
    O_AUTO,
    O_CENTAUR_MARKER,
    O_DRAW_TWO,
    O_GCLAIM,
    O_MAX_DEC,
    O_MEND,
    O_N,
    O_NSPACES,
    O_PER_SPACE,
    O_SPACES,
    ORC_PICK,
    ORCQ,
    PHASE,
    SC_BCARDS,
    SC_BGLORY,
    SC_BLEADERS,
    SC_BSCORED,
    SC_BTS,
    SC_GIANT,
    SC_HAND_SIZE,
    SC_HORDE,
    SC_KNOWN,
    SC_MARKERS,
    SC_MERFOLK,
    SC_THIRD,
    SC_TROLLS,
    SK,
    ST_ABILITY,
    ST_AFTER_ABILITY,
    ST_AFTER_DISCARD,
    ST_DISCARD,
    ST_MARKER,
    ST_NEXT_MERFOLK,
    TCOLOUR,
    TERMINAL,
    THIRD,
    TRIBE_OK,
    TROLL_OWNER,
    TROLL_PICK,
    TTRIBE,
    TURN,
    WINGFOLK_PICK,
    WIZARD_PICK,
    _band_value,
    _clear_band_context,
    _decisions,
    _end_turn,
    _gain,
    _hand_to,
    _marker_test,
    _markers_available,
    _seat_at,
)
from tablezoo.envs.ethnos.components import (
    CENTAURS,
    DWARVES,
    ELVES,
    GIANTS,
    HALFLINGS,
    MERFOLK,
    MINOTAURS,
    ORCS,
    TROLLS,
    WINGFOLK,
    WIZARDS,
)


@njit(cache=True)
def _draw(S, rng, i, p, opts, deck):
    """Deck draw procedure D (§4.1): True if the third Dragon ended the Age."""
    s = S[i]
    while True:
        m = s[NDECK] - 1
        s[NDECK] = m
        c = s[DECK + m]
        if m < s[LOWER_LEFT]:
            s[LOWER_LEFT] = m
        if c == DRAGON:
            s[DRAGONS] += 1
            if s[DRAGONS] == 3:
                s[THIRD] = p
                s[_seat_at(p, SC_THIRD)] = 1
                _end_age(S, rng, i, opts, deck)
                return True
            continue
        s[HANDS + NT * p + c] += 1
        s[HAND_LEN + p] += 1
        s[_seat_at(p, SC_HAND_SIZE)] += 1
        return False


@njit(cache=True)
def _start_band(S, i, p, lead):
    s = S[i]
    s[HANDS + NT * p + lead] -= 1
    s[HAND_LEN + p] -= 1
    s[BUILDING + lead] += 1
    s[BLEAD] = lead
    s[BLEN] = 1
    s[TRIBE_OK] = 1
    s[COLOUR_OK] = 1
    s[PHASE] = BUILD


@njit(cache=True)
def _finish_band(S, i, p, opts):
    """FINISH_BAND: the band becomes public (``bands.finish_band``), then the marker step."""
    s = S[i]
    lead = s[BLEAD]
    x = s[BLEN]
    b = s[NBANDS]
    at = BANDS + BAND_W * b
    s[NBANDS] = b + 1
    s[at] = p
    s[at + 1] = x
    s[at + 2] = lead
    c = at + 3
    for t in range(NT):
        count = s[BUILDING + t]
        if count != 0:
            for _ in range(count - (1 if t == lead else 0)):
                s[c] = t
                c += 1
    # the counts move in one vectorized loop (a zero count changes nothing: known is never
    # negative)
    u = np.uint64
    cards = u(_seat_at(p, SC_BCARDS))
    known_at = u(_seat_at(p, SC_KNOWN))
    for t in range(u(NT)):
        count = s[u(BUILDING) + t]
        s[cards + t] += count
        known = s[known_at + t] - count
        s[known_at + t] = known if known > 0 else 0
        s[u(BUILDING) + t] = 0
    tribe = TTRIBE[lead]
    s[_seat_at(p, SC_BLEADERS) + lead] += 1
    s[_seat_at(p, SC_BTS) + tribe * 10 + x - 1] += 1
    scored = x
    for k in range(x):
        if s[at + 2 + k] == SK:
            scored -= 1
    s[_seat_at(p, SC_BSCORED) + scored - 1] += 1
    s[_seat_at(p, SC_BGLORY)] += _band_value(opts, scored + (1 if tribe == DWARVES else 0))
    s[_seat_at(p, SC_HAND_SIZE)] -= x
    s[BLEAD] = -1
    s[BLEN] = 0
    s[CUR_LEADER] = lead
    s[CUR_X] = x
    s[CUR_PLACED] = 0


@njit(cache=True)
def _resolve(S, rng, i, p, opts, stage, deck):
    """The band chain of ``bands`` from ``stage`` on, until a seat must decide or the turn
    (or the Age) ends."""
    s = S[i]
    n = opts[O_N]
    lead = s[CUR_LEADER]
    tribe = TTRIBE[lead]
    x = s[CUR_X]
    if stage == ST_MARKER:
        e = x + (1 if tribe == MINOTAURS else 0)
        if tribe == HALFLINGS or not _markers_available(S, i, p, opts):
            pass
        elif tribe == WINGFOLK:
            for k in range(6):
                if _marker_test(S, i, p, k, e, n):
                    s[PHASE] = WINGFOLK_PICK
                    return
        else:
            k = TCOLOUR[lead]
            if _marker_test(S, i, p, k, e, n):
                s[_seat_at(p, SC_MARKERS + k)] += 1
                s[CUR_PLACED] = 1
        stage = ST_ABILITY
    if stage == ST_ABILITY:
        stage = ST_AFTER_ABILITY
        if tribe == GIANTS:
            g = s[NGPLAYS]
            s[GPLAYS + 2 * g] = p
            s[GPLAYS + 2 * g + 1] = x
            s[NGPLAYS] = g + 1
            holder = s[GSEAT]
            if holder < 0 or x > s[GSIZE]:
                if holder >= 0:
                    s[_seat_at(holder, SC_GIANT)] = 0
                s[GSEAT] = p
                s[GSIZE] = x
                s[_seat_at(p, SC_GIANT)] = 1
                _gain(S, i, p, opts[O_GCLAIM], GIANT_CLAIM_CAT)
        elif tribe == ORCS:
            k = TCOLOUR[lead]
            if s[_seat_at(p, SC_HORDE + k)] == 0 and _markers_available(S, i, p, opts):
                s[_seat_at(p, SC_HORDE + k)] = 1
        elif tribe == MERFOLK:
            old = s[_seat_at(p, SC_MERFOLK)]
            new = min(opts[O_MEND], old + x)
            passed = 0
            for k in range(opts[O_NSPACES]):
                space = opts[O_SPACES + k]
                if old < space <= new:
                    passed += 1
            if opts[O_PER_SPACE] == 0:
                passed = min(passed, 1)
            s[_seat_at(p, SC_MERFOLK)] = new
            s[MLEFT] = passed
            stage = ST_NEXT_MERFOLK
        elif tribe == TROLLS:
            for v in range(min(6, x)):
                if s[TROLL_OWNER + v] < 0:
                    s[PHASE] = TROLL_PICK
                    return
    if stage == ST_NEXT_MERFOLK:
        if s[MLEFT] > 0 and _markers_available(S, i, p, opts):
            s[PHASE] = MERFOLK_PICK
            return
        s[MLEFT] = 0
        stage = ST_AFTER_ABILITY
    if stage == ST_AFTER_ABILITY:
        if tribe == CENTAURS:
            follow = s[HAND_LEN + p] - s[HANDS + NT * p + SK] > 0
            if opts[O_CENTAUR_MARKER] != 0 and s[CUR_PLACED] == 0:
                follow = False
            if follow:
                s[PHASE] = CENTAUR_PICK
                return
        stage = ST_DISCARD
    if stage == ST_DISCARD:
        if tribe == ELVES and s[HAND_LEN + p] > 0:
            s[PHASE] = ELF_PICK
            return
        _hand_to(s, p, DISPLAY)
        stage = ST_AFTER_DISCARD
    if stage == ST_AFTER_DISCARD and tribe == WIZARDS:
        s[PHASE] = WIZARD_PICK
        return
    _end_turn(S, i, n)


@njit(cache=True)
def _finish_elf(S, rng, i, p, opts, deck):
    s = S[i]
    known_at = _seat_at(p, SC_KNOWN)
    for t in range(NT):
        rest = s[HANDS + NT * p + t]
        s[DISPLAY + t] += rest
        known = s[known_at + t] - rest
        s[known_at + t] = known if known > 0 else 0
        s[HANDS + NT * p + t] = s[ELF_KEPT + t]
        s[ELF_KEPT + t] = 0
    s[HAND_LEN + p] = s[ELF_N]
    s[_seat_at(p, SC_HAND_SIZE)] = s[ELF_N]
    _resolve(S, rng, i, p, opts, ST_AFTER_DISCARD, deck)


@njit(cache=True)
def _is_legal(S, i, a, opts):
    """Whether action ``a`` is legal for slot ``i``'s acting seat (``_compute_mask``)."""
    s = S[i]
    if s[TERMINAL] != 0 or _decisions(S, i) >= opts[O_MAX_DEC] or not 0 <= a < NUM_ACTIONS:
        return False
    p = s[ACTOR]
    phase = s[PHASE]
    h = HANDS + NT * p
    hand_len = s[HAND_LEN + p]
    if phase == TURN:
        if a < A_RECRUIT_DECK:
            return hand_len < 10 and s[DISPLAY + a] > 0
        if a == A_RECRUIT_DECK:
            return hand_len < 10
        if A_LEADER <= a < A_LEADER + SK:
            return s[h + a - A_LEADER] > 0
        if a == A_PASS:
            return hand_len >= 10 and s[h + SK] >= hand_len
        return False
    if phase == BUILD:
        if a == A_FINISH:
            return True
        if not A_ADD <= a < A_FINISH:
            return False
        t = a - A_ADD
        if s[h + t] <= 0:
            return False
        if t == SK:
            return True
        lead = s[BLEAD]
        return ((s[TRIBE_OK] != 0 and TTRIBE[t] == TTRIBE[lead])
                or (s[COLOUR_OK] != 0 and TCOLOUR[t] == TCOLOUR[lead]))
    if phase == WINGFOLK_PICK:
        return A_KINGDOM <= a < A_KINGDOM + 6 and _marker_test(S, i, p, a - A_KINGDOM,
                                                                s[CUR_X], opts[O_N])
    if phase == MERFOLK_PICK:
        return A_KINGDOM <= a < A_KINGDOM + 6
    if phase == TROLL_PICK:
        v = a - A_TROLL
        return 0 <= v < min(6, s[CUR_X]) and s[TROLL_OWNER + v] < 0
    if phase == CENTAUR_PICK:
        if a == A_CSTOP:
            return True
        return A_LEADER <= a < A_LEADER + SK and s[h + a - A_LEADER] > 0
    if phase == ELF_PICK:
        if a == A_ELF_DONE:
            return True
        return A_ELF_KEEP <= a < A_ELF_DONE and s[h + a - A_ELF_KEEP] > 0
    if phase == WIZARD_PICK:
        return a in (A_WDRAW, A_WSKIP)
    if phase == ORC_PICK:
        return a in (A_OEMPTY, A_OKEEP)
    return False


@njit(cache=True)
def _do(S, rng, i, p, a, opts, deck):
    """Apply the legal action ``a`` of seat ``p`` (``EthnosState._do``)."""
    s = S[i]
    n = opts[O_N]
    phase = s[PHASE]
    h = HANDS + NT * p
    if phase == TURN:
        if a < A_RECRUIT_DECK:
            s[DISPLAY + a] -= 1
            s[h + a] += 1
            s[_seat_at(p, SC_KNOWN + a)] += 1
            s[HAND_LEN + p] += 1
            s[_seat_at(p, SC_HAND_SIZE)] += 1
            _end_turn(S, i, n)
        elif a == A_RECRUIT_DECK:
            draws = 1
            if opts[O_DRAW_TWO] != 0:
                empty = True
                for t in range(NT):
                    if s[DISPLAY + t] != 0:
                        empty = False
                        break
                if empty:
                    draws = min(2, 10 - s[HAND_LEN + p])
            for _ in range(draws):
                if _draw(S, rng, i, p, opts, deck):
                    return
            _end_turn(S, i, n)
        elif a == A_PASS:
            s[_seat_at(p, SC_KNOWN + SK)] = s[h + SK]
            _end_turn(S, i, n)
        else:
            _start_band(S, i, p, a - A_LEADER)
    elif phase == BUILD:
        if a == A_FINISH:
            _finish_band(S, i, p, opts)
            _resolve(S, rng, i, p, opts, ST_MARKER, deck)
        else:
            t = a - A_ADD
            s[h + t] -= 1
            s[HAND_LEN + p] -= 1
            s[BUILDING + t] += 1
            s[BLEN] += 1
            if t != SK:
                lead = s[BLEAD]
                if TTRIBE[t] != TTRIBE[lead]:
                    s[TRIBE_OK] = 0
                if TCOLOUR[t] != TCOLOUR[lead]:
                    s[COLOUR_OK] = 0
    elif phase == WINGFOLK_PICK:
        s[_seat_at(p, SC_MARKERS + a - A_KINGDOM)] += 1
        s[CUR_PLACED] = 1
        _resolve(S, rng, i, p, opts, ST_ABILITY, deck)
    elif phase == MERFOLK_PICK:
        s[_seat_at(p, SC_MARKERS + a - A_KINGDOM)] += 1
        s[MLEFT] -= 1
        _resolve(S, rng, i, p, opts, ST_NEXT_MERFOLK, deck)
    elif phase == TROLL_PICK:
        v = a - A_TROLL
        s[TROLL_OWNER + v] = p
        s[_seat_at(p, SC_TROLLS + v)] = 1
        _resolve(S, rng, i, p, opts, ST_AFTER_ABILITY, deck)
    elif phase == CENTAUR_PICK:
        if a == A_CSTOP:
            _resolve(S, rng, i, p, opts, ST_DISCARD, deck)
        else:
            _clear_band_context(S, i)
            _start_band(S, i, p, a - A_LEADER)
    elif phase == ELF_PICK:
        if a == A_ELF_DONE:
            _finish_elf(S, rng, i, p, opts, deck)
        else:
            t = a - A_ELF_KEEP
            s[h + t] -= 1
            s[HAND_LEN + p] -= 1
            s[ELF_KEPT + t] += 1
            s[ELF_N] += 1
            if s[ELF_N] >= s[CUR_X] or s[HAND_LEN + p] == 0:
                _finish_elf(S, rng, i, p, opts, deck)
    elif phase == WIZARD_PICK:
        if a == A_WDRAW:
            for _ in range(s[CUR_X]):
                if _draw(S, rng, i, p, opts, deck):
                    return
        _end_turn(S, i, n)
    elif phase == ORC_PICK:
        m = s[NORC] - 1
        for k in range(m):
            s[ORCQ + k] = s[ORCQ + k + 1]
        s[NORC] = m
        if a == A_OEMPTY:
            _empty_horde(S, i, p, opts)
        _next_orc(S, rng, i, opts, deck)


@njit(cache=True)
def _auto_advance(S, R, rng, opts, i, deck):
    """Option ``auto_single_choice``: apply decisions with exactly one legal action."""
    s = S[i]
    if opts[O_AUTO] == 0:
        return
    while s[TERMINAL] == 0:
        only = -1
        count = 0
        for a in range(NUM_ACTIONS):
            if _is_legal(S, i, a, opts):
                count += 1
                only = a
                if count > 1:
                    break
        if count != 1:
            return
        _do(S, rng, i, s[ACTOR], only, opts, deck)
