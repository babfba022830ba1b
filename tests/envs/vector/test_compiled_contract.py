"""What every compiled batched engine (``envs/vector/compiled.py``) promises, checked on each env
whose record has one: bad input refused with nothing changed, reproducible per-slot seeding,
``copy=False`` buffers, ``step_rows`` playing only the given rows, positions refused or loaded.
Each game's own replay, uniformity and staged positions stay in ``tests/envs/<game>/compiled``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import tablezoo.envs as tz
from tablezoo.envs.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    ResetNeededError,
    StateFormatError,
)
from tablezoo.envs.vector.base import VectorEnv
from tests.envs.vector.compiled_checks import assert_loads, assert_same, legal_actions, snapshot

COMPILED = [e for e in tz.ENVS if "compiled" in tz.vector_backends(e)]


def make(env: str, n: int, seed: int | None) -> VectorEnv:
    return tz.make_vector(env, n, seed=seed, backend="compiled")


def finished_position(game, seed: int):
    """A Python-engine game of ``game`` played at random to its end."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    while not state.is_over():
        state.apply({p: int(rng.choice(state.legal_actions(p))) for p in state.acting_players()})
    return state


def test_every_compiled_engine_is_found():
    assert len(COMPILED) >= 4, COMPILED


@pytest.fixture(params=COMPILED)
def env_name(request) -> str:
    return request.param


def test_the_registry_makes_it_with_the_python_game_s_options(env_name):
    """``tz.make_vector`` runs the compiled engine unless asked for the Python one; its options,
    errors on a bad option or ``num_envs``, and array shapes are the Python game's."""
    env = tz.make_vector(env_name, 4, seed=0)
    assert type(env) is type(make(env_name, 2, 0))
    assert type(tz.make_vector(env_name, 4, seed=0, backend="python")) is not type(env)
    game = env.game
    assert env.options == type(game)().options
    with pytest.raises(InvalidOptionError) as python:
        type(game)(colour="red")
    engine = tz.spec(env_name).compiled_engine()[0]  # the record's package, without the env
    with pytest.raises(InvalidOptionError) as batched:
        engine.make_vector(2, colour="red")
    assert str(batched.value) == str(python.value)
    for n in (0, -1, 2.0, True):
        with pytest.raises(InvalidOptionError, match="num_envs"):
            make(env_name, n, 0)
    obs, mask, seat = env.reset()
    assert obs.shape == (4, game.obs_spec.size) and obs.dtype == np.float32
    assert mask.shape == (4, game.num_actions) and mask.dtype == bool and seat.shape == (4,)
    assert env.state().shape == (4, game.state_spec.size)
    assert env.step(legal_actions(np.random.default_rng(0), mask))[3].shape == (
        4, game.num_players)


def test_calls_before_reset_are_refused(env_name):
    env = make(env_name, 5, 2)
    for call in (lambda: env.step(np.zeros(5, np.int64)), env.observe, env.state,
                 lambda: env.get_state(0), lambda: env.set_state(0, {})):
        with pytest.raises(ResetNeededError):
            call()


def test_bad_actions_are_refused_and_change_nothing(env_name):
    """Wrong shapes and dtypes, out-of-range values, and on every slot an illegal action spread
    over the whole action range: each raises naming the slot, seat, action and the legal ones,
    and no slot is stepped."""
    env = make(env_name, 5, 2)
    obs, mask, seat = env.reset()
    n_actions = mask.shape[1]
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, mask, seat, *_ = env.step(legal_actions(rng, mask))
    before = snapshot(env)
    good = legal_actions(rng, mask)
    for bad in (good[:4], np.concatenate([good, good[:1]]), good.reshape(5, 1),
                good.astype(np.float32), good.astype(bool), [str(a) for a in good], None,
                [[1, 2]]):
        with pytest.raises(IllegalActionError, match=r"shape \(5,\)"):
            env.step(bad)
        assert_same(snapshot(env), before)
    for value in (-1, n_actions, 2**40, np.uint64(2**63 + 3)):
        acts = good.astype(np.uint64 if isinstance(value, np.uint64) else np.int64)
        acts[4] = value
        with pytest.raises(IllegalActionError, match="slot 4"):
            env.step(acts)
        assert_same(snapshot(env), before)
    game = env.game
    for slot in range(5):
        state = env.get_state(slot)
        legal = np.flatnonzero(state.legal_mask(int(seat[slot]))).tolist()
        assert legal == np.flatnonzero(mask[slot]).tolist()
        illegal = np.flatnonzero(~mask[slot])
        for wrong in set(illegal[np.linspace(0, len(illegal) - 1, 12).astype(int)].tolist()):
            acts = good.copy()
            acts[slot] = wrong
            with pytest.raises(IllegalActionError) as error:
                env.step(acts)
            message = str(error.value)
            assert f"slot {slot}" in message and f"player_{seat[slot]}" in message
            assert game.action_name(wrong) in message and "no slot was stepped" in message
            assert all(game.action_name(a) in message for a in legal)
            assert_same(snapshot(env), before)
    env.step(good)  # the good actions still play


def test_seeding_is_reproducible_and_per_slot(env_name):
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    a, b = make(env_name, 6, 11), make(env_name, 6, 11)
    wider = make(env_name, 9, 11)  # slot i's games do not depend on num_envs
    out_a, out_b, out_w = a.reset(), b.reset(), wider.reset()
    other = make(env_name, 6, 12).reset()
    assert not np.array_equal(out_a[0], other[0])
    first = out_a
    for _ in range(300):
        assert all(np.array_equal(x, y) for x, y in zip(out_a, out_b))
        assert all(np.array_equal(x, y[:6]) for x, y in zip(out_a, out_w))
        acts = legal_actions(rng_a, out_a[1])
        legal_actions(rng_b, out_b[1])
        wide = np.concatenate([acts, legal_actions(np.random.default_rng(0), out_w[1][6:])])
        out_a, out_b, out_w = a.step(acts), b.step(acts), wider.step(wide)
    again = a.reset(seed=11)
    assert all(np.array_equal(x, y) for x, y in zip(again, first))
    assert not np.array_equal(a.reset()[0], first[0])  # reset() continues the generators


def test_step_copies_unless_asked_not_to(env_name):
    env = make(env_name, 3, 0)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    first = env.step(legal_actions(rng, mask))
    second = env.step(legal_actions(rng, first[1]))
    assert not any(np.shares_memory(x, y) for x, y in zip(first, second))
    views = env.step(legal_actions(rng, second[1]), copy=False)
    again = env.step(legal_actions(rng, views[1]), copy=False)
    assert all(x is y for x, y in zip(views, again))  # the engine's buffers, overwritten
    fresh = env.observe()
    assert not any(np.shares_memory(x, y) for x, y in zip(fresh, again))


def test_step_rows_steps_only_those_games(env_name):
    """``step_rows`` plays the given rows as ``step`` would (a slot's games depend only on its
    own actions and generator) and leaves the other rows where they were, through at least
    one finished game of a stepped row."""
    ref, env = make(env_name, 6, 9), make(env_name, 6, 9)
    obs, mask, seat = ref.reset()
    first = env.reset()
    rng = np.random.default_rng(2)
    rows = np.array([1, 4])
    others = np.array([0, 2, 3, 5])
    ended = 0
    for step in range(4000):  # at least 150 steps, and on until a stepped row's game ends
        if step >= 150 and ended:
            break
        acts = legal_actions(rng, mask)
        rewards, terminated, truncated = env.step_rows(acts, rows)
        obs, mask, seat, ref_rewards, ref_terminated, ref_truncated = ref.step(acts)
        now = env.observe()
        for mine, theirs, start in zip(now, (obs, mask, seat), first):
            assert np.array_equal(mine[rows], theirs[rows])
            assert np.array_equal(mine[others], start[others])
        assert np.array_equal(rewards[rows], ref_rewards[rows]) and not rewards[others].any()
        assert np.array_equal(terminated[rows], ref_terminated[rows])
        assert np.array_equal(truncated[rows], ref_truncated[rows])
        assert not terminated[others].any() and not truncated[others].any()
        ended += int(terminated[rows].sum() + truncated[rows].sum())
    assert ended > 0


def test_set_state_then_get_state_round_trip(env_name):
    """Positions of the Python engine along random games load into a slot and come back the
    same; the slot's decision and global state are the position's, its generator not advanced."""
    env = make(env_name, 4, 0)
    env.reset()
    game = env.game
    rng = np.random.default_rng(5)
    for k in range(24):
        state = game.new_state(k)
        for _ in range(int(rng.integers(0, 60))):
            state.apply({p: int(rng.choice(state.legal_actions(p)))
                         for p in state.acting_players()})
            if state.is_over():
                state = game.new_state(100 + k)
        assert_loads(env, k % 4, state, as_dict=k % 2 == 0)


def test_set_state_refuses_another_game_a_finished_position_or_a_bad_slot(env_name):
    env = make(env_name, 3, 0)
    env.reset()
    before = snapshot(env)
    other = next(e for e in tz.ENVS if tz.make_game(e).name != env.game.name)
    other_state = tz.make_game(other).new_state(0)
    for position in (other_state, other_state.to_dict()):
        with pytest.raises(StateFormatError, match=rf"slot 2.*{other_state.game.name}"):
            env.set_state(2, position)
    finished = finished_position(env.game, 0)
    for position in (finished, finished.to_dict()):
        with pytest.raises(StateFormatError, match="slot 0.*over"):
            env.set_state(0, position)
    for bad in ("state", 3, None):
        with pytest.raises(StateFormatError, match="slot 0"):
            env.set_state(0, bad)
    for slot in (-1, 3, 1.0, True, "0"):
        with pytest.raises(InvalidOptionError, match="slot"):
            env.set_state(slot, env.game.new_state(0))
        with pytest.raises(InvalidOptionError, match="slot"):
            env.get_state(slot)
    assert_same(snapshot(env), before)


def test_copy_slot_continues_other_slots_from_one_position(env_name):
    """``copy_slot`` gives the target slots the source's position, decision and generator (the
    same actions then meet the same chance) and leaves every other slot and the source alone; a
    bad slot changes nothing."""
    env = make(env_name, 6, 3)
    obs, mask, _ = env.reset()
    rng = np.random.default_rng(3)
    for _ in range(7):
        obs, mask = env.step(legal_actions(rng, mask))[:2]
    before = snapshot(env)
    env.copy_slot(1, [4, 2])
    after = snapshot(env)
    for k, (was, now) in enumerate(zip(before[:4], after[:4])):
        for i, source in enumerate((0, 1, 1, 3, 1, 5)):
            assert np.array_equal(now[i], was[source]), (k, i)
    assert after[4] == [before[4][i] for i in (0, 1, 1, 3, 1, 5)]
    for bad_src, bad_dst in ((6, [0]), (-1, [0]), (0, [1, 6]), (0, [[1]]), (0, ["1"])):
        with pytest.raises(InvalidOptionError, match="slot"):
            env.copy_slot(bad_src, bad_dst)
    assert_same(snapshot(env), after)
    mask = after[1]
    for _ in range(60):  # short games end in these steps: the copies' next games are the same
        actions = legal_actions(rng, mask)
        actions[[2, 4]] = actions[1]
        obs, mask = env.step(actions)[:2]
        assert np.array_equal(obs[2], obs[1]) and np.array_equal(obs[4], obs[1])
