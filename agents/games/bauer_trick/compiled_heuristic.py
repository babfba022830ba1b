"""``bauer_trick``'s heuristic over a batch of observations, compiled with numba.

``heuristic.py`` beside this (``HeuristicAgent``, default ``call_threshold``) reads only its own
observation and mask, so a batch of positions can be answered from the ``obs``/``mask`` arrays
of a vector env in one call. ``heuristic_actions`` makes the agent's decisions rule for rule
(tested on many positions of every phase against the agent itself): the same call strengths and
tie-breaks, the same card choices when leading, following and trusting the partner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from tablezoo.agents.games.bauer_trick.heuristic import call_strength
from tablezoo.envs.bauer_trick.actions import CALL_BASE, NUM_ACTIONS, PASS
from tablezoo.envs.bauer_trick.components import EFFECTIVE_SUIT, NO_TRUMP, NUM_CARDS, STRENGTH
from tablezoo.envs.bauer_trick.observation import OBS_SPEC
from tablezoo.envs.bauer_trick.rules import BauerTrickGame

DEFAULT_CALL_THRESHOLD = 3.0
EFF = np.array(EFFECTIVE_SUIT, np.int64)  # [trump 0..4, card]
STR = np.array(STRENGTH, np.int64)  # [trump, led, card]
# CALL_POINTS[suit, card]: the card's share of ``call_strength(hand, suit)`` (the sum over a
# hand is that function's value: it adds one term per card)
CALL_POINTS = np.array([[call_strength([card], suit) for card in range(NUM_CARDS)]
                        for suit in range(4)], np.float64)
_O = OBS_SPEC.offsets
HAND, TRUMP, CALLER, TRICK, LEADER = _O["hand"], _O["trump"], _O["caller"], _O["trick"], \
    _O["leader"]
PARTNER = 2
ACE = 7


def heuristic_actions(obs: np.ndarray, mask: np.ndarray,
                      call_threshold: float = DEFAULT_CALL_THRESHOLD) -> np.ndarray:
    """The heuristic's action for every row: ``obs`` ``[n, 374]`` (raw, not scaled), ``mask``
    ``[n, 37]`` (or wider: a NOOP column is ignored) -> int64 ``[n]``."""
    obs = np.ascontiguousarray(obs, np.float32)
    mask = np.ascontiguousarray(mask[:, :NUM_ACTIONS], np.bool_)
    out = np.empty(len(obs), np.int64)
    _actions(obs, mask, float(call_threshold), out)
    return out


def heuristic_for(**options: Any) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``heuristic_actions`` for the game with ``options`` (``BauerTrickGame``'s, checked
    there): the heuristic plays every option alike."""
    BauerTrickGame(**options)
    return heuristic_actions


@njit(cache=True)
def _own_value(card, trump):
    return STR[trump, EFF[trump, card], card]


@njit(cache=True)
def _actions(obs, mask, threshold, out):
    for i in range(obs.shape[0]):
        out[i] = _one(obs[i], mask[i], threshold)


@njit(cache=True)
def _one(o, m, threshold):
    first = -1
    for a in range(NUM_ACTIONS):
        if m[a]:
            first = a
            break
    if first >= CALL_BASE:  # the trump call
        best, best_strength = 0, -1.0
        for suit in range(4):
            total = 0.0
            for c in range(NUM_CARDS):
                if o[HAND + c] != 0.0:
                    total += CALL_POINTS[suit, c]
            if total > best_strength:  # ties: the lowest suit
                best, best_strength = suit, total
        if best_strength >= threshold or not m[PASS]:
            return CALL_BASE + best
        return PASS
    trump = NO_TRUMP
    for s in range(5):
        if o[TRUMP + s] != 0.0:
            trump = s
            break
    cheapest, cheap_value = -1, 0
    for c in range(NUM_CARDS):
        if m[c]:
            v = _own_value(c, trump)
            if cheapest < 0 or v < cheap_value:  # ties: the lower card id (ascending scan)
                cheapest, cheap_value = c, v
    leader = 0
    for s in range(4):  # argmax: the first maximal entry
        if o[LEADER + s] > o[LEADER + leader]:
            leader = s
    n_played = 0
    led_card = -1
    for s in range(4):
        for c in range(NUM_CARDS):
            if o[TRICK + NUM_CARDS * s + c] != 0.0:
                n_played += 1
                if s == leader and led_card < 0:
                    led_card = c
    if n_played == 0:  # lead
        my_team_called = o[CALLER] != 0.0 or o[CALLER + PARTNER] != 0.0
        if my_team_called and trump != NO_TRUMP:
            top, top_value = -1, 0
            for c in range(NUM_CARDS):
                if m[c] and EFF[trump, c] == trump:
                    v = _own_value(c, trump)
                    if top < 0 or v >= top_value:  # ties: the higher card id
                        top, top_value = c, v
            if top >= 0:
                return top
        for c in range(NUM_CARDS):
            if m[c] and (c & 7) == ACE and EFF[trump, c] != trump:
                return c
        return cheapest
    led = EFF[trump, led_card]
    best_seat, best_strength = -1, 0
    for s in range(4):  # seats ascending; the first maximum wins
        for c in range(NUM_CARDS):
            if o[TRICK + NUM_CARDS * s + c] != 0.0:
                st = STR[trump, led, c]
                if best_seat < 0 or st > best_strength:
                    best_seat, best_strength = s, st
    if best_seat == PARTNER and (n_played == 3 or best_strength >= ACE):
        return cheapest
    winner, winner_strength = -1, 0
    for c in range(NUM_CARDS):
        if m[c]:
            st = STR[trump, led, c]
            if st > best_strength and (winner < 0 or st < winner_strength):
                winner, winner_strength = c, st
    if winner >= 0:
        return winner
    return cheapest
