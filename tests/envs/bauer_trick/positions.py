"""Build ``bauer_trick`` test positions from a few named cards via ``state_from_dict``, play
cards by name, read one named piece of an observation, and take the saved state of a random
game where a condition holds."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.components import parse_card
from tablezoo.envs.bauer_trick.observation import OBS_SPEC

SUITS = {"clubs": 0, "spades": 1, "hearts": 2, "diamonds": 3, "none": 4}


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def play_position(game: BauerTrickGame, hands: dict[int, str], *, trump: str, caller: int,
                  leader: int, dealer: int = 3, trick: list[tuple[int, str]] = (),
                  tricks: tuple[int, int] | None = None, points=None):
    """A play-phase position: ``hands`` give some seats' cards (seats not named get filler
    cards); every seat holds ``8 - trick_no`` cards before the current trick, all other cards
    count as played in earlier tricks."""
    named = {seat: cards(text) for seat, text in hands.items()}
    trick_cards = [(seat, parse_card(c)) for seat, c in trick]
    size = max(len(h) + sum(1 for s, _ in trick_cards if s == seat) for seat, h in named.items())
    trick_no = 8 - size
    used = {c for h in named.values() for c in h} | {c for _, c in trick_cards}
    spare = [c for c in range(32) if c not in used]
    full = {}
    for seat in range(4):
        own = list(named.get(seat, []))
        need = size - sum(1 for s, _ in trick_cards if s == seat) - len(own)
        assert need >= 0 or seat in named, "named hands must all have the same size"
        own += [spare.pop() for _ in range(max(0, need))] if seat not in named else []
        full[seat] = own
    played = [[spare.pop() for _ in range(trick_no)] for _ in range(4)]
    assert not spare, "cards left over: hands of different sizes?"
    if tricks is None:
        tricks = (trick_no, 0)
    # The position must be one the rules can reach (the loader checks it): the seats before the
    # caller passed, the tally gives the points, the decision count fits the cards played.
    first = (dealer + 1) % 4
    order = [(first + i) % 4 for i in range(4)]
    calls = [-1] * 4
    if trump != "none":
        for seat in order[: order.index(caller)]:
            calls[seat] = 4
        calls[caller] = SUITS[trump]
    else:
        calls = [4] * 4
    start = game.options["start_score"]
    tally = [dict.fromkeys(game.categories, 0) for _ in range(2)]
    for team, p in enumerate(points or [start] * 2):
        tally[team]["calls_made"] = start - p
    decisions = sum(c != -1 for c in calls) + 4 * trick_no + len(trick_cards)
    data = {
        "game": "bauer_trick", "options": dict(game.options), "phase": "play",
        "dealer": dealer, "to_act": (leader + len(trick_cards)) % 4,
        "hands": [sorted(full[s]) for s in range(4)], "undealt": [], "calls": calls,
        "trump": SUITS[trump], "caller": caller if trump != "none" else -1, "leader": leader,
        "trick": [[s, c] for s, c in trick_cards], "trick_no": trick_no, "tricks": list(tricks),
        "played": played, "voids": [0, 0, 0, 0],
        "points": list(points or [start] * 2),
        "tally": tally,
        "deals_played": 0, "truncated": False, "returns": [0.0] * 4, "decisions": decisions,
        "rng": game.new_state(0).to_dict()["rng"],
    }
    return game.state_from_dict(data)


def legal_cards(state) -> set[int]:
    return {a for a in state.legal_actions(state.to_act) if a < 32}


def play(state, *names: str) -> None:
    for name in names:
        state.step(parse_card(name))


def piece(obs: np.ndarray, name: str) -> np.ndarray:
    start = OBS_SPEC.offsets[name]
    size = int(np.prod(next(p.shape for p in OBS_SPEC.pieces if p.name == name)))
    return obs[start : start + size]


def last_trick(game, winner_cards, tricks_before, trump="clubs", caller=0, points=None):
    """Seat 0 leads the 8th trick with the top trump (the right Bauer) and wins it."""
    return play_position(game, {0: "J♣", 1: "7♥", 2: "8♥", 3: "9♥"}, trump=trump, caller=caller,
                         leader=0, tricks=tricks_before, points=points)


def random_step(state, rng) -> None:
    state.step(int(rng.choice(state.legal_actions(state.to_act))))


def saved(game: BauerTrickGame, seed: int, until) -> dict:
    """The saved state at the first decision of a random game where ``until(state)`` holds."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    while not until(state):
        assert not state.is_over(), "condition never met"
        random_step(state, rng)
    return state.to_dict()


def mid_play(state) -> bool:
    return state.phase == 1 and state.trick_no >= 3 and len(state.trick_cards) == 2
