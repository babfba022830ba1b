"""Ethnos' ``State.check()`` (issue 10): never fires along random games, refuses impossible
saved positions quickly with a short message, and ``legal_mask`` results cannot be corrupted.

``TABLEZOO_SIM_SCALE`` multiplies the number of random games (CI: 5 player counts x 6 games,
check() after every decision and a JSON reload every 25th).
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, SKELETON, TYPE_TRIBE
from tests.envs.ethnos.positions import saved
from tests.saved_states import check_along_random_games, random_positions, refused

SCALE = float(os.environ.get("TABLEZOO_SIM_SCALE", "1"))
GAMES = max(1, int(6 * SCALE))


@pytest.mark.parametrize("options", [
    {"num_players": 2}, {"num_players": 3, "tribes_2_3p": 6}, {"num_players": 4},
    {"num_players": 5, "marker_limit": 26}, {"num_players": 6, "auto_single_choice": True},
], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_check_never_fires_along_random_games(options):
    check_along_random_games(EthnosGame(**options), GAMES, reload_every=25)


def test_decisions_above_max_decisions_refused():
    game, d = saved()
    d["decisions"] = game.max_decisions + 1
    refused(game, d, "decisions")


@pytest.mark.parametrize("value", [math.nan, math.inf, 1.5, True, 2**64, -1, "7"])
def test_non_integer_glory_refused(value):
    game, d = saved()
    d["glory"][0] = value
    refused(game, d, "glory")


def test_card_copied_into_the_discard_refused():
    game, d = saved()
    t = next(t for t in range(NUM_TYPES) if d["hands"][0][t] > 0)
    d["discard"][t] += 1
    refused(game, d, "conserved")


def test_dragon_in_the_upper_deck_refused():
    game, d = saved(steps=5)
    top = len(d["deck"]) - 1
    low = d["deck"].index(DRAGON)
    d["deck"][low], d["deck"][top] = d["deck"][top], d["deck"][low]
    refused(game, d, "Dragon")


def test_band_mixing_tribes_and_colours_refused():
    game, d = saved()
    tribes_cards = [t for t in range(NUM_TYPES - 1) if d["hands"][0][t] > 0]
    lead = tribes_cards[0] if tribes_cards else 0
    other = next(t for t in range(NUM_TYPES - 1)
                 if TYPE_TRIBE[t] != TYPE_TRIBE[lead] and t % 6 != lead % 6)
    d["bands"][0].append([lead, other])
    refused(game, d, "band|conserved")


def test_pending_decision_of_the_wrong_tribe_refused():
    game, d = saved()
    d["phase"] = "troll"
    refused(game, d, "band")


def test_giant_token_without_a_giant_band_refused():
    game, d = saved()
    d["giant_seat"], d["giant_size"], d["giant_plays"] = 0, 3, []
    refused(game, d, "Giant")


def test_breakdown_that_does_not_add_up_refused():
    game, d = saved()
    d["breakdown"][1][0] += 1
    refused(game, d, "breakdown|sum")


def test_known_cards_not_in_hand_refused():
    game, d = saved()
    t = next(t for t in range(NUM_TYPES) if d["hands"][1][t] == 0)
    d["known"][1][t] = 1
    refused(game, d, "known")


def test_eleven_card_hand_refused():
    game, d = saved()
    d["hands"][0][SKELETON] += 11
    refused(game, d, "conserved|10 cards")


def test_legal_mask_cannot_be_corrupted_and_survives_other_seats():
    game = EthnosGame(num_players=3)
    checked = 0
    for s in random_positions(game, 4):
        if s.is_over():
            break
        p = s.actor
        m = s.legal_mask(p)
        want = m.copy()
        other = s.legal_mask((p + 1) % 3)
        assert not other.any()
        other[0] = True  # a fresh array: writing to it changes nothing
        assert not s.legal_mask((p + 1) % 3).any()
        assert np.array_equal(m, want)
        with pytest.raises(ValueError):
            m[0] = not m[0]
        assert np.array_equal(s.legal_mask(p), want)
        checked += 1
    assert checked > 300


def test_giant_token_on_a_band_size_nobody_played_refused():
    """The audit's case: ``giant_size`` swapped with another field; §6.3 would find no band."""
    game = EthnosGame(num_players=4, tribes=["giants", "elves", "dwarves", "orcs", "trolls",
                                             "wizards"])
    for s in random_positions(game, 1):
        if s.giant_seat >= 0:
            break
    d = json.loads(json.dumps(s.to_dict()))
    d["giant_size"] = 10 if d["giant_size"] != 10 else 9
    refused(game, d, "Giant token")
