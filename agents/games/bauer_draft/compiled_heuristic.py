"""``bauer_draft``'s heuristic over a batch of observations, compiled with numba.

``heuristic.py`` beside this (``HeuristicAgent`` with its default rates) reads only its own
observation and mask, so a batch of seats can be answered from the ``obs``/``mask`` arrays of a
vector env in one call. ``heuristic_actions`` makes the agent's decisions rule for rule: the same
estimate ``E`` of a holding (Events, the Journey curve, the Danger race over the agent's fixed
samples, themes, quests, Night prizes), the same effect credits, Ville, Witch, Daga and copier
rules, with the same float operations in the same order, so equal inputs give bit-equal values.
The curves are read from tables filled by the agent's own ``journey_curve`` and
``theme_curve``, and the mean gain of an unseen card is summed as ``np.mean`` sums (pairwise).

Ties. The Python agent breaks ties (values within 1e-9) with a draw of its generator; this one is
that agent with ``tie_break="first"``: of tied options the first in the agent's scan order wins
(cards ascending; "no Ville" before the cards, Daga's swaps after them; Witch left, right, none).
The tests hold it equal to that agent at every decision and count how often the default agent
differs (only where its draw picks another tied option).

Players and options. ``heuristic_actions`` reads the player count (and so the number of rounds)
from the observation's width; ``heuristic_for(**options)`` checks a game's options and its width.
Rows widened by an advised network's advice one-hot (227 columns, not read) are accepted. The
game's only other option, ``reward``, does not reach the observation.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from tablezoo.agents.games import run_batched
from tablezoo.agents.games.bauer_draft import heuristic as py
from tablezoo.envs.bauer_draft import actions as enc
from tablezoo.envs.bauer_draft.components import DANGER, EVENT, JOURNEY, NUM_CARDS
from tablezoo.envs.bauer_draft.rules import BauerDraftGame

NC = NUM_CARDS
NUM_ACTIONS = enc.NUM_ACTIONS
NUM_KINDS = len(enc.KINDS)
(SELECT, SELECT_VILLE, WITCH, MARTIN, OLLE, OLLE_VILLE, YULE, YULE_VILLE, DAGA, COPY_CHOICE,
 COPY_OFFER) = (enc.SELECT, enc.SELECT_VILLE, enc.WITCH, enc.MARTIN, enc.OLLE, enc.OLLE_VILLE,
                enc.YULE, enc.YULE_VILLE, enc.DAGA, enc.COPY_CHOICE, enc.COPY_OFFER)
(PLAY, DAGA_PLAY, DISCARD, COPY, NO_VILLE, WITCH_LEFT, WITCH_RIGHT, WITCH_NONE, DAGA_KEEP,
 COPY_LATER, COPY_DECLINE) = (enc.PLAY, enc.DAGA_PLAY, enc.DISCARD, enc.COPY, enc.NO_VILLE,
                              enc.WITCH_LEFT, enc.WITCH_RIGHT, enc.WITCH_NONE, enc.DAGA_KEEP,
                              enc.COPY_LATER, enc.COPY_DECLINE)

# --- the default agent's rates -----------------------------------------------------------------
_DEFAULTS = py.HeuristicAgent(0)
_W = _DEFAULTS.weights
SWORD_RATE, SWORD_SD, PRIZE_RATE = _W.sword_rate, _W.sword_sd, _W.prize_rate
DAGA_MARGIN, EFFECT_SCALE = _W.daga_margin, _DEFAULTS.effect_scale
if _DEFAULTS.denial:
    raise NotImplementedError("bauer_draft compiled heuristic: the default agent charges passed "
                              "cards (denial); this kernel does not")
NIGHT_SWORDS = py.NIGHT_SWORDS
SAMPLES = np.ascontiguousarray(py._SAMPLES, np.float64)  # the agent's fixed Danger samples
NUM_SAMPLES = SAMPLES.shape[0]

# --- card facts as arrays ------------------------------------------------------------------
KIND = np.array(py.KIND, np.int64)
NIGHT = np.array(py.NIGHT, np.int64)
POINTS = np.array(py.POINTS, np.int64)
SWORDS = np.array(py.SWORDS, np.int64)
TAGS = np.array(py.TAGS, np.int64)  # [card, theme]
HAS_QUEST = np.array([q is not None for q in py.QUEST], np.bool_)
QUEST = np.array([q if q is not None else (0,) * 5 for q in py.QUEST], np.int64)
QUEST_POINTS = np.array(py.QUEST_POINTS, np.int64)
QUEST_PER_SET = np.array(py.QUEST_PER_SET, np.bool_)
PRIZES = ("skutt", "wing_mother", "silver_knight", "king_death", "big_jock", "tuvstarr",
          "skogsra")
(SKUTT, WING_MOTHER, SILVER_KNIGHT, KING_DEATH, BIG_JOCK, TUVSTARR, SKOGSRA) = range(1, 8)
PRIZE = np.array([PRIZES.index(p) + 1 if p is not None else 0 for p in py.PRIZE], np.int64)
EFFECTS = ("martin", "olle", "yule", "ville", "daga", "witch", "bella", "adventure_boy", "humpe")
(E_MARTIN, E_OLLE, E_YULE, E_VILLE, E_DAGA, E_WITCH, E_BELLA) = range(1, 8)
EFFECT = np.array([EFFECTS.index(e) + 1 if e in EFFECTS else 0 for e in py.EFFECT], np.int64)
ELIGIBLE = np.array(py.ELIGIBLE, np.bool_)  # [copier, card]
VILLE_CARD = py.VILLE

# --- the agent's curves and powers, tabulated by its own functions ----------------------------
MAX_COUNT = 4 * NC  # room for any count in a holding (duplicated copies included)
MAX_SWORDS = 2 * int(SWORDS.sum()) + 1  # above any holding: every Danger, 3 copies, 1 more
MAX_REM = 10
JOURNEY_TABLE = np.array([[py.journey_curve(j + _W.journey_rate * rem) for j in range(MAX_COUNT)]
                          for rem in range(MAX_REM)], np.float64)
THEME_TABLE = np.array([[py.theme_curve(t + _W.tag_rate * rem) if rem else float(t * (t >= 4))
                         for t in range(MAX_COUNT)] for rem in range(MAX_REM)], np.float64)
SHARE_POWER = np.array([_W.quest_share ** k for k in range(MAX_COUNT)], np.float64)

# --- observation pieces read, in the order of ``off`` --------------------------------------
PIECES = ("hand", "my_selection", "tableau", "copies", "night_count", "discards", "passed",
          "round", "central_size", "phase")
(O_HAND, O_SEL, O_TAB, O_COPIES, O_NIGHTS, O_DISC, O_PASSED, O_ROUND, O_CENTRAL,
 O_PHASE) = range(len(PIECES))
# card-list rows of the scratch: my holding, the Ville step's base, a holding less one card
R_MINE, R_BASE, R_REST = range(3)
F_LEAD, F_AVG, F_MINE, F_BASE = range(4)  # row floats: best other Night count, mean unseen gain,
# E of my holding, E of the Ville step's base


def _fits(width: int, size: int) -> bool:
    """Whether rows ``width`` wide hold an observation of ``size`` (alone, or followed by the
    one-hot of an advised network's advice: ``training/batched/advised.py``)."""
    return width in (size, size + NUM_ACTIONS)


def _layout_of(game: BauerDraftGame) -> tuple[np.ndarray, int, int]:
    """The offsets of the pieces read, the player count and the rounds of ``game``."""
    spec = game.obs_spec
    return (np.array([spec.offsets[p] for p in PIECES], np.int64), game.num_players,
            game.num_rounds)


@cache
def _default_layout(width: int) -> tuple[np.ndarray, int, int]:
    games = [BauerDraftGame(num_players=n) for n in (2, 3, 4, 5)]
    for game in games:
        if _fits(width, game.obs_spec.size):
            return _layout_of(game)
    sizes = ", ".join(f"{g.obs_spec.size} ({g.num_players} players)" for g in games)
    raise ValueError(f"bauer_draft compiled heuristic: observations of width {width}; "
                     f"bauer_draft's are {sizes} wide ({NUM_ACTIONS} more with advice)")


def heuristic_actions(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The heuristic's action for every row (``HeuristicAgent(tie_break="first")``) for the
    player count that the width says: ``obs`` ``[n, D]`` (raw, not scaled; or followed by an
    advice one-hot of 227 columns, not read), ``mask`` ``[n, 227]`` (or wider: a NOOP column,
    answered with 227 where nothing else is legal) -> int64 ``[n]``."""
    obs = np.asarray(obs)
    if obs.ndim != 2:
        raise ValueError(f"bauer_draft compiled heuristic: obs of shape {obs.shape}; expected "
                         "[n, D]")
    return _run(obs, mask, _default_layout(obs.shape[1]))


def heuristic_for(**options: Any) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``heuristic_actions`` for the game with ``options`` (``BauerDraftGame``'s, checked
    there); only the player count reaches the heuristic."""
    game = BauerDraftGame(**options)
    layout, size = _layout_of(game), game.obs_spec.size

    def actions(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs = np.asarray(obs)
        if obs.ndim != 2 or not _fits(obs.shape[1], size):
            raise ValueError(f"bauer_draft compiled heuristic: obs of shape {obs.shape}; "
                             f"expected [n, {size}] (or [n, {size + NUM_ACTIONS}] with advice) "
                             f"for options {options}")
        return _run(obs, mask, layout)

    return actions


def _run(obs: np.ndarray, mask: np.ndarray, layout: tuple[np.ndarray, int, int]) -> np.ndarray:
    return run_batched("bauer_draft", _actions, obs, mask, NUM_ACTIONS, *layout)


# ------------------------------------------------------------------------------ kernels
@njit(cache=True)
def _actions(obs, mask, off, n, rounds, out):
    # scratch, allocated once per batch and reused for every row
    cards = np.zeros((3, MAX_COUNT), np.int64)
    tags = np.zeros(5, np.int64)
    others = np.zeros((NUM_SAMPLES, n - 1), np.float64)
    top = np.zeros(NUM_SAMPLES, np.float64)
    noise = np.zeros(NUM_SAMPLES, np.float64)
    danger = np.zeros(MAX_SWORDS, np.float64)  # Danger points by my sword total
    floats = np.zeros(4, np.float64)
    lens = np.zeros(3, np.int64)
    opts = np.zeros(NUM_ACTIONS + 1, np.int64)
    vals = np.zeros(NUM_ACTIONS + 1, np.float64)
    gains = np.zeros(NC, np.float64)
    for i in range(obs.shape[0]):
        out[i] = _one(obs[i], mask[i], off, n, rounds, cards, lens, tags, others, top, noise,
                      danger, floats, opts, vals, gains)


@njit(cache=True)
def _first_max(o, start, size):
    """``np.argmax`` of ``o[start:start + size]`` (the first largest entry)."""
    best = 0
    for j in range(1, size):
        if o[start + j] > o[start + best]:
            best = j
    return best


@njit(cache=True)
def _pairwise_sum(a, n):
    """``np.sum`` of ``a[:n]`` for ``n <= 128``, in numpy's order (8 running sums, then the
    rest), so a mean equals ``np.mean`` bit for bit."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i < n - n % 8:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[i]
        i += 1
    return res


@njit(cache=True)
def _danger_points(swords, rem, others, top, noise):
    """``Evaluator._danger_points``: my mean Danger points over the fixed samples."""
    if swords == 0 and rem == 0:
        return 0.0
    total = 0.0
    cols = others.shape[1]
    for s in range(NUM_SAMPLES):
        mine = swords + noise[s] if rem != 0 else float(swords)
        t = top[s]
        points = 0.0
        if mine > t:
            points = 12.0
        elif mine == t or mine < t:
            k = 1
            under = -np.inf
            for j in range(cols):
                v = others[s, j]
                if v == mine:
                    k += 1
                if v < t and v > under:
                    under = v
            if mine == t:
                points = math.ceil(18.0 / k)
            elif mine >= under:
                points = math.ceil(6.0 / k)
        if not mine > 0:
            points = 0.0
        total += points
    return total / NUM_SAMPLES  # whole points: the sum is exact in any order


@njit(cache=True)
def _quest(c, tags, rem):
    """``Evaluator._quest`` of card ``c``'s quest."""
    points = QUEST_POINTS[c]
    if QUEST_PER_SET[c]:
        sets = MAX_COUNT
        for t in range(5):
            if QUEST[c, t]:
                sets = min(sets, tags[t] // QUEST[c, t])
        missing = 0
        for t in range(5):
            if QUEST[c, t] and tags[t] < (sets + 1) * QUEST[c, t]:
                missing += 1
        partial = points * SHARE_POWER[missing] if rem * 1.5 >= missing else 0.0
        return sets * points + partial
    missing = 0
    for t in range(5):
        missing += max(0, QUEST[c, t] - tags[t])
    if missing == 0:
        return float(points)
    if rem * 1.5 < missing:
        return 0.0
    return points * SHARE_POWER[missing]


@njit(cache=True)
def _estimate(cards, k, rem, lead, tags, others, top, noise, danger):
    """``Evaluator._estimate`` of the holding ``cards[:k]`` (sums in the list's order)."""
    for t in range(5):
        tags[t] = 0
    events = event_points = journeys = night_journeys = dangers = swords = nights = 0
    for i in range(k):
        c = cards[i]
        kind = KIND[c]
        nights += NIGHT[c]
        if kind == EVENT:
            events += 1
            event_points += POINTS[c]
        elif kind == JOURNEY:
            journeys += 1
            night_journeys += NIGHT[c]
        elif kind == DANGER:
            dangers += 1
            swords += SWORDS[c]
        for t in range(5):
            tags[t] += TAGS[c, t]
    total = float(event_points)
    total += JOURNEY_TABLE[rem, journeys] + night_journeys
    if np.isnan(danger[swords]):
        danger[swords] = _danger_points(swords, rem, others, top, noise)
    total += danger[swords]
    themes = 0.0
    for t in range(5):
        themes += THEME_TABLE[rem, tags[t]]
    total += themes
    quests = 0.0
    for i in range(k):
        if HAS_QUEST[cards[i]]:
            quests += _quest(cards[i], tags, rem)
    total += quests
    future = PRIZE_RATE * rem
    for i in range(k):
        prize = PRIZE[cards[i]]
        if prize == 0:
            continue
        if prize == SKUTT:
            ahead = nights - lead
            if rem == 0:
                total += 6.0 if ahead > 0 else 0.0
            else:
                total += 6.0 * min(1.0, max(0.0, 0.35 + 0.2 * ahead))
        elif prize == WING_MOTHER:
            total += max(tags[0], tags[1], tags[2], tags[3], tags[4]) + future
        elif prize == SILVER_KNIGHT:
            total += max(events, journeys, dangers) + future
        elif prize == KING_DEATH:
            total += swords + future
        elif prize == BIG_JOCK:
            total += 3.0 * min(events, journeys, dangers) + future
        elif prize == TUVSTARR:
            total += 2.0 * quests / 3.0
        elif prize == SKOGSRA:
            total += max(0.0, 13.0 - (tags[0] + tags[1] + tags[2] + tags[3] + tags[4])
                         - 0.8 * rem)
    return total


@njit(cache=True)
def _best(opts, vals, count):
    """The first option whose value is within 1e-9 of the largest."""
    top = vals[0]
    for i in range(1, count):
        top = max(top, vals[i])
    for i in range(count):
        if vals[i] >= top - 1e-9:
            return opts[i]
    return opts[0]


@njit(cache=True)
def _one(o, m, off, n, rounds, cards, lens, tags, others, top, noise, danger, floats, opts, vals,
         gains):
    legal, first = 0, -1
    for a in range(NUM_ACTIONS):
        if m[a]:
            legal += 1
            if first < 0:
                first = a
    if legal == 0:
        return NUM_ACTIONS if m.shape[0] > NUM_ACTIONS and m[NUM_ACTIONS] else -1
    if legal == 1:
        return first
    # --- the Evaluator of this observation
    rem = max(0, rounds - 1 - _first_max(o, off[O_ROUND], rounds + 1))
    k = 0
    for piece in (O_TAB, O_COPIES):
        for c in range(NC):
            if o[off[piece] + c] != 0.0:
                cards[R_MINE, k] = c
                k += 1
    lens[R_MINE] = k
    sd = SWORD_SD * math.sqrt(rem)
    lead = 0.0
    for r in range(1, n):
        day, seen_nights = 0, 0
        for piece in (O_TAB, O_COPIES):
            for c in range(NC):
                if o[off[piece] + r * NC + c] != 0.0:
                    if NIGHT[c]:
                        seen_nights += 1
                    else:
                        day += SWORDS[c]
        night_count = float(o[off[O_NIGHTS] + r])
        lead = night_count if r == 1 else max(lead, night_count)
        hidden = night_count - seen_nights
        base = day + hidden * NIGHT_SWORDS + rem * SWORD_RATE
        spread = sd + 0.5 * math.sqrt(max(hidden, 0.0))
        for s in range(NUM_SAMPLES):
            others[s, r - 1] = base + spread * SAMPLES[s, r]
    for s in range(NUM_SAMPLES):
        t = others[s, 0]
        for j in range(1, n - 1):
            t = max(t, others[s, j])
        top[s] = t
        noise[s] = rem * SWORD_RATE + sd * SAMPLES[s, 0]
    danger[:] = np.nan
    floats[F_LEAD] = lead
    floats[F_AVG] = np.nan
    floats[F_MINE] = _estimate(cards[R_MINE], k, rem, lead, tags, others, top, noise, danger)
    central = round(o[off[O_CENTRAL]])
    phase = _first_max(o, off[O_PHASE], NUM_KINDS)
    ctx = (o, off, n, rem, central, cards, lens, tags, others, top, noise, danger, floats, gains)
    if phase in (SELECT, MARTIN, OLLE, YULE):
        return _pick(m, ctx, opts, vals)
    if phase in (SELECT_VILLE, OLLE_VILLE, YULE_VILLE):
        return _ville(m, ctx, opts, vals)
    if phase == WITCH:
        return _witch(m, ctx, opts, vals)
    if phase == DAGA:
        return _daga(m, ctx, opts, vals)
    if phase == COPY_CHOICE:
        return _copy_choice(m, ctx, opts, vals)
    if phase == COPY_OFFER:
        return _copy_offer(m, ctx)
    return first  # every legal action valued 0.0: the first


# --- the agent's derived values (``ctx``: the row and its Evaluator) ---------------------------
@njit(cache=True)
def _value(ctx, row, k):
    """E of the holding in card row ``row``, its first ``k`` cards."""
    (o, off, n, rem, central, cards, lens, tags, others, top, noise, danger, floats, gains) = ctx
    return _estimate(cards[row], k, rem, floats[F_LEAD], tags, others, top, noise, danger)


@njit(cache=True)
def _gain(ctx, row, base_value, card):
    """``Evaluator.gain``: E of row ``row``'s holding with ``card`` appended, less
    ``base_value`` (E of that holding)."""
    cards, lens = ctx[5], ctx[6]
    k = lens[row]
    cards[row, k] = card
    return _value(ctx, row, k + 1) - base_value


@njit(cache=True)
def _loss(ctx, row, base_value, card):
    """``Evaluator.loss``: ``base_value`` less E of row ``row``'s holding without ``card``."""
    cards, lens = ctx[5], ctx[6]
    k = 0
    for i in range(lens[row]):
        if cards[row, i] != card:
            cards[R_REST, k] = cards[row, i]
            k += 1
    return base_value - _value(ctx, R_REST, k)


@njit(cache=True)
def _avg_unseen(ctx):
    """``HeuristicAgent.avg_unseen``: the mean gain of a card I have not seen."""
    (o, off, n, rem, central, cards, lens, tags, others, top, noise, danger, floats, gains) = ctx
    if not np.isnan(floats[F_AVG]):
        return floats[F_AVG]
    count = 0
    for c in range(NC):
        tableau = np.float32(0.0)
        passed = np.float32(0.0)
        for r in range(n):
            tableau += o[off[O_TAB] + r * NC + c]
            passed += o[off[O_PASSED] + r * NC + c]
        if tableau > 0 or o[off[O_DISC] + c] > 0 or o[off[O_HAND] + c] > 0 or passed > 0:
            continue
        gains[count] = _gain(ctx, R_MINE, floats[F_MINE], c)
        count += 1
    floats[F_AVG] = _pairwise_sum(gains, count) / count if count else 0.0
    return floats[F_AVG]


@njit(cache=True)
def _effect_bonus(ctx, row, base_value, card):
    """``HeuristicAgent.effect_bonus``: one-off worth of a Day character played now."""
    rem, central, cards, lens = ctx[3], ctx[4], ctx[5], ctx[6]
    effect = EFFECT[card]
    if effect == 0 or NIGHT[card]:
        return 0.0
    if effect == E_MARTIN:
        return _avg_unseen(ctx) if central else 0.0
    if effect == E_OLLE:
        return 1.25 * _avg_unseen(ctx) if central else 0.0
    if effect == E_YULE:
        return 1.25 * _avg_unseen(ctx)
    if effect == E_VILLE:
        return _avg_unseen(ctx) if rem > 0 else 0.0
    if effect == E_DAGA:
        return 1.5 if central else 0.0
    if effect == E_WITCH:
        return 0.5 if rem > 0 else 0.0
    copier = effect - E_BELLA
    best = min(3.0, 0.5 * rem)  # a later copy
    for i in range(lens[row]):
        c = cards[row, i]
        if ELIGIBLE[copier, c]:
            best = max(best, _gain(ctx, row, base_value, c))
    return best


@njit(cache=True)
def _card_value(ctx, row, base_value, card):
    """``HeuristicAgent.card_value``: the gain of ``card`` plus its scaled effect credit."""
    bonus = _effect_bonus(ctx, row, base_value, card)
    return _gain(ctx, row, base_value, card) + (EFFECT_SCALE * bonus if bonus != 0.0 else 0.0)


@njit(cache=True)
def _pick(m, ctx, opts, vals):
    """Select / Brother Martin / Olle / Yule Goat: the card worth most (or Daga's swap)."""
    central, floats = ctx[4], ctx[12]
    count = 0
    for a in range(PLAY, DAGA_PLAY):
        if m[a]:
            opts[count] = a
            vals[count] = _card_value(ctx, R_MINE, floats[F_MINE], a - PLAY)
            count += 1
    if m[DAGA_PLAY:DISCARD].any():
        top = vals[0]
        for i in range(1, count):
            top = max(top, vals[i])
        swap = min(2, central) * _avg_unseen(ctx)
        if swap - top > DAGA_MARGIN:
            count = 0
            for a in range(DAGA_PLAY, DISCARD):
                if m[a]:
                    opts[count] = a
                    vals[count] = _card_value(ctx, R_MINE, floats[F_MINE], a - DAGA_PLAY)
                    count += 1
    return _best(opts, vals, count)


@njit(cache=True)
def _ville(m, ctx, opts, vals):
    """Second card with Ville: worth more than losing Ville?"""
    (o, off, n, rem, central, cards, lens, tags, others, top, noise, danger, floats, gains) = ctx
    k = lens[R_MINE]
    cards[R_BASE, :k] = cards[R_MINE, :k]
    for c in range(NC):
        if o[off[O_SEL] + c] != 0.0:
            cards[R_BASE, k] = c
            k += 1
    lens[R_BASE] = k
    base_value = _value(ctx, R_BASE, k)
    cost = _loss(ctx, R_BASE, base_value, VILLE_CARD) + 0.5
    opts[0], vals[0] = NO_VILLE, 0.0
    count = 1
    for a in range(PLAY, DAGA_PLAY):
        if m[a]:
            opts[count] = a
            vals[count] = _card_value(ctx, R_BASE, base_value, a - PLAY) - cost
            count += 1
    if m[DAGA_PLAY:DISCARD].any():
        swap = min(2, central) * _avg_unseen(ctx) - cost - DAGA_MARGIN
        for a in range(DAGA_PLAY, DISCARD):
            if m[a]:
                opts[count], vals[count] = a, swap
                count += 1
    return _best(opts, vals, count)


@njit(cache=True)
def _witch(m, ctx, opts, vals):
    """Move the piles so that the best known cards come to me (unknown piles: average)."""
    o, off, n, floats = ctx[0], ctx[1], ctx[2], ctx[12]
    avg = _avg_unseen(ctx)
    count = 0
    for a in range(NUM_ACTIONS):
        if not m[a]:
            continue
        row = n - 1 if a == WITCH_LEFT else (1 if a == WITCH_RIGHT else 0)
        best_known = -np.inf
        for c in range(NC):
            if o[off[O_PASSED] + row * NC + c] != 0.0:
                best_known = max(best_known, _card_value(ctx, R_MINE, floats[F_MINE], c))
        opts[count] = a
        vals[count] = max(best_known, 1.3 * avg) + (0.25 if a == WITCH_NONE else 0.0)
        count += 1
    return _best(opts, vals, count)


@njit(cache=True)
def _daga(m, ctx, opts, vals):
    """Daga on play: discard my least useful card for 2 central cards, if that wins enough."""
    rem, central, floats = ctx[3], ctx[4], ctx[12]
    central = min(2, central)
    if not m[DISCARD:COPY].any() or central == 0:
        return DAGA_KEEP
    avg = _avg_unseen(ctx)
    count = 0
    top = -np.inf
    for a in range(DISCARD, COPY):
        if m[a]:
            opts[count] = a
            vals[count] = central * avg - _loss(ctx, R_MINE, floats[F_MINE], a - DISCARD)
            top = max(top, vals[count])
            count += 1
    keep_value = DAGA_MARGIN if rem > 0 else 0.0
    if top > keep_value:
        return _best(opts, vals, count)
    return DAGA_KEEP


@njit(cache=True)
def _copy_choice(m, ctx, opts, vals):
    """Copy the best eligible card now unless a later one is expected to be worth more."""
    rem, floats = ctx[3], ctx[12]
    count = 0
    top = -np.inf
    for a in range(COPY, COPY + NC):
        if m[a]:
            opts[count] = a
            vals[count] = _gain(ctx, R_MINE, floats[F_MINE], a - COPY)
            top = max(top, vals[count])
            count += 1
    if m[COPY_LATER] and (count == 0 or top < min(3.0, 0.5 * rem)):
        return COPY_LATER
    return _best(opts, vals, count)


@njit(cache=True)
def _copy_offer(m, ctx):
    """Accept the offered card as the copy when it is worth enough for the rounds left."""
    rem, floats = ctx[3], ctx[12]
    for a in range(COPY, COPY + NC):
        if m[a]:
            value = _gain(ctx, R_MINE, floats[F_MINE], a - COPY)
            return a if value >= min(3.0, 0.5 * rem) else COPY_DECLINE
    return COPY_DECLINE
