"""Information sets: ``determinize`` re-samples every card hidden from one seat.

Hidden from seat ``p`` (rules spec §7): opponents' hands (and the cards an effect gave them to
choose from), opponents' face-down Night cards (a Humpe copy target with them), every pile's order
and the central deck. Kept: what ``p`` sees, and the cards whose exact place ``p`` knows (the cards
it passed while they are still on that pile or in the hand that drew them, and further on when
the holder's public play shows such a card was passed on again; Ville after someone took him
back). A card ``p`` knows to be in a shuffled pile stays in that pile at a random place.

The re-sampling is one permutation of hidden card ids applied to every structure of a clone, so
the hidden cards' bookkeeping (play order, copy targets, other seats' memories) moves with them and
the result is a consistent position. Face-down slots receive Night cards only. The result
depends only on ``p``'s information and the rng: the hidden pools are shuffled from card-id
order, and the loose pile cards from a canonical order, before anything is re-dealt.

What a seat knows of a hidden card's place is kept in ``State.tracked`` with the levels below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bauer_draft.actions import OVER
from tablezoo.envs.bauer_draft.components import NIGHT, NUM_CARDS

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftState

# tracked levels: what a player knows about a hidden card's place
TRACK_NONE, TRACK_EXACT, TRACK_PILE = 0, 1, 2


def hidden_slots(state: BauerDraftState, p: int) -> tuple[list[int], list[int]]:
    """Cards ``p`` cannot place: (face-down tableau cards of others, cards anywhere else)."""
    known = state.tracked[p]
    face_down: list[int] = []
    other: list[int] = []
    over = state.kind == OVER
    for s in range(state.n):
        if s == p:
            continue
        other.extend(c for c in state.hands[s] if c not in known)
        if not over:
            face_down.extend(c for c in state.tableau[s] if NIGHT[c] and c not in known)
    for pile in state.piles:
        other.extend(c for c in pile if c not in known)
    other.extend(state.central)
    return face_down, other


def determinize(state: BauerDraftState, p: int, rng: np.random.Generator) -> BauerDraftState:
    new = state.clone()
    new.rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
    _shuffle_loose_pile_cards(new, p, rng)
    state = new
    face_down, other = hidden_slots(state, p)
    pool = face_down + other
    # Pools in card-id order before shuffling: the sample then depends only on which cards are
    # hidden from p (its information), never on where the truth holds them.
    night_pool = sorted(c for c in pool if NIGHT[c])
    rng.shuffle(night_pool)
    to_face_down = night_pool[:len(face_down)]
    taken = set(to_face_down)
    rest = sorted(c for c in pool if c not in taken)
    rng.shuffle(rest)
    perm = list(range(NUM_CARDS))
    for old, card in zip(face_down + other, to_face_down + rest):
        perm[old] = card
    _apply_permutation(new, p, perm)
    return new


def _apply_permutation(st: BauerDraftState, p: int, perm: list[int]) -> None:
    def remap(cards: list[int]) -> list[int]:
        return [perm[c] for c in cards]

    st.hands = [cards if s == p else remap(cards) for s, cards in enumerate(st.hands)]
    st.tableau = [cards if s == p else remap(cards) for s, cards in enumerate(st.tableau)]
    st.piles = [remap(pile) for pile in st.piles]
    st.central = remap(st.central)
    st.sel = [picks if s == p else [(perm[c], via) for c, via in picks]
              for s, picks in enumerate(st.sel)]
    if st.first is not None and st.decider != p:
        st.first = (perm[st.first[0]], st.first[1])
    if st.offer >= 0:
        st.offer = perm[st.offer]
    for name in ("owner", "seq", "played_round", "played_by"):
        old = getattr(st, name)
        moved = [0] * NUM_CARDS
        for c in range(NUM_CARDS):
            moved[perm[c]] = old[c]
        setattr(st, name, moved)
    st.copy_target = [perm[t] if t >= 0 else t for t in st.copy_target]
    st.queue = type(st.queue)((task, perm[c] if c >= 0 else c, s) for task, c, s in st.queue)
    for table in (st.memory, st.tracked):
        for q in range(st.n):
            if q != p:  # other seats' memories follow the cards; mine is what I saw
                table[q] = {perm[c]: value for c, value in table[q].items()}
    st._masks = [None] * st.n
    st.rebuild_views()


def _shuffle_loose_pile_cards(st: BauerDraftState, p: int, rng: np.random.Generator) -> None:
    """Cards ``p`` knows to be in a pile but not where (after Uggel-Guggel) get a random place.

    Runs on the clone before the hidden cards are re-dealt, starting from a canonical order of
    each pile's loose cards: cards ``p`` knows by id sorted by id, hidden ones by what the other
    seats remember of them (which travels with the card). Hidden cards with equal memories are
    interchangeable under the re-deal, so the result never depends on where the truth put them.
    """
    known = st.tracked[p]
    others = [q for q in range(st.n) if q != p]

    def canonical(c: int) -> tuple:
        if c in known:
            return (0, c)
        return (1, tuple((st.memory[q].get(c, -1), st.tracked[q].get(c, -1)) for q in others))

    for pile in st.piles:
        slots = [i for i, c in enumerate(pile) if known.get(c) != TRACK_EXACT]
        if len(slots) > 1:
            cards = sorted((pile[i] for i in slots), key=canonical)
            order = rng.permutation(len(cards))
            for i, j in zip(slots, order):
                pile[i] = cards[j]
