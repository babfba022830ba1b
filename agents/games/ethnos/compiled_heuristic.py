"""``ethnos``'s heuristic over a batch of observations, compiled with numba.

``heuristic.py`` beside this (``HeuristicAgent`` with its default ``play_size``, ``play_value``
and ``future_weight``) reads only its own observation, its mask and the game's options, so a
batch of positions can be answered from the ``obs``/``mask`` arrays of a vector env in one call.
``heuristic_actions`` makes the agent's decisions rule for rule: the same band values (band
glory, kingdom marker gains by Algorithm R, the leaders' powers, the Centaur follow-up), the
same play-or-recruit rule, recruit gains, Elf keeps and kingdom picks, with the same float
operations in the same order, so equal inputs give bit-equal values.

Ties. The Python agent adds ``tie_noise`` (default 1e-6) times a draw of its generator to each
compared value; this one is that agent with ``tie_noise=0``: of equal values the first in the
agent's scan order wins (groups, then leaders ascending; display cards ascending, a blind draw
only when strictly better; kingdoms and Elf keeps ascending). The tests hold it equal to the
noise-free agent at every decision, and count how often the default, noisy agent differs (only
at exact ties). At a band's BUILD decisions the agent follows the plan it made when it chose
the leader; this one recomputes that plan from the hand and the band so far (the same cards:
the values do not change while a band is built, and the noise-free first maximum among the
leader's groups is the one chosen before).

Options. The player count is read from the observation's width; the options that change the
values (band and Orc glory tables, the Giant claim and bonus, the Merfolk track, the 2-player
tie rule) are not in the observation: ``heuristic_actions`` assumes the defaults and
``heuristic_for(**options)`` binds others.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from tablezoo.agents.games import run_batched
from tablezoo.agents.games.ethnos.heuristic import HeuristicAgent
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import (
    CENTAURS,
    DWARVES,
    ELVES,
    GIANTS,
    HALFLINGS,
    MERFOLK,
    MINOTAURS,
    NUM_KINGDOMS,
    NUM_TRIBES,
    NUM_TYPES,
    ORCS,
    SKELETON,
    TRIBE_COUNTS,
    TROLLS,
    WINGFOLK,
    WIZARDS,
)  # fmt: skip
from tablezoo.envs.ethnos.rules import EthnosGame

_DEFAULTS = HeuristicAgent(0)
PLAY_SIZE = _DEFAULTS.play_size
PLAY_VALUE = float(_DEFAULTS.play_value if _DEFAULTS.play_value is not None else np.inf)
FUTURE_WEIGHT = _DEFAULTS.future_weight
NUM_ACTIONS = enc.NUM_ACTIONS
NUM_PHASES = len(enc.PHASES)
(TURN, BUILD, WINGFOLK_PICK, MERFOLK_PICK, TROLL_PICK, CENTAUR_PICK, ELF_PICK, WIZARD_PICK,
 ORC_PICK) = (enc.TURN, enc.BUILD, enc.WINGFOLK_PICK, enc.MERFOLK_PICK, enc.TROLL_PICK,
             enc.CENTAUR_PICK, enc.ELF_PICK, enc.WIZARD_PICK, enc.ORC_PICK)
(RECRUIT_DECK, LEADER, ADD_CARD, FINISH_BAND, KINGDOM, TROLL, CENTAUR_STOP, ELF_KEEP, ELF_DONE,
 WIZARD_DRAW, ORC_EMPTY, ORC_KEEP) = (enc.RECRUIT_DECK, enc.LEADER, enc.ADD_CARD,
                                     enc.FINISH_BAND, enc.KINGDOM, enc.TROLL, enc.CENTAUR_STOP,
                                     enc.ELF_KEEP, enc.ELF_DONE, enc.WIZARD_DRAW, enc.ORC_EMPTY,
                                     enc.ORC_KEEP)
NUM_GROUPS = 17  # one per leading tribe (0-10), one per colour (11-16)
ALLY_TRIBES = 11
DECKS = np.ascontiguousarray(TRIBE_COUNTS, np.int64)  # [tribe, type]

# The observation pieces read, in the order of ``_OFF`` (offsets into one row).
PIECES = ("display", "glory_tokens", "tribes_in_play", "age", "dragons_revealed", "deck_size",
          "deck_safe_top", "troll_supply", "giant_band_size", "phase", "markers",
          "merfolk_track", "horde", "known_hand", "band_cards", "my_hand", "my_building",
          "my_building_leader", "my_elf_kept")
(O_DISPLAY, O_TOKENS, O_TRIBES, O_AGE, O_DRAGONS, O_DECK, O_SAFE, O_TROLLS, O_GIANT, O_PHASE,
 O_MARKERS, O_TRACK, O_HORDE, O_KNOWN, O_BANDS, O_HAND, O_BUILDING, O_LEADER,
 O_ELF) = range(len(PIECES))
# The game's numbers in ``_PAR``: scalars, then the band glory, Orc glory and Giant bonus tables.
(P_N, P_AGES, P_SLOTS, P_I_PLUS_II, P_CLAIM, P_PER_SPACE, P_TRACK_END) = range(7)
P_BAND, P_ORC, P_BONUS = 7, 13, 19
PAR_SIZE = 22
# The rows of the kernel's integer scratch (one allocation per batch, not per row).
(W_HAND, W_HORDE, W_BUILDING, W_BOTH, W_REST, W_SIZES, W_SIZES_2, W_UNSEEN) = range(8)
WORK_ROWS = 8


def _tables(game: EthnosGame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The offsets, numbers and Merfolk spaces of ``game`` as the kernel reads them."""
    off = np.array([game.obs_spec.offsets[name] for name in PIECES], np.int64)
    par = np.zeros(PAR_SIZE, np.int64)
    par[P_N], par[P_AGES], par[P_SLOTS] = game.num_players, game.num_ages, game.slots_per_kingdom
    par[P_I_PLUS_II] = game.options["two_player_tie"] == "i_plus_ii"
    par[P_CLAIM] = game.options["giant_claim_glory"]
    par[P_PER_SPACE] = bool(game.options["merfolk_marker_per_space"])
    par[P_TRACK_END] = game.merfolk_end
    par[P_BAND:P_BAND + 6] = game.band_glory
    par[P_ORC:P_ORC + 6] = game.orc_glory
    par[P_BONUS:P_BONUS + len(game.giant_bonus)] = game.giant_bonus
    return off, par, np.array(game.merfolk_spaces, np.int64)


def _fits(width: int, size: int) -> bool:
    """Whether rows ``width`` wide hold an observation of ``size`` (alone, or followed by the
    one-hot of an advised network's advice: ``training/batched/advised.py``)."""
    return width in (size, size + NUM_ACTIONS)


@cache
def _default_tables(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    for n in range(2, 7):
        game = EthnosGame(num_players=n)
        if _fits(width, game.obs_spec.size):
            return _tables(game)
    widths = [EthnosGame(num_players=n).obs_spec.size for n in range(2, 7)]
    raise ValueError(f"ethnos compiled heuristic: observations of width {width}; ethnos's "
                     f"are {widths} wide for 2-6 players ({NUM_ACTIONS} more with advice)")


def heuristic_actions(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The heuristic's action for every row under the default options of the player count
    that the width says: ``obs`` ``[n, D]`` (raw, not scaled; or followed by an advice one-hot
    of 289 columns, not read), ``mask`` ``[n, 289]`` (or wider: a NOOP column, answered with
    289 where nothing else is legal) -> int64 ``[n]``."""
    obs = np.asarray(obs)
    if obs.ndim != 2:
        raise ValueError(f"ethnos compiled heuristic: obs of shape {obs.shape}; expected [n, D]")
    return _run(obs, mask, _default_tables(obs.shape[1]))


def heuristic_for(**options: Any) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``heuristic_actions`` for the game with ``options`` (``EthnosGame``'s, checked there)."""
    game = EthnosGame(**options)
    tables, size = _tables(game), game.obs_spec.size

    def actions(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs = np.asarray(obs)
        if obs.ndim != 2 or not _fits(obs.shape[1], size):
            raise ValueError(f"ethnos compiled heuristic: obs of shape {obs.shape}; expected "
                             f"[n, {size}] (or [n, {size + NUM_ACTIONS}] with advice) for "
                             f"options {options}")
        return _run(obs, mask, tables)

    return actions


def _run(obs: np.ndarray, mask: np.ndarray,
         tables: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    return run_batched("ethnos", _actions, obs, mask, NUM_ACTIONS, *tables)


# ------------------------------------------------------------------------------ kernels
@njit(cache=True)
def _actions(obs, mask, off, par, spaces, out):
    ints = np.zeros((WORK_ROWS, NUM_TYPES), np.int64)  # scratch rows, reused for every row
    floats = np.zeros((2, NUM_TYPES), np.float64)
    for i in range(obs.shape[0]):
        out[i] = _one(obs[i], mask[i], off, par, spaces, ints, floats)


@njit(cache=True)
def _first_max(o, start, size):
    """``np.argmax`` of ``o[start:start + size]`` (the first largest entry)."""
    best = 0
    for j in range(1, size):
        if o[start + j] > o[start + best]:
            best = j
    return best


@njit(cache=True)
def _group_sizes(hand, sizes):
    """Cards of ``hand`` per group (Skeletons in none), written into ``sizes``."""
    for g in range(NUM_GROUPS):
        sizes[g] = 0
    for t in range(SKELETON):
        sizes[t // 6] += hand[t]
        sizes[ALLY_TRIBES + t % 6] += hand[t]


@njit(cache=True)
def _members(g):
    """(first type, step, count) of group ``g``'s types, ascending."""
    if g < ALLY_TRIBES:
        return 6 * g, 1, 6
    return g - ALLY_TRIBES, 6, ALLY_TRIBES


@njit(cache=True)
def _in_group(t, g):
    if g < ALLY_TRIBES:
        return t // 6 == g
    return t % 6 == g - ALLY_TRIBES


@njit(cache=True)
def _scores_plus_one(hand, out, sizes):
    """``hand_scores_plus_one``: ``hand_score`` of ``hand`` plus one card of each type."""
    _group_sizes(hand, sizes)
    largest, squares = 0, 0
    for g in range(NUM_GROUPS):
        largest = max(largest, sizes[g])
        squares += sizes[g] * sizes[g]
    for t in range(NUM_TYPES):
        if t == SKELETON:
            out[t] = (largest + hand[SKELETON] + 1) + 0.05 * float(squares)
        else:
            tribe, colour = sizes[t // 6], sizes[ALLY_TRIBES + t % 6]
            big = max(max(tribe, colour) + 1, largest)
            out[t] = (big + hand[SKELETON]) + 0.05 * float(squares + 2 * (tribe + colour) + 2)


@njit(cache=True)
def _hand_score(hand, sizes):
    _group_sizes(hand, sizes)
    largest, squares = 0, 0
    for g in range(NUM_GROUPS):
        largest = max(largest, sizes[g])
        squares += sizes[g] * sizes[g]
    return (largest + hand[SKELETON]) + 0.05 * float(squares)


@njit(cache=True)
def _award(o, tokens, k, age, mine, above, tied):
    """Seat 0's Algorithm R award in kingdom ``k`` at Age ``age`` with equal tie-break keys
    (``rank_award(values, keys, age_slots(tokens, age))[0]``): ``mine`` markers, ``above``
    seats with more, ``tied`` seats with as many (me included)."""
    if mine < 1:
        return 0
    total = 0
    for s in range(above, min(above + tied, age + 1)):  # slot s is Age ``age - s``'s token
        total += np.int64(o[tokens + 3 * k + age - s])
    return total // tied


@njit(cache=True)
def _two_player(o, markers, k, plus, tokens, i_plus_ii):
    """Seat 0's award in kingdom ``k`` under the 2-player Age II rule, ``plus`` markers more of
    mine (``two_player_age_two(...)[0]``)."""
    mine = np.int64(o[markers + k]) + plus
    other = np.int64(o[markers + NUM_KINGDOMS + k])
    low, high = np.int64(o[tokens + 3 * k]), np.int64(o[tokens + 3 * k + 1])
    if mine < 1:
        return 0
    if other < 1:
        return low + high
    if mine == other:
        return (high + low) // 2 if i_plus_ii else high // 2
    return high if mine > other else 0


@njit(cache=True)
def _marker_value(o, off, par, k, age):
    """``HeuristicAgent._award_gain``: my gain with one marker more in kingdom ``k``."""
    n, markers, tokens = par[P_N], off[O_MARKERS], off[O_TOKENS]
    mine = np.int64(o[markers + k])
    above, tied, above_1, tied_1 = 0, 1, 0, 1  # the others against mine and mine + 1
    for p in range(1, n):
        value = np.int64(o[markers + p * NUM_KINGDOMS + k])
        if value > mine:
            above += 1
        elif value == mine:
            tied += 1
        if value > mine + 1:
            above_1 += 1
        elif value == mine + 1:
            tied_1 += 1
    total = 0.3
    for a in range(age, par[P_AGES]):
        weight = 1.0 if a == age else FUTURE_WEIGHT
        if n == 2 and a == 1:
            gain = (_two_player(o, markers, k, 1, tokens, par[P_I_PLUS_II])
                    - _two_player(o, markers, k, 0, tokens, par[P_I_PLUS_II]))
        else:
            gain = (_award(o, tokens, k, a, mine + 1, above_1, tied_1)
                    - _award(o, tokens, k, a, mine, above, tied))
        total += weight * gain
    return total


@njit(cache=True)
def _band_core(o, off, par, spaces, mv, beat, leader, x, skeletons, age, track, horde, left):
    """``band_value`` up to (not including) the Centaur follow-up and the cards left."""
    tribe, colour = leader // 6, leader % 6
    scored = x - skeletons + (1 if tribe == DWARVES else 0)
    value = float(par[P_BAND + min(scored, 6) - 1]) if scored > 0 else 0.0
    e = x + (1 if tribe == MINOTAURS else 0)
    if tribe == WINGFOLK:
        found, best = False, 0.0
        for k in range(NUM_KINGDOMS):
            if e > beat[k] and (not found or mv[k] > best):
                found, best = True, mv[k]
        if found:
            value += best
    elif tribe != HALFLINGS and e > beat[colour]:
        value += mv[colour]
    if tribe == GIANTS and x > np.int64(o[off[O_GIANT]]):
        value += par[P_CLAIM] + 0.5 * par[P_BONUS + age]
    elif tribe == MERFOLK:
        new = min(par[P_TRACK_END], track + x)
        free = 0
        for s in spaces:
            if track < s <= new:
                free += 1
        if not par[P_PER_SPACE]:
            free = min(free, 1)
        best = mv[0]
        for k in range(1, NUM_KINGDOMS):
            best = max(best, mv[k])
        value += free * best + 0.2 * (new - track)
    elif tribe == ORCS and not horde[colour]:
        count = 0
        for c in range(NUM_KINGDOMS):
            count += horde[c]
        value += 0.7 * (par[P_ORC + count] - (par[P_ORC + count - 1] if count else 0))
    elif tribe == TROLLS:
        for i in range(min(6, x)):
            if o[off[O_TROLLS] + i] != 0.0:
                value += 1.0
                break
    elif tribe == ELVES:
        value += 0.8 * min(x, left)
    elif tribe == WIZARDS:
        value += 0.6 * x
    return value


@njit(cache=True)
def _best_band(o, off, par, spaces, mv, beat, age, track, horde, hand, follow, leader, ints):
    """``best_band``: (found, value, leader, group) of the best whole-group band of ``hand``
    (with every Skeleton); ``follow``: a Centaur leader's value counts its follow-up band."""
    sizes, rest = ints[W_SIZES], ints[W_REST]
    _group_sizes(hand, sizes)
    skeletons = hand[SKELETON]
    total = 0
    for t in range(NUM_TYPES):
        total += hand[t]
    found, best, best_lead, best_group = False, 0.0, -1, -1
    for g in range(NUM_GROUPS):
        if sizes[g] == 0 or (leader >= 0 and not _in_group(leader, g)):
            continue
        x = sizes[g] + skeletons
        left = total - x
        first, step, count = _members(g)
        followed, nxt_found, nxt_value = False, False, 0.0  # the group's follow-up, found once
        for j in range(count):
            lead = first + step * j
            if (lead != leader) if leader >= 0 else hand[lead] == 0:
                continue
            value = _band_core(o, off, par, spaces, mv, beat, lead, x, skeletons, age, track,
                               horde, left)
            if follow and lead // 6 == CENTAURS and left > 0:
                if not followed:
                    for t in range(NUM_TYPES):
                        rest[t] = 0 if t == SKELETON or _in_group(t, g) else hand[t]
                    nxt_found, nxt_value = _follow_up(o, off, par, spaces, mv, beat, age, track,
                                                      horde, rest, ints[W_SIZES_2])
                    followed = True
                if nxt_found:
                    value += nxt_value
            value -= 0.05 * left
            if not found or value > best:
                found, best, best_lead, best_group = True, value, lead, g
    return found, best, best_lead, best_group


@njit(cache=True)
def _follow_up(o, off, par, spaces, mv, beat, age, track, horde, rest, sizes):
    """(found, value) of a Centaur's follow-up: ``best_band(rest, follow=False)`` (``rest``
    holds no Skeleton)."""
    _group_sizes(rest, sizes)
    total = 0
    for t in range(NUM_TYPES):
        total += rest[t]
    found, best = False, 0.0
    for g in range(NUM_GROUPS):
        if sizes[g] == 0:
            continue
        x = sizes[g]
        first, step, count = _members(g)
        for j in range(count):
            lead = first + step * j
            if rest[lead] == 0:
                continue
            value = _band_core(o, off, par, spaces, mv, beat, lead, x, 0, age, track, horde,
                               total - x)
            value -= 0.05 * (total - x)
            if not found or value > best:
                found, best = True, value
    return found, best


@njit(cache=True)
def _read(o, start, out):
    for t in range(out.shape[0]):
        out[t] = np.int64(o[start + t])


@njit(cache=True)
def _one(o, m, off, par, spaces, ints, floats):
    legal, only = 0, -1
    for a in range(NUM_ACTIONS):
        if m[a]:
            legal += 1
            only = a
    if legal == 0:
        return NUM_ACTIONS if m.shape[0] > NUM_ACTIONS and m[NUM_ACTIONS] else -1
    if legal == 1:
        return only
    n = par[P_N]
    phase = _first_max(o, off[O_PHASE], NUM_PHASES)
    age = _first_max(o, off[O_AGE], 3)
    hand = ints[W_HAND]
    _read(o, off[O_HAND], hand)
    horde = ints[W_HORDE, :NUM_KINGDOMS]
    _read(o, off[O_HORDE], horde)
    if phase == TROLL_PICK:
        for a in range(CENTAUR_STOP - 1, TROLL - 1, -1):
            if m[a]:
                return a
    if phase == WIZARD_PICK:
        return WIZARD_DRAW
    if phase == ORC_PICK:
        full = 0
        for c in range(NUM_KINGDOMS):
            full += horde[c]
        return ORC_EMPTY if age == par[P_AGES] - 1 or full >= NUM_KINGDOMS else ORC_KEEP
    if phase == ELF_PICK:
        kept = ints[W_BUILDING]
        _read(o, off[O_ELF], kept)
        scores = floats[0]
        _scores_plus_one(kept, scores, ints[W_SIZES])
        best_a, best = ELF_DONE, -np.inf
        for t in range(NUM_TYPES):
            if m[ELF_KEEP + t] and scores[t] > best:
                best_a, best = ELF_KEEP + t, scores[t]
        return best_a
    # marker values and the markers a band must outnumber, per kingdom
    mv = floats[1, :NUM_KINGDOMS]
    beat = ints[W_HORDE, NUM_KINGDOMS:2 * NUM_KINGDOMS]
    for k in range(NUM_KINGDOMS):
        mv[k] = _marker_value(o, off, par, k, age)
        beat[k] = 0
        for p in range(n if n == 2 else 1):
            beat[k] += np.int64(o[off[O_MARKERS] + p * NUM_KINGDOMS + k])
    if phase in (WINGFOLK_PICK, MERFOLK_PICK):
        best_k, best = -1, -np.inf
        for k in range(NUM_KINGDOMS):
            if m[KINGDOM + k] and mv[k] > best:
                best_k, best = k, mv[k]
        return KINGDOM + best_k
    track = np.int64(o[off[O_TRACK]])
    if phase == CENTAUR_PICK:
        found, _, lead, _ = _best_band(o, off, par, spaces, mv, beat, age, track, horde, hand,
                                       True, -1, ints)
        if not found or not m[LEADER + lead]:
            return CENTAUR_STOP
        return LEADER + lead
    if phase == BUILD:
        building = ints[W_BUILDING]
        _read(o, off[O_BUILDING], building)
        lead = -1
        for t in range(NUM_TYPES):
            if o[off[O_LEADER] + t] != 0.0:
                lead = _first_max(o, off[O_LEADER], NUM_TYPES)
                break
        both = ints[W_BOTH]
        for t in range(NUM_TYPES):
            both[t] = hand[t] + building[t]
        found, _, _, group = _best_band(o, off, par, spaces, mv, beat, age, track, horde, both,
                                        True, lead, ints)
        for t in range(NUM_TYPES):
            if found:
                planned = both[t] if t == SKELETON or _in_group(t, group) else 0
            else:
                planned = building[t]
            if planned > building[t] and m[ADD_CARD + t]:
                return ADD_CARD + t
        return FINISH_BAND
    # TURN: play the best band when it is worth it, else recruit
    can_recruit = m[RECRUIT_DECK]
    consider = False
    for t in range(SKELETON):
        if m[LEADER + t]:
            consider = True
            break
    risk = _age_end_risk(o, off, n)
    if consider and not (PLAY_VALUE < np.inf):
        sizes = ints[W_SIZES, :NUM_GROUPS]
        _group_sizes(hand, sizes)
        consider = not can_recruit or sizes.max() + hand[SKELETON] >= PLAY_SIZE or risk >= 0.3
    if consider:
        found, value, lead, group = _best_band(o, off, par, spaces, mv, beat, age, track, horde,
                                               hand, True, -1, ints)
        if found:
            x = hand[SKELETON]
            for t in range(SKELETON):
                if _in_group(t, group):
                    x += hand[t]
            if (x >= PLAY_SIZE or not can_recruit or value >= PLAY_VALUE
                    or (risk >= 0.3 and value >= 1.0)):
                return LEADER + lead
    return _recruit(o, off, par, m, hand, ints, floats[0])


@njit(cache=True)
def _age_end_risk(o, off, n):
    if np.int64(o[off[O_DRAGONS]]) < 2:
        return 0.0
    safe = np.int64(o[off[O_SAFE]])
    unsafe = np.int64(o[off[O_DECK]]) - safe
    draws = n - 1 - safe
    if unsafe <= 0 or draws <= 0:
        return 0.0
    return min(1.0, draws / unsafe)


@njit(cache=True)
def _recruit(o, off, par, m, hand, ints, with_card):
    """``HeuristicAgent._recruit``: the display card that grows my groups most, or a blind
    draw when its expected gain over the cards I cannot see is higher."""
    n = par[P_N]
    base = _hand_score(hand, ints[W_SIZES])
    _scores_plus_one(hand, with_card, ints[W_SIZES])
    best_a, best_gain = RECRUIT_DECK, -np.inf
    for t in range(RECRUIT_DECK):
        if m[t]:
            gain = with_card[t] - base
            if gain > best_gain:
                best_a, best_gain = t, gain
    unseen = ints[W_UNSEEN]
    unseen[:] = 0
    for tribe in range(NUM_TRIBES):
        if o[off[O_TRIBES] + tribe] != 0.0:  # a tribe's cards: its six types (Skeletons: one)
            first, count = (6 * tribe, 6) if tribe < ALLY_TRIBES else (SKELETON, 1)
            for t in range(first, first + count):
                unseen[t] += DECKS[tribe, t]
    for t in range(NUM_TYPES):
        if unseen[t] == 0:
            continue  # none in the deck: none unseen
        seen = (hand[t] + np.int64(o[off[O_DISPLAY] + t]) + np.int64(o[off[O_BUILDING] + t])
                + np.int64(o[off[O_ELF] + t]))
        for p in range(n):
            seen += np.int64(o[off[O_BANDS] + p * NUM_TYPES + t])
            if p > 0:
                seen += np.int64(o[off[O_KNOWN] + p * NUM_TYPES + t])
        unseen[t] = max(unseen[t] - seen, 0)
    total = 0
    deck_gain = 0.0
    for t in range(NUM_TYPES):
        if unseen[t] > 0:
            total += unseen[t]
            deck_gain += unseen[t] * (with_card[t] - base)
    if total > 0 and deck_gain / total > best_gain:
        return RECRUIT_DECK
    return best_a
