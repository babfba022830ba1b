"""PettingZoo's own API, parallel API, seed, parallel seed, state and render tests, the global
state, the ``is_parallelizable`` flag against ``aec_to_parallel`` itself, and pickling, for every
env case."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.utils.conversions import aec_to_parallel

from tablezoo import envs
from tablezoo.envs.core.game import default_state_spec
from tests.envcases import cases


@pytest.mark.parametrize(("name", "options"), cases())
def test_api(name, options):
    api_test(envs.make(name, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), cases())
@pytest.mark.parametrize("env_options", [{"reuse_buffers": True},
                                         {"illegal_action": "terminate"},
                                         {"illegal_action": "random_legal"}],
                         ids=["reuse_buffers", "terminate", "random_legal"])
def test_api_with_env_options(name, options, env_options):
    api_test(envs.make(name, **env_options, **options), num_cycles=200)
    parallel_api_test(envs.make_parallel(name, **env_options, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_api(name, options):
    parallel_api_test(envs.make_parallel(name, **options), num_cycles=1000)


@pytest.mark.parametrize(("name", "options"), cases())
def test_seed(name, options):
    seed_test(lambda: envs.make(name, **options), num_cycles=300)


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_seed(name, options):
    """PettingZoo samples unmasked actions here: ``random_legal`` replaces the illegal ones
    from the env's own seeded generator, so two envs seeded alike stay identical."""
    parallel_seed_test(lambda: envs.make_parallel(name, illegal_action="random_legal", **options),
                       num_cycles=300)


@pytest.mark.parametrize(("name", "options"), cases())
def test_state(name, options):
    state_test(envs.make(name, illegal_action="random_legal", **options),
               envs.make_parallel(name, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "options"), cases())
def test_global_state(name, options):
    """``state()`` is a fresh array inside ``state_space``, the same from both adapters. Where a
    game keeps the generic layout it is each seat's observation in absolute seat order, then a
    one-hot of the acting seats (a game's own full-information encoding replaces that part)."""
    env = envs.make(name, **options)
    par = envs.make_parallel(name, **options)
    env.reset(seed=9)
    par_obs, _ = par.reset(seed=9)
    rng = np.random.default_rng(9)
    game = env.game
    n = game.num_players
    generic = game.state_spec.pieces == default_state_spec(game).pieces
    for _ in range(60):
        if not env.agents:
            break
        state = env.state()
        assert state is not env.state() and env.state_space.contains(state)
        assert state.shape == (game.state_spec.size,)
        if generic:
            views = [env.game_state.observe(p) for p in range(n)]
            acting = np.zeros(n, np.float32)
            acting[list(env.game_state.acting_players())] = 1
            np.testing.assert_array_equal(state, np.concatenate([*views, acting]))
            first = game.obs_spec.pieces[0].name
            np.testing.assert_array_equal(
                game.state_spec.split(state)[f"{env.possible_agents[-1]}.{first}"],
                game.obs_spec.split(views[-1])[first])
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    fresh = envs.make(name, **options)
    fresh.reset(seed=9)
    np.testing.assert_array_equal(par.state(), fresh.state())
    assert par.state_space == env.state_space
    for agent in par.possible_agents:
        np.testing.assert_array_equal(par_obs[agent]["observation"], fresh.observe(agent)[
            "observation"])


def _converted_games_run(name, options, games: int) -> bool:
    """Whether ``aec_to_parallel`` (flag forced) survives ``games`` random legal games."""
    for seed in range(games):
        aec = envs.make(name, **options)
        aec.metadata = {**aec.metadata, "is_parallelizable": True}
        par = aec_to_parallel(aec)
        obs, _ = par.reset(seed=seed)
        rng = np.random.default_rng(seed)
        try:
            while par.agents:
                actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                           for a, o in obs.items() if o["action_mask"].any()}
                obs, *_ = par.step(actions)
        except (AssertionError, KeyError, envs.core.IllegalActionError):
            return False
    return True


@pytest.mark.parametrize(("name", "options"), cases())
def test_is_parallelizable_is_truthful(name, options):
    """True exactly where PettingZoo's ``aec_to_parallel`` really runs whole games."""
    flag = envs.make(name, **options).metadata["is_parallelizable"]
    assert flag == _converted_games_run(name, options, games=20 if flag else 5)


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
