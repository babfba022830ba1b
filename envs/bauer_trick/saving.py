"""Saving and loading a ``bauer_trick`` state (JSON-safe), every loaded field checked
(``StateFormatError``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    PHASE_CALL,
    PHASE_OVER,
    PHASE_PLAY,
    bits_of,
    cards_of,
)
from envs.core.game import require, rng_from_dict, rng_to_dict

if TYPE_CHECKING:
    from envs.bauer_trick.rules import BauerTrickGame, BauerTrickState

PHASES = {"call": PHASE_CALL, "play": PHASE_PLAY, "over": PHASE_OVER}
KEYS = ("game", "options", "phase", "dealer", "to_act", "hands", "undealt", "calls", "trump",
        "caller", "leader", "trick", "trick_no", "tricks", "played", "voids", "points", "tally",
        "deals_played", "truncated", "returns", "decisions", "rng")


def _int_in(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = data[key]
    require(type(value) is int and low <= value <= high,
            f"bauer_trick state: {key}={value!r} must be an int in [{low}, {high}]")
    return value


def _int_list(data: Mapping[str, Any], key: str, length: int | None, low: int, high: int) -> list:
    value = data[key]
    require(isinstance(value, list) and (length is None or len(value) == length),
            f"bauer_trick state: {key} must be a list of {length} ints, got {value!r}")
    require(all(type(v) is int and low <= v <= high for v in value),
            f"bauer_trick state: {key} entries must be ints in [{low}, {high}], got {value!r}")
    return list(value)


def _cards(value: Any, what: str) -> list[int]:
    require(isinstance(value, list) and all(type(c) is int and 0 <= c < NUM_CARDS for c in value),
            f"bauer_trick state: {what} must be a list of card ids 0..31, got {value!r}")
    return list(value)


def to_dict(state: BauerTrickState) -> dict[str, Any]:
    return {
        "game": state.game.name,
        "options": dict(state.game.options),
        "phase": ("call", "play", "over")[state.phase],
        "dealer": state.dealer,
        "to_act": state.to_act,
        "hands": [cards_of(h) for h in state.hands],
        "undealt": list(state.undealt),
        "calls": list(state.calls),
        "trump": state.trump,
        "caller": state.caller,
        "leader": state.leader,
        "trick": [[s, c] for s, c in zip(state.trick_seats, state.trick_cards)],
        "trick_no": state.trick_no,
        "tricks": list(state.tricks),
        "played": [cards_of(b) for b in state.played],
        "voids": list(state.voids),
        "points": list(state.points),
        "tally": [dict(t) for t in state.tally],
        "deals_played": state.deals_played,
        "truncated": state.truncated,
        "returns": list(state.total_returns),
        "decisions": state.decisions,
        "rng": rng_to_dict(state.rng),
    }


def state_from_dict(
    game: BauerTrickGame, data: Mapping[str, Any], state_class: type[BauerTrickState]
) -> BauerTrickState:
    """The state saved in ``data``; ``state_class`` (passed in by the rules, which this module does
    not import) builds the blank state once the header is checked."""
    require(isinstance(data, Mapping), f"bauer_trick state must be a dict, got {type(data)}")
    missing = [k for k in KEYS if k not in data]
    require(not missing, f"bauer_trick state: missing keys {missing}")
    require(data["game"] == game.name, f"bauer_trick state: game is {data['game']!r}")
    require(data["options"] == game.options,
            f"bauer_trick state: saved options {data['options']!r} differ from this game's "
            f"{game.options!r}")
    require(data["phase"] in PHASES, f"bauer_trick state: phase {data['phase']!r} must be one "
            f"of {sorted(PHASES)}")
    state = state_class(game, rng_from_dict(data["rng"]))
    state.phase = PHASES[data["phase"]]
    state.dealer = _int_in(data, "dealer", 0, 3)
    state.to_act = _int_in(data, "to_act", 0, 3)
    hands = data["hands"]
    require(isinstance(hands, list) and len(hands) == NUM_SEATS, "bauer_trick state: hands "
            "must be a list of 4 card lists")
    hand_lists = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
    played = data["played"]
    require(isinstance(played, list) and len(played) == NUM_SEATS, "bauer_trick state: played "
            "must be a list of 4 card lists")
    played_lists = [_cards(h, f"played[{i}]") for i, h in enumerate(played)]
    undealt = _cards(data["undealt"], "undealt")
    trick = data["trick"]
    require(isinstance(trick, list) and len(trick) < NUM_SEATS and all(
        isinstance(t, list) and len(t) == 2 and type(t[0]) is int and 0 <= t[0] < NUM_SEATS
        for t in trick), f"bauer_trick state: trick must be a list of at most 3 [seat, card] "
        f"pairs, got {trick!r}")
    trick_cards = _cards([t[1] for t in trick], "trick cards")
    every = [c for h in hand_lists for c in h] + [c for h in played_lists for c in h]
    every += undealt + trick_cards
    require(sorted(every) == list(range(NUM_CARDS)), "bauer_trick state: hands, played, trick "
            "and undealt must hold each of the 32 cards exactly once")
    state.hands = [bits_of(h) for h in hand_lists]
    state.played = [bits_of(h) for h in played_lists]
    state.undealt = undealt
    state.trick_seats = [t[0] for t in trick]
    state.trick_cards = trick_cards
    state.calls = _int_list(data, "calls", NUM_SEATS, -1, 4)
    state.trump = _int_in(data, "trump", -1, NO_TRUMP)
    state.caller = _int_in(data, "caller", -1, 3)
    state.leader = _int_in(data, "leader", -1, 3)
    state.trick_no = _int_in(data, "trick_no", 0, 8)
    state.tricks = _int_list(data, "tricks", 2, 0, 8)
    state.voids = _int_list(data, "voids", NUM_SEATS, 0, 15)
    state.points = _int_list(data, "points", 2, 0, game.options["start_score"])
    state.deals_played = _int_in(data, "deals_played", 0, 10**9)
    state.decisions = _int_in(data, "decisions", 0, 10**12)
    require(type(data["truncated"]) is bool, "bauer_trick state: truncated must be a bool")
    state.truncated = data["truncated"]
    tally = data["tally"]
    require(isinstance(tally, list) and len(tally) == 2 and all(
        isinstance(t, dict) and sorted(t) == sorted(game.categories)
        and all(type(v) is int and v >= 0 for v in t.values()) for t in tally),
        f"bauer_trick state: tally must be two dicts with int counts for {game.categories}")
    state.tally = [dict(t) for t in tally]
    returns = data["returns"]
    require(isinstance(returns, list) and len(returns) == NUM_SEATS
            and all(isinstance(r, (int, float)) for r in returns),
            "bauer_trick state: returns must be a list of 4 numbers")
    state.total_returns = [float(r) for r in returns]
    _check_consistency(state)
    state.led_suit = (
        -1 if not state.trick_cards else _effective(state.trick_cards[0], state.trump)
    )
    state.encode()
    return state


def _effective(card: int, trump: int) -> int:
    return EFFECTIVE_SUIT[trump][card]


def _check_consistency(state: BauerTrickState) -> None:
    """Cross-field checks that keep a loaded position playable."""
    hand_sizes = [h.bit_count() for h in state.hands]
    if state.phase == PHASE_CALL:
        require(state.trump == -1 and state.caller == -1 and not state.trick_cards,
                "bauer_trick state: in the call phase trump and caller are -1 and no trick")
    elif state.phase == PHASE_PLAY:
        require(state.trump >= 0, "bauer_trick state: in the play phase trump must be set")
        require(not state.undealt, "bauer_trick state: no cards are undealt in the play phase")
        require(sum(state.tricks) == state.trick_no, "bauer_trick state: tricks won must add "
                "up to trick_no")
        expected = [8 - state.trick_no] * NUM_SEATS
        for seat in state.trick_seats:
            expected[seat] -= 1
        require(hand_sizes == expected, f"bauer_trick state: hand sizes {hand_sizes} do not fit "
                f"trick {state.trick_no} with {len(state.trick_cards)} cards played")
        if state.trick_seats:
            require(state.trick_seats[0] == state.leader, "bauer_trick state: the trick must "
                    "start with the leader")
        require(state.to_act == (state.leader + len(state.trick_seats)) % NUM_SEATS,
                "bauer_trick state: to_act must be the next seat after the trick's cards")
    else:
        require(not any(state.hands), "bauer_trick state: hands are empty when the game is over")
    if state.truncated:
        require(state.phase == PHASE_OVER, "bauer_trick state: truncated only when over")
