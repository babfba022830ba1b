"""The batched trainer's parts (``training/batched/``): the compiled heuristic makes the agent's
decisions, held games stay put, sparse first layers equal dense ones, league plans in bulk."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("sb3_contrib")

from tablezoo import envs
from tablezoo.agents.games.bauer_trick.compiled_heuristic import heuristic_actions
from tablezoo.agents.games.bauer_trick.heuristic import HeuristicAgent
from tablezoo.agents.learned.policy import NumpyMLP, choose, masked_softmax
from tablezoo.training.batched import sparse
from tablezoo.training.batched.opponents import uniforms
from tablezoo.training.batched.stepping import CompiledStepper, SlotStepper, make_stepper
from tablezoo.training.selfplay.league import Deferred, League, LeagueSettings

ENV = "bauer_trick_v0"
OPTION_SETS = [{"episode": "deal"}, {}, {"trump_selection": "forehand_on_four"},
               {"no_trump_leader": "left_of_dealer", "defenders_score_on_fail": True}]


def random_mlp(size, actions, seed, scale=None, hidden=(24,)):
    rng = np.random.default_rng(seed)
    sizes = [size, *hidden, actions]
    return NumpyMLP([rng.normal(0, 0.5, (a, b)) for a, b in itertools.pairwise(sizes)],
                    [rng.normal(0, 0.1, b) for b in sizes[1:]], "relu", scale)


def positions(options, steps=40, games=128, seed=0):
    """(obs, mask) batches of compiled games played half by the heuristic, half at random."""
    vec = envs.make_vector(ENV, games, seed=seed, backend="compiled", **options)
    obs, mask, _ = vec.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield obs, mask
        heuristic = heuristic_actions(obs, mask)
        rand = np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)
        obs, mask, *_ = vec.step(np.where(rng.random(games) < 0.5, heuristic, rand))


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_the_compiled_heuristic_decides_as_the_heuristic_agent(options):
    agent = HeuristicAgent(0)
    seen = set()
    for obs, mask in positions(options):
        got = heuristic_actions(obs, mask)
        want = [agent.act(o, m) for o, m in zip(obs, mask)]
        assert got.tolist() == want
        seen.update(np.flatnonzero(np.bincount(got, minlength=37)).tolist())
    assert {32, 33, 34, 35} <= seen and len(seen) >= 30  # calls and most cards were played
    if options.get("trump_selection") != "forehand_on_four":
        assert 36 in seen  # passes


@pytest.mark.parametrize("make", ["compiled", "slots"])
def test_held_games_stay_put_and_play_on_as_if_never_held(make):
    """Stepping some rows only: every game plays the decisions it would play stepped alone."""
    def build():
        if make == "compiled":
            return make_stepper(ENV, 12, 3, episode="deal")
        return make_stepper(ENV, 12, 3, backend="python", episode="deal")

    every, held = build(), build()
    assert isinstance(every, CompiledStepper if make == "compiled" else SlotStepper)
    every.reset()
    held.reset()
    trace_every = [[] for _ in range(12)]
    for _ in range(60):
        actions = heuristic_actions(every.obs, every.mask)
        for i in range(12):
            trace_every[i].append((every.obs[i].copy(), int(actions[i])))
        every.step(actions)
    rng = np.random.default_rng(1)
    trace_held = [[] for _ in range(12)]
    returns_held = np.zeros((12, 4))
    for _ in range(150):
        rows = np.flatnonzero(rng.random(12) < 0.5)
        before = held.obs.copy()
        actions = heuristic_actions(held.obs, held.mask)
        for i in rows:
            trace_held[i].append((held.obs[i].copy(), int(actions[i])))
        rewards, terminated, truncated = held.step(actions, rows)
        out = np.setdiff1d(np.arange(12), rows)
        np.testing.assert_array_equal(held.obs[out], before[out])
        assert not rewards[out].any() and not (terminated[out] | truncated[out]).any()
        returns_held += rewards
    for i in range(12):
        n = min(len(trace_every[i]), len(trace_held[i]))
        assert n >= 40
        for (o1, a1), (o2, a2) in zip(trace_every[i][:n], trace_held[i][:n]):
            np.testing.assert_array_equal(o1, o2)
            assert a1 == a2


def test_held_rows_refuse_an_illegal_action_and_step_nothing():
    from tablezoo.envs.core.errors import IllegalActionError

    stepper = make_stepper(ENV, 4, 0, episode="deal")
    stepper.reset()
    before = stepper.obs.copy()
    actions = heuristic_actions(stepper.obs, stepper.mask)
    actions[2] = int(np.flatnonzero(~stepper.mask[2])[0])
    with pytest.raises(IllegalActionError, match="slot 2"):
        stepper.step(actions, np.array([1, 2]))
    np.testing.assert_array_equal(stepper.obs, before)


def test_sparse_rows_and_first_layers_equal_the_dense_ones():
    import torch

    obs = np.concatenate([o for o, _ in positions({"episode": "deal"}, steps=30, games=64)])
    rows = sparse.sparse_rows(obs)
    np.testing.assert_array_equal(rows.dense(), obs)
    assert sparse.worth_it(rows)
    game = envs.make_game(ENV, episode="deal")
    scale = np.random.default_rng(0).random(game.obs_spec.size).astype(np.float32) + 0.5
    mlp = random_mlp(game.obs_spec.size, game.num_actions, 1, scale, hidden=(64, 32))
    np.testing.assert_allclose(sparse.logits(mlp, rows), mlp.logits(obs), rtol=1e-4, atol=1e-4)
    linear = torch.nn.Linear(game.obs_spec.size, 16)
    dense = linear(torch.from_numpy(obs))
    (dense ** 2).sum().backward()
    want = [p.grad.clone() for p in (linear.weight, linear.bias)]
    linear.zero_grad()
    got = sparse.sparse_linear(rows, linear.weight, linear.bias)
    (got ** 2).sum().backward()
    torch.testing.assert_close(got, dense, rtol=1e-5, atol=1e-5)
    for g, w in zip((linear.weight.grad, linear.bias.grad), want):
        torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-3)


def test_network_answers_in_a_batch_equal_one_row_at_a_time():
    """What a frozen snapshot answers for many games at once is what ``NumpyMLP`` answers for
    each row alone (sparse first layer or not), sampled with the same uniforms."""
    game = envs.make_game(ENV, episode="deal")
    scale = np.random.default_rng(2).random(game.obs_spec.size).astype(np.float32) + 0.5
    mlp = random_mlp(game.obs_spec.size, game.num_actions, 3, scale, hidden=(128, 128))
    batches = list(positions({"episode": "deal"}, games=32))
    obs = np.concatenate([o for o, _ in batches])
    mask = np.concatenate([m for _, m in batches])
    u = uniforms(np.arange(len(obs), dtype=np.uint64) * 7919, np.arange(len(obs)) % 9)
    batched = choose(masked_softmax(sparse.logits(mlp, sparse.sparse_rows(obs)), mask), u)
    for i in range(0, len(obs), 7):
        one = choose(masked_softmax(mlp.logits(obs[i:i + 1]), mask[i:i + 1]), u[i:i + 1])
        assert batched[i] == one[0]
        np.testing.assert_allclose(masked_softmax(mlp.logits(obs[i:i + 1]), mask[i:i + 1])[0],
                                   masked_softmax(sparse.logits(mlp, sparse.sparse_rows(
                                       obs[i:i + 1])), mask[i:i + 1])[0], atol=1e-5)


def test_uniforms_are_uniform_and_depend_on_key_and_counter():
    u = uniforms(np.repeat(np.arange(100, dtype=np.uint64), 100),
                 np.tile(np.arange(100, dtype=np.uint64), 100))
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    assert len(np.unique(u)) == len(u)
    assert uniforms(np.array([5], np.uint64), np.array([3], np.uint64))[0] == \
        uniforms(np.array([5], np.uint64), np.array([3], np.uint64))[0]


def test_league_plans_in_bulk_follow_the_league():
    game = envs.make_game(ENV, episode="deal")
    league = League(game, ENV, LeagueSettings(specs=["random", "heuristic"], self_play=True,
                                              partner_snapshot_prob=0.5,
                                              entry_weights={"heuristic": 3}))
    league.set_self(random_mlp(game.obs_spec.size, game.num_actions, 0))
    league.add_snapshot("snap", random_mlp(game.obs_spec.size, game.num_actions, 1))
    rng = np.random.default_rng(0)
    seats = rng.integers(4, size=4000)
    plans = league.plans(seats.tolist(), rng, deferred={"random", "heuristic"})
    entries = [p.entry for p in plans]
    w = league.weights()
    share = dict(zip([e.name for e in league.usable()], w / w.sum()))
    for name, p in share.items():
        assert abs(entries.count(name) / len(plans) - p) < 0.03, name
    partners = []
    for seat, plan in zip(seats, plans):
        assert plan.controllers[seat] is None
        partner = plan.controllers[(seat + 2) % 4]
        partners.append(partner)
        assert partner in ("self", "snap")
        others = [plan.controllers[(seat + k) % 4] for k in (1, 3)]
        if plan.entry in ("random", "heuristic"):
            assert all(isinstance(c, Deferred) and c.spec == plan.entry for c in others)
            assert [c.seed for c in others] == [plan.seeds[(seat + k) % 4] for k in (1, 3)]
        else:
            assert others == [plan.entry] * 2
        assert set(plan.nets) == {c for c in plan.controllers if c == "snap"}
    assert abs(partners.count("snap") / len(partners) - 0.5) < 0.03
