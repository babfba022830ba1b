"""The bauer_trick heuristic on hand-built observations, and its strength against random play."""

from __future__ import annotations

import numpy as np

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games.bauer_trick.heuristic import HeuristicAgent, call_strength
from tablezoo.envs.bauer_trick.actions import CALL_BASE, NUM_ACTIONS, PASS
from tablezoo.envs.bauer_trick.components import parse_card
from tablezoo.envs.bauer_trick.observation import OBS_SPEC
from tablezoo.training.evaluation.match import play_game

HEARTS, CLUBS = 2, 0


def observation(hand: list[str], trump: int | None = None, trick: dict[int, str] | None = None,
                leader: int = 0, caller: int | None = None) -> np.ndarray:
    """An observation vector with the given pieces set (seats relative: 0 me, 2 partner)."""
    obs = OBS_SPEC.zeros()
    views = OBS_SPEC.split(obs)
    for card in hand:
        views["hand"][parse_card(card)] = 1
    if trump is not None:
        views["trump"][trump] = 1
        views["caller"][4 if caller is None else caller] = 1
        views["phase"][1] = 1
    else:
        views["phase"][0] = 1
    for seat, card in (trick or {}).items():
        views["trick"][seat, parse_card(card)] = 1
    views["leader"][leader] = 1
    return obs


def mask_of(cards: list[str]) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, bool)
    for card in cards:
        mask[parse_card(card)] = True
    return mask


def call_mask(can_pass: bool = True) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, bool)
    mask[CALL_BASE:CALL_BASE + 4] = True
    mask[PASS] = can_pass
    return mask


def test_call_strength_counts_both_bauers_as_trump():
    # hearts trump: J♥ right Bauer, J♦ left Bauer, A♥: 3 + 2.5 + 2
    assert call_strength([parse_card(c) for c in ("Jh", "Jd", "Ah")], HEARTS) == 7.5
    # clubs trump: none of them is a trump; A♥ is a side ace
    assert call_strength([parse_card(c) for c in ("Jh", "Jd", "Ah")], CLUBS) == 0.75


def test_calls_the_strongest_suit_and_passes_a_weak_hand():
    agent = HeuristicAgent(seed=0)
    strong = ["Jh", "Jd", "Ah", "Kh", "7c", "8c", "9s", "10s"]
    assert agent.act(observation(strong), call_mask()) == CALL_BASE + HEARTS
    weak = ["7c", "8s", "9h", "10d", "8c", "7s", "8h", "7d"]
    assert agent.act(observation(weak), call_mask()) == PASS
    # forehand_on_four has no pass: it must name its best suit anyway
    assert agent.act(observation(weak), call_mask(can_pass=False)) != PASS


def test_lets_the_partners_winning_card_stand_when_last():
    agent = HeuristicAgent(seed=0)
    # clubs trump; left (1) led 9♠, partner (2) won with A♠, right (3) threw 7♠; I am last.
    obs = observation(["Ks", "8s", "7h"], trump=CLUBS, leader=1,
                      trick={1: "9s", 2: "As", 3: "7s"})
    assert agent.act(obs, mask_of(["Ks", "8s"])) == parse_card("8s")


def test_wins_with_the_cheapest_card_that_beats_the_trick():
    agent = HeuristicAgent(seed=0)
    # clubs trump; right (3) led K♥; I have no heart: 7♣ wins more cheaply than J♣ or J♠.
    obs = observation(["Jc", "Js", "7c", "8d"], trump=CLUBS, leader=3, trick={3: "Kh"})
    assert agent.act(obs, mask_of(["Jc", "Js", "7c", "8d"])) == parse_card("7c")


def test_throws_the_cheapest_card_when_it_cannot_win():
    agent = HeuristicAgent(seed=0)
    obs = observation(["Ks", "8s", "Ah"], trump=CLUBS, leader=3, trick={3: "Js"})  # J♠ left Bauer
    assert agent.act(obs, mask_of(["Ks", "8s", "Ah"])) == parse_card("8s")


def test_leads_the_top_trump_after_its_team_called():
    agent = HeuristicAgent(seed=0)
    obs = observation(["7c", "Js", "Ad", "8h"], trump=CLUBS, caller=2, leader=0)
    assert agent.act(obs, mask_of(["7c", "Js", "Ad", "8h"])) == parse_card("Js")
    obs = observation(["7c", "Js", "Ad", "8h"], trump=CLUBS, caller=1, leader=0)
    assert agent.act(obs, mask_of(["7c", "Js", "Ad", "8h"])) == parse_card("Ad")


def team_reward(hero: str, deals: int, **kw) -> float:
    """Mean deal reward of a team of two ``hero`` agents against two random agents."""
    game = envs.make_game("bauer_trick_v0", episode="deal")
    total = 0.0
    for k in range(deals):
        seat = k % 4
        agents = [make_agent("random") for _ in range(4)]
        agents[seat] = make_agent(hero, env_name="bauer_trick_v0", **kw)
        agents[(seat + 2) % 4] = make_agent(hero, env_name="bauer_trick_v0", **kw)
        total += play_game(game, agents, 10_000 + k).returns[seat]
    return total / deals


def test_heuristic_team_beats_random_play():
    # Measured +0.35 over 2,000 deals; the standard error over 400 deals is about 0.04.
    assert team_reward("heuristic", 400) > 0.15


def test_search_team_beats_random_play():
    # Measured +0.29 over 200 deals with 24 rollouts; the standard error over 60 deals is ~0.1.
    assert team_reward("search", 60, rollouts=24) > 0.0
