"""``determinize`` for ``bauer_trick``: re-deal, at random, the cards one player cannot see."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from math import factorial
from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_SEATS,
    NUM_SUITS,
    SUIT_BITS,
    bits_of,
    cards_of,
)

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState


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


# The count tables of the exact sampler depend only on the suit sizes, who may hold each suit and
# the room left per place, so they are shared by every determinization (a search asks for
# hundreds of the same position per move).
@lru_cache(maxsize=1 << 16)
def _ways(sizes: tuple[int, ...], open_to: tuple[tuple[bool, ...], ...], g: int,
          room: tuple[int, ...]) -> int:
    """Deals of the suit groups ``g``.. that fill ``room`` exactly."""
    if g == NUM_SUITS:
        return int(not any(room))
    return sum(weight for _, _, weight in _options(sizes, open_to, g, room))


@lru_cache(maxsize=1 << 16)
def _options(sizes: tuple[int, ...], open_to: tuple[tuple[bool, ...], ...], g: int,
             room: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """Each split of suit group ``g`` among the places, the room it leaves and its number of
    completed deals, in ``_splits`` order."""
    out = []
    for split in _splits(sizes[g], room, open_to[g]):
        after = tuple(r - k for r, k in zip(room, split))
        out.append((split, after, _multinomial(split) * _ways(sizes, open_to, g + 1, after)))
    return tuple(out)


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
    sizes = tuple(len(group) for group in groups)
    open_to = tuple(
        tuple(not state.voids[s] >> g & 1 for s in others) + (True,) for g in range(NUM_SUITS)
    )
    if _ways(sizes, open_to, 0, need) == 0:  # cannot happen for a reachable state
        return new
    room = need
    share: list[list[int]] = [[] for _ in need]
    for g in range(NUM_SUITS):
        options = _options(sizes, open_to, g, room)
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


def call_positions(world: BauerTrickState) -> Iterator[tuple[BauerTrickState, int, int]]:
    """The deal's trump call rebuilt from a full-information world (a determinization): for
    every seat that has spoken, in speaking order, the position in which it spoke and the action
    it took. A search uses these to keep only the worlds in which its model of the other players
    would have called as they did (``agents/search/belief.py``).

    One position object is rebuilt once and advanced call by call: read each one before asking
    for the next. ``forehand_on_four`` yields nothing: its call is made on the first 4 cards,
    and which of a seat's 8 cards those were is not in the state.
    """
    from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
    from tablezoo.envs.bauer_trick.components import SPOKE_PASS
    from tablezoo.envs.bauer_trick.observation import ABS

    if world.game.forehand_mode or world.calls[(world.dealer + 1) % NUM_SEATS] < 0:
        return
    dealt = [world.hands[s] | world.played[s] for s in range(NUM_SEATS)]
    for seat, card in zip(world.trick_seats, world.trick_cards):
        dealt[seat] |= 1 << card
    position = world.clone()
    position._reset_deal_fields()
    position.hands = dealt
    position.encode()
    for i in range(NUM_SEATS):
        seat = (world.dealer + 1 + i) % NUM_SEATS
        spoken = world.calls[seat]
        if spoken < 0:
            return
        position.to_act = seat
        position.decisions += 1  # a new decision: the legal-mask cache must not answer
        yield position, seat, PASS if spoken == SPOKE_PASS else CALL_BASE + spoken
        position.calls[seat] = spoken
        position.buf[ABS["calls"] + seat * 5 + spoken] = 1.0
