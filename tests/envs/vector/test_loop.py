"""The loop vector env plays exactly what plain engine states play: every slot's observation,
mask, seat, rewards and end flags, step after step, for every env and variant; games restart in
the step that ends them; seeds reproduce; worker processes change nothing."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.vector.loop import LoopVectorEnv
from tests.envcases import cases
from tests.envs.vector.reference import ReferenceSlot, random_legal, reference_decisions

B = 8
STEPS = 300


def assert_decisions(got, want, where):
    for name, g, w in zip(("obs", "mask", "seat"), got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, f"{where}: {name} {g.shape} {g.dtype}"
        assert np.array_equal(g, w), f"{where}: {name} differs in slots " \
            f"{sorted(set(np.nonzero(g != w)[0].tolist()))}"


@pytest.mark.parametrize(("name", "options"), cases())
def test_every_slot_plays_as_a_plain_engine_state(name, options):
    seed = 11
    env = envs.make_vector(name, B, seed=seed, backend="python", **options)
    assert isinstance(env, LoopVectorEnv)
    game = env.game
    slots = [ReferenceSlot(envs.make_game(name, **options), seed, i) for i in range(B)]
    got = env.reset()
    assert_decisions(got, reference_decisions(slots), "reset")
    assert got[0].dtype == np.float32 and got[1].dtype == np.bool_ and got[2].dtype == np.int64
    assert got[0].shape == (B, game.obs_spec.size) and got[1].shape == (B, game.num_actions)
    rng = np.random.default_rng(5)
    ended = 0
    for step in range(STEPS):
        actions = random_legal(rng, got[1])
        result = env.step(actions)
        want = [slot.play(int(a)) for slot, a in zip(slots, actions)]
        got = result[:3]
        assert_decisions(got, reference_decisions(slots), f"step {step}")
        rewards, terminated, truncated = result[3:]
        assert rewards.dtype == np.float32 and rewards.shape == (B, game.num_players)
        assert np.array_equal(rewards, np.stack([w[0] for w in want])), f"step {step}: rewards"
        assert terminated.tolist() == [w[1] for w in want], f"step {step}: terminated"
        assert truncated.tolist() == [w[2] for w in want], f"step {step}: truncated"
        ended += int(terminated.sum() + truncated.sum())
        if step % 50 == 0:
            assert_decisions(env.observe(), got, f"observe() after step {step}")
    if game.max_decisions <= STEPS:  # every game this short ended at least once in every slot
        assert ended >= B
    state = env.state()
    assert state.shape == (B, game.state_spec.size) and state.dtype == np.float32
    assert np.array_equal(state, np.stack([s.state.global_state() for s in slots]))


def test_a_finished_game_reports_its_rewards_and_the_next_game_starts_in_the_same_step():
    env = envs.make_vector("bower_v0", 4, seed=3, backend="python")
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(400):
        obs, mask, seat, rewards, terminated, truncated = env.step(random_legal(rng, mask))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0]) and not truncated.any()
    assert not rewards[~terminated].any()  # bower rewards only at the end
    # the slot now holds the first decision of its next game: nothing played yet
    fresh = env.get_state(i)
    assert not fresh.is_over() and fresh.to_dict()["decisions"] == 0
    assert np.array_equal(obs[i], fresh.observe(int(seat[i])))


def test_a_later_seat_of_a_simultaneous_phase_sees_nothing_of_an_earlier_seats_choice():
    """bauer_draft's selection: seat 0 picks one of two cards in twin envs; seat 1 is then
    asked with the same observation and mask in both, and the picks apply only after it."""
    a, b = (envs.make_vector("bauer_draft_v0", 2, seed=4, backend="python", num_players=3)
            for _ in range(2))
    obs, mask, seat = a.reset()
    b.reset()
    state = a.get_state(0)
    assert len(state.acting_players()) == 3 and seat.tolist() == [0, 0]
    first, second = np.flatnonzero(mask[0])[:2]
    other = int(np.flatnonzero(mask[1])[0])
    got_a = a.step(np.array([first, other]))
    got_b = b.step(np.array([second, other]))
    for x, y in zip(got_a, got_b):
        assert np.array_equal(x, y)
    assert got_a[2].tolist() == [1, 1]
    assert np.array_equal(got_a[0][0], state.observe(1))  # the state before any pick
    assert a.get_state(0).to_dict() == state.to_dict()  # nothing applied yet


def test_get_state_is_a_copy_and_set_state_continues_from_it():
    env = envs.make_vector("bower_v0", 3, seed=2, backend="python")
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(5):
        obs, mask, seat, *_ = env.step(random_legal(rng, mask))
    saved = env.get_state(1)
    kept = saved.to_dict()
    saved.apply({int(seat[1]): int(np.flatnonzero(mask[1])[0])})  # the copy moves, not slot 1
    assert env.get_state(1).to_dict() == kept
    before = env.observe()
    for _ in range(7):
        env.step(random_legal(rng, env.observe()[1]))
    env.set_state(1, kept)  # a to_dict save
    now = env.observe()
    for x, y in zip(now, before):
        assert np.array_equal(x[1], y[1])
    assert env.get_state(1).to_dict() == kept
    loaded = envs.make_game("bower_v0").state_from_dict(kept)
    env.set_state(2, loaded)  # a State: copied in
    loaded.apply({int(now[2][1]): int(np.flatnonzero(now[1][1])[0])})
    assert env.get_state(2).to_dict() == kept
    after = env.step(random_legal(rng, env.observe()[1]))
    assert after[3].shape == (3, 2)  # rewards count from the set position, not the old game


def test_the_same_seed_gives_the_same_games_and_reset_seed_reseeds():
    def play(env, seed=None, steps=60):
        out = [env.reset(seed) if seed is not None else env.reset()]
        rng = np.random.default_rng(9)
        for _ in range(steps):
            out.append(env.step(random_legal(rng, out[-1][1])))
        return out

    def same(x, y):
        return all(np.array_equal(a, b) for s, t in zip(x, y) for a, b in zip(s, t))

    make = lambda seed=None: envs.make_vector("bauer_draft_v0", 4, seed, backend="python")  # noqa: E731
    first = play(make(7))
    assert same(first, play(make(7)))
    assert same(first, play(make(), seed=7))  # reset(seed) on an env made without one
    env = make(8)
    assert not same(first, play(env))
    assert same(first, play(env, seed=7))  # reseeded
    assert not same(play(env), first)  # reset() goes on with each slot's generator
    assert not same(play(make()), play(make()))  # no seed: fresh entropy
    assert envs.make_vector("bauer_draft_v0", 4, np.int64(7), backend="python").reset()[0].shape


@pytest.mark.parametrize(("name", "options"), [("bauer_draft_v0", {"num_players": 3}),
                                               ("bower_v0", {})])
def test_worker_processes_give_the_same_arrays(name, options):
    results = []
    for workers in (0, 2):
        with envs.make_vector(name, 5, seed=21, backend="python", num_workers=workers,
                              **options) as env:
            rng = np.random.default_rng(2)
            out = [env.reset()]
            for step in range(80):
                out.append(env.step(random_legal(rng, out[-1][1])))
                if step == 30:
                    saved = env.get_state(3)
                    env.set_state(4, saved.to_dict())
                    out.append(env.observe())
            out.append((env.state(), env.observe()[0]))
            with pytest.raises(ValueError, match="slot 4"):
                bad = random_legal(rng, out[-2][1])
                bad[4] = np.flatnonzero(~out[-2][1][4])[0]
                env.step(bad)
            out.append(env.observe())
            results.append((out, env.get_state(4).to_dict()))
    (plain, plain_state), (workers, workers_state) = results
    assert len(plain) == len(workers)
    for k, (x, y) in enumerate(zip(plain, workers)):
        for a, b in zip(x, y):
            assert np.array_equal(a, b), f"result {k}"
    assert plain_state == workers_state


def test_copy_slot_loads_the_source_position_into_the_targets():
    env = envs.make_vector("ethnos_v0", 4, seed=2, backend="python", num_players=3)
    obs, mask, _ = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(5):
        obs, mask = env.step(random_legal(rng, mask))[:2]
    source = env.get_state(1).to_dict()
    untouched = env.get_state(0).to_dict()
    env.copy_slot(1, [3])
    for i, want in ((3, source), (1, source), (0, untouched)):
        got = env.get_state(i).to_dict()
        assert {k: v for k, v in got.items() if k != "rng"} == \
            {k: v for k, v in want.items() if k != "rng"}, i
    obs, mask = env.observe()[:2]
    assert np.array_equal(obs[3], obs[1])
    for _ in range(40):  # the same actions meet the same chance
        actions = random_legal(rng, mask)
        actions[3] = actions[1]
        obs, mask = env.step(actions)[:2]
        assert np.array_equal(obs[3], obs[1])
