"""Observation of ``bauer_trick``: its pieces, the absolute buffer and the seat-relative view.

The observation is seat-relative ("me, left, partner, right"; "my team, other team"). The engine
keeps one *absolute* buffer (seats 0..3, teams 0/1, updated in place as cards fall, by the rules
where each card falls) and each observer's vector is one ``np.take`` of it through a precomputed
permutation, so observing costs a single numpy call whatever the position. ``encode`` rebuilds the
buffer from scratch (start of a deal, a load, a re-sampled determinization).

The global state for centralised critics (``STATE_SPEC``, ``global_state``) is the absolute
buffer itself, which already holds all four hands, plus what no seat sees: the cards each seat
will still be dealt (``forehand_on_four``'s call) and whose turn it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bauer_trick.components import (
    NUM_CARDS,
    NUM_SEATS,
    PHASE_OVER,
    PHASE_PLAY,
    cards_of,
)
from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState

OBS_SPEC = ObsSpec(
    [
        ObsPiece("hand", (NUM_CARDS,), "cards in my hand (card id = suit*8 + rank)"),
        ObsPiece("trump", (5,), "trump suit one-hot (clubs, spades, hearts, diamonds, none); "
                 "all zero during the call"),
        ObsPiece("caller", (5,), "relative seat of the caller (me, left, partner, right, none); "
                 "all zero during the call"),
        ObsPiece("dealer", (NUM_SEATS,), "relative seat of the dealer"),
        ObsPiece("calls", (NUM_SEATS, 5), "per relative seat: suit named (4) or pass; "
                 "zero row if not spoken"),
        ObsPiece("trick", (NUM_SEATS, NUM_CARDS), "cards of the current trick by relative seat"),
        ObsPiece("leader", (NUM_SEATS,), "relative seat that led the current trick"),
        ObsPiece("played", (NUM_SEATS, NUM_CARDS), "cards played in earlier tricks of this deal "
                 "by relative seat"),
        ObsPiece("void", (NUM_SEATS, 4), "per relative seat, effective suits it has shown "
                 "it lacks (failed to follow; forehand_on_four: led a non-trump to trick 1)"),
        ObsPiece("tricks_won", (2, 9), "tricks won this deal, one-hot 0..8: my team, other team"),
        ObsPiece("points", (2,), "points still to lose / start_score: my team, other team"),
        ObsPiece("trick_number", (8,), "index of the current trick, one-hot (play phase)"),
        ObsPiece("phase", (3,), "trump call, play, game over"),
        ObsPiece("deals", (1,), "deals played / max_deals (game mode; 0 in deal mode)"),
    ]
)

# Absolute layout: same pieces with seats/teams absolute; "hand" holds all four hands.
ABS_PIECES = {
    "hand": NUM_SEATS * NUM_CARDS,
    "trump": 5,
    "caller": 5,
    "dealer": NUM_SEATS,
    "calls": NUM_SEATS * 5,
    "trick": NUM_SEATS * NUM_CARDS,
    "leader": NUM_SEATS,
    "played": NUM_SEATS * NUM_CARDS,
    "void": NUM_SEATS * 4,
    "tricks_won": 2 * 9,
    "points": 2,
    "trick_number": 8,
    "phase": 3,
    "deals": 1,
}
ABS = {}
_offset = 0
for _name, _size in ABS_PIECES.items():
    ABS[_name] = _offset
    _offset += _size
ABS_SIZE = _offset


def _relative_to_absolute(observer: int) -> np.ndarray:
    """For each index of ``observer``'s vector, the index of the absolute buffer it shows."""
    perm = np.empty(OBS_SPEC.size, np.intp)

    def seat(rel: int) -> int:
        return (observer + rel) % NUM_SEATS

    def team(rel: int) -> int:
        return (observer + rel) % 2

    def put(name: str, rel_index: int, abs_index: int) -> None:
        perm[OBS_SPEC.offsets[name] + rel_index] = ABS[name] + abs_index

    for c in range(NUM_CARDS):
        put("hand", c, observer * NUM_CARDS + c)
    for i in range(5):
        put("trump", i, i)
        put("caller", i, seat(i) if i < NUM_SEATS else i)
    for r in range(NUM_SEATS):
        put("dealer", r, seat(r))
        put("leader", r, seat(r))
        for i in range(5):
            put("calls", r * 5 + i, seat(r) * 5 + i)
        for c in range(NUM_CARDS):
            put("trick", r * NUM_CARDS + c, seat(r) * NUM_CARDS + c)
            put("played", r * NUM_CARDS + c, seat(r) * NUM_CARDS + c)
        for s in range(4):
            put("void", r * 4 + s, seat(r) * 4 + s)
    for t in range(2):
        for k in range(9):
            put("tricks_won", t * 9 + k, team(t) * 9 + k)
        put("points", t, team(t))
    for i in range(8):
        put("trick_number", i, i)
    for i in range(3):
        put("phase", i, i)
    put("deals", 0, 0)
    return perm


OBSERVER_PERM = tuple(_relative_to_absolute(p) for p in range(NUM_SEATS))


STATE_SPEC = ObsSpec(
    [
        ObsPiece("hands", (NUM_SEATS, NUM_CARDS), "cards in each seat's hand (absolute seats "
                 "0..3, as every seat-indexed piece below)"),
        ObsPiece("trump", (5,), "trump suit one-hot (clubs, spades, hearts, diamonds, none); "
                 "all zero during the call"),
        ObsPiece("caller", (5,), "seat of the caller (0..3, none); all zero during the call"),
        ObsPiece("dealer", (NUM_SEATS,), "seat of the dealer"),
        ObsPiece("calls", (NUM_SEATS, 5), "per seat: suit named (4) or pass; zero row if not "
                 "spoken"),
        ObsPiece("trick", (NUM_SEATS, NUM_CARDS), "cards of the current trick by seat"),
        ObsPiece("leader", (NUM_SEATS,), "seat that led the current trick"),
        ObsPiece("played", (NUM_SEATS, NUM_CARDS), "cards played in earlier tricks of this deal "
                 "by seat"),
        ObsPiece("void", (NUM_SEATS, 4), "per seat, effective suits it has shown it lacks"),
        ObsPiece("tricks_won", (2, 9), "tricks won this deal, one-hot 0..8: team 0 (seats 0, "
                 "2), team 1"),
        ObsPiece("points", (2,), "points still to lose / start_score: team 0, team 1"),
        ObsPiece("trick_number", (8,), "index of the current trick, one-hot (play phase)"),
        ObsPiece("phase", (3,), "trump call, play, game over"),
        ObsPiece("deals", (1,), "deals played / max_deals (game mode; 0 in deal mode)"),
        ObsPiece("to_be_dealt", (NUM_SEATS, NUM_CARDS), "cards each seat still receives after "
                 "the call (forehand_on_four; zero otherwise)"),
        ObsPiece("to_act", (NUM_SEATS,), "seat that decides now (all zero when the game is "
                 "over)"),
    ]
)
_ABS_SHAPES = [p.size for p in STATE_SPEC.pieces[: len(ABS_PIECES)]]
assert _ABS_SHAPES == list(ABS_PIECES.values()), "STATE_SPEC must start with the absolute buffer"
_DEALT = STATE_SPEC.offsets["to_be_dealt"]
_TO_ACT = STATE_SPEC.offsets["to_act"]


def observe(state: BauerTrickState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """``player``'s observation: the absolute buffer taken through that seat's permutation."""
    if out is None:
        return np.take(state.buf, OBSERVER_PERM[player])
    return np.take(state.buf, OBSERVER_PERM[player], out=out)


def global_state(state: BauerTrickState, out: np.ndarray | None = None) -> np.ndarray:
    """The full-information state (``STATE_SPEC``): every hand, the undealt cards by the seat
    that will receive them, whose turn, and everything public; written into ``out`` if given."""
    if out is None:
        out = np.zeros(STATE_SPEC.size, np.float32)
    out[:ABS_SIZE] = state.buf
    out[ABS_SIZE:] = 0.0
    first = (state.dealer + 1) % NUM_SEATS
    for i, card in enumerate(state.undealt):  # dealt 4 at a time from the dealer's left
        out[_DEALT + (first + i // 4) % NUM_SEATS * NUM_CARDS + card] = 1.0
    if state.phase != PHASE_OVER:
        out[_TO_ACT + state.to_act] = 1.0
    return out


def encode(state: BauerTrickState) -> None:
    """Rebuild the absolute observation buffer from the compact state."""
    buf = state.buf
    buf[:] = 0.0
    game = state.game
    for seat in range(NUM_SEATS):
        for card in cards_of(state.hands[seat]):
            buf[ABS["hand"] + seat * NUM_CARDS + card] = 1.0
        for card in cards_of(state.played[seat]):
            buf[ABS["played"] + seat * NUM_CARDS + card] = 1.0
        for suit in range(4):
            if state.voids[seat] >> suit & 1:
                buf[ABS["void"] + seat * 4 + suit] = 1.0
        if state.calls[seat] >= 0:
            buf[ABS["calls"] + seat * 5 + state.calls[seat]] = 1.0
    if state.trump >= 0:
        buf[ABS["trump"] + state.trump] = 1.0
        buf[ABS["caller"] + (state.caller if state.caller >= 0 else 4)] = 1.0
    buf[ABS["dealer"] + state.dealer] = 1.0
    for seat, card in zip(state.trick_seats, state.trick_cards):
        buf[ABS["trick"] + seat * NUM_CARDS + card] = 1.0
    if state.phase == PHASE_PLAY:
        buf[ABS["leader"] + state.leader] = 1.0
        buf[ABS["trick_number"] + state.trick_no] = 1.0
    for team in (0, 1):
        buf[ABS["tricks_won"] + team * 9 + state.tricks[team]] = 1.0
        buf[ABS["points"] + team] = state.points[team] / game.options["start_score"]
    buf[ABS["phase"] + state.phase] = 1.0
    if not game.deal_mode:
        buf[ABS["deals"]] = state.deals_played / game.options["max_deals"]
