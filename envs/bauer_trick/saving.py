"""Saving and loading a ``bauer_trick`` state.

``to_dict`` is written from the State's declared fields (``BauerTrickState.FIELDS``, with the
encoders here). ``state_from_dict`` reads a save back: its keys are the declared ones, and every
field's type, length and range is checked before the field is used (so any input, however odd,
gives a ``StateFormatError`` with a shortened value, never another exception or a long scan), then
the loaded position goes through ``BauerTrickState.check``, whose game part is
``invariants.check_state``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bauer_trick import information_state
from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    NUM_SUITS,
    PHASE_CALL,
    PHASE_OVER,
    PHASE_PLAY,
    SPOKE_PASS,
    bits_of,
    cards_of,
)
from tablezoo.envs.bauer_trick.invariants import bad, shown
from tablezoo.envs.core.fields import OMIT
from tablezoo.envs.core.game import require, rng_from_dict, rng_to_dict

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickGame, BauerTrickState

PHASES = {"call": PHASE_CALL, "play": PHASE_PLAY, "over": PHASE_OVER}
MAX_RETURN = 10**6  # far above any reachable cumulative reward; bounds float() of a saved int


def _int(value: Any, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        bad(f"{what} must be an int in [{low}, {high}], got {shown(value)}")
    return value


def _list(value: Any, what: str, length: int | None = None, most: int | None = None) -> list:
    """``value`` as a list of exactly ``length`` (or at most ``most``) items, checked before any
    item is looked at."""
    if type(value) is not list:
        bad(f"{what} must be a list, got {shown(value)}")
    if length is not None and len(value) != length:
        bad(f"{what} must have {length} entries, got {len(value)}")
    if most is not None and len(value) > most:
        bad(f"{what} has {len(value)} entries, at most {most} allowed")
    return value


def _ints(value: Any, what: str, length: int | None, low: int, high: int,
          most: int | None = None) -> list[int]:
    items = _list(value, what, length, most)
    for i, v in enumerate(items):
        if type(v) is not int or not low <= v <= high:
            _int(v, f"{what}[{i}]", low, high)
    return list(items)


def _cards(value: Any, what: str) -> list[int]:
    return _ints(value, what, None, 0, NUM_CARDS - 1, most=NUM_CARDS)




# --- to_dict's encoders (named by ``BauerTrickState.FIELDS``) ---------------------------------
def save_phase(state: BauerTrickState) -> str:
    return ("call", "play", "over")[state.phase]


def save_hands(state: BauerTrickState) -> list[list[int]]:
    return [cards_of(h) for h in state.hands]


def save_trick(state: BauerTrickState) -> list[list[int]]:
    return [[s, c] for s, c in zip(state.trick_seats, state.trick_cards)]


def save_played(state: BauerTrickState) -> list[list[int]]:
    return [cards_of(b) for b in state.played]


def save_rng(state: BauerTrickState) -> dict[str, Any]:
    return rng_to_dict(state.rng)


def save_history(state: BauerTrickState) -> Any:
    """The deal's history, left out of a save loaded without one."""
    return information_state.to_dict(state) if state.history_known else OMIT


def state_from_dict(
    game: BauerTrickGame, data: Mapping[str, Any], state_class: type[BauerTrickState]
) -> BauerTrickState:
    """The state saved in ``data``; ``state_class`` (passed in by the rules, which this module does
    not import) builds the blank state once the header is checked."""
    require(isinstance(data, Mapping),
            f"bauer_trick state must be a dict, got {type(data).__name__}")
    keys = state_class.FIELDS.keys  # the declared fields' keys
    missing = [k for k in state_class.FIELDS.required_keys if k not in data]
    require(not missing, f"bauer_trick state: missing keys {missing}")
    require(all(k in keys for k in data),
            f"bauer_trick state: unexpected keys {shown([k for k in data if k not in keys])}")
    require(type(data["game"]) is str and data["game"] == game.name,
            f"bauer_trick state: game is {shown(data['game'])}")
    require(type(data["options"]) is dict and data["options"] == game.options,
            f"bauer_trick state: saved options {shown(data['options'])} differ from this game's "
            f"{shown(game.options)}")
    phase = data["phase"]
    require(type(phase) is str and phase in PHASES,
            f"bauer_trick state: phase {shown(phase)} must be one of {sorted(PHASES)}")
    state = state_class(game, rng_from_dict(data["rng"]))
    state.phase = PHASES[phase]
    state.dealer = _int(data["dealer"], "dealer", 0, NUM_SEATS - 1)
    state.to_act = _int(data["to_act"], "to_act", 0, NUM_SEATS - 1)
    hands = _list(data["hands"], "hands", NUM_SEATS)
    hand_lists = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
    played = _list(data["played"], "played", NUM_SEATS)
    played_lists = [_cards(h, f"played[{i}]") for i, h in enumerate(played)]
    undealt = _cards(data["undealt"], "undealt")
    trick = _list(data["trick"], "trick", most=NUM_SEATS - 1)
    pairs = [_ints(t, f"trick[{i}]", 2, 0, NUM_CARDS - 1) for i, t in enumerate(trick)]
    state.trick_seats = [_int(s, "a trick seat", 0, NUM_SEATS - 1) for s, _ in pairs]
    state.trick_cards = [c for _, c in pairs]
    # Lists may repeat a card, which bit masks would hide: count every listed card here.
    listed = sum(map(len, hand_lists)) + sum(map(len, played_lists)) + len(undealt) + len(pairs)
    require(listed == NUM_CARDS, f"bauer_trick state: hands, played, trick and undealt list "
            f"{listed} cards; each of the {NUM_CARDS} cards must be listed exactly once")
    state.hands = [bits_of(h) for h in hand_lists]
    state.played = [bits_of(h) for h in played_lists]
    state.undealt = undealt
    state.calls = _ints(data["calls"], "calls", NUM_SEATS, -1, SPOKE_PASS)
    state.trump = _int(data["trump"], "trump", -1, NO_TRUMP)
    state.caller = _int(data["caller"], "caller", -1, NUM_SEATS - 1)
    state.leader = _int(data["leader"], "leader", -1, NUM_SEATS - 1)
    state.trick_no = _int(data["trick_no"], "trick_no", 0, 8)
    state.tricks = _ints(data["tricks"], "tricks", 2, 0, 8)
    state.voids = _ints(data["voids"], "voids", NUM_SEATS, 0, (1 << NUM_SUITS) - 1)
    start = game.options["start_score"]
    state.points = _ints(data["points"], "points", 2, 0, start)
    state.deals_played = _int(data["deals_played"], "deals_played", 0,
                              1 if game.deal_mode else game.options["max_deals"])
    state.decisions = _int(data["decisions"], "decisions", 0, game.max_decisions)
    require(type(data["truncated"]) is bool,
            f"bauer_trick state: truncated must be a bool, got {shown(data['truncated'])}")
    state.truncated = data["truncated"]
    tally = _list(data["tally"], "tally", 2)
    state.tally = [_tally(t, f"tally[{i}]", game.categories, start) for i, t in enumerate(tally)]
    returns = _list(data["returns"], "returns", NUM_SEATS)
    state.total_returns = [_number(r, f"returns[{i}]") for i, r in enumerate(returns)]
    state.led_suit = (
        EFFECTIVE_SUIT[state.trump][state.trick_cards[0]]
        if state.trick_cards and state.trump >= 0 else -1
    )
    # the deal's history (information_state); a save without it is rebuilt where the position
    # tells it, else the information state is refused (information_state.from_dict)
    information_state.from_dict(state, data.get("history", information_state.NOT_SAVED))
    state_class.FIELDS.check_types(state, "bauer_trick state")  # what each declared field holds
    state.check()
    state.encode()
    return state


def _tally(value: Any, what: str, categories: tuple[str, ...], start: int) -> dict[str, int]:
    require(type(value) is dict and len(value) == len(categories)
            and all(type(k) is str and k in categories for k in value),
            f"bauer_trick state: {what} must be a dict with the keys {list(categories)}, got "
            f"{shown(value)}")
    return {k: _int(value[k], f"{what}[{k!r}]", 0, start) for k in categories}


def _number(value: Any, what: str) -> float:
    """A finite saved number as a float; huge ints are refused before ``float`` overflows."""
    ok = (type(value) is int and abs(value) <= MAX_RETURN) or (
        type(value) is float and math.isfinite(value))
    require(ok, f"bauer_trick state: {what} must be a finite number, got {shown(value)}")
    return float(value)
