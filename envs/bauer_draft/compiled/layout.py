"""The position matrix of ``bauer_draft``'s compiled engine: its columns, the options vector,
the card tables the kernels read (global arrays are compile-time constants to numba), and the
small steps every kernel shares (Daga's ability, Ville ready, the queue, cards entering and
leaving a tableau, discards)."""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bauer_draft.components import (
    CARDS,
    CHARACTER,
    COPIER_CARDS,
    DAGA_CARD,
    NUM_CARDS,
    PRIZES,
    VILLE,
)
from tablezoo.envs.bauer_draft.effects import (
    BY_DAGA,
    COPY_DONE,
    COPY_NONE,
    ELIGIBLE,
    ON_PLAY,
    TASK_EFFECT,
)
from tablezoo.envs.bauer_draft.scoring import (
    JOURNEY_POINTS,
)

NC = NUM_CARDS
MAXP = 5  # most seats
HAND_CAP, PILE_CAP, QCAP = 3, 12, 16  # hand, pile and effect-queue capacities


def _layout(*sizes: int) -> tuple[int, ...]:
    """The first column of each field of the given sizes, then the row's width."""
    out, at = [], 0
    for size in sizes:
        out.append(at)
        at += size
    return (*out, at)


# --- the position matrix S [B, NCOL] (int64) ------------------------------------------------------
(KIND, ASKED, PEND, DECIDER, SOURCE, OFFER, FIRST_C, FIRST_V, ROUND, NEXT_SEQ, DAGA_USED,
 DAGA_READY, DECISIONS, QHEAD, QLEN, NCENTRAL, NDISC, DISCB,
 TAB, NIGHT_N, NIGHT_BY, MEMB, MEMP, HAND_N, HAND, PILE_IDS, PILE_N, COPY_MODE, COPY_TARGET,
 COPY_SINCE, PLAYS, SEL_N, SEL_C, SEL_V, TRK_E, TRK_P,
 OWNER, SEQ, PROUND, PBY, PILE, CENTRAL, DISC, QUEUE, NCOL) = _layout(
    1, 1, MAXP, *([1] * 15),
    MAXP, MAXP, MAXP, MAXP, MAXP * 3, MAXP, MAXP * HAND_CAP, MAXP, MAXP, 3, 3,
    3, MAXP, MAXP, MAXP * 2, MAXP * 2, MAXP, MAXP,
    NC, NC, NC, NC, MAXP * PILE_CAP, NC, NC, QCAP)
# The columns a decision reads come first, in few cache lines: a select's answer touches the
# first (KIND, ASKED, PEND); the observation reads TAB (tableau bit masks), NIGHT_BY (per seat
# the Night cards by how they were played, 8 bits a count), MEMB (the cards a seat remembers
# passing, bits) and MEMP (their pile ids, 3 bits each, 21 cards a word), DISCB (the discards
# as bits; DISC keeps their order).
MEM_PER_WORD = 21


# --- the options vector opts (int64): rules, then observation and global-state offsets ------------
(O_N, O_ROUNDS, O_PILE, O_REWARD, O_MAX_DEC, O_OBS_SIZE, O_STATE_SIZE) = range(7)
OBS_PIECES = ("hand", "my_selection", "tableau", "copies", "copiers", "night_count", "night_by",
              "discards", "passed", "daga_available", "ville_ready", "round", "pile_size",
              "pile_shift", "central_size", "phase", "decider", "focus")
STATE_PIECES = ("hands", "selection", "tableau", "copies", "copy_mode", "piles", "central",
                "discards", "passed", "daga", "ville_ready", "round", "phase", "acting", "focus")
O_OBS = 7  # OBS_PIECES' offsets
(OB_HAND, OB_SEL, OB_TAB, OB_COPIES, OB_COPIERS, OB_NIGHT, OB_NIGHT_BY, OB_DISC, OB_PASSED,
 OB_DAGA, OB_VILLE, OB_ROUND, OB_PILE, OB_SHIFT, OB_CENTRAL, OB_PHASE, OB_DECIDER,
 OB_FOCUS) = range(O_OBS, O_OBS + len(OBS_PIECES))
O_STATE = O_OBS + len(OBS_PIECES)  # STATE_PIECES' offsets
(GS_HANDS, GS_SEL, GS_TAB, GS_COPIES, GS_MODE, GS_PILES, GS_CENTRAL, GS_DISC, GS_PASSED,
 GS_DAGA, GS_VILLE, GS_ROUND, GS_PHASE, GS_ACTING, GS_FOCUS) = range(
    O_STATE, O_STATE + len(STATE_PIECES))
NUM_OPTS = O_STATE + len(STATE_PIECES)
REWARDS = ("rank", "score", "margin")
RANK, SCORE, MARGIN = range(3)


def options_vector(game) -> np.ndarray:
    """``opts`` of a ``BauerDraftGame``: its rules' numbers and its encodings' offsets."""
    opts = np.zeros(NUM_OPTS, np.int64)
    opts[O_N] = game.num_players
    opts[O_ROUNDS] = game.num_rounds
    opts[O_PILE] = game.pile_size
    opts[O_REWARD] = REWARDS.index(game.options["reward"])
    opts[O_MAX_DEC] = game.max_decisions
    opts[O_OBS_SIZE] = game.obs_spec.size
    opts[O_STATE_SIZE] = game.state_spec.size
    for k, name in enumerate(OBS_PIECES):
        opts[O_OBS + k] = game.obs_spec.offsets[name]
    for k, name in enumerate(STATE_PIECES):
        opts[O_STATE + k] = game.state_spec.offsets[name]
    return opts


# --- the cards (global arrays are compile-time constants to numba) --------------------------------
C_NIGHT = CARDS.night.astype(np.int64)
C_KIND = CARDS.kind.astype(np.int64)
C_POINTS = CARDS.points.astype(np.int64)
C_SWORDS = CARDS.swords.astype(np.int64)
C_TAGS = CARDS.tags.astype(np.int64)
C_QUEST = np.array([c.quest or (0,) * 5 for c in CARDS], np.int64)
C_HAS_QUEST = np.array([c.kind == CHARACTER and c.quest is not None for c in CARDS], np.int64)
C_QUEST_POINTS = np.array([c.quest_points for c in CARDS], np.int64)
C_PER_SET = np.array([c.quest_per_set for c in CARDS], np.int64)
C_PRIZE = np.array([PRIZES.index(c.prize) if c.prize else -1 for c in CARDS], np.int64)
(P_SKUTT, P_WING, P_SILVER, P_DEATH, P_JOCK, P_TUVSTARR, P_SKOGSRA) = (
    PRIZES.index(p) for p in ("skutt", "wing_mother", "silver_knight", "king_death", "big_jock",
                              "tuvstarr", "skogsra"))
EFFECT_NAMES = ("uggel", "witch", "martin", "olle", "daga", "bella", "adventure_boy", "humpe")
E_NONE, E_UGGEL, E_WITCH, E_MARTIN, E_OLLE, E_DAGA, E_COPIER = range(7)
C_EFFECT = np.array([min(EFFECT_NAMES.index(e) + 1, E_COPIER)
                     if ON_PLAY[c] else E_NONE for c, e in enumerate(CARDS.effect_of)], np.int64)
C_COPIER = np.full(NC, -1, np.int64)  # the copier index (0..2) of a copier card
for _k, _c in enumerate(COPIER_CARDS):
    C_COPIER[_c] = _k
COPIERS = np.array(COPIER_CARDS, np.int64)
ELIG = np.array(ELIGIBLE, np.int64)  # [copier, card]
ELIG_BITS = np.array([sum(1 << c for c in range(NC) if ELIGIBLE[k][c]) for k in range(3)],
                     np.int64)  # what each copier may copy, as bits
NIGHT_CARDS = np.flatnonzero(CARDS.night).astype(np.int64)
DAY_BITS = sum(1 << c for c in range(NC) if not CARDS.night[c])
NIGHT_BITS = sum(1 << c for c in range(NC) if CARDS.night[c])
JOURNEY_TABLE = np.array(JOURNEY_POINTS, np.int64)


# --- small helpers --------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _daga_available(S, i, p):
    """``p`` may use Daga's ability deferred now."""
    return S[i, DAGA_READY] != 0 and S[i, DAGA_USED] == 0 and S[i, OWNER + DAGA_CARD] == p


@njit(cache=True, inline="always")
def _ville_ready(S, i, p):
    """``p`` has Ville in the tableau from an earlier round."""
    return S[i, OWNER + VILLE] == p and S[i, PROUND + VILLE] < S[i, ROUND]


@njit(cache=True, inline="always")
def _decide(S, i, kind, p, source):
    S[i, KIND] = kind
    S[i, DECIDER] = p
    S[i, SOURCE] = source


# --- moving cards ---------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _q_push(S, i, task, card, p, front):
    """Queue ``(task, card, seat)`` at the back (or the front)."""
    head, size = S[i, QHEAD], S[i, QLEN]
    entry = (task * 64 + card + 1) * 8 + p
    if front:
        head = (head + QCAP - 1) % QCAP
        S[i, QHEAD] = head
        S[i, QUEUE + head] = entry
    else:
        S[i, QUEUE + (head + size) % QCAP] = entry
    S[i, QLEN] = size + 1


@njit(cache=True, inline="always")
def _pop_central(S, i):
    k = S[i, NCENTRAL] - 1
    S[i, NCENTRAL] = k
    return S[i, CENTRAL + k]


@njit(cache=True, inline="always")
def _forget(S, i, n, c):
    """No seat remembers where card ``c`` went (it is in view now)."""
    for q in range(n):
        S[i, MEMB + q] &= ~(1 << c)


@njit(cache=True, inline="always")
def _remember(S, i, q, c, pile_id):
    """Seat ``q`` remembers putting card ``c`` on pile ``pile_id``."""
    S[i, MEMB + q] |= 1 << c
    at = MEMP + q * 3 + c // MEM_PER_WORD
    shift = 3 * (c % MEM_PER_WORD)
    S[i, at] = (S[i, at] & ~(7 << shift)) | (pile_id << shift)


@njit(cache=True, inline="always")
def _remembered_pile(S, i, q, c):
    """The pile seat ``q`` remembers putting card ``c`` on (its ``MEMB`` bit set)."""
    return (S[i, MEMP + q * 3 + c // MEM_PER_WORD] >> (3 * (c % MEM_PER_WORD))) & 7


@njit(cache=True, inline="always")
def _play(S, i, n, p, c, rev, nrev, by):
    """Card ``c`` enters p's tableau; a Day character's on-play effect is collected in ``rev``
    (``nrev >= 0``: the reveal) or queued. Returns the new ``nrev``."""
    S[i, TAB + p] |= 1 << c
    S[i, OWNER + c] = p
    S[i, SEQ + c] = S[i, NEXT_SEQ]
    S[i, NEXT_SEQ] += 1
    S[i, PROUND + c] = S[i, ROUND]
    S[i, PBY + c] = by
    S[i, PLAYS + p] += 1
    if C_NIGHT[c]:
        S[i, NIGHT_N + p] += 1
        S[i, NIGHT_BY + p] += 1 << (8 * by)
    else:
        _forget(S, i, n, c)
    if c == DAGA_CARD:
        S[i, DAGA_READY] = 0
    if C_EFFECT[c] != E_NONE:
        if nrev >= 0:
            rev[nrev] = c
            nrev += 1
        else:
            _q_push(S, i, TASK_EFFECT, c, p, False)
    return nrev


@njit(cache=True)
def _play_central(S, i, n, p, count, rev, nrev, by):
    for _ in range(min(count, S[i, NCENTRAL])):
        nrev = _play(S, i, n, p, _pop_central(S, i), rev, nrev, by)
    return nrev


@njit(cache=True)
def _discard(S, i, n, c):
    S[i, DISC + S[i, NDISC]] = c
    S[i, NDISC] += 1
    S[i, DISCB] |= 1 << c
    _forget(S, i, n, c)


@njit(cache=True)
def _leave_tableau(S, i, c):
    """Remove ``c`` from its tableau; the copiers that lost their copy's source, as bits."""
    p = S[i, OWNER + c]
    S[i, TAB + p] &= ~(1 << c)
    if C_NIGHT[c]:
        S[i, NIGHT_N + p] -= 1
        S[i, NIGHT_BY + p] -= 1 << (8 * S[i, PBY + c])
    S[i, OWNER + c] = -1
    S[i, SEQ + c] = -1
    S[i, PBY + c] = -1
    k = C_COPIER[c]
    if k >= 0:
        S[i, COPY_MODE + k] = COPY_NONE
        S[i, COPY_TARGET + k] = -1
    lost = 0
    for k in range(3):
        if S[i, COPY_MODE + k] == COPY_DONE and S[i, COPY_TARGET + k] == c:
            S[i, COPY_MODE + k] = COPY_NONE
            S[i, COPY_TARGET + k] = -1
            lost |= 1 << k
    return lost


@njit(cache=True)
def _daga_swap(S, i, n, p, c, rev, nrev):
    """Deferred Daga: discard ``c``, play the top 2 central cards."""
    S[i, DAGA_USED] = 1
    _discard(S, i, n, c)
    return _play_central(S, i, n, p, 2, rev, nrev, BY_DAGA)


@njit(cache=True)
def _has_copy_option(S, i, k, p):
    """Seat ``p``'s tableau holds a card copier ``k`` may copy."""
    return (S[i, TAB + p] & ELIG_BITS[k]) != 0


@njit(cache=True, inline="always")
def _bit_index(low):
    """The index of the single set bit of ``low`` (a power of two below 2**63)."""
    k = 0
    if low >> 32:
        k += 32
        low >>= 32
    if low >> 16:
        k += 16
        low >>= 16
    if low >> 8:
        k += 8
        low >>= 8
    if low >> 4:
        k += 4
        low >>= 4
    if low >> 2:
        k += 2
        low >>= 2
    if low >> 1:
        k += 1
    return k


@njit(cache=True, inline="always")
def _in_hand(S, i, p, c):
    found = False
    for k in range(S[i, HAND_N + p]):
        found = found or S[i, HAND + p * HAND_CAP + k] == c
    return found
