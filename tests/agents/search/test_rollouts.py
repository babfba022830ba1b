"""The batched rollout search (``agents/search/rollouts.py``): its values are the returns of the
heuristic's own playouts in the sampled worlds, it reads only its seat's information, and bad
input is refused by name."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games import agents_of, heuristic_class
from tablezoo.agents.learned.policy import TrainedAgent
from tablezoo.agents.registry import make_agent
from tablezoo.agents.search.rollouts import RolloutAgent, rank_values, rollout_games
from tablezoo.envs.core.game import rank_rewards

pytest.importorskip("numba")


def decisions(name: str, options: dict, seed: int, every: int):
    """(state, seat) at every ``every``-th decision of a seeded random game (a live state)."""
    game = envs.make_game(name, **options)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not state.is_over():
        acting = state.acting_players()
        if len(acting) == 1 and k % every == 0:
            yield state, acting[0]
        k += 1
        state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p)))) for p in acting})


def python_playout(world, me: int, action: int, env_name: str, trained: bool = False) -> float:
    """``me``'s return gained by ``action`` then the Python heuristic (``trained``: the shipped
    model, greedy) everywhere, on the Python engine."""
    start = world.returns()[me]
    sim = world.clone()
    sim.apply({me: action})
    seats = sim.game.num_players
    if trained:
        players = [TrainedAgent(env_name, num_players=seats, seed=0) for _ in range(seats)]
    else:
        cls = heuristic_class(env_name)
        players = [cls(0, **agents_of(env_name).exact_heuristic) for _ in range(seats)]
    while not sim.is_over():
        (p,) = sim.acting_players()
        sim.apply({p: players[p].act(sim.observe(p), sim.legal_mask(p), state=sim, player=p)})
    return float(sim.returns()[me] - start)


@pytest.mark.parametrize("playout", ["heuristic", "trained"])
def test_values_are_the_playouts_of_the_sampled_worlds(playout):
    """bauer_trick (a deal has no chance after the cards are dealt): each move's value is the mean
    over the same sampled worlds of the Python heuristic's (or the shipped model's, advised by the
    heuristic) playout after that move."""
    name = "bauer_trick_v0"
    checked = 0
    for state, me in decisions(name, {"episode": "deal"}, seed=41, every=3):
        mask = state.legal_mask(me)
        if mask.sum() < 2:
            continue
        agent = RolloutAgent(seed=checked, worlds=3, playout=playout)
        rng = copy.deepcopy(agent.rng)
        values = agent.action_values(state.observe(me), mask, state=state, player=me)
        worlds = [state.determinize(me, rng) for _ in range(3)]
        assert sorted(values) == np.flatnonzero(mask).tolist()
        for action, value in values.items():
            expected = np.mean([python_playout(w, me, action, name, playout == "trained")
                                for w in worlds])
            assert value == pytest.approx(expected, abs=1e-9), (action, values)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize(("name", "belief"), [("bauer_trick_v0", "uniform"),
                                              ("bauer_trick_v0", "policy"),
                                              ("ethnos_v0", "uniform")])
def test_the_choice_reads_only_the_seats_information(name, belief):
    """A re-sampled position (one the seat cannot tell from the truth) gets the same values
    from equally seeded agents: the hidden cards are never read, also not by the belief."""
    for k, (state, me) in enumerate(decisions(name, {}, seed=7, every=25)):
        mask = state.legal_mask(me)
        if mask.sum() < 2:
            continue
        twin = state.determinize(me, np.random.default_rng(k))
        a = RolloutAgent(seed=k, worlds=4, belief=belief).action_values(
            state.observe(me), mask, state, me)
        b = RolloutAgent(seed=k, worlds=4, belief=belief).action_values(
            twin.observe(me), mask, twin, me)
        assert a == b
        if k > 60:
            break


def test_rank_values_are_the_games_rank_rewards():
    rng = np.random.default_rng(3)
    for seats in (2, 3, 4, 5):
        scores = rng.integers(0, 4, size=(200, seats)).astype(float)  # many ties
        for me in range(seats):
            expected = [rank_rewards(row)[me] for row in scores]
            assert rank_values(scores, me) == pytest.approx(expected, abs=1e-12)


def test_margin_weight_adds_the_margin_value_to_the_rank_reward():
    """bauer_draft: equally seeded agents play the same worlds and rollouts whatever their
    ``margin_weight`` (the rank reward's game played for its scores has the same rules), so a
    move's value is the rank reward's plus ``margin_weight`` times a margin value in [-1, 1]."""
    checked = 0
    for state, me in decisions("bauer_draft_v0", {"num_players": 3}, seed=5, every=1):
        mask = state.legal_mask(me)
        if mask.sum() < 2:
            continue
        values = {w: RolloutAgent(seed=checked, worlds=8, margin_weight=w).action_values(
            state.observe(me), mask, state, me) for w in (0.0, 1e-9, 0.5, 1.0)}
        margin = {a: values[1.0][a] - values[0.0][a] for a in values[0.0]}
        for a, rank in values[0.0].items():
            assert values[1e-9][a] == pytest.approx(rank, abs=1e-6)
            assert values[0.5][a] == pytest.approx(rank + 0.5 * margin[a], abs=1e-9)
            assert -1.0 <= margin[a] <= 1.0
        checked += 1
        if checked == 4:
            break
    assert checked == 4 and any(m != 0 for m in margin.values())


def test_a_move_is_legal_and_a_forced_one_needs_no_search():
    name = "bauer_trick_v0"
    agent = make_agent("rollout", env_name=name, seed=0, worlds=2)
    for state, me in decisions(name, {}, seed=3, every=2):
        mask = state.legal_mask(me)
        action = agent.act(state.observe(me), mask, state=state, player=me)
        assert mask[action]
        if mask.sum() == 1:
            assert agent.action_values(state.observe(me), mask, state, me) is None


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="worlds=0.*1..4096"):
        RolloutAgent(worlds=0)
    with pytest.raises(ValueError, match="unknown argument.*rollouts.*allowed: belief, "
                                         "belief_tries, margin_scale, margin_weight, playout, "
                                         "worlds"):
        make_agent("rollout", env_name="bauer_trick_v0", rollouts=3)
    with pytest.raises(ValueError, match="belief='items'; allowed: uniform, policy"):
        RolloutAgent(belief="items")
    with pytest.raises(ValueError, match="belief_tries=0; allowed: an int >= 1"):
        RolloutAgent(belief_tries=0)
    draft = envs.make_game("bauer_draft_v0", num_players=2).new_state(0)
    seat = draft.acting_players()[0]
    with pytest.raises(ValueError, match="rollout agent: belief='policy' cannot rebuild earlier "
                                         "choices in game 'bauer_draft'.*bauer_trick"):
        RolloutAgent(belief="policy").act(draft.observe(seat), draft.legal_mask(seat), draft,
                                          seat)
    with pytest.raises(ValueError, match="playout='model'; allowed: heuristic, trained"):
        RolloutAgent(playout="model")
    for bad in (-0.5, float("nan"), "1", 1e7):
        with pytest.raises(ValueError, match=r"margin_weight=.*allowed: a number in 0\.\.1e6"):
            RolloutAgent(margin_weight=bad)
    with pytest.raises(ValueError, match=r"margin_scale=0; allowed: a number in 1e-06\.\.1e6"):
        RolloutAgent(margin_scale=0)
    for name, options, reward in [("bauer_trick_v0", {}, "'game'"),
                                  ("bauer_draft_v0", {"reward": "margin"}, "'margin'"),
                                  ("ethnos_v0", {}, "'rank'")]:
        state = envs.make_game(name, **options).new_state(0)
        seat = state.acting_players()[0]
        with pytest.raises(ValueError, match=f"margin_weight needs a game played for its rank "
                                             f"reward that is the rank of the final scores "
                                             f"\\(bauer_draft\\); game .* has reward={reward}"):
            RolloutAgent(margin_weight=0.5).act(state.observe(seat), state.legal_mask(seat),
                                                state, seat)
    for name, options, problem in [
            ("bauer_draft_v0", {"num_players": 3}, "bauer_draft_v0 has them for .2, 4. players, "
                                                   "not 3"),
            ("bower_v0", {}, "needs a network reading the default observation; the shipped "
                             "model of bower_v0 .2 players. is not one; use playout='heuristic'")]:
        state = envs.make_game(name, **options).new_state(0)
        seat = state.acting_players()[0]
        with pytest.raises(ValueError, match=f"playout='trained'.*{problem}"):
            RolloutAgent(playout="trained").act(state.observe(seat), state.legal_mask(seat),
                                                 state, seat)
    state = envs.make_game("bauer_trick_v0").new_state(0)
    mask = state.legal_mask(state.acting_players()[0])
    with pytest.raises(ValueError, match="needs the engine state"):
        RolloutAgent().act(np.zeros(3), mask)
    assert set(rollout_games()) <= set(envs.ENVS) and "bauer_trick_v0" in rollout_games()
