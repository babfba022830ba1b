"""The invariants of a ``bauer_draft`` position (``BauerDraftState.check``), the first broken
one named in a ``StateFormatError``: a loaded or built position must pass them, and random-play
tests run them at every decision.

- cards: each of the 55 cards exactly once in hands, piles, central deck, discards and tableaux;
  the tableau bookkeeping (owner, play order, round, how played) matches the tableaux, rounds
  never decrease in play order; ``plays`` add up to the play counter;
- sizes that fit the round and the decision: every pile holds 12 (10) - 3 - round cards during
  a select and two more after the pass (hand-built positions: or not), two (or none: the Yule
  Goat's) after the last round;
  three cards in every hand during a select, the cards of an effect in the decider's hand only;
- the decision: kind fits the round, the decider owns the card whose effect is decided (Ville,
  Witch, Martin, Olle, Yule Goat, Daga, the copier), selections, first pick and copy offer are
  cards of that seat; every queued task names a card with an effect;
- copies and Daga: a copy's target is an eligible card of its copier's owner, a pending copier
  lies in a tableau; Daga ready or used only once she was played;
- memories: pile ids and knowledge levels in range, never about a card in the seat's own hand.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    COPY_OFFER,
    DAGA,
    KINDS,
    MARTIN,
    OLLE,
    OLLE_VILLE,
    OVER,
    SELECT,
    SELECT_VILLE,
    WITCH,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    COPIER_CARDS,
    COPIER_INDEX,
    DAGA_CARD,
    MARTIN_CARD,
    NUM_CARDS,
    OLLE_CARD,
    VILLE,
    WITCH_CARD,
    YULE_CARD,
)
from tablezoo.envs.bauer_draft.effects import (
    COPY_DONE,
    COPY_NONE,
    COPY_WAIT,
    ELIGIBLE,
    ON_PLAY,
    PLAYED_BY,
    TASK_COPY_CHOICE,
    TASK_DAGA_CARDS,
    TASK_EFFECT,
    TASK_NAMES,
)
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import short

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftState


def shown(value: Any) -> str:
    """``short(value)``, at most 200 characters even for wide nested input."""
    text = short(value)
    return text if len(text) <= 200 else text[:200] + "..."


def bad(what: str) -> None:
    raise StateFormatError(f"bauer_draft state: {what}")


SOURCE_OF = {SELECT_VILLE: (VILLE,), WITCH: (WITCH_CARD,), MARTIN: (MARTIN_CARD,),
             OLLE: (OLLE_CARD,), OLLE_VILLE: (OLLE_CARD,), YULE: (YULE_CARD,),
             YULE_VILLE: (YULE_CARD,), DAGA: (DAGA_CARD,), COPY_CHOICE: COPIER_CARDS,
             COPY_OFFER: COPIER_CARDS}
# hand sizes of the decider for the decisions that choose among cards in hand
HAND_SIZES = {MARTIN: (1,), OLLE: (1, 2), OLLE_VILLE: (2,), YULE: (1, 2), YULE_VILLE: (2,)}


def check_state(st: BauerDraftState) -> None:
    """Raise ``StateFormatError`` naming the first invariant of the rules ``st`` breaks."""
    _check_cards(st)
    _check_tableau(st)
    _check_sizes(st)
    _check_decision(st)
    _check_copies(st)
    _check_memory(st)


def _code(c: int) -> str:
    return CARDS.codes[c]


def _check_cards(st: BauerDraftState) -> None:
    where = [0] * NUM_CARDS
    total = 0
    for cards in (*st.hands, *st.piles, st.central, st.discards, *st.tableau):
        total += len(cards)
        for c in cards:
            where[c] += 1
    if total != NUM_CARDS or any(k != 1 for k in where):
        missing = [_code(c) for c in range(NUM_CARDS) if not where[c]]
        doubled = [_code(c) for c in range(NUM_CARDS) if where[c] > 1]
        bad(f"every card must be in exactly one place; missing {missing}, more than once "
             f"{doubled}")


def _check_tableau(st: BauerDraftState) -> None:
    in_tableau = [-1] * NUM_CARDS
    seqs = set()
    for s, cards in enumerate(st.tableau):
        for c in cards:
            in_tableau[c] = s
            seqs.add(st.seq[c])
        if any(st.seq[a] >= st.seq[b] for a, b in pairwise(cards)):
            bad(f"tableau[{s}] must be in play order (distinct seq)")
        if st.plays[s] < len(cards):
            bad(f"seat {s} has {len(cards)} tableau cards but played only {st.plays[s]}")
    if st.owner != in_tableau:
        c = next(c for c in range(NUM_CARDS) if st.owner[c] != in_tableau[c])
        bad(f"owner of {_code(c)} is {st.owner[c]}, but it lies in tableau {in_tableau[c]}")
    if len(seqs) != sum(map(len, st.tableau)) or any(q >= st.next_seq for q in seqs):
        bad(f"tableau cards need distinct play numbers below next_seq {st.next_seq}")
    if sum(st.plays) != st.next_seq:
        bad(f"plays {st.plays} must add up to the play counter next_seq {st.next_seq}")
    by_seq = sorted((st.seq[c], st.played_round[c]) for t in st.tableau for c in t)
    rounds = [r for _, r in by_seq if r >= 0]  # -1: "an earlier round" of a hand-built position
    if any(a > b for a, b in pairwise(rounds)):
        bad(f"tableau cards played later lie in earlier rounds (rounds in play order {rounds})")
    for c in range(NUM_CARDS):
        if in_tableau[c] < 0:
            if st.seq[c] != -1 or st.played_by[c] != -1:
                bad(f"{_code(c)} is not in a tableau but has a play number")
        elif st.played_round[c] > st.round or not 0 <= st.played_by[c] < len(PLAYED_BY):
            bad(f"{_code(c)} was played in round {st.played_round[c]}, after round {st.round}")


def _check_sizes(st: BauerDraftState) -> None:
    game = st.game
    kind, last = st.kind, game.num_rounds
    sizes = [len(p) for p in st.piles]
    if kind in (SELECT, SELECT_VILLE):
        if st.round >= last:
            bad(f"no select after the last round ({last - 1})")
        for s, hand in enumerate(st.hands):
            if len(hand) != 3:
                bad(f"a select needs 3 cards in each hand; seat {s} has {len(hand)}")
        size = game.pile_size - 3 - st.round
        if sizes != [size] * st.n:
            bad(f"in round {st.round} every pile holds {size} cards during the select, got "
                 f"{sizes}")
        return
    if st.round < last:
        # Hand-built positions (tests, notebooks) may stand for the effects of a round without
        # the pass: piles of the select's size are accepted there too.
        size = game.pile_size - 1 - st.round
        if sizes not in ([size] * st.n, [size - 2] * st.n):
            bad(f"after the pass of round {st.round} every pile holds {size} cards, got "
                 f"{sizes}")
    elif sorted(sizes)[1:] != [2] * (st.n - 1) or sizes.count(0) + sizes.count(2) != st.n:
        bad(f"after the last round every pile holds 2 cards (the Yule Goat's none), got {sizes}")
    for s, hand in enumerate(st.hands):
        allowed = HAND_SIZES.get(kind, (0,)) if s == st.decider else (0,)
        if len(hand) not in allowed:
            bad(f"seat {s} holds {len(hand)} cards during a {KINDS[kind]} decision (allowed "
                 f"{list(allowed)})")


def _check_decision(st: BauerDraftState) -> None:
    kind, n, last = st.kind, st.n, st.game.num_rounds
    want = tuple(range(n)) if kind == SELECT else () if kind == OVER else (st.decider,)
    if tuple(st.acting) != want:
        bad(f"acting seats {list(st.acting)} do not fit a {KINDS[kind]} decision")
    if kind in (YULE, YULE_VILLE, OVER) and st.round != last:
        bad(f"a {KINDS[kind]} decision comes after the last round, not in round {st.round}")
    if st.queue and kind in (SELECT, SELECT_VILLE, OVER):
        bad(f"no effect is queued during a {KINDS[kind]}")
    if kind in (SELECT, OVER):
        if st.decider != -1 or st.source != -1 or st.offer != -1 or st.first is not None:
            bad(f"no decider, source, offer or first pick during a {KINDS[kind]}")
        if any(st.sel):
            bad(f"no selection is pending during a {KINDS[kind]}")
        return
    if kind == SELECT_VILLE:
        for s, picks in enumerate(st.sel):
            if len(picks) != 1 or picks[0][0] not in st.hands[s]:
                bad(f"a Ville sub-step needs each seat's first selection from its hand (seat {s})")
            if picks[0][1] and not st.daga_available(s):
                bad(f"seat {s} selected via Daga without Daga's ability")
        if not st.ville_ready(st.decider):
            bad(f"seat {st.decider} cannot use Ville now")
    elif any(st.sel):
        bad(f"no selection is pending during a {KINDS[kind]}")
    if st.source not in SOURCE_OF[kind] or st.owner[st.source] != st.decider:
        bad(f"a {KINDS[kind]} decision is taken by the owner of {shown(SOURCE_OF[kind])}, "
             f"not seat {st.decider} for {st.source}")
    if (st.first is not None) != (kind in (OLLE_VILLE, YULE_VILLE)):
        bad("a first pick is pending exactly in an olle_ville or yule_ville decision")
    if st.first is not None and (st.first[0] not in st.hands[st.decider]
                                 or (st.first[1] and not st.daga_available(st.decider))):
        bad(f"the first pick {_code(st.first[0])} must be in the decider's hand")
    k = COPIER_INDEX.get(st.source, -1)
    if kind == COPY_OFFER:
        offer = st.offer
        if (offer < 0 or st.owner[offer] != st.decider or not ELIGIBLE[k][offer]
                or st.seq[offer] < st.copy_since[k] or st.copy_mode[k] != COPY_WAIT):
            bad(f"copy offer {shown(offer)} must be an eligible later card of the copier")
    elif st.offer != -1:
        bad("a copy offer is pending only in a copy_offer decision")
    if kind == COPY_CHOICE and st.copy_mode[k] != COPY_NONE:
        bad("a copier choosing its copy has none yet")
    for task, card, _seat in st.queue:
        ok = (card == -1 if task == TASK_DAGA_CARDS
              else card in COPIER_INDEX if task == TASK_COPY_CHOICE
              else task == TASK_EFFECT and card >= 0 and ON_PLAY[card])
        if not ok:
            bad(f"queued task {TASK_NAMES[task]} of {shown(card)} has no such effect")


def _check_copies(st: BauerDraftState) -> None:
    for k, copier in enumerate(COPIER_CARDS):
        mode, target, owner = st.copy_mode[k], st.copy_target[k], st.owner[copier]
        if (mode == COPY_DONE) != (target >= 0):
            bad(f"a copy target is given exactly for mode 'copied' ({_code(copier)})")
        if mode != COPY_NONE and owner < 0:
            bad(f"{_code(copier)} has a copy but is in no tableau")
        if mode == COPY_DONE and (st.owner[target] != owner or not ELIGIBLE[k][target]):
            bad(f"{_code(copier)} copies {_code(target)}, which is no eligible card of its "
                 "owner's tableau")
        if st.copy_since[k] > st.next_seq:
            bad(f"{_code(copier)} waits for cards after play {st.copy_since[k]}, beyond "
                 f"next_seq {st.next_seq}")
    if (st.daga_used or st.daga_ready) and st.owner[DAGA_CARD] < 0:
        bad("Daga's ability is ready or used, but Daga is in no tableau")


def _check_memory(st: BauerDraftState) -> None:
    for s in range(st.n):
        hand = st.hands[s]
        for c in st.memory[s]:
            if c in hand:
                bad(f"seat {s} remembers passing {_code(c)}, which is in its own hand")
