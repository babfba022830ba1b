"""``ShardedVecEnv.start_rollout``: the workers play a whole rollout without waiting for the main
process, and the games are exactly those of step-by-step ``learner_step`` calls."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from stable_baselines3.common.callbacks import BaseCallback

import envs
from training.collector import obs_scale_for
from training.export import mlp_from_policy, value_mlp_from_policy
from training.parallel import ShardedVecEnv
from training.ppo import CollectorPPO
from training.train import build_shard

ENV, OPTIONS = "bauer_trick_v0", {"episode": "deal"}


def sharded(num_envs: int = 6, seed: int = 5) -> ShardedVecEnv:
    make = functools.partial(build_shard, ENV, OPTIONS, {"specs": ["heuristic", "random"]},
                             True, 1.0)
    probe = make(1, seed)
    return ShardedVecEnv(make, num_envs, 2, seed, probe.observation_space, probe.action_space)


def ready(vec: ShardedVecEnv) -> CollectorPPO:
    model = CollectorPPO("MlpPolicy", vec, n_steps=24, batch_size=48, n_epochs=1, device="cpu",
                         seed=0, policy_kwargs={"net_arch": [32, 32]})
    vec.set_self(mlp_from_policy(model.policy, obs_scale_for(envs.make_game(ENV, **OPTIONS))))
    vec.set_learner(mlp_from_policy(model.policy), value_mlp_from_policy(model.policy))
    vec.reset()
    return model


def same_step(a: tuple, b: tuple) -> None:
    obs, rewards, dones, infos, masks, actions, values, log_probs = a
    for got, want in zip((obs, rewards, dones, masks, actions, values, log_probs),
                         (b[0], b[1], b[2], b[4], b[5], b[6], b[7])):
        np.testing.assert_array_equal(got, want)
    assert [sorted(i) for i in infos] == [sorted(i) for i in b[3]]


def test_a_streamed_rollout_is_the_step_by_step_one():
    streamed, stepped = sharded(), sharded()
    try:
        ready(streamed), ready(stepped)
        for _ in range(2):  # two rollouts: the workers listen again after the first
            streamed.start_rollout(30)
            for _ in range(30):
                same_step(streamed.learner_step(), stepped.learner_step())
            np.testing.assert_array_equal(streamed.action_masks(), stepped.action_masks())
            assert streamed.pop_finished() == stepped.pop_finished()
    finally:
        streamed.close()
        stepped.close()


def test_a_cancelled_rollout_leaves_the_games_where_they_stand():
    streamed, stepped = sharded(), sharded()
    try:
        ready(streamed), ready(stepped)
        streamed.start_rollout(12)
        for _ in range(3):
            same_step(streamed.learner_step(), stepped.learner_step())
        with pytest.raises(RuntimeError, match="cancel_rollout"):
            streamed.start_rollout(5)
        for _ in range(8):
            stepped.learner_step()
        same_step(streamed.cancel_rollout(), stepped.learner_step())  # the 12th step
        assert streamed.cancel_rollout() is None
        same_step(streamed.learner_step(), stepped.learner_step())  # step by step again
    finally:
        streamed.close()
        stepped.close()


class StopAt(BaseCallback):
    def __init__(self, calls: int):
        super().__init__()
        self.calls = calls

    def _on_step(self) -> bool:
        self.calls -= 1
        return self.calls > 0


def test_a_stopped_learn_resumes_from_the_real_positions():
    """A callback stops the rollout at its 3rd of 24 steps while the workers play all 24. The
    model must go on from where the games stand (the 24th step), not from the 3rd."""
    vec, reference = sharded(), sharded()
    try:
        model = ready(vec)
        ready(reference)
        reference.reset()  # as learn() resets
        model.learn(48, callback=StopAt(3))
        assert model.num_timesteps == 3 * vec.num_envs
        for _ in range(24):
            last = reference.learner_step()
        np.testing.assert_array_equal(model._last_obs, last[0])
        np.testing.assert_array_equal(model._last_episode_starts, last[2])
        np.testing.assert_array_equal(vec.action_masks(), reference.action_masks())
        model.learn(48, reset_num_timesteps=False)  # and the protocol is in step again
        assert model.num_timesteps >= 3 * vec.num_envs + 48
    finally:
        vec.close()
        reference.close()
