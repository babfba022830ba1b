"""Determinization of an Ethnos position for one observer (spec §11).

Hidden from a seat: the other hands except the cards everybody knows are there (taken from the
display and not provably played or discarded since), the deck order, where the remaining
Dragons lie inside the bottom ``lower_left`` deck cards, and, while another seat is building a
band or choosing Elf keeps, which of his cards those are. Everything else is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, SKELETON

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState

_MAX_TRIES = 1000  # rejection sampling for "the builder still holds a possible leader"


def determinize(state: EthnosState, player: int, rng: np.random.Generator) -> EthnosState:
    """A copy of ``state`` with the hidden cards re-dealt uniformly and a fresh RNG.

    A band another seat is building is hidden (only that a band is being built and the seat's
    total card count are public): its cards go back into his hand for the re-deal, which is
    conditioned on him holding a non-Skeleton, and the re-sampled position has him building a
    one-card band led by a random non-Skeleton of his new hand. Cards another seat has kept so
    far with an Elf are re-drawn the same way (their number is public, their types are not).
    """
    s = state.clone()
    s.rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
    other = s.actor if not s.terminal and s.actor != player else -1
    building = other >= 0 and s.phase == act.BUILD
    elf = other >= 0 and s.phase == act.ELF_PICK
    if building:
        s.hands[other] += s.building
        s.building[:] = 0
    if elf:
        s.hands[other] += s.elf_kept
        s.elf_kept[:] = 0
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
    order = rng.permutation(len(cards))
    if building:
        # The builder showed he holds a possible leader: condition the deal on it.
        start = sum(count for q, count in need if q < other)
        count = next(c for q, c in need if q == other)
        has_known_leader = bool((s.hands[other][:SKELETON] > 0).any())
        for _ in range(_MAX_TRIES):
            if has_known_leader or (cards[order[start:start + count]] != SKELETON).any():
                break
            order = rng.permutation(len(cards))
    cards = cards[order].tolist()
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
    if building:
        leaders = np.flatnonzero(s.hands[other][:SKELETON] > 0)
        if not len(leaders):  # every try failed (practically never): swap in a deck card
            i = next(i for i, c in enumerate(s.deck) if c not in (DRAGON, SKELETON))
            s.hands[other, SKELETON] -= 1
            s.hands[other, s.deck[i]] += 1
            s.deck[i] = SKELETON
            leaders = np.flatnonzero(s.hands[other][:SKELETON] > 0)
        lead = int(rng.choice(leaders))
        s.hands[other, lead] -= 1
        s.building[lead] = 1
        s.building_leader = lead
        s.building_cards = [lead]
        s.building_len = 1
        s.tribe_ok = s.colour_ok = True
    if elf:
        held = np.repeat(np.arange(NUM_TYPES), s.hands[other].astype(np.int64))
        for c in rng.choice(held, s.elf_n, replace=False).tolist():
            s.hands[other, c] -= 1
            s.elf_kept[c] += 1
    if other >= 0:
        s.hand_len[other] = int(s.hands[other].sum())
    s._mask = None
    return s
