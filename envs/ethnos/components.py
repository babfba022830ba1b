"""Ethnos components, loaded from ``components.json`` and checked against the spec's totals.

The JSON file is the single source of truth for kingdoms, tribes, card counts, glory-token sets
and Troll tokens (rules §1). This module turns it into flat tables the engine
indexes directly:

- a **card type** is ``6 * tribe + colour`` for tribes 0-10 (ids 0-65) and 66 for the Skeleton;
  ``DRAGON`` (67) is the id used for Dragon cards inside the deck list only;
- ``TYPE_TRIBE[t]`` / ``TYPE_COLOUR[t]`` (colour -1 for the Skeleton);
- ``TRIBE_COUNTS[tribe]``: the 67-vector of how many cards of each type the tribe brings.

Loading fails loudly (``ValueError``) if the data disagrees with the spec's check totals.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

DATA_PATH = Path(__file__).with_name("components.json")

NUM_KINGDOMS = 6
NUM_TRIBES = 12
NUM_TYPES = 67
SKELETON = 66  # card type id of the (colourless) Skeleton
DRAGON = 67  # deck-list id of a Dragon card (not a card type)

(CENTAURS, DWARVES, ELVES, GIANTS, HALFLINGS, MERFOLK, MINOTAURS, ORCS, TROLLS, WINGFOLK,
 WIZARDS, SKELETONS) = range(12)  # fmt: skip


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(f"ethnos components.json: {msg}")


def _load() -> dict:
    with DATA_PATH.open(encoding="utf-8") as fh:
        return json.load(fh)


_DATA = _load()
_CHECKS = _DATA["checks"]

KINGDOMS: tuple[str, ...] = tuple(k["name"] for k in _DATA["kingdoms"])
COLOURS: tuple[str, ...] = tuple(k["colour"] for k in _DATA["kingdoms"])
TRIBES: tuple[str, ...] = tuple(t["name"] for t in _DATA["tribes"])
TRIBE_INDEX = {name.lower(): i for i, name in enumerate(TRIBES)}
NUM_DRAGONS: int = _DATA["dragons"]
TROLL_VALUES: tuple[int, ...] = tuple(_DATA["troll_tokens"])
MARKERS_PER_PLAYER: int = _DATA["markers_per_player"]
GLORY_SETS: dict[str, dict[str, tuple[int, ...]]] = {
    name: {"four_plus": tuple(s["four_plus"]), "other": tuple(s["other"])}
    for name, s in _DATA["glory_tokens"].items()
}

_check(len(KINGDOMS) == _CHECKS["kingdoms"] == NUM_KINGDOMS, "need 6 kingdoms")
_check(len(TRIBES) == _CHECKS["tribes"] == NUM_TRIBES, "need 12 tribes")
_check(TRIBES[SKELETONS] == "Skeletons" and TRIBES[HALFLINGS] == "Halflings", "tribe order")
_check(TROLL_VALUES == (1, 2, 3, 4, 5, 6), "Troll tokens must be 1..6, one each")
_check(NUM_DRAGONS == 3, "need 3 Dragons")

TYPE_TRIBE = np.zeros(NUM_TYPES, np.int64)
TYPE_COLOUR = np.zeros(NUM_TYPES, np.int64)
TRIBE_COUNTS = np.zeros((NUM_TRIBES, NUM_TYPES), np.int64)
for _tribe, _spec in enumerate(_DATA["tribes"]):
    if _tribe == SKELETONS:
        TRIBE_COUNTS[_tribe, SKELETON] = _spec["colourless"]
        continue
    for _colour in range(NUM_KINGDOMS):
        _t = 6 * _tribe + _colour
        TYPE_TRIBE[_t] = _tribe
        TYPE_COLOUR[_t] = _colour
        TRIBE_COUNTS[_tribe, _t] = _spec["per_colour"]
TYPE_TRIBE[SKELETON] = SKELETONS
TYPE_COLOUR[SKELETON] = -1

for _tribe in range(NUM_TRIBES):
    _want = _CHECKS["halfling_cards"] if _tribe == HALFLINGS else _CHECKS["cards_per_tribe"]
    _check(int(TRIBE_COUNTS[_tribe].sum()) == _want, f"{TRIBES[_tribe]} need {_want} cards")
_check(_CHECKS["card_types"] == NUM_TYPES, "need 67 card types")
for _name, _set in GLORY_SETS.items():
    _check(len(_set["four_plus"]) == _CHECKS["glory_tokens_four_plus"], f"{_name}: six 4+ tokens")
    _check(len(_set["four_plus"]) + len(_set["other"]) == _CHECKS["glory_tokens"],
           f"{_name}: 18 tokens")
_check(sorted(GLORY_SETS["sg"]["four_plus"] + GLORY_SETS["sg"]["other"]) ==
       _CHECKS["sg_full_set"], "the 'sg' set must match the spec's full list")

SINGULAR: tuple[str, ...] = tuple(t["singular"] for t in _DATA["tribes"])
TYPE_NAMES: tuple[str, ...] = tuple(
    "Skeleton" if t == SKELETON else f"{COLOURS[TYPE_COLOUR[t]]} {SINGULAR[TYPE_TRIBE[t]]}"
    for t in range(NUM_TYPES)
)


def type_id(tribe: int | str, colour: int | str | None = None) -> int:
    """The card type of ``tribe`` (index or name) in ``colour`` (index or colour/kingdom name)."""
    if isinstance(tribe, str):
        tribe = TRIBE_INDEX[tribe.lower()]
    if tribe == SKELETONS:
        return SKELETON
    if isinstance(colour, str):
        low = colour.lower()
        names = [c.lower() for c in COLOURS] + [k.lower() for k in KINGDOMS]
        colour = names.index(low) % NUM_KINGDOMS
    assert colour is not None
    return 6 * tribe + colour
