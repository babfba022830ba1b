"""Builders for Ethnos test positions (edit a fresh state's dict, reload it with validation).

Cards are named like ``"blue Elf"`` / ``"Skeleton"``; kingdoms by name. Every builder keeps the
cards conserved (cards given to a hand are taken out of the deck or the display), so
``state_from_dict`` validates each built position. ``score_age`` draws the third Dragon of a
built position; ``saved`` gives the saved dict of a random game's position.
"""

from __future__ import annotations

import json
from typing import Any

from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON, KINGDOMS, TYPE_NAMES
from tests.saved_states import random_positions

T = {name.lower(): t for t, name in enumerate(TYPE_NAMES)}
K = {name.lower(): k for k, name in enumerate(KINGDOMS)}
A, B, C, D, E, F = 0, 1, 2, 3, 4, 5  # seats
BASE = ["Centaurs", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"]
BASE5 = BASE[:5]
ALL_KINGDOMS = ("Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton")
ZERO_TOKENS = {name: [0, 0, 0] for name in ALL_KINGDOMS}  # glory tokens of a 3-Age game
ZERO_TOKENS_2 = {name: [0, 0] for name in ALL_KINGDOMS}  # ... of a 2-Age game


def t(name: str) -> int:
    """Card type id of ``"blue Elf"`` etc."""
    return T[name.lower()]


def k(name: str) -> int:
    return K[name.lower()]


def make_game(n: int, tribes: list[str], **options: Any) -> EthnosGame:
    return EthnosGame(num_players=n, tribes=tribes, **options)


def _take(d: dict, ct: int) -> None:
    """Remove one card of type ``ct`` from the deck (topmost copy) or else the display."""
    deck = d["deck"]
    for i in range(len(deck) - 1, -1, -1):
        if deck[i] == ct:
            del deck[i]
            if i < d["lower_left"]:
                d["lower_left"] -= 1
            return
    if d["display"][ct] > 0:
        d["display"][ct] -= 1
        return
    raise AssertionError(f"no free copy of {TYPE_NAMES[ct]} left for the test position")


def _return_all(d: dict) -> None:
    """Hands and display back on top of the deck (above the Dragon region)."""
    for p, hand in enumerate(d["hands"]):
        for ct, cnt in enumerate(hand):
            d["deck"].extend([ct] * cnt)
        d["hands"][p] = [0] * len(hand)
        d["known"][p] = [0] * len(hand)
    for ct, cnt in enumerate(d["display"]):
        d["deck"].extend([ct] * cnt)
    d["display"] = [0] * len(d["display"])


def build(
    game: EthnosGame,
    seed: int = 0,
    *,
    hands: dict[int, list[str]] | None = None,
    display: list[str] | None = None,
    markers: dict[int, dict[str, int]] | None = None,
    tokens: dict[str, list[int]] | None = None,
    glory: dict[int, int] | None = None,
    merfolk: dict[int, int] | None = None,
    horde: dict[int, list[str]] | None = None,
    trolls: dict[int, int] | None = None,
    bands: dict[int, list[list[str]]] | None = None,
    age: int | None = None,
    actor: int = 0,
    first: int | None = None,
    last_dragon_on_top: bool = False,
) -> Any:
    """A turn-start position of ``game`` with the given public and private facts.

    ``trolls`` maps token value -> owner seat. ``last_dragon_on_top``: two Dragons are already
    revealed and the third is the top deck card, so the next deck draw ends the Age.
    """
    d = game.new_state(seed).to_dict()
    del d["history"]  # a built position has no recorded history (its information state is refused)
    _return_all(d)
    n = game.num_players
    for p, cards in (hands or {}).items():
        for name in cards:
            _take(d, t(name))
            d["hands"][p][t(name)] += 1
    for name in display or []:
        _take(d, t(name))
        d["display"][t(name)] += 1
    for p, per in (bands or {}).items():
        for band in per:
            ids = [t(c) for c in band]
            for c in ids:
                _take(d, c)
            d["bands"][p].append(ids)
    for p, per in (markers or {}).items():
        for name, cnt in per.items():
            d["markers"][p][k(name)] = cnt
    for name, vals in (tokens or {}).items():
        d["glory_tokens"][k(name)] = list(vals)
    for p, g in (glory or {}).items():
        d["glory"][p] = g
        d["breakdown"][p] = [g, 0, 0, 0, 0, 0]
    for p, pos in (merfolk or {}).items():
        d["merfolk"][p] = pos
    for p, names in (horde or {}).items():
        d["horde"][p] = [1 if KINGDOMS[i].lower() in [x.lower() for x in names]
                         or _colour_match(i, names) else 0 for i in range(6)]
    for v, owner in (trolls or {}).items():
        d["troll_owner"][v - 1] = owner
    if age is not None:
        d["age"] = age
    d["actor"] = actor
    d["first_player"] = actor if first is None else first
    if last_dragon_on_top:
        deck = [c for c in d["deck"] if c != DRAGON]
        d["deck"] = deck + [DRAGON]
        d["dragons"] = 2
        d["lower_left"] = len(d["deck"])
    assert n == len(d["hands"])
    return game.state_from_dict(d)


def _colour_match(i: int, names: list[str]) -> bool:
    colours = ("green", "purple", "orange", "grey", "red", "blue")
    return colours[i] in [x.lower() for x in names]


def play_band(s: Any, leader: str, others: list[str] = ()) -> None:
    """LEADER, ADD_CARD for each other card, FINISH_BAND (as the acting player)."""
    s.step(enc.LEADER + t(leader))
    for c in others:
        s.step(enc.ADD_CARD + t(c))
    s.step(enc.FINISH_BAND)


def kingdom_gain(before: Any, after: Any) -> list[int]:
    """Per seat, the kingdom glory (breakdown category 0) gained from ``before`` to ``after``."""
    return [after.breakdown[p][0] - before.breakdown[p][0] for p in range(before.n)]


def legal(s: Any) -> list[int]:
    return s.legal_actions(s.acting_players()[0])


def legal_kingdoms(s: Any) -> list[str]:
    return [KINGDOMS[a - enc.KINGDOM] for a in legal(s) if enc.KINGDOM <= a < enc.TROLL]


def give_hand(s: Any, p: int, cards: list[str], actor: int | None = None) -> Any:
    """The same position with ``p``'s hand replaced by ``cards`` (old hand back on the deck)."""
    d = s.to_dict()
    d.pop("history", None)  # an edited position has no recorded history
    for ct, cnt in enumerate(d["hands"][p]):
        d["deck"].extend([ct] * cnt)
    d["hands"][p] = [0] * len(d["hands"][p])
    d["known"][p] = [0] * len(d["known"][p])
    for name in cards:
        _take(d, t(name))
        d["hands"][p][t(name)] += 1
    if actor is not None:
        d["actor"] = actor
    return s.game.state_from_dict(d)


def end_age_now(s: Any) -> Any:
    """Same position, but the acting player's next RECRUIT_DECK draws the third Dragon."""
    d = s.to_dict()
    d.pop("history", None)  # an edited position has no recorded history
    deck = [c for c in d["deck"] if c != DRAGON]
    d["deck"] = deck + [DRAGON]
    d["dragons"] = 2
    d["lower_left"] = len(d["deck"])
    s2 = s.game.state_from_dict(d)
    s2.step(enc.RECRUIT_DECK)
    return s2


def score_age(g, **kw) -> tuple:
    """Build a turn-start position whose next RECRUIT_DECK draws the third Dragon; draw it."""
    s = build(g, last_dragon_on_top=True, **kw)
    before = s.clone()
    s.step(enc.RECRUIT_DECK)
    return before, s


def saved(n: int = 4, seed: int = 2, steps: int = 120, phase: str | None = None):
    game = EthnosGame(num_players=n)
    for step, s in enumerate(random_positions(game, seed)):
        d = s.to_dict()
        if (phase is None and step >= steps) or d["phase"] == phase:
            return game, json.loads(json.dumps(d))
    raise AssertionError(f"no position in phase {phase}")
