"""``VectorLeagueEnv`` (``training/batched/adapter.py``) plays exactly the games a sequential loop
plays from the same positions with the same seeds, hands sb3 the learner's masks and rewards
that sum to its returns, and the batched trainer trains end to end."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("sb3_contrib")

from tablezoo import envs
from tablezoo.agents.games import agents_of, heuristic_class
from tablezoo.agents.learned.policy import MLPAgent, NumpyMLP, choose, masked_softmax
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.batched.adapter import VectorLeagueEnv
from tablezoo.training.batched.opponents import uniforms
from tablezoo.training.batched.stepping import make_stepper
from tablezoo.training.selfplay.collector import obs_scale_for
from tablezoo.training.selfplay.league import Deferred, League, LeagueSettings


def random_mlp(game, seed, scale, hidden=24):
    rng = np.random.default_rng(seed)
    sizes = [game.obs_spec.size, hidden, game.num_actions]
    return NumpyMLP([rng.normal(0, 0.5, (a, b)) for a, b in itertools.pairwise(sizes)],
                    [rng.normal(0, 0.1, b) for b in sizes[1:]], "tanh", scale)


def play(vec, learner, steps):
    """Every finished episode: (its start position, plan, learner seat, [(obs, action, reward,
    mask)], info); the masks are checked against the positions on the way."""
    starts = {}
    vec.on_new_game = lambda i: starts.__setitem__(i, (vec.stepper.get_state(i),
                                                       vec.plans[i], int(vec.learner_seat[i])))
    obs = vec.reset()
    current = {i: [] for i in range(vec.num_envs)}
    episodes = []
    for _ in range(steps):
        masks = vec.action_masks()
        assert (vec.stepper.seat == vec.learner_seat).all()  # every game waits for its learner
        for i in range(0, vec.num_envs, 3):
            state = vec.stepper.get_state(i)
            np.testing.assert_array_equal(masks[i], state.legal_mask(int(vec.learner_seat[i])))
        actions = np.array([MLPAgent(learner).act(o, m) for o, m in zip(obs, masks)])
        begun = dict(starts)
        next_obs, rewards, dones, infos = vec.step(actions)
        for i in range(vec.num_envs):
            current[i].append((obs[i], int(actions[i]), float(rewards[i]), masks[i]))
            if dones[i]:
                episodes.append((*begun[i], current[i], infos[i]))
                current[i] = []
                np.testing.assert_array_equal(infos[i]["terminal_observation"], obs[i])
        obs = next_obs
    return episodes


def replay(game, env_name, league, learner, start, plan, seat, scale):
    """The same episode by a plain loop over the engine state, one decision at a time."""
    state = start.clone()
    counters = [0] * game.num_players
    agents = {}
    for p, c in enumerate(plan.controllers):
        if isinstance(c, Deferred) and c.spec == "heuristic":
            agents[p] = heuristic_class(env_name)(c.seed, **agents_of(env_name).exact_heuristic)
        elif c is not None and not isinstance(c, (str, Deferred)):
            agents[p] = factory_from_spec(plan.entry, env_name)(plan.seeds[p])
    trajectory, pending, last = [], None, float(state.returns()[seat])
    decisions = 0
    while not state.is_over() and decisions < game.max_decisions:
        joint = {}
        for p in state.acting_players():
            obs, mask = state.observe(p), state.legal_mask(p).astype(bool)
            controller = plan.controllers[p]
            if p == seat:
                if pending is not None:
                    now = float(state.returns()[p])
                    trajectory.append((*pending, now - last))
                    last = now
                pending = (obs * scale, MLPAgent(learner).act(obs * scale, mask))
                joint[p] = pending[1]
            elif isinstance(controller, str) or (isinstance(controller, Deferred)
                                                 and controller.spec == "random"):
                logits = (league.network(controller, plan).logits(obs[None])
                          if isinstance(controller, str) else np.zeros((1, len(mask))))
                u = uniforms(np.array([plan.seeds[p]], np.uint64),
                             np.array([counters[p]], np.uint64))
                counters[p] += 1
                joint[p] = int(choose(masked_softmax(logits, mask[None]), u)[0])
            else:
                joint[p] = agents[p].act(obs, mask, state=state, player=p)
        state.apply(joint)
        decisions += 1
    trajectory.append((*pending, float(state.returns()[seat]) - last))
    return trajectory, float(state.returns()[seat])


@pytest.mark.parametrize("env_name,options,backend", [
    ("bauer_trick_v0", {"episode": "deal"}, "compiled"),   # the fast path, teams
    ("bauer_trick_v0", {"episode": "game", "start_score": 1}, "python"),  # whole games
    # simultaneous moves, another game, its compiled heuristic against the tie-free Python one
    # (the Python engine's slots: a position's generator carries over into the reference, which
    # a compiled engine's copy, drawing from its own, does not)
    ("bauer_draft_v0", {"num_players": 3}, "python"),
])
def test_the_adapters_games_equal_a_sequential_reference(env_name, options, backend):
    game = envs.make_game(env_name, **options)
    scale = obs_scale_for(game)
    league = League(game, env_name, LeagueSettings(specs=["random", "heuristic"], self_play=True,
                                                   partner_snapshot_prob=0.5, max_snapshots=1))
    league.set_self(random_mlp(game, 1, scale))
    league.add_snapshot("snap", random_mlp(game, 2, scale))
    learner = random_mlp(game, 3, None)  # acts on the adapter's scaled observations
    stepper = make_stepper(env_name, 6, 11, backend=backend, **options)
    vec = VectorLeagueEnv(stepper, league, 11, True, 1.0, env_name)
    episodes = play(vec, learner, 40 if options.get("episode") == "deal" else 80)
    assert len(episodes) >= 6
    kinds = {type(c).__name__ if not isinstance(c, str) else c
             for _, plan, *_ in episodes for c in plan.controllers if c is not None}
    assert "self" in kinds and len(kinds) >= 3  # networks and agents were both met
    for start, plan, seat, batched, info in episodes:
        reference, final = replay(game, env_name, league, learner, start, plan, seat, scale)
        assert len(reference) == len(batched) == info["episode"]["l"]
        for (o1, a1, r1, _), (o2, a2, r2) in zip(batched, reference):
            np.testing.assert_allclose(o1, o2, rtol=1e-6)
            assert a1 == a2 and r1 == pytest.approx(r2)
        # the rewards sum to the final return, which the episode record reports
        assert sum(r for _, _, r, _ in batched) == pytest.approx(final)
        assert info["episode"]["r"] == pytest.approx(final)
        assert info["entry"] == plan.entry and info["seat"] == seat


def test_rewards_are_scaled_and_the_league_hears_every_result():
    game = envs.make_game("bauer_trick_v0", episode="deal")
    league = League(game, "bauer_trick_v0", LeagueSettings(specs=["heuristic"], self_play=False))
    league.set_self(random_mlp(game, 1, obs_scale_for(game)))
    vec = VectorLeagueEnv(make_stepper("bauer_trick_v0", 16, 0, episode="deal"), league, 0,
                          True, 0.5, "bauer_trick_v0")
    vec.reset()
    total, seen = np.zeros(16), []
    for _ in range(60):
        masks = vec.action_masks()
        _, rewards, dones, infos = vec.step(masks.argmax(axis=1))
        total += rewards
        for i in np.flatnonzero(dones):
            seen.append(infos[i]["episode"]["r"])
            assert total[i] == pytest.approx(0.5 * infos[i]["episode"]["r"])
            total[i] = 0
    finished = vec.pop_finished()
    assert sorted(r for _, r in finished) == sorted(seen) and len(seen) >= 16
    assert league.summary()["heuristic"]["games"] == len(seen)


def tiny_run(out):
    from tablezoo.training.cli.selfplay import train

    return train.main(["--env", "bauer_trick_v0", "--timesteps", "4096", "--out", str(out),
                       "--engine", "compiled", "--self-play", "--n-envs", "32",
                       "--n-steps", "32", "--batch-size", "256", "--n-epochs", "2",
                       "--net-arch", "32", "--snapshot-every", "1024", "--checkpoint-every",
                       "2048", "--eval-every", "2048", "--eval-games", "8", "--no-progress",
                       "--bc-games", "10", "--bc-epochs", "1", "--seed", "3"])


def test_the_batched_trainer_runs_end_to_end_and_its_model_plays_as_trained(tmp_path):
    from tablezoo.agents.registry import factory_from_spec
    from tablezoo.training.batched.ppo import BatchedPPO

    out = tmp_path / "run"
    assert tiny_run(out) == 0
    config = json.loads((out / "config.json").read_text())
    assert config["hyperparameters"]["engine"] == "compiled"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["timesteps"] >= 4096 and summary["snapshots_added"] >= 2
    assert len(list((out / "checkpoints").glob("model_*_steps.zip"))) >= 2
    rows = (out / "eval.csv").read_text().splitlines()
    assert len(rows) >= 1 + 2 * 3  # start, middle, end; random and heuristic
    assert (out / "learning_curve.png").is_file()
    agent = factory_from_spec(f"trained:{out / 'model.npz'}", "bauer_trick_v0")(0)
    state = envs.make_game("bauer_trick_v0", episode="deal").new_state(0)
    p = state.acting_players()[0]
    assert state.legal_mask(p)[agent.act(state.observe(p), state.legal_mask(p))]
    model = BatchedPPO.load(str(out / "model.zip"), device="cpu")
    assert model.num_timesteps == summary["total_timesteps"]
    # the same command again trains the same weights (seeded games, plans, sampling, batches)
    assert tiny_run(tmp_path / "again") == 0
    first, second = np.load(out / "model.npz"), np.load(tmp_path / "again" / "model.npz")
    assert sorted(first) == sorted(second)
    for key in first:
        np.testing.assert_array_equal(first[key], second[key])


def test_batched_ppo_trains_the_same_weights_on_sparse_and_dense_first_layers():
    """The update's sparse first layers are the dense ones to float rounding: two short runs,
    one each way, end with the same weights."""
    from tablezoo.training.batched.ppo import BatchedPPO
    from tablezoo.training.shipping.export import mlp_from_policy

    game = envs.make_game("bauer_trick_v0", episode="deal")
    weights = []
    for sparse in (False, True):
        league = League(game, "bauer_trick_v0", LeagueSettings(specs=["random", "heuristic"]))
        vec = VectorLeagueEnv(make_stepper("bauer_trick_v0", 16, 0, episode="deal"), league, 0,
                              True, 1.0, "bauer_trick_v0", sparse=sparse)
        model = BatchedPPO("MlpPolicy", vec, n_steps=16, batch_size=64, n_epochs=2, seed=0,
                           device="cpu", policy_kwargs={"net_arch": [32]})
        league.set_self(mlp_from_policy(model.policy, obs_scale_for(game)))
        model.learn(512)
        assert vec.sparse is sparse and model.num_timesteps == 512
        weights.append([p.detach().numpy().copy() for p in model.policy.parameters()])
    for dense, sparse in zip(*weights):
        np.testing.assert_allclose(dense, sparse, atol=2e-5)
