"""The invariants of bauer_trick's positions: impossible saved positions are refused by name,
``check()`` holds along random games of every option, and legal masks cannot be corrupted by
their callers."""

from __future__ import annotations

import copy
import math
import os

import numpy as np
import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import SUIT_BITS, cards_of
from tablezoo.envs.core import StateFormatError
from tests.envs.bauer_trick.positions import mid_play, random_step, saved

SCALE = float(os.environ.get("TABLEZOO_SIM_SCALE", "1"))
GAMES = max(2, round(12 * SCALE))  # full games per option set (deal episodes: 15 times more)


def in_call(state) -> bool:
    return state.phase == 0 and state.calls.count(4) == 1


def refused(game: BauerTrickGame, data: dict, match: str) -> None:
    with pytest.raises(StateFormatError, match=match):
        game.state_from_dict(data)


GAME = BauerTrickGame()


def test_real_states_load_and_their_copies_are_refused_when_changed():
    data = saved(GAME, 1, mid_play)
    GAME.state_from_dict(copy.deepcopy(data))  # the untouched state loads
    bad = copy.deepcopy(data)
    bad["returns"][0] = math.nan
    refused(GAME, bad, r"returns\[0\] must be a finite number")
    bad = copy.deepcopy(data)
    bad["returns"] = [1.0, -1.0, 1.0, -1.0]  # reward="game": nothing before the end
    refused(GAME, bad, "returns .* do not fit")


def test_points_in_the_call_phase_must_fit_the_tally_and_the_game():
    data = saved(GAME, 2, in_call)
    bad = copy.deepcopy(data)
    bad["points"] = [0, 8]
    refused(GAME, bad, "team 0 has 0 points, but its tally")
    bad["tally"][0]["calls_made"] = 8  # now consistent, but a team at 0 has won
    refused(GAME, bad, "a team at 0 has won the game")
    bad = copy.deepcopy(data)
    bad["tally"][1]["no_trump_won"] += 1
    refused(GAME, bad, "team 1 has 8 points, but its tally")
    bad = copy.deepcopy(data)
    bad["voids"][0] = 1  # no card played yet: no void can have been shown
    refused(GAME, bad, "no void shown")


def test_a_card_moved_between_played_lists_is_refused():
    data = saved(GAME, 3, mid_play)
    bad = copy.deepcopy(data)
    bad["played"][1].append(bad["played"][0].pop())
    refused(GAME, bad, "played .* do not fit trick")
    bad = copy.deepcopy(data)
    bad["played"][1].append(bad["played"][0][0])  # the same card in two zones
    refused(GAME, bad, "list 33 cards")
    bad = copy.deepcopy(data)
    bad["hands"][2] = bad["hands"][2] + [bad["hands"][2][0]]  # a card twice in one hand
    refused(GAME, bad, "list 33 cards")


def test_voids_claimed_while_holding_the_suit_are_refused():
    """determinize relies on it: with such voids no consistent deal exists."""
    data = saved(GAME, 4, mid_play)
    state = GAME.state_from_dict(data)
    seat = (state.to_act + 1) % 4
    trump = state.trump
    held = next(g for g in range(4) if state.hands[seat] & SUIT_BITS[trump][g])
    bad = copy.deepcopy(data)
    bad["voids"][seat] |= 1 << held
    refused(GAME, bad, f"seat {seat} is marked void in .* but holds")


def test_an_off_suit_card_in_the_trick_must_show_a_void():
    game = BauerTrickGame(episode="deal")
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = game.new_state(seed)
        while not state.is_over():
            if len(state.trick_cards) >= 2 and state.voids[state.trick_seats[1]]:
                seat = state.trick_seats[1]
                card = state.trick_cards[1]
                if (1 << card) & ~SUIT_BITS[state.trump][state.led_suit]:
                    bad = state.to_dict()
                    bad["voids"][seat] = 0
                    refused(game, bad, f"seat {seat}'s card in the current trick shows it lacks")
                    return
            random_step(state, rng)
    pytest.fail("no trick with an off-suit second card in 200 deals")


def test_known_loader_gaps_are_closed():
    data = saved(GAME, 5, mid_play)
    if data["trump"] == 4:
        data = saved(GAME, 6, lambda s: mid_play(s) and s.trump < 4)
    bad = copy.deepcopy(data)
    bad["caller"] = -1  # a trump suit without a caller (deal_scorer would blame team 1)
    refused(GAME, bad, "needs a caller")
    state = GAME.new_state(7)
    for _ in range(4):
        state.step(PASS)
    bad = state.to_dict()
    bad["caller"] = 2
    refused(GAME, bad, "a deal without trump has no caller")
    bad = copy.deepcopy(data)
    bad["calls"][bad["caller"]] = (bad["trump"] + 1) % 4  # the call does not match trump
    refused(GAME, bad, "so the seats before it passed")
    call = saved(GAME, 8, in_call)
    bad = copy.deepcopy(call)
    bad["to_act"] = (bad["to_act"] + 1) % 4  # one pass, but two seats have spoken
    refused(GAME, bad, "the seats before it passed and the others have not spoken")
    bad = copy.deepcopy(data)
    bad["points"] = [bad["points"][0], 0]
    bad["tally"][1]["calls_made"] = 8 - bad["tally"][1]["no_trump_won"]
    refused(GAME, bad, "a team at 0 has won the game")


def test_trick_order_leader_and_counts():
    data = saved(GAME, 9, mid_play)
    bad = copy.deepcopy(data)
    bad["trick"][0][0], bad["trick"][1][0] = bad["trick"][1][0], bad["trick"][0][0]
    refused(GAME, bad, "run clockwise from the leader")
    bad = copy.deepcopy(data)
    bad["tricks"][0] += 1
    refused(GAME, bad, "must add up to the")
    bad = copy.deepcopy(data)
    bad["decisions"] += 40
    refused(GAME, bad, "decisions do not fit")
    bad = copy.deepcopy(data)
    bad["decisions"] = GAME.max_decisions + 1
    refused(GAME, bad, r"decisions must be an int in \[0, 3600\]")


def test_ends_of_games_fit_the_last_deal():
    game = BauerTrickGame(max_deals=3)
    for seed in range(100):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_over():
            random_step(state, rng)
        data = state.to_dict()
        if state.is_truncated():
            bad = copy.deepcopy(data)
            bad["deals_played"] = 2
            refused(game, bad, "truncated only at the end")
            bad = copy.deepcopy(data)
            bad["truncated"] = False
            refused(game, bad, "exactly one team at 0")
            return
    pytest.fail("no truncated game")


def test_deal_episode_tally_must_be_the_deal_result():
    game = BauerTrickGame(episode="deal")
    state = game.new_state(11)
    rng = np.random.default_rng(11)
    while not state.is_over():
        random_step(state, rng)
    data = state.to_dict()
    bad = copy.deepcopy(data)
    team = 0 if state.deal_scorer() is None else 1 - state.deal_scorer()[0]
    bad["tally"][team]["calls_made"] += 1
    bad["points"][team] -= 1
    refused(game, bad, "does not fit the deal's result")


OPTION_SETS = [
    {}, {"reward": "points"}, {"defenders_score_on_fail": True, "reward": "points"},
    {"no_trump_leader": "left_of_dealer", "max_deals": 4}, {"start_score": 2},
    {"trump_selection": "forehand_on_four", "max_deals": 6}, {"episode": "deal"},
    {"episode": "deal", "trump_selection": "forehand_on_four", "defenders_score_on_fail": True},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_check_holds_at_every_decision_of_random_games(options):
    """``check`` is not over-strict: no reachable position of any option set breaks it, nor a
    determinized copy of one, and every saved position loads back (the loader runs it too)."""
    game = BauerTrickGame(**options)
    rng = np.random.default_rng(len(str(options)))
    for seed in range(GAMES * (15 if game.deal_mode else 1)):
        state = game.new_state(seed)
        while True:
            state.check()
            if rng.random() < 0.02:
                game.state_from_dict(state.to_dict()).check()
                for p in range(4):  # re-sampled copies are positions the rules can reach
                    state.determinize(p, rng).check()
            if state.is_over():
                break
            random_step(state, rng)
        game.state_from_dict(state.to_dict())


def test_legal_mask_cannot_be_corrupted_and_stays_valid():
    state = GAME.new_state(3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        p = state.to_act
        mask = state.legal_mask(p)
        expected = mask.copy()
        for q in range(4):
            state.legal_mask(q)
        assert np.array_equal(mask, expected)
        with pytest.raises(ValueError):
            mask[0] = not mask[0]
        assert not any(state.legal_mask(q).any() for q in range(4) if q != p)
        if state.phase == 1:
            assert set(np.flatnonzero(mask)) <= set(cards_of(state.hands[p]))
        random_step(state, rng)
        assert np.array_equal(mask, expected)  # still the mask of that earlier position
    call = GAME.new_state(4)
    assert call.legal_actions(call.to_act) == [CALL_BASE, CALL_BASE + 1, CALL_BASE + 2,
                                               CALL_BASE + 3, PASS]
