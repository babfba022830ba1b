"""PettingZoo's own API, parallel API, seed and render tests, and pickling, for every env case."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from envcases import cases
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

import envs


@pytest.mark.parametrize(("name", "options"), cases())
def test_api(name, options):
    api_test(envs.make(name, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_api(name, options):
    parallel_api_test(envs.make_parallel(name, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), cases())
def test_seed(name, options):
    seed_test(lambda: envs.make(name, **options), num_cycles=300)


@pytest.mark.parametrize(("name", "options"), cases())
def test_render(name, options):
    render_test(lambda render_mode=None: envs.make(name, render_mode=render_mode, **options))
    env = envs.make(name, render_mode="ansi", **options)
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "player" in text


@pytest.mark.parametrize(("name", "options"), cases())
def test_env_pickles_mid_game(name, options):
    env = envs.make(name, **options)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(7):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.agent_selection == env.agent_selection
    np.testing.assert_array_equal(copy.last()[0]["observation"], env.last()[0]["observation"])
    par = envs.make_parallel(name, **options)
    par.reset(seed=5)
    assert pickle.loads(pickle.dumps(par)).agents == par.agents


@pytest.mark.parametrize(("name", "options"), cases())
def test_spaces_and_noop(name, options):
    """Spaces are returned by identity; the parallel env gives waiting agents a NOOP-only mask
    and rejects a game action from them."""
    par = envs.make_parallel(name, **options)
    obs, _ = par.reset(seed=1)
    noop = par.game.num_actions
    acting = par.game_state.acting_players()
    for p, agent in enumerate(par.possible_agents):
        assert par.observation_space(agent) is par.observation_space(agent)
        assert par.action_space(agent).n == noop + 1
        mask = obs[agent]["action_mask"]
        if p in acting:
            assert mask[noop] == 0 and mask[:noop].any()
        else:
            assert mask.tolist() == [0] * noop + [1]
    waiting = [a for p, a in enumerate(par.possible_agents) if p not in acting]
    if waiting:
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents}
        actions[waiting[0]] = 0
        with pytest.raises(envs.core.IllegalActionError, match="NOOP"):
            par.step(actions)


@pytest.mark.parametrize(("name", "options"), cases())
def test_illegal_action_errors_name_the_legal_actions(name, options):
    env = envs.make(name, **options)
    env.reset(seed=2)
    obs, *_ = env.last()
    mask = obs["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.game_state.to_dict()
    with pytest.raises(envs.core.IllegalActionError, match="legal actions:") as err:
        env.step(illegal)
    legal_name = env.game.action_name(int(np.flatnonzero(mask)[0]))
    assert legal_name in str(err.value)
    assert env.game_state.to_dict() == before
    for bad in (1.5, "3", None, True):
        with pytest.raises(envs.core.IllegalActionError):
            env.step(bad)
    assert env.game_state.to_dict() == before
