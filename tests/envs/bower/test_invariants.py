"""Bower's ``State.check()`` (issue 10): never fires along random games, refuses the impossible
positions a saved dict can describe (an illegal nest order among them), and ``legal_mask``
results cannot be corrupted.

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
from tablezoo.envs.core.errors import StateFormatError
from tests.envs.bower.positions import saved
from tests.saved_states import check_along_random_games, random_positions, refused

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


def test_turns_in_the_draft_refused():
    game = BowerGame()
    d = json.loads(json.dumps(game.new_state(5).to_dict()))
    d["turns"] = [3, 0]
    refused(game, d, "draft")


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


def test_illegal_nest_order_rejected():
    game = BowerGame()
    d = game.new_state(1).to_dict()
    tile = d["stack"].pop()
    d["nests"][0] = [[tile, 2 * 10, False]]  # (2,0)-(2,1) on an empty nest: no contact
    with pytest.raises(StateFormatError, match="not legal"):
        game.state_from_dict(d)
