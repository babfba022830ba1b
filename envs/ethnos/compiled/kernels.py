"""The numba kernels of ethnos' batched engine (``vector`` holds the Python class): new games,
stepping every slot (or some rows), writing the decisions and the global states.

The rules are the Python engine's own, written again over arrays (``turns``, ``ages``; the
position row is ``layout``'s); slot ``i``'s returns so far are row ``i`` of the float64 ``R`` and
its generator row ``i`` of the uint64 ``rng`` (PCG32: state, increment; the shared uniform draws
of ``tablezoo.envs.vector.kernels``). Kernels are written flat: one call from Python runs a loop
over every slot. ``step`` is three passes: check every action, apply them, write every next
decision. Everything is ``cache=True``: the compile is paid once per machine.

The hot loops (``step_rules``, ``_observe_rows``, ``_mask_rows``) carry a slot's work in their
own bodies and reach its row by two-dimensional indices or flat offsets: a row view ``S[i]``,
or an inlined call's array arguments, would cost two atomic reference counts each, every slot
(a fifth of the time when they did).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.ethnos.compiled.ages import (
    _returns,
    _start_age,
)
from tablezoo.envs.ethnos.compiled.blocks import _run16, _run16_exact
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
    AGE,
    BLEAD,
    BUILD,
    BUILDING,
    CENTAUR_PICK,
    COLOUR_OK,
    CUR_LEADER,
    CUR_X,
    DECK,
    DECK_MAX,
    DISCARD,
    DISPLAY,
    DRAGON,
    DRAGONS,
    ELF_KEPT,
    ELF_N,
    ELF_PICK,
    FIRST,
    GLOB_SIZE,
    GSIZE,
    HAND_LEN,
    HANDS,
    HAS,
    LOWER_LEFT,
    MAXP,
    MERFOLK_PICK,
    MLEFT,
    NCOL,
    NDECK,
    NPIECES,
    NT,
    NUM_ACTIONS,
    O_AUTO,
    O_FIXED,
    O_MAX_DEC,
    O_N,
    O_NFIXED,
    O_NPOOL,
    O_NTRIBES,
    O_PER,
    O_POOL,
    O_REWARD,
    OB_AGE,
    OB_BAND_LEADER,
    OB_BAND_X,
    OB_DECK,
    OB_DISPLAY,
    OB_DRAGONS,
    OB_ELF,
    OB_GIANT,
    OB_MLEFT,
    OB_PHASE,
    OB_SAFE,
    OB_TOKENS,
    OB_TRIBES,
    OB_TROLLS,
    ORC_PICK,
    PHASE,
    PIECE_AT,
    PIECE_W,
    REWARD_RANK,
    SC_MARKERS,
    SEAT,
    SEAT_WIDTH,
    SK,
    TCOLOUR,
    TERMINAL,
    THIRD,
    TOKENS,
    TRIBE_OK,
    TROLL_OWNER,
    TROLL_PICK,
    TTRIBE,
    TURN,
    WINGFOLK_PICK,
    WIZARD_PICK,
    _count_decision,
    _decisions,
    _seat_at,
)
from tablezoo.envs.ethnos.compiled.turns import (
    _auto_advance,
    _do,
    _is_legal,
)
from tablezoo.envs.ethnos.components import TROLLS
from tablezoo.envs.vector.kernels import bounded, shuffle


@njit(cache=True)
def _new_game(S, R, rng, opts, i, deck):
    """Setup (§2) and Age I (``EthnosState.new``); returns zero."""
    s = S[i]
    n = opts[O_N]
    for c in range(NCOL):
        s[c] = 0
    for p in range(MAXP):
        R[i, p] = 0.0
    state = rng[i, 0]
    inc = rng[i, 1]
    if opts[O_NFIXED] > 0:
        for k in range(opts[O_NFIXED]):
            s[HAS + opts[O_FIXED + k]] = 1
    else:
        for t in range(12):
            deck[t] = t
        for k in range(opts[O_NTRIBES]):  # a uniform subset: the first draws of a shuffle
            state, j = bounded(state, inc, 12 - k)
            j += k
            c = deck[k]
            deck[k] = deck[j]
            deck[j] = c
            s[HAS + deck[k]] = 1
    npool = opts[O_NPOOL]
    for k in range(npool):
        deck[k] = opts[O_POOL + k]
    state = shuffle(state, inc, deck, npool)
    per = opts[O_PER]
    for k in range(6):
        for a in range(per):  # insertion: the kingdom's tokens ascending
            v = deck[k * per + a]
            b = a
            while b > 0 and s[TOKENS + 3 * k + b - 1] > v:
                s[TOKENS + 3 * k + b] = s[TOKENS + 3 * k + b - 1]
                b -= 1
            s[TOKENS + 3 * k + b] = v
    state, first = bounded(state, inc, n)
    rng[i, 0] = state
    s[FIRST] = first
    s[THIRD] = -1
    s[CUR_LEADER] = -1
    s[BLEAD] = -1
    s[TRIBE_OK] = 1
    s[COLOUR_OK] = 1
    _start_age(S, rng, i, opts, 0, deck)
    _auto_advance(S, R, rng, opts, i, deck)


@njit(cache=True)
def new_games(S, R, rng, opts, lo, hi):
    """A new game in slots ``lo..hi-1``."""
    deck = np.empty(DECK_MAX, np.int64)
    for i in range(lo, hi):
        _new_game(S, R, rng, opts, i, deck)


CHUNK = 32  # slots written per call of each row writer


@njit(cache=True)
def write_decisions(S, opts, obs, mask, seat, lo, hi):
    """The acting seat, its observation (``ethnos_v0``'s encoding) and legal mask of slots
    ``lo..hi-1`` (never over: finished games were restarted), ``CHUNK`` slots at a time, so
    the mask is written while the rows are still in cache."""
    n = opts[O_N]
    for start in range(lo, hi, CHUNK):
        end = min(start + CHUNK, hi)
        _observe_rows(S, n, obs, start, end, -1)
        _mask_rows(S, opts, mask, seat, start, end)


@njit(cache=True)
def _observe_rows(S, n, obs, lo, hi, observer):
    """The observations of slots ``lo..hi-1`` (``observation.observe``) into their rows of
    ``obs``: the acting seat's, or seat ``observer``'s where that is not negative (flat
    offsets: see the module). Written front to back: a run copied in whole blocks (``blocks``)
    may spill past its end into entries written after it; unsigned indices (no negative-index
    wrapping)."""
    u = np.uint64
    s, o = S.reshape(-1), obs.reshape(-1)
    ws, wo = u(S.shape[1]), u(obs.shape[1])
    for i in range(lo, hi):
        r = u(i) * ws
        q = u(i) * wo
        p = observer if observer >= 0 else S[i, ACTOR]
        _run16(o, q + u(OB_DISPLAY), s, r + u(DISPLAY), u(NT))
        _run16(o, q + u(OB_TOKENS), s, r + u(TOKENS), u(18))
        _run16(o, q + u(OB_TRIBES), s, r + u(HAS), u(12))
        age = s[r + u(AGE)]
        for a in range(3):
            o[q + u(OB_AGE + a)] = 1.0 if a == age else 0.0
        o[q + u(OB_DRAGONS)] = s[r + u(DRAGONS)]
        nd = s[r + u(NDECK)]
        o[q + u(OB_DECK)] = nd
        safe = nd - s[r + u(LOWER_LEFT)]
        o[q + u(OB_SAFE)] = safe if safe > 0 else 0
        trolls = s[r + u(HAS + TROLLS)] != 0
        for v in range(u(6)):
            o[q + u(OB_TROLLS) + v] = 1.0 if trolls and s[r + u(TROLL_OWNER) + v] < 0 else 0.0
        o[q + u(OB_GIANT)] = s[r + u(GSIZE)]
        terminal = s[r + u(TERMINAL)] != 0
        phase = s[r + u(PHASE)]
        for k in range(9):
            o[q + u(OB_PHASE + k)] = 1.0 if k == phase and not terminal else 0.0
        o[q + u(OB_BAND_X)] = s[r + u(CUR_X)]
        lead = s[r + u(CUR_LEADER)]
        for t in range(u(NT)):
            o[q + u(OB_BAND_LEADER) + t] = 0.0
        if lead >= 0:
            o[q + u(OB_BAND_LEADER + lead)] = 1.0
        o[q + u(OB_MLEFT)] = s[r + u(MLEFT)]
        o[q + u(OB_ELF)] = s[r + u(ELF_N)]
        # the seat pieces, each in seat-relative order: seats p..n-1, then 0..p-1
        pos = q + u(GLOB_SIZE)
        up = u(p)
        un = u(n)
        for j in range(NPIECES):
            w = u(PIECE_W[j])
            block = r + u(SEAT + PIECE_AT[j])
            first = (un - up) * w
            _run16(o, pos, s, block + up * w, first)
            pos += first
            _run16(o, pos, s, block, up * w)
            pos += up * w
        actor = s[r + u(ACTOR)]
        if not terminal:
            o[q + u(GLOB_SIZE + (actor - p) % n)] = 1.0  # acting is the first seat piece
        # private pieces (the last entries: nothing spills past the row's end)
        _run16(o, pos, s, r + u(HANDS + NT * p), u(NT))
        pos += u(NT)
        if p == actor and (phase in (BUILD, ELF_PICK)):
            blead = s[r + u(BLEAD)]
            _run16(o, pos, s, r + u(BUILDING), u(NT))
            for t in range(u(NT)):
                o[pos + u(NT) + t] = 1.0 if t == blead else 0.0
            _run16_exact(o, pos + u(2 * NT), s, r + u(ELF_KEPT), u(NT))
        else:
            for k in range(u(3 * NT)):
                o[pos + k] = 0.0


@njit(cache=True)
def _mask_rows(S, opts, mask, seat, lo, hi):
    """The acting seat and its legal mask (``_compute_mask``) of slots ``lo..hi-1`` (flat
    offsets, unsigned indices, the per-card tests written without branches)."""
    u = np.uint64
    s, m = S.reshape(-1), mask.reshape(-1)
    ws, wm = u(S.shape[1]), u(mask.shape[1])
    for i in range(lo, hi):
        r = u(i) * ws
        q = u(i) * wm
        p = S[i, ACTOR]
        seat[i] = p
        for a in range(u(NUM_ACTIONS)):
            m[q + a] = False
        phase = s[r + u(PHASE)]
        h = r + u(HANDS + NT * p)
        hand_len = s[r + u(HAND_LEN + p)]
        if phase == TURN:
            if hand_len < 10:
                for t in range(u(NT)):
                    m[q + t] = s[r + u(DISPLAY) + t] > 0
                m[q + u(A_RECRUIT_DECK)] = True
            for t in range(u(SK)):
                m[q + u(A_LEADER) + t] = s[h + t] > 0
            if hand_len >= 10 and s[h + u(SK)] >= hand_len:
                m[q + u(A_PASS)] = True
        elif phase == BUILD:
            lead = s[r + u(BLEAD)]
            tribe_ok = s[r + u(TRIBE_OK)] != 0
            colour_ok = s[r + u(COLOUR_OK)] != 0
            lt = TTRIBE[lead]
            lc = TCOLOUR[lead]
            for t in range(u(SK)):
                m[q + u(A_ADD) + t] = (s[h + t] > 0) & ((tribe_ok & (TTRIBE[t] == lt))
                                                      | (colour_ok & (TCOLOUR[t] == lc)))
            m[q + u(A_ADD + SK)] = s[h + u(SK)] > 0
            m[q + u(A_FINISH)] = True
        elif phase == WINGFOLK_PICK:
            x = s[r + u(CUR_X)]
            for k in range(6):
                m[q + u(A_KINGDOM + k)] = _flat_marker_test(s, r, p, k, x, opts[O_N])
        elif phase == MERFOLK_PICK:
            for k in range(u(6)):
                m[q + u(A_KINGDOM) + k] = True
        elif phase == TROLL_PICK:
            for v in range(min(6, s[r + u(CUR_X)])):
                m[q + u(A_TROLL + v)] = s[r + u(TROLL_OWNER + v)] < 0
        elif phase == CENTAUR_PICK:
            for t in range(u(SK)):
                m[q + u(A_LEADER) + t] = s[h + t] > 0
            m[q + u(A_CSTOP)] = True
        elif phase == ELF_PICK:
            for t in range(u(NT)):
                m[q + u(A_ELF_KEEP) + t] = s[h + t] > 0
            m[q + u(A_ELF_DONE)] = True
        elif phase == WIZARD_PICK:
            m[q + u(A_WDRAW)] = True
            m[q + u(A_WSKIP)] = True
        elif phase == ORC_PICK:
            m[q + u(A_OEMPTY)] = True
            m[q + u(A_OKEEP)] = True


@njit(cache=True, inline="always")
def _flat_marker_test(s, r, p, k, e, n):
    """``layout._marker_test`` on the position row at ``s[r:]``."""
    u = np.uint64
    if n == 2:
        return e > (s[r + u(_seat_at(0, SC_MARKERS + k))]
                    + s[r + u(_seat_at(1, SC_MARKERS + k))])
    return e > s[r + u(_seat_at(p, SC_MARKERS + k))]


@njit(cache=True)
def first_illegal(S, opts, actions):
    """The first slot whose action is illegal for its acting seat, or -1."""
    for i in range(S.shape[0]):
        if not _is_legal(S, i, actions[i], opts):
            return i
    return -1


@njit(cache=True)
def step_rules(S, R, rng, opts, actions, rows, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) for the acting seat of every slot ``i`` in
    ``rows``; rewards are the step's return changes; a finished game restarts in the same step
    (the slot's step in this loop's own body: see the module)."""
    deck = np.empty(DECK_MAX, np.int64)
    ret = np.empty(MAXP, np.float64)
    n = opts[O_N]
    for k in range(rows.shape[0]):
        i = rows[k]
        for p in range(n):
            rewards[i, p] = 0.0
        terminated[i] = False
        truncated[i] = False
        _do(S, rng, i, S[i, ACTOR], actions[i], opts, deck)
        _count_decision(S, i)
        if opts[O_AUTO] != 0:
            _auto_advance(S, R, rng, opts, i, deck)
        if opts[O_REWARD] != REWARD_RANK or S[i, TERMINAL] != 0:
            _returns(S, i, opts, ret)
            for p in range(n):
                if ret[p] != R[i, p]:
                    rewards[i, p] = ret[p] - R[i, p]
                    R[i, p] = ret[p]
        if S[i, TERMINAL] != 0:
            terminated[i] = True
            _new_game(S, R, rng, opts, i, deck)
        elif _decisions(S, i) >= opts[O_MAX_DEC]:
            truncated[i] = True
            _new_game(S, R, rng, opts, i, deck)


@njit(cache=True)
def step(S, R, rng, opts, actions, obs, mask, seat, rewards, terminated, truncated):
    """Validate every action, then play them and write the next decisions: the slot of the
    first illegal action (nothing changed), or -1."""
    bad = first_illegal(S, opts, actions)
    if bad >= 0:
        return bad
    step_rules(S, R, rng, opts, actions, np.arange(S.shape[0]), rewards, terminated, truncated)
    write_decisions(S, opts, obs, mask, seat, 0, S.shape[0])
    return -1


@njit(cache=True)
def step_rows(S, R, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) in every row ``i`` of ``rows`` and write its
    next decision; every other row gets zero rewards and no ending."""
    rewards[:] = 0.0
    terminated[:] = False
    truncated[:] = False
    step_rules(S, R, rng, opts, actions, rows, rewards, terminated, truncated)
    for k in range(rows.shape[0]):
        write_decisions(S, opts, obs, mask, seat, rows[k], rows[k] + 1)


@njit(cache=True)
def global_states(S, opts, out):
    """``State.global_state()`` of every slot (``state_spec``) into ``out``."""
    n = opts[O_N]
    public = GLOB_SIZE + n * SEAT_WIDTH
    _observe_rows(S, n, out, 0, S.shape[0], 0)  # the public part is player_0's observation's
    for i in range(S.shape[0]):
        o = out[i]
        pos = public
        for p in range(n):
            for t in range(NT):
                o[pos + t] = S[i, HANDS + NT * p + t]
            pos += NT
        blead = S[i, BLEAD]
        for t in range(NT):
            o[pos + t] = S[i, BUILDING + t]
            o[pos + NT + t] = 1.0 if t == blead else 0.0
            o[pos + 2 * NT + t] = S[i, ELF_KEPT + t]
            o[pos + 3 * NT + t] = S[i, DISCARD + t]
            o[pos + 4 * NT + t] = 0.0
        pos += 4 * NT
        nd = S[i, NDECK]
        top = -1
        bottom = -1
        for k in range(nd):
            c = S[i, DECK + k]
            if c == DRAGON:
                if bottom < 0:
                    bottom = k
                top = k
            else:
                o[pos + c] += 1.0
        pos += NT
        o[pos] = nd - top if top >= 0 else 0
        o[pos + 1] = nd - bottom if bottom >= 0 else 0
