"""The information state of ``bauer_draft`` (``State.information_state``): perfect recall of the
game.

The default observation shows the position: my hand, my tableau, the others' Day cards and
Night counts, copies, discards, the cards I passed, piles and the decision. It forgets in which
round and order cards were played, which cards I drew and passed in earlier rounds, what I chose
in each decision, what an effect gave me to choose from, and the copy choices made on the way.
The information state is the default observation followed by one row per event of the game as
the seat saw it, in order (``envs.core.obs_spec.EventTable``): ``(kind, seat, a, b, c)``, seat
relative to the observer (1 = me, 2 = the seat I pass to, ...), -1 where the seat does not see a
field. The kinds (the README lists them): my draws (the 3 cards of each round), my hidden
decisions (the select step, the Ville sub-step, Brother Martin's, Olle's and the Yule Goat's
picks, as their action ids, and the copy-later offers I declined), the cards an effect gives a
seat to choose from (the cards only to that seat), every card entering a tableau with how it was
played (a Night card's id only to its owner), every discard, Ville taken back, the Witch's
direction, Daga's discard and every copy choice and accepted copy-later offer (Humpe's Night
target only to its owner). What I passed each round is my draw less my pick.

The rows are bounded by ``max_decisions``: at most one row per decision for a seat, plus one
draw per round, each card's entries into a tableau (Ville again each round), each discard and
the three effects that give cards: ``max_decisions + 2 x 55 + 3 x rounds + 8`` rows (411 with 4
players; a random game has about 60).

``determinize(p)`` leaves ``p``'s rows as they are and marks the other seats' private fields
unknown (-1): a re-sampled world never carries another seat's true hands or Night cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.bauer_draft.actions import (
    COPY,
    COPY_CHOICE,
    COPY_DECLINE,
    COPY_LATER,
    COPY_OFFER,
    DAGA,
    DAGA_KEEP,
    DISCARD,
    SELECT,
    WITCH,
    WITCH_LEFT,
)
from tablezoo.envs.bauer_draft.components import COPIER_INDEX, NIGHT, NUM_CARDS
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.obs_spec import HIDDEN, EventKind, EventTable, ObsSpec

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

HUMPE = 2  # the copier whose target (a Night card) only its owner sees
ANSWERS = ("copy later", "copy now", "accept a copy-later offer")
KINDS = (
    EventKind("draw", "the 3 cards I drew this round", ("card_1", "card_2", "card_3"),
              secret=True),
    EventKind("decide", "my hidden decision (select, Ville sub-step, Martin/Olle/Yule pick)",
              ("action",), secret=True),
    EventKind("given", "cards an effect gives a seat to choose from (Martin, Olle, Yule Goat)",
              ("count", "card_1", "card_2"), ("card_1", "card_2")),
    EventKind("play_day", "a Day card enters a tableau; how: select, martin, olle, daga, yule",
              ("card", "by")),
    EventKind("play_night", "a Night card enters a tableau face down; how, as for Day cards",
              ("card", "by"), ("card",)),
    EventKind("discard", "a card discarded face up", ("card",)),
    EventKind("ville_back", "Ville taken back and put on the next pile"),
    EventKind("witch", "the Witch moves the piles: 0 left, 1 right, 2 not", ("direction",)),
    EventKind("daga", "Daga on play: the card discarded (-1: nothing, kept for later)",
              ("card",)),
    EventKind("copy", "Princess Bella / Adventure Boy (copier 0, 1): " + ", ".join(
        f"{i} {a}" for i, a in enumerate(ANSWERS)), ("copier", "answer", "card")),
    EventKind("copy_night", "Humpe (copier 2), answers as for copy; the Night card only to "
              "its owner", ("copier", "answer", "card"), ("card",)),
    EventKind("declined", "a copy-later offer I declined (the others see no change)",
              ("copier", "card"), secret=True),
)
KIND = {k.name: i for i, k in enumerate(KINDS)}


def rows_bound(game: BauerDraftGame) -> int:
    return game.max_decisions + 2 * NUM_CARDS + 3 * game.num_rounds + 8


def event_table(game: BauerDraftGame) -> EventTable:
    return EventTable("bauer_draft", KINDS, width=3, rows=rows_bound(game),
                      num_players=game.num_players, field_high=COPY + NUM_CARDS)


def info_spec(game: BauerDraftGame) -> ObsSpec:
    return ObsSpec([*game.obs_spec.pieces, *game.event_table.pieces()])


def information_state(s: BauerDraftState, player: int,
                      out: np.ndarray | None = None) -> np.ndarray:
    game = s.game
    if out is None:
        out = np.empty(game.information_state_spec.size, np.float32)
    n = game.obs_spec.size
    s.observe(player, out=out[:n])
    table = game.event_table
    table.write(s.events, player, out[n:].reshape(table.rows, 5))
    return out


def log(s: BauerDraftState, kind: str, seat: int, *fields: int) -> None:
    s.events.add((KIND[kind], seat, *fields, *(HIDDEN,) * (3 - len(fields))))


# --- the engine's events (called by the rules and the effects) --------------------------------
def drawn(s: BauerDraftState) -> None:
    for p in range(s.n):
        log(s, "draw", p, *s.hands[p][:3])


def canonical(s: BauerDraftState, start: int) -> None:
    """Sort the events since ``start`` (one seat's cards revealed at once: a select with Ville
    or via Daga, two picks of Olle or the Yule Goat): the order in which the seat chose them is
    its own secret, and its own ``decide`` rows keep it."""
    events = s.events.events
    if len(events) - start > 1:
        events[start:] = sorted(events[start:])


def played(s: BauerDraftState, p: int, c: int, by: int) -> None:
    log(s, "play_night" if NIGHT[c] else "play_day", p, c, by)


def decided(s: BauerDraftState, kind: int, p: int, a: int, source: int, offer: int) -> None:
    """A decision's row: the hidden ones as the decider's own ``decide`` row, the public ones
    (Witch, Daga, copies) for every seat."""
    if kind == WITCH:
        log(s, "witch", p, a - WITCH_LEFT)
    elif kind == DAGA:
        log(s, "daga", p, HIDDEN if a == DAGA_KEEP else a - DISCARD)
    elif kind in (COPY_CHOICE, COPY_OFFER):
        k = COPIER_INDEX[source]
        if kind == COPY_CHOICE:
            answer, card = (0, HIDDEN) if a == COPY_LATER else (1, a - COPY)
        elif a == COPY_DECLINE:
            log(s, "declined", p, k, offer)
            return
        else:
            answer, card = 2, offer
        log(s, "copy_night" if k == HUMPE else "copy", p, k, answer, card)
    else:
        log(s, "decide", p, a)


# --- determinize -------------------------------------------------------------------------------
def redact(world: BauerDraftState, player: int) -> None:
    """The other seats' private fields unknown (-1, done when first needed:
    ``EventLog.defer_redaction``)."""
    world.events.defer_redaction(world.game.event_table, player)


# --- saving ------------------------------------------------------------------------------------
NOT_SAVED = object()  # ``from_list``'s argument for a save without the "history" key


def to_list(s: BauerDraftState) -> list[list[int]] | None:
    return s.game.event_table.to_list(s.events) if s.events.known else None


def from_list(s: BauerDraftState, data: Any) -> None:
    """The saved events (``NOT_SAVED``: a save without them, rebuilt at the first select, where
    the game holds only the draws; unknown otherwise)."""
    if data is NOT_SAVED:
        fresh = (s.round == 0 and s.kind == SELECT and s.next_seq == 0 and not s.discards
                 and all(len(h) == 3 for h in s.hands))
        s.events.clear()
        if fresh:
            drawn(s)
        else:
            s.events.known = False
        return
    table = s.game.event_table
    s.events.replace(table.from_list(data, "history", s.n * table.rows))
    s.events.known = True


def check(s: BauerDraftState) -> None:
    """The recorded history fits the position: one draw per seat and round, one entry row per
    card that entered a tableau, one discard row per discard."""
    if not s.events.known:
        return
    events = s.events.events
    rounds = min(s.round + 1, s.game.num_rounds)
    for p in range(s.n):
        draws = sum(1 for e in events if e[0] == KIND["draw"] and e[1] == p)
        if draws != rounds:
            _bad(f"history records {draws} draws of seat {p}, {rounds} rounds were drawn")
    entries = sum(1 for e in events if e[0] in (KIND["play_day"], KIND["play_night"]))
    if entries != s.next_seq:
        _bad(f"history records {entries} cards entering a tableau, {s.next_seq} did")
    discards = sum(1 for e in events if e[0] == KIND["discard"])
    if discards != len(s.discards):
        _bad(f"history records {discards} discards, {len(s.discards)} cards were discarded")


def _bad(what: str) -> None:
    raise StateFormatError(f"bauer_draft state: {what}")
