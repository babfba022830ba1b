"""The rules of ``bauer_draft`` over the position matrix: the deal, the round, the Day
characters' effects (the queue), each decision's consequences, and the step over every slot."""

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
    OLLE,
    OLLE_VILLE,
    OVER,
    SELECT,
    SELECT_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.compiled.encoding import first_illegal, write_decision
from tablezoo.envs.bauer_draft.compiled.layout import (
    ASKED,
    C_COPIER,
    C_EFFECT,
    C_NIGHT,
    CENTRAL,
    COPIERS,
    COPY_MODE,
    COPY_SINCE,
    COPY_TARGET,
    DAGA_READY,
    DAGA_USED,
    DECIDER,
    DECISIONS,
    E_COPIER,
    E_DAGA,
    E_MARTIN,
    E_OLLE,
    E_UGGEL,
    E_WITCH,
    ELIG_BITS,
    FIRST_C,
    FIRST_V,
    HAND,
    HAND_CAP,
    HAND_N,
    KIND,
    MAXP,
    MEMB,
    NC,
    NCENTRAL,
    NCOL,
    NEXT_SEQ,
    NIGHT_BITS,
    O_MAX_DEC,
    O_N,
    O_PILE,
    O_ROUNDS,
    OFFER,
    OWNER,
    PBY,
    PEND,
    PILE,
    PILE_CAP,
    PILE_IDS,
    PILE_N,
    PROUND,
    QCAP,
    QHEAD,
    QLEN,
    QUEUE,
    ROUND,
    SEL_C,
    SEL_N,
    SEL_V,
    SEQ,
    SOURCE,
    TAB,
    TRK_E,
    TRK_P,
    _bit_index,
    _daga_available,
    _daga_swap,
    _decide,
    _discard,
    _has_copy_option,
    _leave_tableau,
    _play,
    _play_central,
    _pop_central,
    _q_push,
    _remember,
    _ville_ready,
)
from tablezoo.envs.bauer_draft.compiled.scoring import returns
from tablezoo.envs.bauer_draft.components import (
    DAGA_CARD,
    VILLE,
    YULE_CARD,
)
from tablezoo.envs.bauer_draft.effects import (
    BY_DAGA,
    BY_MARTIN,
    BY_OLLE,
    BY_SELECT,
    BY_YULE,
    COPY_DONE,
    COPY_NONE,
    COPY_WAIT,
    TASK_COPY_CHOICE,
    TASK_DAGA_CARDS,
    TASK_EFFECT,
)
from tablezoo.envs.vector.kernels import shuffle


# --- the round ------------------------------------------------------------------------------------
@njit(cache=True)
def _start_round(S, i, n):
    """Draw: every seat takes the top 3 cards of the pile in front of it."""
    for s in range(n):
        S[i, TRK_P + s] = 0  # a drawn-from pile: the place is unknown again
    for s in range(n):
        top = S[i, PILE_N + s]
        take = min(3, top)
        for k in range(take):
            c = S[i, PILE + s * PILE_CAP + top - 1 - k]
            S[i, HAND + s * HAND_CAP + k] = c
            S[i, MEMB + s] &= ~(1 << c)
        S[i, HAND_N + s] = take
        S[i, PILE_N + s] = top - take
    S[i, KIND] = SELECT
    S[i, DECIDER] = -1
    S[i, SOURCE] = -1
    S[i, ASKED] = 0


@njit(cache=True)
def _deal(S, rng, opts, i, deck):
    """Slot ``i`` starts a new game: a uniform deal, everything else from zero."""
    n, size = opts[O_N], opts[O_PILE]
    for k in range(NCOL):
        S[i, k] = 0
    for k in range(NC):
        deck[k] = k
        S[i, OWNER + k] = -1
        S[i, SEQ + k] = -1
        S[i, PROUND + k] = -1
        S[i, PBY + k] = -1
    rng[i, 0] = shuffle(rng[i, 0], rng[i, 1], deck, NC)
    for s in range(n):
        S[i, PILE_IDS + s] = s
        for k in range(size):
            S[i, PILE + s * PILE_CAP + k] = deck[s * size + k]
        S[i, PILE_N + s] = size
    for k in range(NC - n * size):
        S[i, CENTRAL + k] = deck[n * size + k]
    S[i, NCENTRAL] = NC - n * size
    for k in range(3):
        S[i, COPY_TARGET + k] = -1
    S[i, OFFER] = -1
    S[i, FIRST_C] = -1
    _start_round(S, i, n)


@njit(cache=True)
def new_games(S, rng, opts, lo, hi):
    """A new game in slots ``lo..hi-1``."""
    deck = np.empty(NC, np.int64)
    for i in range(lo, hi):
        _deal(S, rng, opts, i, deck)


@njit(cache=True)
def _shuffle_piles(S, rng, i, n):
    """Uggel-Guggel: every pile shuffled on its own; tracked cards in piles: pile known only."""
    in_piles = 0
    for s in range(n):
        size = S[i, PILE_N + s]
        at = PILE + s * PILE_CAP
        if size > 1:
            rng[i, 0] = shuffle(rng[i, 0], rng[i, 1], S[i, at:at + size], size)
        for k in range(size):
            in_piles |= 1 << S[i, at + k]
    for q in range(n):
        moved = (S[i, TRK_E + q] | S[i, TRK_P + q]) & in_piles
        S[i, TRK_E + q] &= ~in_piles
        S[i, TRK_P + q] |= moved


@njit(cache=True)
def _move_piles(S, i, n, a):
    """The Witch: every pile one seat left (seat s's pile to s + 1) or right."""
    if a == WITCH_NONE:
        return
    step = 1 if a == WITCH_LEFT else n - 1
    tmp = np.empty(MAXP * (PILE_CAP + 2), np.int64)
    for s in range(n):
        tmp[s * (PILE_CAP + 2)] = S[i, PILE_N + s]
        tmp[s * (PILE_CAP + 2) + 1] = S[i, PILE_IDS + s]
        for k in range(PILE_CAP):
            tmp[s * (PILE_CAP + 2) + 2 + k] = S[i, PILE + s * PILE_CAP + k]
    for s in range(n):
        src = ((s - step) % n) * (PILE_CAP + 2)
        S[i, PILE_N + s] = tmp[src]
        S[i, PILE_IDS + s] = tmp[src + 1]
        for k in range(PILE_CAP):
            S[i, PILE + s * PILE_CAP + k] = tmp[src + 2 + k]


@njit(cache=True)
def _ask_copy(S, i, copier, p):
    """A copier chooses "copy now" or "later" (only "later" possible: not asked)."""
    if S[i, OWNER + copier] != p:
        return False
    k = C_COPIER[copier]
    S[i, COPY_MODE + k] = COPY_NONE
    S[i, COPY_TARGET + k] = -1
    if _has_copy_option(S, i, k, p):
        _decide(S, i, COPY_CHOICE, p, copier)
        return True
    S[i, COPY_MODE + k] = COPY_WAIT
    S[i, COPY_SINCE + k] = S[i, NEXT_SEQ]
    return False


@njit(cache=True)
def _run_task(S, rng, i, n, entry, rev):
    """Run one queued step; True when it stopped at a decision."""
    p = entry % 8
    card = (entry // 8) % 64 - 1
    task = entry // 512
    if task == TASK_DAGA_CARDS:
        _play_central(S, i, n, p, 2, rev, -1, BY_DAGA)
        return False
    if task == TASK_COPY_CHOICE:
        return _ask_copy(S, i, card, p)
    if S[i, OWNER + card] != p:  # the character left the tableau before resolving
        if card == DAGA_CARD:
            S[i, DAGA_READY] = 1
        return False
    effect = C_EFFECT[card]
    if effect == E_UGGEL:
        _shuffle_piles(S, rng, i, n)
    elif effect == E_WITCH:
        _decide(S, i, WITCH, p, card)
        return True
    elif effect == E_MARTIN:
        if S[i, NCENTRAL] > 0:
            c = _pop_central(S, i)
            if _daga_available(S, i, p):
                S[i, HAND + p * HAND_CAP] = c
                S[i, HAND_N + p] = 1
                _decide(S, i, MARTIN, p, card)
                return True
            _play(S, i, n, p, c, rev, -1, BY_MARTIN)
    elif effect == E_OLLE:
        take = min(2, S[i, NCENTRAL])
        if take > 0:
            for k in range(take):
                S[i, HAND + p * HAND_CAP + k] = _pop_central(S, i)
            if take == 1 and not _daga_available(S, i, p):
                _play(S, i, n, p, S[i, HAND + p * HAND_CAP], rev, -1, BY_OLLE)
            else:
                S[i, HAND_N + p] = take
                _decide(S, i, OLLE, p, card)
                return True
    elif effect == E_DAGA:
        if S[i, DAGA_USED] == 0 and (S[i, TAB + p] & ~(1 << card)) != 0:
            _decide(S, i, DAGA, p, card)
            return True
        S[i, DAGA_READY] = 1
    elif effect == E_COPIER:
        return _ask_copy(S, i, card, p)
    return False


@njit(cache=True)
def _offer_copy(S, i):
    """End of the queue: offer each copy-later copier its next eligible later card."""
    for k in range(3):
        if S[i, COPY_MODE + k] != COPY_WAIT:
            continue
        copier = COPIERS[k]
        p = S[i, OWNER + copier]
        if p < 0:
            continue
        since = S[i, COPY_SINCE + k]
        bits = S[i, TAB + p] & ELIG_BITS[k]
        best, best_seq = -1, -1
        while bits:
            low = bits & -bits
            bits ^= low
            c = _bit_index(low)
            q = S[i, SEQ + c]
            if q >= since and (best < 0 or q < best_seq):
                best, best_seq = c, q
        if best >= 0:
            _decide(S, i, COPY_OFFER, p, copier)
            S[i, OFFER] = best
            return True
    return False


@njit(cache=True)
def _start_yule(S, i, n, rev):
    """After the last round the Yule Goat's owner takes the 2 cards left in their pile."""
    p = S[i, OWNER + YULE_CARD]
    if p < 0 or S[i, PILE_N + p] == 0:
        return False
    size = S[i, PILE_N + p]
    for k in range(size):
        c = S[i, PILE + p * PILE_CAP + size - 1 - k]
        S[i, HAND + p * HAND_CAP + k] = c
        S[i, MEMB + p] &= ~(1 << c)
        bit = 1 << c
        for q in range(n):  # the whole pile went to the hand: the place is known
            if (S[i, TRK_E + q] | S[i, TRK_P + q]) & bit:
                S[i, TRK_E + q] |= bit
                S[i, TRK_P + q] &= ~bit
    S[i, PILE_N + p] = 0
    if size == 1 and not _daga_available(S, i, p):
        _play(S, i, n, p, S[i, HAND + p * HAND_CAP], rev, -1, BY_YULE)
        return False
    S[i, HAND_N + p] = size
    _decide(S, i, YULE, p, YULE_CARD)
    return True


@njit(cache=True)
def _resume(S, rng, opts, i, rev):
    """Run queued effects and automatic steps until a decision is needed or the game ends."""
    n = opts[O_N]
    S[i, FIRST_C] = -1
    S[i, FIRST_V] = 0
    S[i, OFFER] = -1
    last = opts[O_ROUNDS] - 1
    while True:
        while S[i, QLEN] > 0:
            head = S[i, QHEAD]
            entry = S[i, QUEUE + head]
            S[i, QHEAD] = (head + 1) % QCAP
            S[i, QLEN] -= 1
            if _run_task(S, rng, i, n, entry, rev):
                return
        if _offer_copy(S, i):
            return
        if S[i, ROUND] < last:
            S[i, ROUND] += 1
            _start_round(S, i, n)
            return
        if S[i, ROUND] == last:
            S[i, ROUND] += 1  # the Yule Goat stage after the final round
            if _start_yule(S, i, n, rev):
                return
            continue
        S[i, KIND] = OVER
        S[i, DECIDER] = -1
        S[i, SOURCE] = -1
        return


@njit(cache=True)
def _finish_select(S, rng, opts, i, rev):
    """Pass the unkept cards left, then reveal the selections and run the effect queue."""
    n = opts[O_N]
    passes = rev[32:32 + 3 * MAXP].reshape(MAXP, 3)  # scratch beyond the revealed cards
    npass = rev[48:48 + MAXP]
    npass[:] = 0
    held = 0
    hid_held = 0
    passed_on = 0
    ville_user = -1
    for p in range(n):
        chosen = 0
        hid = False
        for k in range(S[i, SEL_N + p]):
            c = S[i, SEL_C + 2 * p + k]
            chosen |= 1 << c
            if C_NIGHT[c] and S[i, SEL_V + 2 * p + k] == 0:
                hid = True
        bits = 0
        for k in range(S[i, HAND_N + p]):
            c = S[i, HAND + p * HAND_CAP + k]
            bits |= 1 << c
            if not (chosen >> c) & 1:
                passes[p, npass[p]] = c
                npass[p] += 1
        if S[i, SEL_N + p] == 2:
            _leave_tableau(S, i, VILLE)
            passes[p, npass[p]] = VILLE
            npass[p] += 1
            ville_user = p
        held |= bits
        if hid:
            hid_held |= bits
        for k in range(npass[p]):
            passed_on |= 1 << passes[p, k]
    for q in range(n):  # what each seat knows of the held cards' places
        known = S[i, TRK_E + q] | S[i, TRK_P + q]
        keep = known & held & passed_on & ~(NIGHT_BITS & hid_held)
        S[i, TRK_E + q] = (S[i, TRK_E + q] & ~held) | keep
        S[i, TRK_P + q] &= ~held
    for p in range(n):
        dest = (p + 1) % n
        pile_id = S[i, PILE_IDS + dest]
        for k in range(npass[p]):
            c = passes[p, k]
            S[i, PILE + dest * PILE_CAP + S[i, PILE_N + dest]] = c
            S[i, PILE_N + dest] += 1
            _remember(S, i, p, c, pile_id)
            S[i, TRK_E + p] |= 1 << c
            S[i, TRK_P + p] &= ~(1 << c)
    if ville_user >= 0:  # taking Ville back is public: everyone knows where he went
        pile_id = S[i, PILE_IDS + (ville_user + 1) % n]
        for q in range(n):
            _remember(S, i, q, VILLE, pile_id)
            S[i, TRK_E + q] |= 1 << VILLE
            S[i, TRK_P + q] &= ~(1 << VILLE)
    nrev = 0
    for p in range(n):
        S[i, HAND_N + p] = 0
        for k in range(S[i, SEL_N + p]):
            c = S[i, SEL_C + 2 * p + k]
            if S[i, SEL_V + 2 * p + k]:
                nrev = _daga_swap(S, i, n, p, c, rev, nrev)
            else:
                nrev = _play(S, i, n, p, c, rev, nrev, BY_SELECT)
        S[i, SEL_N + p] = 0
    for k in range(1, nrev):  # on-play effects of the reveal resolve in ascending card-id order
        c = rev[k]
        j = k
        while j > 0 and rev[j - 1] > c:
            rev[j] = rev[j - 1]
            j -= 1
        rev[j] = c
    for k in range(nrev):
        c = rev[k]
        _q_push(S, i, TASK_EFFECT, c, S[i, OWNER + c], False)
    _resume(S, rng, opts, i, rev)


@njit(cache=True)
def _resolve_extra(S, rng, opts, i, p, c1, v1, c2, v2, by, rev):
    """Brother Martin / Olle / Yule Goat: discard the unpicked cards, play the picks (``c2``:
    the Ville pick, -1 if none; then Ville is discarded)."""
    n = opts[O_N]
    for k in range(S[i, HAND_N + p]):
        c = S[i, HAND + p * HAND_CAP + k]
        if c != c1 and c != c2:
            _discard(S, i, n, c)
    S[i, HAND_N + p] = 0
    if c2 >= 0:
        _leave_tableau(S, i, VILLE)
        _discard(S, i, n, VILLE)
    for k in range(2):
        c, via = (c1, v1) if k == 0 else (c2, v2)
        if c < 0:
            continue
        if via:
            _daga_swap(S, i, n, p, c, rev, -1)
        else:
            _play(S, i, n, p, c, rev, -1, by)
    _resume(S, rng, opts, i, rev)


@njit(cache=True, inline="always")
def _apply(S, rng, opts, i, a, rev):
    """The decision of slot ``i``'s deciding seat (``a`` legal); a select is applied once every
    seat has answered (``PEND``)."""
    n = opts[O_N]
    kind = S[i, KIND]
    if kind == SELECT:
        for p in range(n):
            b = S[i, PEND + p]
            S[i, SEL_N + p] = 1
            S[i, SEL_C + 2 * p] = b % NC
            S[i, SEL_V + 2 * p] = b >= DAGA_PLAY
        S[i, ASKED] = 0
        v = S[i, OWNER + VILLE]
        if v >= 0 and _ville_ready(S, i, v):
            _decide(S, i, SELECT_VILLE, v, VILLE)
            return
        _finish_select(S, rng, opts, i, rev)
        return
    p = S[i, DECIDER]
    if kind == SELECT_VILLE:
        if a != NO_VILLE:
            S[i, SEL_C + 2 * p + 1] = a % NC
            S[i, SEL_V + 2 * p + 1] = a >= DAGA_PLAY
            S[i, SEL_N + p] = 2
        _finish_select(S, rng, opts, i, rev)
    elif kind == WITCH:
        _move_piles(S, i, n, a)
        _resume(S, rng, opts, i, rev)
    elif kind in (MARTIN, OLLE, YULE):
        by = BY_MARTIN if kind == MARTIN else BY_OLLE if kind == OLLE else BY_YULE
        if kind != MARTIN and S[i, HAND_N + p] == 2 and _ville_ready(S, i, p):
            S[i, FIRST_C] = a % NC
            S[i, FIRST_V] = a >= DAGA_PLAY
            _decide(S, i, OLLE_VILLE if kind == OLLE else YULE_VILLE, p, S[i, SOURCE])
            return
        _resolve_extra(S, rng, opts, i, p, a % NC, a >= DAGA_PLAY, -1, False, by, rev)
    elif kind in (OLLE_VILLE, YULE_VILLE):
        by = BY_OLLE if kind == OLLE_VILLE else BY_YULE
        c2 = -1 if a == NO_VILLE else a % NC
        _resolve_extra(S, rng, opts, i, p, S[i, FIRST_C], S[i, FIRST_V] != 0, c2,
                       a >= DAGA_PLAY and a != NO_VILLE, by, rev)
    elif kind == DAGA:
        S[i, DAGA_READY] = 1
        if a != DAGA_KEEP:
            c = a - DISCARD
            S[i, DAGA_USED] = 1
            lost = _leave_tableau(S, i, c)
            _discard(S, i, n, c)
            _q_push(S, i, TASK_DAGA_CARDS, -1, p, True)
            for k in range(2, -1, -1):  # a lost copy is chosen again before the 2 cards
                if (lost >> k) & 1 and S[i, OWNER + COPIERS[k]] == p:
                    _q_push(S, i, TASK_COPY_CHOICE, COPIERS[k], p, True)
        _resume(S, rng, opts, i, rev)
    elif kind == COPY_CHOICE:
        k = C_COPIER[S[i, SOURCE]]
        if a == COPY_LATER:
            S[i, COPY_MODE + k] = COPY_WAIT
            S[i, COPY_SINCE + k] = S[i, NEXT_SEQ]
        else:
            S[i, COPY_MODE + k] = COPY_DONE
            S[i, COPY_TARGET + k] = a - COPY
        _resume(S, rng, opts, i, rev)
    elif kind == COPY_OFFER:
        k = C_COPIER[S[i, SOURCE]]
        if a == COPY_DECLINE:
            S[i, COPY_SINCE + k] = S[i, SEQ + S[i, OFFER]] + 1
        else:
            S[i, COPY_MODE + k] = COPY_DONE
            S[i, COPY_TARGET + k] = S[i, OFFER]
        _resume(S, rng, opts, i, rev)


# --- stepping -------------------------------------------------------------------------------------
@njit(cache=True)
def _step_rows_of(S, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal) for the asked seat of every slot ``i`` of ``rows`` and write
    its next decision (one pass: the row is still in the cache when written); a finished game
    restarts at once. The slot's step is written in this loop's own body: an inlined call's
    array arguments would cost two atomic reference counts each, every slot."""
    rev = np.empty(64, np.int64)
    deck = np.empty(NC, np.int64)
    ret = np.empty(MAXP, np.float64)
    n = opts[O_N]
    for k in range(rows.shape[0]):
        i = rows[k]
        a = actions[i]
        for s in range(n):
            rewards[i, s] = 0.0
        terminated[i] = False
        truncated[i] = False
        applied = True
        if S[i, KIND] == SELECT:
            asked = S[i, ASKED]
            S[i, PEND + asked] = a
            S[i, ASKED] = asked + 1
            applied = asked + 1 >= n  # else the next seat of the select: nothing applied yet
        if applied:
            _apply(S, rng, opts, i, a, rev)
            S[i, DECISIONS] += 1
            if S[i, KIND] == OVER:
                returns(S, opts, i, ret)
                for s in range(n):
                    rewards[i, s] = ret[s]
                terminated[i] = True
                _deal(S, rng, opts, i, deck)
            elif S[i, DECISIONS] >= opts[O_MAX_DEC]:
                truncated[i] = True
                _deal(S, rng, opts, i, deck)
        write_decision(S, opts, obs, mask, seat, i)


@njit(cache=True)
def step(S, rng, opts, actions, obs, mask, seat, rewards, terminated, truncated):
    """Validate every action, then play them and write the next decisions: the slot of the
    first illegal action (nothing changed), or -1."""
    bad = first_illegal(S, opts, actions)
    if bad >= 0:
        return bad
    _step_rows_of(S, rng, opts, actions, np.arange(S.shape[0]), obs, mask, seat, rewards,
                  terminated, truncated)
    return -1


@njit(cache=True)
def step_rows(S, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) in every row ``i`` of ``rows`` and write its
    next decision; every other row gets zero rewards and no ending."""
    rewards[:] = 0.0
    terminated[:] = False
    truncated[:] = False
    _step_rows_of(S, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated)
