"""Information-set sampling for ``bauer_trick``: re-deal the cards one player cannot see."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.bauer_trick.cards import EFFECTIVE_SUIT, NO_TRUMP, bits_of, cards_of
from envs.bauer_trick.encoding import NUM_SEATS

if TYPE_CHECKING:
    from envs.bauer_trick.rules import BauerTrickState

UNDEALT = NUM_SEATS  # pseudo-seat for the cards not yet dealt (forehand_on_four)


def determinize(state: BauerTrickState, player: int, rng: np.random.Generator) -> BauerTrickState:
    """A copy in which the other hands (and undealt cards) are re-dealt at random, respecting
    hand sizes and every void the other seats have shown, with a fresh game RNG.

    The deal is built greedily, most constrained card first, and retried on a dead end; the
    result is consistent with what ``player`` saw (not exactly uniform over all such deals).
    """
    new = state.clone()
    new.rng = np.random.default_rng(rng.integers(2**63 - 1))
    others = [s for s in range(NUM_SEATS) if s != player]
    # sorted, so the sample depends only on what ``player`` knows, not on who holds what
    hidden = sorted([c for s in others for c in cards_of(state.hands[s])] + list(state.undealt))
    if not hidden:
        return new
    need = {s: state.hands[s].bit_count() for s in others}
    need[UNDEALT] = len(state.undealt)
    trump = state.trump if state.trump >= 0 else NO_TRUMP

    def allowed(card: int) -> list[int]:
        suit = EFFECTIVE_SUIT[trump][card]
        seats = [s for s in others if need[s] and not state.voids[s] >> suit & 1]
        return seats + ([UNDEALT] if need[UNDEALT] else [])

    for _ in range(1000):
        left = dict(need)
        deal: dict[int, list[int]] = {s: [] for s in left}
        order = [hidden[i] for i in rng.permutation(len(hidden))]
        order.sort(key=lambda c: len(allowed(c)))
        ok = True
        for card in order:
            choices = [s for s in allowed(card) if left[s] > 0]
            if not choices:
                ok = False
                break
            seat = choices[int(rng.integers(len(choices)))]
            deal[seat].append(card)
            left[seat] -= 1
        if ok:
            break
    else:  # the true deal exists, so a dead end 1000 times running is astronomically rare;
        return new  # keep the true hands rather than fail
    for s in others:
        new.hands[s] = bits_of(deal[s])
    new.undealt = [deal[UNDEALT][i] for i in rng.permutation(len(deal[UNDEALT]))]
    new.encode()
    return new
