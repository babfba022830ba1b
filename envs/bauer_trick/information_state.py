"""The information state of ``bauer_trick`` (``State.information_state``): perfect recall of the
current deal.

What a seat sees in a deal is its dealt cards (with ``forehand_on_four`` first 4, then 4 more
after the call), the calls in speaking order and every card as it falls. The default observation
already shows the calls by seat with the dealer (the speaking order is fixed from the dealer's
left), the own hand and the current trick; it forgets in which trick each earlier card fell and
who led it. The information state is the default observation followed by:

- ``first_four``: the 4 cards I was dealt before the call (``forehand_on_four``; zero otherwise);
  with ``call_or_pass`` the dealt hand is the hand plus my played cards;
- ``trick_leader`` and ``trick_cards``: for each trick of the deal so far (the current one
  included), the relative seat that led it and the card each relative seat played to it (the
  order of play runs clockwise from the leader).

Earlier deals (``episode="game"``) are left out on purpose: a deal is dealt afresh and everything
of an earlier deal is public, so what carries over is the points, the deal count and the dealer
(in the default observation), which decide the rest of the game; the information state is
perfect recall *within* the current deal plus that public score. Its size does not depend on any
option (1,462 values).

The engine keeps one absolute buffer (``hbuf``: first four per seat, leaders and cards per trick
by absolute seat), written as cards fall; each seat's rows are one ``np.take`` through a
precomputed permutation, as for the default observation. The completed tricks of the deal
(``state.trick_history``: ``[leader, card, card, card, card]`` in play order) and the first four
cards are what a save adds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NUM_CARDS,
    NUM_SEATS,
    PHASE_CALL,
    PHASE_OVER,
    STRENGTH,
    bits_of,
    cards_of,
)
from tablezoo.envs.bauer_trick.observation import OBS_SPEC, OBSERVER_PERM
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState

NUM_TRICKS = 8
HISTORY_PIECES = [
    ObsPiece("first_four", (NUM_CARDS,), "the 4 cards I was dealt before the call "
             "(forehand_on_four; zero with call_or_pass, where the dealt hand is `hand` plus my "
             "cards in `trick_cards`)"),
    ObsPiece("trick_leader", (NUM_TRICKS, NUM_SEATS), "per trick of this deal so far (the "
             "current one included), the relative seat that led it; zero rows for tricks not "
             "begun"),
    ObsPiece("trick_cards", (NUM_TRICKS, NUM_SEATS, NUM_CARDS), "per trick of this deal so "
             "far, the card each relative seat played to it (play runs clockwise from the "
             "leader)"),
]
INFO_SPEC = ObsSpec([*OBS_SPEC.pieces, *HISTORY_PIECES])

# the absolute history buffer: first four per seat, leader per trick, cards per trick and seat
H_FIRST = 0
H_LEADER = NUM_SEATS * NUM_CARDS
H_CARDS = H_LEADER + NUM_TRICKS * NUM_SEATS
H_SIZE = H_CARDS + NUM_TRICKS * NUM_SEATS * NUM_CARDS


def _history_perm(observer: int) -> np.ndarray:
    """For each history entry of ``observer``'s vector, the ``hbuf`` index it shows."""
    perm = []
    perm += [H_FIRST + observer * NUM_CARDS + c for c in range(NUM_CARDS)]
    for t in range(NUM_TRICKS):
        perm += [H_LEADER + t * NUM_SEATS + (observer + r) % NUM_SEATS for r in range(NUM_SEATS)]
    for t in range(NUM_TRICKS):
        for r in range(NUM_SEATS):
            seat = (observer + r) % NUM_SEATS
            perm += [H_CARDS + (t * NUM_SEATS + seat) * NUM_CARDS + c for c in range(NUM_CARDS)]
    return np.array(perm, np.intp)


HISTORY_PERM = tuple(_history_perm(p) for p in range(NUM_SEATS))
_OBS_SIZE = OBS_SPEC.size
assert INFO_SPEC.size - _OBS_SIZE == H_SIZE - (NUM_SEATS - 1) * NUM_CARDS


def information_state(state: BauerTrickState, player: int,
                      out: np.ndarray | None = None) -> np.ndarray:
    if not state.history_known:
        raise StateFormatError(
            "bauer_trick: this position was loaded from a save without its history (written "
            "before information states were recorded), and the order of this deal's earlier "
            "tricks (or, with forehand_on_four, the first four cards) cannot be rebuilt from "
            "it: information_state is not available (observe() is); it is again from the next "
            "deal, or in a game saved by this version")
    if out is None:
        out = np.empty(INFO_SPEC.size, np.float32)
    # mode="clip": the permutations are in range, and numpy buffers ``out`` under "raise"
    np.take(state.buf, OBSERVER_PERM[player], out=out[:_OBS_SIZE], mode="clip")
    np.take(state.hbuf, HISTORY_PERM[player], out=out[_OBS_SIZE:], mode="clip")
    return out


# --- keeping the buffer as the deal goes (called by the rules) ---------------------------------
def dealt(state: BauerTrickState) -> None:
    """A new deal: no tricks yet; the first four (forehand_on_four) are the hands just dealt."""
    state.trick_history = []
    state.first_four = list(state.hands) if state.game.forehand_mode else [0] * NUM_SEATS
    state.history_known = True


def led(state: BauerTrickState, leader: int) -> None:
    state.hbuf[H_LEADER + state.trick_no * NUM_SEATS + leader] = 1.0


def played(state: BauerTrickState, seat: int, card: int) -> None:
    state.hbuf[H_CARDS + (state.trick_no * NUM_SEATS + seat) * NUM_CARDS + card] = 1.0


def trick_done(state: BauerTrickState) -> None:
    state.trick_history.append([state.leader, *state.trick_cards])


def encode(state: BauerTrickState) -> None:
    """Rebuild ``hbuf`` from the deal's record (a new deal, a load, a re-sampled world)."""
    h = state.hbuf
    h[:] = 0.0
    for seat in range(NUM_SEATS):
        for card in cards_of(state.first_four[seat]):
            h[H_FIRST + seat * NUM_CARDS + card] = 1.0
    tricks = [*state.trick_history]
    if state.phase != PHASE_CALL and len(tricks) < NUM_TRICKS and state.leader >= 0:
        tricks.append([state.leader, *state.trick_cards])
    for t, (leader, *cards) in enumerate(tricks):
        h[H_LEADER + t * NUM_SEATS + leader] = 1.0
        for i, card in enumerate(cards):
            seat = (leader + i) % NUM_SEATS
            h[H_CARDS + (t * NUM_SEATS + seat) * NUM_CARDS + card] = 1.0


# --- determinize -------------------------------------------------------------------------------
def resample(world: BauerTrickState, player: int) -> None:
    """After the hands are re-dealt for ``player``: the other seats' first four cards (their
    private record) re-drawn from the cards each was dealt, from a generator derived from the
    world's own new RNG (no stream is advanced), so no other seat's record keeps the truth."""
    if not world.game.forehand_mode:
        return
    if world.phase == PHASE_CALL:
        world.first_four = [world.first_four[s] if s == player else world.hands[s]
                            for s in range(NUM_SEATS)]
    else:
        sub = np.random.default_rng(world.rng.bit_generator.state["state"]["state"])
        dealt_cards = _dealt(world)
        for s in range(NUM_SEATS):
            if s != player:
                cards = sorted(cards_of(dealt_cards[s]))
                world.first_four[s] = bits_of([cards[i] for i in sub.permutation(8)[:4]])
    encode(world)


def _dealt(state: BauerTrickState) -> list[int]:
    out = [state.hands[s] | state.played[s] for s in range(NUM_SEATS)]
    for seat, card in zip(state.trick_seats, state.trick_cards):
        out[seat] |= 1 << card
    return out


# --- saving ------------------------------------------------------------------------------------
def to_dict(state: BauerTrickState) -> dict[str, Any]:
    return {"first_four": [cards_of(b) for b in state.first_four],
            "tricks": [list(t) for t in state.trick_history]}


NOT_SAVED = object()  # ``from_dict``'s argument for a save without the "history" key


def from_dict(state: BauerTrickState, data: Any) -> None:
    """Read the saved history (``NOT_SAVED``: a save without it, rebuilt where the position
    tells it: no earlier trick of the deal and, with ``forehand_on_four``, still in the call)."""
    if data is NOT_SAVED:
        forehand = state.game.forehand_mode
        state.trick_history = []
        state.first_four = list(state.hands) if forehand else [0] * NUM_SEATS
        state.history_known = (state.phase == PHASE_CALL
                               or (state.trick_no == 0 and not forehand))
        return
    bad = "bauer_trick state: history must be {'first_four': 4 lists of cards, 'tricks': " \
          "completed tricks of this deal as [leader, 4 cards in play order]}"
    if (type(data) is not dict or set(data) != {"first_four", "tricks"}
            or type(data["first_four"]) is not list or len(data["first_four"]) != NUM_SEATS
            or type(data["tricks"]) is not list or len(data["tricks"]) > NUM_TRICKS):
        raise StateFormatError(bad)
    first = []
    for cards in data["first_four"]:
        if (type(cards) is not list or len(cards) > 4
                or any(type(c) is not int or not 0 <= c < NUM_CARDS for c in cards)):
            raise StateFormatError(bad)
        first.append(bits_of(cards))
    tricks = []
    for t in data["tricks"]:
        if (type(t) is not list or len(t) != 1 + NUM_SEATS
                or any(type(v) is not int for v in t) or not 0 <= t[0] < NUM_SEATS
                or any(not 0 <= c < NUM_CARDS for c in t[1:])):
            raise StateFormatError(bad)
        tricks.append(list(t))
    state.first_four = first
    state.trick_history = tricks
    state.history_known = True


def check(state: BauerTrickState) -> None:
    """The history fits the position: the completed tricks are this deal's (each seat's cards
    in them are its played cards, the first led as the rules say, each next one by the winner
    of the one before, the last winner leads now) and the first four cards are the seat's."""
    if not state.history_known:
        return
    tricks = state.trick_history
    done = state.trick_no
    if len(tricks) != done:
        _bad(f"{len(tricks)} completed tricks recorded, {done} played")
    by_seat = [0] * NUM_SEATS
    for leader, *cards in tricks:
        for i, card in enumerate(cards):
            by_seat[(leader + i) % NUM_SEATS] |= 1 << card
    if by_seat != list(state.played):
        _bad("the recorded tricks do not hold the cards each seat has played")
    if tricks:
        strength = STRENGTH[state.trump]
        for t, (leader, *cards) in enumerate(tricks):
            led_suit = EFFECTIVE_SUIT[state.trump][cards[0]]
            best = max(range(NUM_SEATS), key=lambda i: strength[led_suit][cards[i]])
            winner = (leader + best) % NUM_SEATS
            nxt = tricks[t + 1][0] if t + 1 < len(tricks) else state.leader
            if nxt != winner:
                _bad(f"trick {t + 1} was won by seat {winner}, but seat {nxt} led next")
    forehand = state.game.forehand_mode
    dealt_cards = _dealt(state)
    for s in range(NUM_SEATS):
        first = state.first_four[s]
        if not forehand:
            if first:
                _bad("first_four is only recorded with forehand_on_four")
            continue
        if state.phase == PHASE_CALL and first != state.hands[s]:
            _bad(f"during the call seat {s}'s first four cards are its hand")
        if first.bit_count() != 4 or first & ~dealt_cards[s]:
            _bad(f"seat {s}'s first four cards are 4 of the cards it was dealt")
    if state.phase == PHASE_OVER and done != NUM_TRICKS:
        _bad("the game ended before the deal's last trick")


def _bad(what: str) -> None:
    raise StateFormatError(f"bauer_trick state: history: {what}")
