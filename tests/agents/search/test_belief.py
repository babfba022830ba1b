"""``belief="policy"``: the trump call rebuilt from a world is the call as it was seen, and the
worlds the search keeps are those in which its playout policy would have called the same way."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games import heuristic_class
from tablezoo.agents.search.belief import consistent, rebuild_for
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.agents.search.rollouts import RolloutAgent
from tablezoo.envs.bauer_trick.hidden import call_positions

HEURISTIC = heuristic_class("bauer_trick_v0")


def deals_in_play(count: int, threshold: float, seed: int):
    """Seeded deals whose call the heuristic makes (a high ``call_threshold`` makes seats pass),
    each stopped at a random point of the trick play; with each seat's observation and action at
    its call, as they really were."""
    game = envs.make_game("bauer_trick_v0", episode="deal")
    rng = np.random.default_rng(seed)
    for g in range(count):
        state = game.new_state(seed * 1000 + g)
        callers = [HEURISTIC(seed=p, call_threshold=threshold) for p in range(4)]
        seen = []
        while state.phase == 0:
            p = state.to_act
            action = callers[p].act(state.observe(p), state.legal_mask(p), state=state, player=p)
            seen.append((p, state.observe(p), action))
            state.apply({p: action})
        for _ in range(int(rng.integers(0, 30))):
            if state.is_over():
                break
            p = state.to_act
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))})
        if not state.is_over():
            yield state, seen


@pytest.mark.parametrize("threshold", [3.0, 7.0])
def test_rebuilt_call_positions_are_the_call_as_seen(threshold):
    passes = 0
    for state, seen in deals_in_play(150, threshold, seed=3):
        rebuilt = [(seat, position.observe(seat).copy(), action, position.legal_mask(seat).copy())
                   for position, seat, action in call_positions(state)]
        assert [(s, a) for s, _, a, _ in rebuilt] == [(s, a) for s, _, a in seen]
        for (seat, obs, _, mask), (_, true_obs, _) in zip(rebuilt, seen):
            assert np.array_equal(obs, true_obs), f"seat {seat}: rebuilt call observation differs"
            assert mask[32:].all() and not mask[:32].any()
        passes += sum(a == 36 for _, _, a in seen)
    if threshold > 5:  # seats pass, so later seats' rebuilt calls follow passes
        assert passes > 20


def test_kept_worlds_agree_with_the_model_and_uniform_ones_often_do_not():
    rebuild = rebuild_for("bauer_trick")
    kept_ok = uniform_ok = total = 0
    for i, (state, _) in enumerate(deals_in_play(60, 7.0, seed=4)):
        me = state.to_act
        agent = ISMCTSAgent(seed=i, iterations=1, belief="policy", belief_tries=400,
                            playout=HEURISTIC(seed=0, call_threshold=7.0))
        agent._configure(state)
        world = agent._sample_world(state, me)
        assert np.array_equal(world.observe(me), state.observe(me))
        kept_ok += consistent(world, me, rebuild, agent.playout)
        uniform = state.determinize(me, np.random.default_rng(i))
        uniform_ok += consistent(uniform, me, rebuild, agent.playout)
        total += 1
    assert kept_ok == total  # the truth is consistent, so 400 tries always find one in practice
    assert uniform_ok < 0.8 * total, (uniform_ok, total)


def test_the_rollout_agent_keeps_worlds_in_which_the_heuristic_called_as_seen():
    """The rollout agent's model of the others is the game's heuristic (its rollouts' player):
    with ``belief="policy"`` every world it keeps has that heuristic's calls, which uniform
    worlds often do not."""
    rebuild = rebuild_for("bauer_trick")
    model = [lambda world, seat: HEURISTIC(seed=0).act(world.observe(seat),
                                                       world.legal_mask(seat), world, seat)] * 4
    kept_ok = uniform_ok = total = 0
    for i, (state, _) in enumerate(deals_in_play(60, 3.0, seed=5)):
        me = state.to_act
        agent = RolloutAgent(seed=i, worlds=1, belief="policy", belief_tries=400)
        world = agent._sample_world(state, me)
        assert np.array_equal(world.observe(me), state.observe(me))
        kept_ok += consistent(world, me, rebuild, model)
        uniform_ok += consistent(state.determinize(me, np.random.default_rng(i)), me, rebuild,
                                 model)
        total += 1
    assert kept_ok == total
    assert uniform_ok < 0.8 * total, (uniform_ok, total)


def test_belief_options_are_checked():
    with pytest.raises(ValueError, match="belief='maybe'; allowed: uniform, policy"):
        ISMCTSAgent(belief="maybe")
    with pytest.raises(ValueError, match="belief_tries"):
        ISMCTSAgent(belief_tries=0)
    state = envs.make_game("bower_v0").new_state(0)
    me = state.acting_players()[0]
    agent = ISMCTSAgent(seed=0, iterations=2, belief="policy")
    with pytest.raises(ValueError, match="cannot rebuild earlier choices in game 'bower'"):
        agent.act(state.observe(me), state.legal_mask(me), state=state, player=me)
