"""Observation layout and action table of ``bauer_trick``.

The observation is seat-relative ("me, left, partner, right"; "my team, other team"). The engine
keeps one *absolute* buffer (seats 0..3, teams 0/1, updated in place as cards fall) and each
observer's vector is one ``np.take`` of it through a precomputed permutation, so observing costs a
single numpy call whatever the position.
"""

from __future__ import annotations

import numpy as np

from envs.bauer_trick.cards import NUM_CARDS, SUIT_NAMES, SUIT_SYMBOLS, card_name
from envs.core.obs_spec import ObsPiece, ObsSpec

NUM_SEATS = 4
PASS = 36
CALL_BASE = 32
NUM_ACTIONS = 37

PHASE_CALL, PHASE_PLAY, PHASE_OVER = 0, 1, 2

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


def action_name(action: int) -> str:
    if 0 <= action < NUM_CARDS:
        return f"play {card_name(action)}"
    if CALL_BASE <= action < CALL_BASE + 4:
        suit = action - CALL_BASE
        return f"call {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}"
    if action == PASS:
        return "pass"
    raise ValueError(f"bauer_trick: no action id {action}; ids are 0..{NUM_ACTIONS - 1}")


def action_table_markdown() -> str:
    return "\n".join(
        [
            "| ids | meaning | legal when |",
            "|---|---|---|",
            "| 0–31 | play card id (suit*8 + rank; suits ♣ ♠ ♥ ♦, ranks 7 8 9 10 J Q K A) | "
            "play phase, card in hand, following the effective suit led if able |",
            "| 32–35 | name clubs / spades / hearts / diamonds as trump | trump call |",
            "| 36 | pass | trump call (not with `trump_selection='forehand_on_four'`) |",
            "| 37 | NOOP (added by the core) | parallel env, for the three seats not acting |",
        ]
    )
