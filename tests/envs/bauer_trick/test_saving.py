"""Saved states of bauer_trick: odd input only ever gives ``StateFormatError``, quickly, with a
short message."""

from __future__ import annotations

import copy
import time

import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.core import StateFormatError
from tests.envs.bauer_trick.positions import mid_play, saved

GAME = BauerTrickGame()


@pytest.mark.parametrize("value", [[], {}, [[[]]], None, 1.5, "junk"])
def test_odd_types_only_give_state_format_error(value):
    data = saved(GAME, 12, mid_play)
    for key in data:
        if data[key] == value:
            continue  # e.g. no undealt cards during the play
        bad = copy.deepcopy(data)
        bad[key] = value
        with pytest.raises(StateFormatError):
            GAME.state_from_dict(bad)


def test_huge_numbers_deep_nesting_and_huge_lists_are_refused_quickly():
    data = saved(GAME, 13, mid_play)
    deep: list = []
    for _ in range(20_000):
        deep = [deep]
    cases = [("rng", {"bit_generator": "PCG64", "state": {"state": 2**128, "inc": 1},
                      "has_uint32": 0, "uinteger": 0}),
             ("phase", []), ("returns", [2**64, 0, 0, 0]), ("returns", [10**400, 0, 0, 0]),
             ("hands", deep), ("voids", [1] * 100_000), ("trick", [[0, 0]] * 100_000),
             ("undealt", list(range(32)) * 3000), ("options", deep)]
    for key, value in cases:
        bad = copy.deepcopy(data)
        bad[key] = value
        start = time.process_time()
        with pytest.raises(StateFormatError) as info:
            GAME.state_from_dict(bad)
        assert time.process_time() - start < 0.5, key
        assert len(str(info.value)) < 500, key
