"""Saved states of bower_v0: malformed dicts, and huge or deeply nested input, are refused
with ``StateFormatError`` naming the problem (quickly)."""

from __future__ import annotations

import json

import pytest

from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.errors import StateFormatError
from tests.envs.bower.positions import saved
from tests.saved_states import deeply_nested, refused


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.update(game="ethnos"), "'game' must be 'bower'"),
        (lambda d: d["stack"].pop(), "appears 0 times"),
        (lambda d: d["stack"].append(d["stack"][0]), "appears 2 times"),
        (lambda d: d.update(eggs=["E1"] * 8), "permutation"),
        (lambda d: d.update(egg_owner=[0, 0, 0, 0, 1, 1]), "3 columns each"),
        (lambda d: d.update(phase="dance"), "allowed"),
        (lambda d: d["nests"][0].append(["T99", 0, False]), "unknown tile"),
        (lambda d: d.update(hand_limits=[9, 1]), "hand_limits"),
        (lambda d: d["bonus_deck"].pop(), "every bonus tile"),
        (lambda d: d.update(rng={"bit_generator": "nope"}), "rng"),
        (lambda d: d.pop("turns"), "KeyError"),
        (lambda d: d.update(phase="keep"), "bonus_drawn is non-empty exactly"),
        (lambda d: d.update(phase="token"), "needs effect TK1-TK4"),
        (lambda d: d.update(phase="cover"), "cover_tile is set exactly"),
        (lambda d: d.update(phase="take", actor=1 - d["turn_player"]), "actor must be"),
    ],
)
def test_malformed_state_dicts(edit, message):
    game = BowerGame()
    d = json.loads(json.dumps(game.new_state(1).to_dict()))
    edit(d)
    with pytest.raises(StateFormatError, match=message):
        game.state_from_dict(d)


def test_discards_with_20000_copies_refused_fast():
    game, d = saved()
    d["tile_discards"] = d["tile_discards"] + ["T01"] * 20_000
    refused(game, d, "at most")


@pytest.mark.parametrize("key", ["stack", "tile_discards", "bonus_deck"])
def test_huge_lists_refused_fast(key):
    game, d = saved()
    filler = d[key][0] if d[key] else "T01"
    d[key] = [filler] * 100_000
    refused(game, d, "at most")


def test_deep_nesting_refused_with_a_short_message():
    game, d = saved()
    deep = deeply_nested()
    d["nests"][0] = deep
    refused(game, d, "bower")
