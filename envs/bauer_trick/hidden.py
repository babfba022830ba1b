"""``determinize`` for ``bauer_trick``: re-deal, at random, the cards one player cannot see."""

from __future__ import annotations

from functools import cache
from math import factorial
from typing import TYPE_CHECKING

import numpy as np

from envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_SEATS,
    NUM_SUITS,
    SUIT_BITS,
    bits_of,
    cards_of,
)

if TYPE_CHECKING:
    from envs.bauer_trick.rules import BauerTrickState


def _splits(n: int, room: tuple[int, ...], open_to: tuple[bool, ...]):
    """Every way to share ``n`` cards among the places (counts only), each within its room."""
    if len(room) == 1:
        if n == 0 or (open_to[0] and n <= room[0]):
            yield (n,)
        return
    top = min(n, room[0]) if open_to[0] else 0
    for k in range(top + 1):
        for rest in _splits(n - k, room[1:], open_to[1:]):
            yield (k, *rest)


def _multinomial(split: tuple[int, ...]) -> int:
    out = factorial(sum(split))
    for k in split:
        out //= factorial(k)
    return out


REJECTION_TRIES = 20  # plain shuffles tried before the exact count-based sampler


def determinize(state: BauerTrickState, player: int, rng: np.random.Generator) -> BauerTrickState:
    """A copy in which the other hands (and the cards not yet dealt) are re-dealt at random,
    uniformly over every deal that keeps the hand sizes and the voids the other seats have shown,
    with a fresh game RNG.

    Exact sampling: first a few plain shuffles, keeping the first that breaks no void (rejection
    sampling, uniform over the consistent deals and fast in the common case); if none fits, the
    hidden cards are grouped by effective suit, the deals that complete each partial share are
    counted (a small dynamic programme over the 4 suits), each suit's split among the places is
    drawn with probability proportional to the deals it allows, then the suit's cards are
    shuffled into that split. Both ways draw from the same uniform distribution.
    """
    new = state.clone()
    new.rng = np.random.default_rng(rng.integers(2**63 - 1))
    others = [s for s in range(NUM_SEATS) if s != player]
    # sorted, so the sample depends only on what ``player`` knows, not on who holds what
    hidden = sorted([c for s in others for c in cards_of(state.hands[s])] + list(state.undealt))
    if not hidden:
        return new
    trump = state.trump if state.trump >= 0 else NO_TRUMP
    # places: the other seats, then the undealt pile (no void constraint)
    need = tuple(state.hands[s].bit_count() for s in others) + (len(state.undealt),)
    banned = [0] * len(need)  # per place, bit mask of the cards it cannot hold
    for i, s in enumerate(others):
        for g in range(NUM_SUITS):
            if state.voids[s] >> g & 1:
                banned[i] |= SUIT_BITS[trump][g]
    for _ in range(REJECTION_TRIES):
        order = [hidden[i] for i in rng.permutation(len(hidden))]
        share, start = [], 0
        for k in need:
            share.append(order[start : start + k])
            start += k
        if not any(bits_of(cards) & ban for cards, ban in zip(share, banned)):
            return _install(new, others, share)

    groups = [[c for c in hidden if EFFECTIVE_SUIT[trump][c] == g] for g in range(NUM_SUITS)]
    open_to = [
        tuple(not state.voids[s] >> g & 1 for s in others) + (True,) for g in range(NUM_SUITS)
    ]

    @cache
    def ways(g: int, room: tuple[int, ...]) -> int:
        """Deals of the groups ``g``.. that fill ``room`` exactly."""
        if g == NUM_SUITS:
            return int(not any(room))
        return sum(
            _multinomial(split) * ways(g + 1, tuple(r - k for r, k in zip(room, split)))
            for split in _splits(len(groups[g]), room, open_to[g])
        )

    if ways(0, need) == 0:  # cannot happen for a reachable state (the true deal exists)
        return new
    room = need
    share: list[list[int]] = [[] for _ in need]
    for g in range(NUM_SUITS):
        options = []
        for split in _splits(len(groups[g]), room, open_to[g]):
            after = tuple(r - k for r, k in zip(room, split))
            options.append((split, after, _multinomial(split) * ways(g + 1, after)))
        pick = int(rng.integers(sum(w for _, _, w in options)))
        chosen = 0
        while pick >= options[chosen][2]:
            pick -= options[chosen][2]
            chosen += 1
        split, after, _ = options[chosen]
        cards = [groups[g][i] for i in rng.permutation(len(groups[g]))]
        start = 0
        for place, k in enumerate(split):
            share[place].extend(cards[start : start + k])
            start += k
        room = after
    share[-1] = [share[-1][i] for i in rng.permutation(len(share[-1]))]
    return _install(new, others, share)


def _install(new: BauerTrickState, others: list[int], share: list[list[int]]) -> BauerTrickState:
    """Give ``share[i]`` to ``others[i]``, the last share (in its order) to the undealt pile."""
    for i, s in enumerate(others):
        new.hands[s] = bits_of(share[i])
    new.undealt = list(share[-1])
    new.encode()
    return new
