"""The information state (``State.information_state``, env option
``observation="information_state"``) across every env and variant: the engine protocol, the AEC
and parallel envs (spaces, fresh and reused arrays, copies), the OpenSpiel-style checks (nothing
hidden, a function of the action-observation history, perfect recall) and the default
observation left exactly as it was. Each game's own file (``tests/envs/<game>/
test_information_state.py``) holds its layout, its bound, its save format and the pairs and
replays built for it."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from tablezoo import envs
from tablezoo.envs.core import InvalidOptionError
from tablezoo.envs.core.conformance import (
    check_information_state,
    check_perfect_recall,
    replay_information_state,
)
from tablezoo.envs.core.game import OBSERVATION_KINDS
from tests.envcases import cases
from tests.envs.test_core import ToyGame


def _legal(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


def _random_position(game, seed, decisions, rng):
    """Game ``seed`` after up to ``decisions`` random legal decisions."""
    state = game.new_state(seed)
    for _ in range(decisions):
        if state.is_over():
            break
        state.apply({p: _legal(state.legal_mask(p), rng) for p in state.acting_players()})
    return state


def test_the_protocol_default_is_a_clear_not_implemented():
    game = ToyGame()
    state = game.new_state(0)
    with pytest.raises(NotImplementedError, match="no information state"):
        game.information_state_spec  # noqa: B018
    with pytest.raises(NotImplementedError, match="no information state"):
        game.information_state_size  # noqa: B018
    with pytest.raises(NotImplementedError, match="no information state"):
        state.information_state(0)
    assert game.observation_spec("default") is game.obs_spec
    with pytest.raises(ValueError, match="observation kind"):
        game.observation_spec("belief")
    assert OBSERVATION_KINDS == ("default", "information_state")


def test_the_env_option_is_checked():
    from tablezoo.envs.core.aec import TablezooAECEnv

    with pytest.raises(InvalidOptionError, match="observation='information_state' is not "
                                                 "offered"):
        TablezooAECEnv(ToyGame(), "toy_v0", observation="information_state")
    with pytest.raises(InvalidOptionError, match="allowed values: 'default', "
                                                 "'information_state'"):
        envs.make("bower_v0", observation="history")


@pytest.mark.parametrize(("name", "options"), cases())
def test_the_envs_hand_out_information_states(name, options):
    """AEC: every observation is the acting seat's information state, inside the space, fresh
    unless reuse_buffers (then the same values in place); parallel: every agent's."""
    env = envs.make(name, observation="information_state", **options)
    reused = envs.make(name, observation="information_state", reuse_buffers=True, **options)
    size = env.game.information_state_size
    assert env.observation_kind == "information_state"
    for agent in env.possible_agents:
        assert env.observation_space(agent)["observation"].shape == (size,)
    env.reset(seed=5)
    reused.reset(seed=5)
    rng = np.random.default_rng(5)
    kept = []
    for step, agent in enumerate(env.agent_iter()):
        if step >= 60:
            break
        obs, _, term, trunc, _ = env.last()
        robs = reused.last()[0]
        assert env.observation_space(agent)["observation"].contains(obs["observation"])
        p = env.possible_agents.index(agent)
        assert np.array_equal(obs["observation"], env.game_state.information_state(p))
        assert np.array_equal(obs["observation"], robs["observation"])
        kept.append((obs["observation"], obs["observation"].copy()))
        action = None if term or trunc else _legal(obs["action_mask"], rng)
        env.step(action)
        reused.step(action)
    assert all(np.array_equal(a, b) for a, b in kept)  # fresh arrays, never overwritten
    par = envs.make_parallel(name, observation="information_state", **options)
    observations, _ = par.reset(seed=2)
    for _ in range(10):
        if not par.agents:
            break
        for agent, obs in observations.items():
            p = par.possible_agents.index(agent)
            assert np.array_equal(obs["observation"], par.game_state.information_state(p))
            assert par.observation_space(agent)["observation"].contains(obs["observation"])
        actions = {a: _legal(o["action_mask"], rng) for a, o in observations.items()}
        observations, *_ = par.step(actions)


@pytest.mark.parametrize(("name", "options"), cases())
def test_pettingzoo_api_tests_pass(name, options):
    api_test(envs.make(name, observation="information_state", **options), num_cycles=100)
    parallel_api_test(envs.make_parallel(name, observation="information_state", **options),
                      num_cycles=100)


@pytest.mark.parametrize(("name", "options"), cases())
def test_env_copies_continue_with_the_same_information_states(name, options):
    env = envs.make(name, observation="information_state", **options)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(25):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else _legal(obs["action_mask"], rng))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        if not env.agents:
            break
        a, b = env.observe(env.agent_selection), twin.observe(twin.agent_selection)
        assert np.array_equal(a["observation"], b["observation"])


@pytest.mark.parametrize(("name", "options"), cases())
def test_the_default_observation_is_unchanged(name, options):
    """``observation="default"`` is the env as it was: the same observations, masks and
    rewards as an env made without the option (the golden playthroughs pin those)."""
    a = envs.make(name, observation="default", **options)
    b = envs.make(name, **options)
    assert a.observation_space("player_0") == b.observation_space("player_0")
    a.reset(seed=3)
    b.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in a.agent_iter():
        oa, ra, ta, ua, _ = a.last()
        ob, rb, tb, ub, _ = b.last()
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert (ra, ta, ua) == (rb, tb, ub)
        assert np.array_equal(oa["observation"], a.game_state.observe(
            a.possible_agents.index(agent)))
        action = None if ta or ua else _legal(oa["action_mask"], rng)
        a.step(action)
        b.step(action)


@pytest.mark.parametrize(("name", "options"), cases())
def test_nothing_hidden_along_random_games(name, options):
    """At every other decision of 3 random games (at most 300 decisions each), every seat's
    information state is unchanged by
    ``determinize`` for that seat (bit for bit), fresh, in bounds and kept by copies."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(1)
    positions = 0
    for seed in range(3):
        state = game.new_state(seed)
        step = 0
        while not state.is_over() and step < 300:
            if step % 2 == 0:
                check_information_state(game, seed, step, state, rng, copies=step % 30 == 0)
                positions += 1
            state.apply({p: _legal(state.legal_mask(p), rng) for p in state.acting_players()})
            step += 1
    assert positions >= 20


@pytest.mark.parametrize(("name", "options"), cases())
def test_a_function_of_the_action_observation_history(name, options):
    """The replay of a seat's history in a world re-sampled for it (``determinize`` at the
    start or mid-game, then the other seats' moves chosen to show the seat what it saw): equal
    information states at every decision of the common history. How long the replays last
    depends on the game (a hidden card revealed ends one: in bauer_draft the re-sampled hands
    part at the first reveal); each game's own file adds a replay built to last (cards or eggs
    swapped that the seat never sees)."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(2)
    replayed = 0
    for seed in range(6):
        for start in (0, 7, 25):
            replayed += replay_information_state(game, seed, seed % game.num_players, start,
                                                 rng)[0]
    assert replayed > 0 or name == "bauer_draft_v0"


@pytest.mark.parametrize(("name", "options"), cases())
def test_perfect_recall(name, options):
    """Equal action-observation histories <=> equal information states over sampled
    continuations of random positions."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(4)
    for seed in range(2):
        state = _random_position(game, seed, int(rng.integers(0, 20)), rng)
        if not state.is_over():
            check_perfect_recall(game, state, seed % game.num_players, rng, 60, 8)


@pytest.mark.parametrize("name", envs.ENVS)
def test_the_vector_api_hands_out_information_states(name):
    """``make_vector(..., observation="information_state")``: each asked seat's information
    state (the Python engines; the compiled backend is refused by name)."""
    vec = envs.make_vector(name, 3, seed=4, observation="information_state")
    assert vec.observation_kind == "information_state"
    assert vec.observation_size == vec.game.information_state_size
    obs, mask, seat = vec.reset()
    rng = np.random.default_rng(4)
    for _ in range(25):
        obs, mask, seat, *_ = vec.step(np.array([_legal(m, rng) for m in mask]))
        for i in range(3):
            state = vec.get_state(i)
            if len(state.acting_players()) == 1:  # no simultaneous choice held back
                assert np.array_equal(obs[i], state.information_state(int(seat[i])))
    with pytest.raises(InvalidOptionError, match="allowed values"):
        envs.make_vector(name, 2, observation="summary")
    if "compiled" in envs.registry.vector_backends(name):
        with pytest.raises(InvalidOptionError, match="backend='compiled'"):
            envs.make_vector(name, 2, observation="information_state", backend="compiled")


@pytest.mark.parametrize("name", envs.ENVS)
def test_the_gym_seat_view_hands_out_information_states(name):
    """``SeatEnv(..., observation="information_state")`` (or the env option in
    ``env_options``): the learner's information state, in its Box."""
    from tablezoo.training.selfplay.seat_env import SeatEnv

    for seat_env in (SeatEnv(name, observation="information_state", seat=0),
                     SeatEnv(name, env_options={"observation": "information_state"}, seat=0)):
        assert seat_env.observation_space.shape == (seat_env.game.information_state_size,)
        obs, _ = seat_env.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(30):
            assert seat_env.observation_space.contains(obs)
            assert np.array_equal(obs, seat_env.state.information_state(0))
            obs, _, term, trunc, _ = seat_env.step(_legal(seat_env.action_masks(), rng))
            if term or trunc:
                obs, _ = seat_env.reset()
    default = SeatEnv(name, seat=0)
    assert default.observation_space.shape == (default.game.obs_spec.size,)


@pytest.mark.parametrize(("name", "options"), cases())
def test_re_sampled_worlds_keep_the_contract_and_hide_the_others_records(name, options):
    """A world re-sampled for one seat is a position like any other (its information states
    pass the same checks, a world re-sampled from it too), and no other seat's information
    state there shows a private record of the true game it did not see in the world."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(6)
    for seed in range(2):
        state = _random_position(game, seed, int(rng.integers(5, 40)), rng)
        for p in range(game.num_players):
            world = state.determinize(p, rng)
            check_information_state(game, seed, -1, world, rng)
            if game.event_table is None:
                continue
            world.events.materialize(game.event_table)
            private = game.event_table.private_field
            for e in world.events.events[:len(state.events.events)]:
                if e[1] not in (p, -1) and private[e[0]].any():
                    assert all(v == -1 for v, hide in zip(e[2:], private[e[0]]) if hide) or \
                        e[1] == world.acting_players()[0]
