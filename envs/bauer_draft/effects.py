"""The Day characters' effects of ``bauer_draft``: the effect queue's steps and their codes.

After the reveal (and after every effect decision) ``rules.BauerDraftState._resume`` runs the
queue of on-play effects through ``run_task``; each step here takes the state, changes it and
says whether it stopped at a decision one player must take (Witch direction, Olle's pick, Daga,
copies, ...). Also here: what each copier may copy, how a card entered a tableau (``PLAYED_BY``,
public, spec §7), the copy modes and the queue's task kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    COPY_OFFER,
    DAGA,
    MARTIN,
    OLLE,
    OLLE_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    COPIER_CARDS,
    COPIER_INDEX,
    COPIERS,
    DAGA_CARD,
    DANGER,
    EVENT,
    JOURNEY,
    VILLE,
    YULE_CARD,
)
from tablezoo.envs.bauer_draft.hidden import TRACK_EXACT, TRACK_PILE

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftState

_day = ~CARDS.night
# What each copier may copy: Bella a Day Event, Adventure Boy a Day Journey or Danger, Humpe any
# Night card.
ELIGIBLE = (
    tuple(bool(x) for x in (_day & (CARDS.kind == EVENT))),
    tuple(bool(x) for x in (_day & ((CARDS.kind == JOURNEY) | (CARDS.kind == DANGER)))),
    tuple(bool(x) for x in CARDS.night),
)
ON_PLAY = tuple(e in ("uggel", "witch", "martin", "olle", "daga", "bella", "adventure_boy",
                      "humpe") for e in CARDS.effect_of)
COPIER_NAMES = ("Princess Bella", "Adventure Boy", "Humpe")
# how a card entered a tableau (public, spec §7: "which effect played it")
PLAYED_BY = ("select", "martin", "olle", "daga", "yule")
BY_SELECT, BY_MARTIN, BY_OLLE, BY_DAGA, BY_YULE = range(len(PLAYED_BY))
# how the cards of a Brother Martin / Olle / Yule Goat decision are played
EXTRA_BY = {MARTIN: BY_MARTIN, OLLE: BY_OLLE, OLLE_VILLE: BY_OLLE, YULE: BY_YULE,
            YULE_VILLE: BY_YULE}

# copy_mode values
COPY_NONE, COPY_WAIT, COPY_DONE = 0, 1, 2
# tasks of the effect queue
TASK_EFFECT, TASK_DAGA_CARDS, TASK_COPY_CHOICE = 0, 1, 2
TASK_NAMES = ("effect", "daga_cards", "copy_choice")


def run_task(st: BauerDraftState, task: int, card: int, p: int) -> bool:
    """Run one queued step; True when it stopped at a decision."""
    if task == TASK_DAGA_CARDS:
        st._play_central(p, 2, None, BY_DAGA)
        return False
    if task == TASK_COPY_CHOICE:
        return ask_copy(st, card, p)
    if st.owner[card] != p:  # the character left the tableau before resolving (assumed)
        if card == DAGA_CARD:
            st.daga_ready = True
        return False
    effect = CARDS.effect_of[card]
    if effect == "uggel":
        shuffle_piles(st)
    elif effect == "witch":
        st._decide(WITCH, p, card)
        return True
    elif effect == "martin":
        if st.central:
            c = st.central.pop()
            if st.daga_available(p):
                st.hands[p] = [c]
                st.log("given", p, 1, c)
                st._decide(MARTIN, p, card)
                return True
            st._play(p, c, None, BY_MARTIN)
    elif effect == "olle":
        take = [st.central.pop() for _ in range(min(2, len(st.central)))]
        if take:
            st.hands[p] = take
            if len(take) == 1 and not st.daga_available(p):
                st.hands[p] = []
                st._play(p, take[0], None, BY_OLLE)  # a single option is not asked
            else:
                st.log("given", p, len(take), *take)
                st._decide(OLLE, p, card)
                return True
    elif effect == "daga":
        if not st.daga_used and any(c != card for c in st.tableau[p]):
            st._decide(DAGA, p, card)
            return True
        st.daga_ready = True
    elif effect in COPIERS:
        return ask_copy(st, card, p)
    return False


def ask_copy(st: BauerDraftState, copier: int, p: int) -> bool:
    """A copier chooses "copy now" or "later" (only "later" possible: not asked)."""
    if st.owner[copier] != p:
        return False
    k = COPIER_INDEX[copier]
    st.copy_mode[k] = COPY_NONE
    st.copy_target[k] = -1
    if st.copy_options(k, p):
        st._decide(COPY_CHOICE, p, copier)
        return True
    st.copy_mode[k] = COPY_WAIT
    st.copy_since[k] = st.next_seq
    return False


def offer_copy(st: BauerDraftState) -> bool:
    """End of the queue: offer each copy-later copier its next eligible later card."""
    for k, copier in enumerate(COPIER_CARDS):
        if st.copy_mode[k] != COPY_WAIT:
            continue
        p = st.owner[copier]
        if p < 0:
            continue
        since, eligible, seq = st.copy_since[k], ELIGIBLE[k], st.seq
        for c in st.tableau[p]:
            if eligible[c] and seq[c] >= since:
                st._decide(COPY_OFFER, p, copier)
                st.offer = c
                return True
    return False


def start_yule(st: BauerDraftState) -> bool:
    """After the last round the Yule Goat's owner takes the 2 cards left in their pile."""
    p = st.owner[YULE_CARD]
    if p < 0 or not st.piles[p]:
        return False
    cards = st.piles[p][::-1]
    st.piles[p] = []
    for c in cards:
        st.memory[p].pop(c, None)
        for known in st.tracked:  # the whole pile went to the hand: the place is known
            if c in known:
                known[c] = TRACK_EXACT
    st.hands[p] = cards
    if len(cards) == 1 and not st.daga_available(p):
        st.hands[p] = []
        st._play(p, cards[0], None, BY_YULE)
        return False
    st.log("given", p, len(cards), *cards)
    st._decide(YULE, p, YULE_CARD)
    return True


def daga_swap(st: BauerDraftState, p: int, c: int, collect: list[int] | None) -> None:
    """Deferred Daga: discard the selected card ``c``, play the top 2 central cards."""
    st.daga_used = True
    st._discard(c)
    st._play_central(p, 2, collect, BY_DAGA)


def daga_discard(st: BauerDraftState, p: int, c: int) -> None:
    """Daga on play: discard tableau card ``c``; a lost copy is re-chosen before the 2
    central cards are played (so those count as later cards)."""
    st.daga_used = True
    lost = st._leave_tableau(c)
    st._discard(c)
    st.queue.appendleft((TASK_DAGA_CARDS, -1, p))
    for k in reversed(lost):
        if st.owner[COPIER_CARDS[k]] == p:
            st.queue.appendleft((TASK_COPY_CHOICE, COPIER_CARDS[k], p))


def resolve_extra(st: BauerDraftState, p: int, picks: list[tuple[int, bool]], ville_both: bool,
                   by: int) -> None:
    """Brother Martin / Olle / Yule Goat: discard the unpicked card, play the picks."""
    chosen = [c for c, _ in picks]
    start = len(st.events)
    for c in st.hands[p]:
        if c not in chosen:
            st._discard(c)
    st.hands[p] = []
    if ville_both:
        st._leave_tableau(VILLE)
        st._discard(VILLE)
    for c, via_daga in picks:
        if via_daga:
            daga_swap(st, p, c, None)
        else:
            st._play(p, c, None, by)
    st.canonical_events(start)  # the order of the two picks is the decider's own
    st._resume()


def move_piles(st: BauerDraftState, action: int) -> None:
    if action == WITCH_NONE:
        return
    step = 1 if action == WITCH_LEFT else -1  # left: the pile of seat i goes to seat i+1
    n = st.n
    st.piles = [st.piles[(s - step) % n] for s in range(n)]
    st.pile_ids = [st.pile_ids[(s - step) % n] for s in range(n)]


def shuffle_piles(st: BauerDraftState) -> None:
    for pile in st.piles:
        if len(pile) > 1:
            order = st.rng.permutation(len(pile))
            pile[:] = [pile[i] for i in order]
    in_piles = {c for pile in st.piles for c in pile}
    for known in st.tracked:
        for c in known:
            if c in in_piles:
                known[c] = TRACK_PILE
