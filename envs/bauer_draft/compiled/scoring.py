"""The final scores of a slot (rules spec §5-6, ``scoring``'s rules over the position matrix)
and the returns of the reward option."""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bauer_draft.compiled.layout import (
    C_HAS_QUEST,
    C_KIND,
    C_NIGHT,
    C_PER_SET,
    C_POINTS,
    C_PRIZE,
    C_QUEST,
    C_QUEST_POINTS,
    C_SWORDS,
    C_TAGS,
    COPIERS,
    COPY_MODE,
    COPY_TARGET,
    JOURNEY_TABLE,
    MARGIN,
    MAXP,
    NC,
    O_N,
    O_REWARD,
    OWNER,
    P_DEATH,
    P_JOCK,
    P_SILVER,
    P_SKOGSRA,
    P_SKUTT,
    P_TUVSTARR,
    P_WING,
    SCORE,
)
from tablezoo.envs.bauer_draft.components import (
    DANGER,
    EVENT,
    JOURNEY,
)
from tablezoo.envs.bauer_draft.effects import (
    COPY_DONE,
)
from tablezoo.envs.bauer_draft.scoring import (
    BIG_JOCK_POINTS,
    DANGER_FIRST,
    DANGER_SECOND,
    DANGER_SHARED_FIRST,
    SKOGSRA_BASE,
    SKUTT_POINTS,
    THEME_MIN,
    TUVSTARR_POINTS,
)


# --- scoring --------------------------------------------------------------------------------------
@njit(cache=True)
def _add_card(c, s, cnt, tags):
    """Card ``c``'s counts into seat ``s``'s row of ``cnt`` (events, event points, journeys,
    Night journeys, dangers, swords, Night cards) and ``tags``."""
    kind = C_KIND[c]
    if C_NIGHT[c]:
        cnt[s, 6] += 1
    if kind == EVENT:
        cnt[s, 0] += 1
        cnt[s, 1] += C_POINTS[c]
    elif kind == JOURNEY:
        cnt[s, 2] += 1
        cnt[s, 3] += C_NIGHT[c]
    elif kind == DANGER:
        cnt[s, 4] += 1
        cnt[s, 5] += C_SWORDS[c]
    for t in range(5):
        tags[s, t] += C_TAGS[c, t]


@njit(cache=True)
def scores(S, opts, i, out):
    """Each seat's final score of slot ``i`` into ``out`` (float64, rules spec §5-6)."""
    n = opts[O_N]
    cnt = np.zeros((MAXP, 7), np.int64)
    tags = np.zeros((MAXP, 5), np.int64)
    copied = np.full(MAXP * 3, -1, np.int64)  # the copies each seat holds
    for c in range(NC):
        s = S[i, OWNER + c]
        if s >= 0:
            _add_card(c, s, cnt, tags)
    for k in range(3):
        s = S[i, OWNER + COPIERS[k]]
        if S[i, COPY_MODE + k] == COPY_DONE and s >= 0:
            _add_card(S[i, COPY_TARGET + k], s, cnt, tags)
            copied[s * 3 + k] = S[i, COPY_TARGET + k]
    quests = np.zeros(MAXP, np.int64)
    completed = np.zeros(MAXP, np.int64)
    for c in range(NC):
        s = S[i, OWNER + c]
        if s < 0 or not C_HAS_QUEST[c]:
            continue
        if C_PER_SET[c]:
            sets = 1 << 30
            for t in range(5):
                if C_QUEST[c, t]:
                    sets = min(sets, tags[s, t] // C_QUEST[c, t])
            quests[s] += sets * C_QUEST_POINTS[c]
            completed[s] += sets
        else:
            ok = True
            for t in range(5):
                if tags[s, t] < C_QUEST[c, t]:
                    ok = False
            if ok:
                quests[s] += C_QUEST_POINTS[c]
                completed[s] += 1
    # dangers: most swords 12, second 6, shared rounded up
    first = 0
    for s in range(n):
        first = max(first, cnt[s, 5])
    second = 0
    n_first = 0
    for s in range(n):
        if cnt[s, 5] == first:
            n_first += 1
        elif cnt[s, 5] > second:
            second = cnt[s, 5]
    n_second = 0
    for s in range(n):
        if second > 0 and cnt[s, 5] == second:
            n_second += 1
    for s in range(n):
        total = cnt[s, 1]
        j = cnt[s, 2]
        total += JOURNEY_TABLE[min(j, 5)] + 4 * max(0, j - 5) + cnt[s, 3]
        if first > 0:
            if cnt[s, 5] == first:
                total += (-(-DANGER_SHARED_FIRST // n_first) if n_first > 1 else DANGER_FIRST)
            elif n_first == 1 and second > 0 and cnt[s, 5] == second:
                total += -(-DANGER_SECOND // n_second)
        tag_sum = 0
        tag_max = 0
        for t in range(5):
            tag_sum += tags[s, t]
            tag_max = max(tag_max, tags[s, t])
            if tags[s, t] >= THEME_MIN:
                total += tags[s, t]
        total += quests[s]
        for c in range(NC + 3):  # the prizes of the seat's cards, then of its copies
            if c < NC:
                card = c if S[i, OWNER + c] == s else -1
            else:
                card = copied[s * 3 + c - NC]
            if card < 0 or C_PRIZE[card] < 0:
                continue
            prize = C_PRIZE[card]
            if prize == P_SKUTT:
                alone = True
                for q in range(n):
                    if q != s and cnt[q, 6] >= cnt[s, 6]:
                        alone = False
                total += SKUTT_POINTS if alone else 0
            elif prize == P_WING:
                total += tag_max
            elif prize == P_SILVER:
                total += max(cnt[s, 0], max(cnt[s, 2], cnt[s, 4]))
            elif prize == P_DEATH:
                total += cnt[s, 5]
            elif prize == P_JOCK:
                total += BIG_JOCK_POINTS * min(cnt[s, 0], min(cnt[s, 2], cnt[s, 4]))
            elif prize == P_TUVSTARR:
                total += TUVSTARR_POINTS * completed[s]
            elif prize == P_SKOGSRA:
                total += max(0, SKOGSRA_BASE - tag_sum)
        out[s] = total


@njit(cache=True)
def returns(S, opts, i, out):
    """Each seat's return at the end of slot ``i``'s game (the reward option) into ``out``."""
    n = opts[O_N]
    points = np.zeros(MAXP, np.float64)
    scores(S, opts, i, points)
    mode = opts[O_REWARD]
    for s in range(n):
        if mode == SCORE:
            out[s] = points[s]
        elif mode == MARGIN:
            best = -1e300
            for q in range(n):
                if q != s and points[q] > best:
                    best = points[q]
            out[s] = points[s] - best
        else:  # rank: first +1, last -1, linear; ties share the average of their places
            above = 0
            ties = 0
            for q in range(n):
                if points[q] > points[s]:
                    above += 1
                elif points[q] == points[s]:
                    ties += 1
            shared = 0.0
            for k in range(above, above + ties):
                shared += 1.0 - 2.0 * k / (n - 1)
            out[s] = shared / ties
