"""ethnos saved states: malformed dicts are refused naming the problem, huge or deeply nested
input quickly; a key ``to_dict`` does not write is refused inside the nested ``band`` and
``building`` dicts too, as at the top level and in the other games (it was dropped there, so a
misspelt key loaded as a state without it)."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.core import StateFormatError
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos.saving import BAND_KEYS, BUILDING_KEYS
from tests.envs.ethnos.positions import saved
from tests.saved_states import deeply_nested, refused


def _saved(seed: int, moves: int) -> tuple[object, dict]:
    game = envs.make_game("ethnos_v0", num_players=3)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_over():
            break
        state.apply({p: int(rng.choice(state.legal_actions(p))) for p in state.acting_players()})
    return game, state.to_dict()


def test_the_nested_keys_are_exactly_those_to_dict_writes():
    _, saved = _saved(1, 30)
    assert tuple(saved["building"]) == BUILDING_KEYS and tuple(saved["band"]) == BAND_KEYS


@pytest.mark.parametrize("part", ["building", "band"])
@pytest.mark.parametrize("moves", [0, 40])
def test_an_unknown_key_inside_band_or_building_is_refused_naming_it(part, moves):
    game, saved = _saved(2, moves)
    assert game.state_from_dict(saved).to_dict() == saved
    misspelt = {**saved, part: {**saved[part], "leadr": -1}}
    message = rf"unknown keys \['leadr'\] in {part}; allowed: {', '.join(saved[part])}$"
    with pytest.raises(StateFormatError, match=message):
        game.state_from_dict(misspelt)
    env = envs.make("ethnos_v0", num_players=3)
    with pytest.raises(StateFormatError, match=message):
        env.reset(options={"state": misspelt})


def test_state_from_dict_errors():
    g = EthnosGame(num_players=3)
    d = g.new_state(1).to_dict()
    bad = dict(d, hands=d["hands"][:2])
    with pytest.raises(StateFormatError, match="hands"):
        g.state_from_dict(bad)
    bad = dict(d, display=[0] * 67)
    with pytest.raises(StateFormatError, match="conserved"):
        g.state_from_dict(bad)
    bad = dict(d, phase="dance")
    with pytest.raises(StateFormatError, match="phase"):
        g.state_from_dict(bad)
    with pytest.raises(StateFormatError, match="num_players"):
        EthnosGame(num_players=4).state_from_dict(d)


@pytest.mark.parametrize("key", ["deck", "orc_queue", "giant_plays"])
def test_huge_lists_refused_fast(key):
    game, d = saved()
    d[key] = [0] * 100_000
    refused(game, d, "at most|list")


def test_deep_nesting_refused_with_a_short_message():
    game, d = saved()
    deep = deeply_nested()
    d["hands"][0][3] = deep
    refused(game, d, "hands")
