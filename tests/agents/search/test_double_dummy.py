"""The bauer_trick double-dummy solver against plain minimax over every legal card (no
pruning, no card merging, no table), on seeded random positions small enough to enumerate, and
its deal reward against the rules' own scoring of the minimax outcome."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games.bauer_trick.solver import (
    TrickSolver,
    _team0_at_least,
    solve_deal,
    team0_tricks,
)
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.envs.bauer_trick.actions import CALL_BASE, PASS
from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    STRENGTH,
    SUIT_BITS,
    cards_of,
)


def minimax_team0_tricks(trump: int, hands: list[int], leader: int,
                         trick: list[tuple[int, int]], trump_lead: bool = False) -> int:
    """Tricks team 0 takes from here, every legal card of every seat tried; ``trump_lead``:
    this trick's lead must be a trump if the leader holds one (forehand_on_four's first)."""
    seat = (leader + len(trick)) % 4
    if not any(hands) and not trick:
        return 0
    hand = hands[seat]
    legal = hand
    if trick:
        legal = hand & SUIT_BITS[trump][EFFECTIVE_SUIT[trump][trick[0][1]]] or hand
    elif trump_lead:
        legal = hand & SUIT_BITS[trump][trump] or hand
    values = []
    for card in cards_of(legal):
        hands[seat] ^= 1 << card
        trick.append((seat, card))
        if len(trick) == 4:
            strength = STRENGTH[trump][EFFECTIVE_SUIT[trump][trick[0][1]]]
            winner = max(trick, key=lambda t: strength[t[1]])[0]
            value = (winner % 2 == 0) + minimax_team0_tricks(trump, hands, winner, [])
        else:
            value = minimax_team0_tricks(trump, hands, leader, trick)
        trick.pop()
        hands[seat] ^= 1 << card
        values.append(value)
    return max(values) if seat % 2 == 0 else min(values)


def random_position(rng: np.random.Generator, per_hand: int):
    """Hands of ``per_hand`` cards, a trump state (no-trump included), a leader and 0-3 legal
    cards already in the trick."""
    order = rng.permutation(32)
    hands = [sum(1 << int(c) for c in order[i * per_hand:(i + 1) * per_hand]) for i in range(4)]
    trump, leader = int(rng.integers(5)), int(rng.integers(4))
    trick: list[tuple[int, int]] = []
    for j in range(int(rng.integers(4))):
        seat = (leader + j) % 4
        legal = hands[seat]
        if trick:
            legal = legal & SUIT_BITS[trump][EFFECTIVE_SUIT[trump][trick[0][1]]] or legal
        card = int(rng.choice(cards_of(legal)))
        hands[seat] ^= 1 << card
        trick.append((seat, card))
    return trump, hands, leader, trick


@pytest.mark.parametrize("per_hand, count", [(1, 300), (2, 400), (3, 400), (4, 200)])
def test_exact_tricks_equal_plain_minimax(per_hand, count):
    rng = np.random.default_rng(100 + per_hand)
    solver_by_trump = {t: TrickSolver(t) for t in range(5)}  # shared tables: reuse is tested too
    for _ in range(count):
        trump, hands, leader, trick = random_position(rng, per_hand)
        expected = minimax_team0_tricks(trump, list(hands), leader, list(trick))
        fresh = team0_tricks(TrickSolver(trump), hands, leader, trick, 0, per_hand)
        shared = team0_tricks(solver_by_trump[trump], hands, leader, trick, 0, per_hand)
        assert fresh == shared == expected, (trump, hands, leader, trick)


def late_deal_states(count: int, min_trick: int):
    """Seeded random deals (every third one passed out to no trump) played at random into
    trick ``min_trick`` or later."""
    rng = np.random.default_rng(7)
    for options in ({"episode": "deal"}, {"episode": "deal", "defenders_score_on_fail": True}):
        game = envs.make_game("bauer_trick_v0", **options)
        for g in range(count):
            state = game.new_state(g)
            stop = int(rng.integers(4 * min_trick, 31))
            while state.phase == 0 or (state.decisions < stop and not state.is_over()):
                p = state.acting_players()[0]
                if state.phase == 0 and g % 3 == 0:  # every third deal without trump
                    state.apply({p: PASS})
                    continue
                state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))})
            if not state.is_over():
                yield state


def finished_by_minimax(state):
    """A copy of ``state`` holding the deal's final trick count under minimax play (the rest of
    the copy is left as it was: only the count is what the scoring reads)."""
    trick = list(zip(state.trick_seats, state.trick_cards))
    team0 = state.tricks[0] + minimax_team0_tricks(state.trump, list(state.hands), state.leader,
                                                    trick)
    finished = state.clone()
    finished.tricks = [team0, 8 - team0]
    return finished


def test_deal_reward_is_the_rules_scoring_of_the_minimax_outcome():
    """Minimax's trick count, put into the real engine's scoring, gives solve_deal's reward."""
    checked = {"trump": 0, "no_trump": 0, "nobody": 0}
    for state in late_deal_states(150, min_trick=5):
        finished = finished_by_minimax(state)
        scorer = finished.deal_scorer()
        expected = [0.0] * 4 if scorer is None else [
            1.0 if seat % 2 == scorer[0] else -1.0 for seat in range(4)]
        assert solve_deal(state) == expected
        checked["nobody" if scorer is None else
                "no_trump" if state.trump == NO_TRUMP else "trump"] += 1
    assert min(checked.values()) >= 5, checked


def test_forehand_first_lead_is_a_trump_when_the_leader_holds_one():
    """forehand_on_four: right after the forced call, hands cut down to 1-3 cards each so that
    minimax can enumerate them; the solver must follow the first-lead rule, and on some of these
    positions the rule changes the answer."""
    game = envs.make_game("bauer_trick_v0", episode="deal", trump_selection="forehand_on_four")
    rng = np.random.default_rng(9)
    changed = 0
    for g in range(300):
        state = game.new_state(g)
        state.apply({state.to_act: CALL_BASE + int(rng.integers(4))})
        per_hand = int(rng.integers(1, 4))
        order = rng.permutation(32)
        state.hands = [sum(1 << int(c) for c in order[i * per_hand:(i + 1) * per_hand])
                       for i in range(4)]
        args = (state.trump, list(state.hands), state.leader, [])
        expected = minimax_team0_tricks(*args, trump_lead=True)
        changed += expected != minimax_team0_tricks(*args)
        solver = TrickSolver(state.trump)
        for need in range(per_hand + 2):
            assert _team0_at_least(solver, state, need) == (expected >= need), (g, need)
    assert changed >= 5, changed


@pytest.mark.parametrize("reward", ["points", "game"])
def test_game_episode_values_follow_the_rewards(reward):
    """In a game episode the solver's leaf is what the rewards pay for the solved deal: with
    reward=points the engine's own return change (the point, plus the win at 0); with
    reward=game the win where the point ends the game, else the scorer's 1 / points share."""
    from tablezoo.agents.games.bauer_trick.solver import DoubleDummyValue

    value = DoubleDummyValue()
    game = envs.make_game("bauer_trick_v0", reward=reward, start_score=2)
    rng = np.random.default_rng(11)
    checked = {"wins the game": 0, "one point": 0}
    for g in range(120):
        state = game.new_state(g)
        state.points = [int(rng.integers(1, 3)), int(rng.integers(1, 3))]
        while state.phase == 0 or (state.trick_no < 5 and not state.is_over()):
            p = state.to_act
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))})
        if state.is_over() or state.phase != 1:
            continue
        finished = finished_by_minimax(state)
        scorer = finished.deal_scorer()
        if scorer is None:
            continue
        before = list(finished.total_returns)
        finished._finish_deal()
        paid = [a - b for a, b in zip(finished.total_returns, before)]
        got = value(state, 0)
        wins = state.points[scorer[0]] == 1
        if reward == "points" or wins:
            assert got == pytest.approx(paid)
        else:
            share = 1.0 / state.points[scorer[0]]
            assert got == pytest.approx([share if s % 2 == scorer[0] else -share
                                         for s in range(4)])
        checked["wins the game" if wins else "one point"] += 1
    assert min(checked.values()) >= 5, checked


def test_solver_refuses_the_call_phase_and_a_wrong_trump():
    game = envs.make_game("bauer_trick_v0", episode="deal")
    state = game.new_state(3)
    with pytest.raises(ValueError, match="trick play only"):
        solve_deal(state)
    while state.phase == 0:
        state.apply({state.to_act: 32 + 1})  # call spades
    with pytest.raises(ValueError, match="trump 2 .* trump 1"):
        solve_deal(state, TrickSolver(2))


def test_solver_evaluator_is_refused_for_games_without_a_solver():
    game = envs.make_game("bower_v0")
    state = game.new_state(0)
    me = state.acting_players()[0]
    agent = ISMCTSAgent(seed=0, iterations=4, evaluator="solver")
    with pytest.raises(ValueError, match="no solver for game 'bower'.*bauer_trick"):
        agent.act(state.observe(me), state.legal_mask(me), state=state, player=me)


def test_a_cut_off_the_evaluator_cannot_value_plays_on_until_it_can():
    """From the trump call, depth 0: the evaluator declines (None) every world still in the
    call, the others' calls are played by the playout policy, and the first trick-play position
    is what gets valued."""
    from tablezoo.agents.games.bauer_trick.solver import DoubleDummyValue

    game = envs.make_game("bauer_trick_v0", episode="deal")
    state = game.new_state(5)
    me = state.acting_players()[0]
    solver = DoubleDummyValue()
    seen = {"declined": 0, "valued": 0}

    def evaluator(world, player):
        value = solver(world, player)
        seen["declined" if value is None else "valued"] += 1
        if value is not None:
            assert world.phase == 1 and world.trick_no == 0 and not world.trick_cards
        return value

    agent = ISMCTSAgent(seed=1, iterations=40, keys="root", paired=True, depth=0,
                        playout="heuristic", evaluator=evaluator)
    action = agent.act(state.observe(me), state.legal_mask(me), state=state, player=me)
    assert state.legal_mask(me)[action]
    assert seen["valued"] == agent.last_iterations and seen["declined"] > 0
