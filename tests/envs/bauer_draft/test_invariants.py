"""The invariants of bauer_draft's positions: impossible saved positions are refused by name,
``check()`` holds at every decision of random games and on their re-sampled copies, and legal
masks cannot be corrupted by their callers."""

from __future__ import annotations

import copy
import os

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.actions import COPY_CHOICE, DAGA, OLLE, WITCH, YULE
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core import StateFormatError
from tests.envs.bauer_draft.positions import mid_select, random_step, saved

SCALE = float(os.environ.get("TABLEZOO_SIM_SCALE", "1"))
GAMES = max(2, round(100 * SCALE))


def refused(game: BauerDraftGame, data: dict, match: str) -> None:
    with pytest.raises(StateFormatError, match=match):
        game.state_from_dict(data)


GAME = BauerDraftGame(num_players=3)


def test_plays_junk_and_deleted_round_are_refused():
    data = saved(GAME, 1, mid_select)
    GAME.state_from_dict(copy.deepcopy(data))
    bad = copy.deepcopy(data)
    bad["plays"] = "junk"
    refused(GAME, bad, "plays must be a list")
    bad = copy.deepcopy(data)
    del bad["round"]
    refused(GAME, bad, r"a complete save has every key; missing \['round'\]")
    bad = copy.deepcopy(data)
    bad["round"] = 6  # the piles do not fit round 6
    refused(GAME, bad, "in round 6 every pile holds 3 cards during the select")
    bad = copy.deepcopy(data)
    bad["plays"][0] += 1
    refused(GAME, bad, "must add up to the play counter")


def test_hands_swapped_with_piles_and_wrong_pile_sizes_are_refused():
    data = saved(GAME, 2, mid_select)
    bad = copy.deepcopy(data)
    bad["hands"][0], bad["piles"][0] = bad["piles"][0], bad["hands"][0]
    refused(GAME, bad, "a select needs 3 cards in each hand; seat 0 has 5")
    bad = copy.deepcopy(data)
    bad["piles"][1].append(bad["central"].pop())
    refused(GAME, bad, r"every pile holds 5 cards during the select, got \[5, 6, 5\]")


def test_yule_goat_cannot_take_more_than_two_cards():
    """Piles that do not fit the last round would give the Yule Goat 4 cards."""
    data = saved(GAME, 3, lambda st: st.kind == YULE)
    bad = copy.deepcopy(data)
    seat = bad["decider"]
    other = (seat + 1) % 3
    bad["hands"][seat] += bad["piles"][other][:2]
    bad["piles"][other] = bad["piles"][other][2:]
    refused(GAME, bad, r"after the last round every pile holds 2 cards \(the Yule Goat's none\)")


def test_a_card_moved_between_zones_and_doubled_is_refused():
    data = saved(GAME, 5, mid_select)
    bad = copy.deepcopy(data)
    bad["discards"].append(bad["central"][0])
    refused(GAME, bad, "exactly one place")
    bad = copy.deepcopy(data)
    card = bad["tableau"][0][0]
    bad["tableau"][1].append(card)
    bad["tableau"][0] = bad["tableau"][0][1:]
    refused(GAME, bad, "seat 1 has .* tableau cards but played only|play number")


def test_decision_fields_must_fit_the_decision():
    data = saved(GAME, 6, lambda st: st.kind in (WITCH, OLLE, DAGA, COPY_CHOICE))
    bad = copy.deepcopy(data)
    bad["decider"] = (bad["decider"] + 1) % 3
    refused(GAME, bad, "decision is taken by the owner of")
    select = saved(GAME, 7, mid_select)
    bad = copy.deepcopy(select)
    bad["first"] = [[[]]]
    refused(GAME, bad, "no decider, source, offer or first pick during a select")
    bad = copy.deepcopy(select)
    bad["kind"] = "witch"
    refused(GAME, bad, "decider must be an int")


def test_rounds_of_the_tableau_follow_the_play_order():
    data = saved(GAME, 8, mid_select)
    bad = copy.deepcopy(data)
    entries = sorted((e for t in bad["tableau"] for e in t), key=lambda e: e["seq"])
    entries[-1]["round"] = 0
    refused(GAME, bad, "played later lie in earlier rounds")


def test_copy_and_daga_fields_must_fit_the_tableaux():
    data = saved(GAME, 9, mid_select)
    bad = copy.deepcopy(data)
    bad["daga_used"] = True
    if any(e["card"] == "C05" for t in bad["tableau"] for e in t):
        bad["daga_used"] = "yes"
        refused(GAME, bad, "daga_used must be true or false")
    else:
        refused(GAME, bad, "Daga is in no tableau")
    bad = copy.deepcopy(data)
    bad["copies"][0]["mode"] = "copied"
    refused(GAME, bad, "copy target is given exactly")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_check_holds_at_every_decision_and_on_resampled_copies(n):
    game = BauerDraftGame(num_players=n)
    rng = np.random.default_rng(n)
    for seed in range(GAMES):
        st = game.new_state(seed)
        while True:
            st.check()
            if rng.random() < 0.1:
                for p in range(n):
                    st.determinize(p, rng).check()
                game.state_from_dict(st.to_dict())
            if st.is_over():
                break
            random_step(st, rng)


def test_legal_mask_cannot_be_corrupted_and_stays_valid():
    st = GAME.new_state(3)
    rng = np.random.default_rng(0)
    while not st.is_over():
        masks = {p: st.legal_mask(p) for p in range(3)}
        copies = {p: m.copy() for p, m in masks.items()}
        for p in range(3):
            st.legal_mask(p)
            with pytest.raises(ValueError):
                masks[p][0] = True
        assert all(np.array_equal(masks[p], copies[p]) for p in range(3))
        assert all(not masks[p].any() for p in range(3) if p not in st.acting_players())
        random_step(st, rng)
        assert all(np.array_equal(masks[p], copies[p]) for p in range(3))
