"""Bower's ``State.check()`` (issue 10): never fires along random games, refuses the impossible
positions a saved dict can describe, and ``legal_mask`` results cannot be corrupted.

``TABLEZOO_SIM_SCALE`` multiplies the number of random games (CI: 8 option sets x 40 games,
check() after every decision and a JSON reload every 5th).
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from tablezoo.envs.bower.rules import BowerGame
from tests.saved_states import check_along_random_games, deeply_nested, random_positions, refused

SCALE = float(os.environ.get("TABLEZOO_SIM_SCALE", "1"))
GAMES = max(1, int(40 * SCALE))
OPTION_SETS = [
    {}, {"double_turn_mode": "swap"}, {"bonus_tiles": False}, {"flag_all_triggers": False},
    {"egg_columns": "alternate"}, {"forced_fallback": "none"}, {"bonus_optional": False},
    {"hands_public": False},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[str(o) for o in OPTION_SETS])
def test_check_never_fires_along_random_games(options):
    check_along_random_games(BowerGame(**options), GAMES, reload_every=5)


def saved(seed: int = 3, steps: int = 60) -> tuple[BowerGame, dict]:
    game = BowerGame()
    for step, s in enumerate(random_positions(game, seed)):
        if step == steps or s.is_over():
            return game, json.loads(json.dumps(s.to_dict()))
    raise AssertionError("unreachable")


def test_decisions_above_max_decisions_refused():
    game, d = saved()
    d["decisions"] = game.max_decisions + 1
    refused(game, d, "decisions")


def test_decisions_beyond_twelve_per_turn_refused():
    game, d = saved(steps=8)
    d["decisions"] = 2 + 12 * (sum(d["turns"]) + 1) + 1
    refused(game, d, "decisions after")


@pytest.mark.parametrize("value", [[-5, 10**30], [64, 0], [0, 2**24], [0.5, 0], [True, 0],
                                   [math.nan, 0], "junk"])
def test_conditions_out_of_range_refused(value):
    game, d = saved()
    d["conditions"] = value
    refused(game, d, "conditions")


def test_unplaced_token_with_a_seat_or_cell_refused():
    game, d = saved()
    tok = next(t for t in d["tokens"] if t["status"] == "supply")
    tok["seat"], tok["cell"] = 7, 10**30
    refused(game, d, "supply needs seat -1")


def test_hand_limit_without_nest_bonus_refused():
    game, d = saved()
    q = 0
    d["hand_limits"][q] += 1
    refused(game, d, "hand limit")


def test_tile_copied_into_a_hand_refused():
    game, d = saved()
    d["hands"][0].append(d["stack"][0])
    refused(game, d, "appears 2 times|holds|hand")


def test_spied_own_column_refused():
    game, d = saved()
    own = d["egg_owner"].index(0)
    d["spied_columns"][0] = 1 << own
    refused(game, d, "spied")


def test_extra_turn_without_double_turn_tile_refused():
    game, d = saved()
    if "IA3" in d["bonus_kept"][0] + d["bonus_kept"][1]:
        pytest.skip("IA3 kept in this game")
    d["extra_turn"] = [True, False]
    refused(game, d, "extra turn")


def test_stack_swapped_with_the_discards_refused():
    """Conservation holds, but the stack no longer fits the turns played (the display would run
    empty seven steps later)."""
    game, d = saved(steps=120)
    d["stack"], d["tile_discards"] = d["tile_discards"], d["stack"]
    refused(game, d, "left stack and display|at most")


def test_discards_with_20000_copies_refused_fast():
    game, d = saved()
    d["tile_discards"] = d["tile_discards"] + ["T01"] * 20_000
    refused(game, d, "at most")


def test_turns_in_the_draft_refused():
    game = BowerGame()
    d = json.loads(json.dumps(game.new_state(5).to_dict()))
    d["turns"] = [3, 0]
    refused(game, d, "draft")


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


def test_over_state_with_wrong_turns_refused():
    game = BowerGame()
    s = next(s for s in random_positions(game, 9) if s.is_over())
    d = json.loads(json.dumps(s.to_dict()))
    d["turns"] = [12, 11]
    refused(game, d, "12 turns each")


def test_legal_mask_cannot_be_corrupted_and_survives_other_seats():
    game = BowerGame()
    checked = 0
    for seed in range(20):
        for s in random_positions(game, seed):
            if s.is_over():
                break
            p = s.actor
            m = s.legal_mask(p)
            want = m.copy()
            assert not s.legal_mask(1 - p).any()
            assert np.array_equal(m, want)
            with pytest.raises(ValueError):
                m[0] = not m[0]
            assert np.array_equal(s.legal_mask(p), want)
            checked += 1
    assert checked > 500


def test_global_state_is_full_information_deterministic_and_in_bounds():
    game = BowerGame(hands_public=False)
    spec = game.state_spec
    assert spec.size > game.obs_spec.size
    differs = total = 0
    rng = np.random.default_rng(0)
    for seed in range(6):
        for step, s in enumerate(random_positions(game, seed)):
            x = s.global_state()
            assert x.shape == (spec.size,) and x.dtype == np.float32
            assert (x >= spec.low).all() and (x <= spec.high).all()
            if step % 4:
                continue
            assert np.array_equal(s.clone().global_state(), x)
            again = game.state_from_dict(json.loads(json.dumps(s.to_dict())))
            assert np.array_equal(again.global_state(), x)
            out = np.full(spec.size, 7.0, np.float32)
            assert s.global_state(out=out) is out and np.array_equal(out, x)
            # Same information for player_0, hidden things re-sampled: the state must see it.
            other = s.determinize(0, rng)
            assert np.array_equal(other.observe(0), s.observe(0))
            total += 1
            differs += not np.array_equal(other.global_state(), x)
    assert differs > 0.9 * total
