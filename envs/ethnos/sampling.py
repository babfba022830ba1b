"""Determinization of an Ethnos position for one observer (spec §11).

Hidden from a seat: the other hands except the cards everybody knows are there (taken from the
display and not provably played or discarded since), the deck order, and where the remaining
Dragons lie inside the bottom ``lower_left`` deck cards. Everything else is public.
"""

from __future__ import annotations

import numpy as np

from envs.ethnos.components import DRAGON, NUM_TYPES


def determinize(state, player: int, rng: np.random.Generator):
    """A copy of ``state`` with the hidden cards re-dealt uniformly and a fresh RNG.

    A band another player is building (or the cards he is keeping with an Elf) is kept as it
    is: ``player`` never decides while that is pending, so nothing it could act on depends on it.
    """
    s = state.clone()
    s.rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
    deck_allies = np.asarray([c for c in s.deck if c != DRAGON], np.int64)
    pool = np.bincount(deck_allies, minlength=NUM_TYPES)
    need: list[tuple[int, int]] = []
    for q in range(s.n):
        if q == player:
            continue
        keep = np.minimum(s.known[q], s.hands[q]).astype(np.int64)
        hidden = s.hands[q].astype(np.int64) - keep
        pool += hidden
        need.append((q, int(hidden.sum())))
        s.hands[q] = keep
    cards = np.repeat(np.arange(NUM_TYPES), pool)
    cards = cards[rng.permutation(len(cards))].tolist()
    pos = 0
    for q, count in need:
        for c in cards[pos:pos + count]:
            s.hands[q, c] += 1
        pos += count
    rest = iter(cards[pos:])
    size = len(s.deck)
    region = min(s.lower_left, size)
    spots = set(rng.choice(region, 3 - s.dragons, replace=False).tolist())
    s.deck = [DRAGON if i in spots else next(rest) for i in range(size)]
    s._mask = None
    return s
