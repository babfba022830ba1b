"""The suit symmetries of ``bauer_trick``: the 8 renamings of the suits that keep colours paired.

The rules treat the four suits alike except for one tie: with trump T the Jack of the other suit
of T's colour (``T ^ 1``, the left Bauer) is a trump. A renaming of the suits therefore keeps the
game the same exactly when it maps colour pairs to colour pairs: swap clubs and spades or not,
swap hearts and diamonds or not, swap the colours or not, 2 x 2 x 2 = 8 renamings. Dealing is
uniform, so a renamed deal is as likely as the original; every card keeps its rank; calls,
trump, trick cards, played cards and shown voids are renamed with it, and nothing else in the
observation names a suit.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from tablezoo.envs.bauer_trick.actions import CALL_BASE, NUM_ACTIONS
from tablezoo.envs.bauer_trick.components import NUM_CARDS, NUM_SEATS
from tablezoo.envs.bauer_trick.observation import OBS_SPEC
from tablezoo.envs.core.symmetry import Symmetries

RANKS = 8


def suit_renamings() -> list[tuple[int, ...]]:
    """Each renaming as ``new_suit[old_suit]``; the identity first."""
    renamings = []
    for colours in (0, 2):  # 2: clubs/spades <-> hearts/diamonds
        for black in (0, 1):
            for red in (0, 1):
                within = (black, black, red, red)
                renamings.append(tuple((s ^ within[s]) ^ colours for s in range(4)))
    return renamings


def rename_card(card: int, new_suit: tuple[int, ...]) -> int:
    return new_suit[card // RANKS] * RANKS + card % RANKS


@cache
def suit_symmetries() -> Symmetries:
    """The gather tables (``tablezoo.envs.core.symmetry``) of the 8 suit renamings."""
    off = OBS_SPEC.offsets
    observations, actions = [], []
    for new_suit in suit_renamings():
        obs = np.arange(OBS_SPEC.size)
        act = np.arange(NUM_ACTIONS)

        def move(base: int, old: int, new: int, table: np.ndarray = obs) -> None:
            table[base + new] = base + old  # the renamed vector shows, at new, the old entry

        for card in range(NUM_CARDS):
            new = rename_card(card, new_suit)
            move(0, card, new, act)
            move(off["hand"], card, new)
            for seat in range(NUM_SEATS):
                move(off["trick"] + seat * NUM_CARDS, card, new)
                move(off["played"] + seat * NUM_CARDS, card, new)
        for suit in range(4):
            new = new_suit[suit]
            move(CALL_BASE, suit, new, act)
            move(off["trump"], suit, new)
            for seat in range(NUM_SEATS):
                move(off["calls"] + seat * 5, suit, new)
                move(off["void"] + seat * 4, suit, new)
        observations.append(obs)
        actions.append(act)
    return Symmetries(np.stack(observations), np.stack(actions))
