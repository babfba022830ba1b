"""Ray RLlib: the MultiAgentEnv contract, the masking RLModule, one PPO iteration with masks on
every env, ``tablezoo rllib`` and the ``rllib:DIR`` agent from its checkpoint.

RLlib pins gymnasium 1.2.2, so CI runs this file in its own venv (``.ci/run``). The training runs
use tiny batches: they check that the pieces fit and obey the masks, not that anything is learnt.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
import ray
import torch
from ray.rllib.core.columns import Columns

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.integrations.rllib import (
    MASK_KEY,
    OBS_KEY,
    SHARED_POLICY,
    MaskedPPOTorchRLModule,
    TablezooMultiAgentEnv,
    masked_module_spec,
    ppo_config,
)
from tablezoo.training.cli.evaluation import evaluate
from tablezoo.training.cli.selfplay import rllib as rllib_cli

OPTIONS = {"bauer_trick_v0": {"episode": "deal"}}


@pytest.fixture(scope="module")
def local_ray():
    torch.set_num_threads(1)  # the learner runs here; 2 threads are ~10x slower on a busy machine
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def random_episode(env: TablezooMultiAgentEnv, seed: int, rng: np.random.Generator):
    """Play one masked random episode; returns (steps, total reward per seat, last step's dicts)."""
    obs, _ = env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    kept = []  # (array handed out, copy at that time): later steps must not overwrite them
    steps = 0
    while True:
        assert len(obs) == 1, "only the seat that must act gets an observation"
        (agent, o), = obs.items()
        assert env.observation_spaces[agent].contains(o)
        kept.append((o[OBS_KEY], o[OBS_KEY].copy()))
        legal = np.flatnonzero(o[MASK_KEY])
        assert legal.size > 0 and legal.max() < env.action_spaces[agent].n - 1  # never NOOP
        obs, rewards, terms, truncs, _ = env.step({agent: int(rng.choice(legal))})
        steps += 1
        assert set(rewards) == set(env.possible_agents)
        for a, r in rewards.items():
            totals[a] += r
        if terms["__all__"] or truncs["__all__"]:
            assert set(obs) == set(env.possible_agents)  # a final observation for every seat
            assert all(terms[a] == terms["__all__"] for a in env.possible_agents)
            break
    for handed, snapshot in kept:
        np.testing.assert_array_equal(handed, snapshot)
    return steps, totals


@pytest.mark.parametrize("name", envs.ENVS)
def test_multi_agent_env_plays_masked_random_episodes(name):
    env = TablezooMultiAgentEnv({"env": name, "options": OPTIONS.get(name, {})})
    rng = np.random.default_rng(7)
    steps, decisive = 0, 0
    while steps < 300:
        n, totals = random_episode(env, seed=steps, rng=rng)
        steps += n
        # tablezoo's default rewards are zero-sum in [-1, 1] per seat
        assert abs(sum(totals.values())) < 1e-9
        assert all(-1.0 <= t <= 1.0 for t in totals.values())
        decisive += any(totals.values())
    assert decisive > 0  # rewards reach RLlib (not every game a draw)


def test_multi_agent_env_rejects_bad_config_and_wrong_seat():
    with pytest.raises(ValueError, match="must be one of"):
        TablezooMultiAgentEnv({"env": "chess_v9"})
    env = TablezooMultiAgentEnv({"env": "bower_v0"})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match="turn"):
        env.step({other: 0})


def test_masked_module_never_samples_an_illegal_action():
    env = TablezooMultiAgentEnv({"env": "bauer_draft_v0"})
    space = env.observation_spaces[env.possible_agents[0]]
    spec = copy.deepcopy(masked_module_spec((32,)))
    spec.observation_space = space
    spec.action_space = env.action_spaces[env.possible_agents[0]]
    module = spec.build()
    assert isinstance(module, MaskedPPOTorchRLModule)
    rng = np.random.default_rng(3)
    n = space[MASK_KEY].shape[0]
    mask = (rng.random((64, n)) < 0.05).astype(np.float32)
    mask[np.arange(64), rng.integers(0, n, 64)] = 1.0  # at least one legal id per row
    obs = rng.random((64, space[OBS_KEY].shape[0])).astype(np.float32)
    batch = {Columns.OBS: {OBS_KEY: torch.as_tensor(obs), MASK_KEY: torch.as_tensor(mask)}}
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        sampled = torch.distributions.Categorical(logits=logits).sample((50,))
        values = module.compute_values(batch)
    assert values.shape == (64,)
    assert mask[np.arange(64)[None, :], sampled.numpy()].all()
    probs = torch.softmax(logits, -1).numpy()
    assert np.all(probs[mask == 0] == 0.0)
    np.testing.assert_allclose(probs.sum(-1), 1.0, rtol=1e-5)


@pytest.mark.parametrize("name", envs.ENVS)
def test_one_ppo_iteration_with_masks(local_ray, name, tmp_path):
    batch = 800 if name == "ethnos_v0" else 300  # an ethnos game is ~700 decisions
    algo = ppo_config(name, OPTIONS.get(name, {}), num_env_runners=0, seed=0,
                      train_batch_size=batch, minibatch_size=100, num_epochs=1,
                      hiddens=(32,)).build_algo()
    try:
        result = algo.train()
        runners = result["env_runners"]
        assert runners["num_env_steps_sampled"] >= batch
        if name != "ethnos_v0":
            seats = set(envs.make(name, **OPTIONS.get(name, {})).possible_agents)
            assert set(runners["agent_episode_returns_mean"]) == seats
        assert SHARED_POLICY in result["learners"]
        if name == "bower_v0":  # the saved module answers like the learner's own
            algo.save_to_path(str(tmp_path / "ck"))
            agent = factory_from_spec(f"rllib:{tmp_path / 'ck'}", name)(0)
            live = algo.get_module(SHARED_POLICY)
            env = TablezooMultiAgentEnv({"env": name})
            obs, _ = env.reset(seed=5)
            (o,) = obs.values()
            batch_ = {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in o.items()}}
            with torch.no_grad():
                want = live.forward_inference(batch_)[Columns.ACTION_DIST_INPUTS][0].numpy()
            np.testing.assert_allclose(agent.logits(o[OBS_KEY], o[MASK_KEY]), want, rtol=1e-5,
                                       atol=1e-6)
    finally:
        algo.stop()


def test_cli_trains_with_an_env_runner_and_the_checkpoint_plays(local_ray, tmp_path):
    out = tmp_path / "run"
    assert rllib_cli.main(["--env", "bauer_trick_v0", "--iterations", "1",
                           "--num-env-runners", "1", "--out", str(out),
                           "--train-batch-size", "200", "--minibatch-size", "100",
                           "--num-epochs", "1", "--seed", "3"]) == 0
    lines = (out / "metrics.jsonl").read_text().splitlines()
    assert len(lines) == 1
    assert (out / "checkpoint" / "rllib_checkpoint.json").is_file()
    # the checkpoint as an agent in every seat: every answer must be legal for the AEC env
    make = factory_from_spec(f"rllib:{out}", "bauer_trick_v0")
    env = envs.make("bauer_trick_v0", episode="deal")
    for game in range(3):
        env.reset(seed=game)
        bots = {a: make(i) for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else bots[agent].act(obs["observation"],
                                                                  obs["action_mask"])
            if action is not None:
                assert obs["action_mask"][action] == 1
            env.step(action)
    # and through the evaluation tool, as a user would call it
    report = tmp_path / "eval.json"
    assert evaluate.main(["--env", "bauer_trick_v0", "--agent", f"rllib:{out}", "--games", "4",
                          "--no-progress", "--json", str(report)]) == 0
    assert json.loads(report.read_text())["hero"] == f"rllib:{out}"


def test_cli_rejects_bad_arguments(tmp_path):
    for argv in (["--env", "nope_v0"], ["--env", "bower_v0", "--iterations", "0"],
                 ["--env", "bower_v0", "--minibatch-size", "9000"]):
        with pytest.raises(SystemExit):
            rllib_cli.parse_args([*argv, "--out", str(tmp_path)])


def test_rllib_agent_reports_a_missing_checkpoint(tmp_path):
    with pytest.raises(FileNotFoundError, match="no RLModule checkpoint"):
        factory_from_spec(f"rllib:{tmp_path}", "bower_v0")
