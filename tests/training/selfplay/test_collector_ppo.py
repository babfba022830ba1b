"""``CollectorPPO``: the collector answers the learner's seats with a numpy copy of the rollout's
weights, and what lands in PPO's rollout buffer is what the torch policy says of it."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch

from tablezoo import envs
from tablezoo.training.selfplay.collector import MultiSeatVecEnv, obs_scale_for
from tablezoo.training.selfplay.league import League, LeagueSettings
from tablezoo.training.selfplay.ppo import CollectorPPO
from tablezoo.training.shipping.export import mlp_from_policy, value_mlp_from_policy


def small_model(vec, **kw):
    return CollectorPPO("MlpPolicy", vec, n_steps=kw.pop("n_steps", 24), batch_size=48,
                        n_epochs=1, device="cpu", seed=0,
                        policy_kwargs={"net_arch": [32, 32]}, **kw)


def torch_view(model, obs, actions, masks):
    """The torch policy's log-probabilities of ``actions`` and its values for ``obs``."""
    with torch.no_grad():
        obs_t = torch.as_tensor(obs)
        values, log_probs, _ = model.policy.evaluate_actions(
            obs_t, torch.as_tensor(actions), action_masks=masks)
    return log_probs.numpy(), values.numpy().ravel()


@pytest.mark.parametrize("env_name,options", [
    ("bauer_trick_v0", {"episode": "deal"}),
    ("bauer_draft_v0", {"num_players": 3}),  # simultaneous moves
])
def test_learner_step_answers_as_the_torch_policy(env_name, options):
    game = envs.make_game(env_name, **options)
    scale = obs_scale_for(game)
    league = League(game, env_name, LeagueSettings(specs=["random"]))
    vec = MultiSeatVecEnv(game, league, num_envs=8, seed=3, scaled=True)
    model = small_model(vec)
    league.set_self(mlp_from_policy(model.policy, scale))
    vec.set_learner(mlp_from_policy(model.policy), value_mlp_from_policy(model.policy))
    obs = vec.reset()
    counts = np.zeros(game.num_actions)
    for _ in range(60):
        (next_obs, _, _, _, masks, actions, values, log_probs) = vec.learner_step()
        assert masks[np.arange(8), actions].all()
        want_log_probs, want_values = torch_view(model, obs, actions, masks)
        np.testing.assert_allclose(log_probs, want_log_probs, atol=1e-5)
        np.testing.assert_allclose(values, want_values, atol=1e-5)
        counts[actions] += 1
        obs = next_obs
    assert (counts > 0).sum() > 3  # sampled, not one fixed choice


@pytest.mark.parametrize("processes", [1, 2])
def test_rollout_buffer_holds_what_the_policy_says_of_it(processes):
    """After a rollout, every stored (observation, action, mask) gives the stored log-probability
    and value under the torch policy (a misaligned step would not), and PPO then trains."""
    from tablezoo.training.selfplay.shards import ShardedVecEnv
    from tablezoo.training.selfplay.train import build_shard

    make = functools.partial(build_shard, "bauer_trick_v0", {"episode": "deal"},
                             LeagueSettings(specs=["heuristic"]), True, 1.0)
    vec = make(6, 5) if processes == 1 else ShardedVecEnv(
        make, 6, 2, 5, make(1, 5).observation_space, make(1, 5).action_space)
    try:
        model = small_model(vec)
        vec.set_self(mlp_from_policy(model.policy, obs_scale_for(
            envs.make_game("bauer_trick_v0", episode="deal"))))
        seen = {}

        class Capture:
            """Reads the buffer right after the rollout, before the update changes weights."""

            def __init__(self, inner):
                self.inner = inner

            def __getattr__(self, name):
                return getattr(self.inner, name)

            def compute_returns_and_advantage(self, **kw):
                self.inner.compute_returns_and_advantage(**kw)
                buf = self.inner
                n = buf.buffer_size * buf.n_envs
                obs = buf.observations.reshape(n, -1)
                actions = buf.actions.reshape(n).astype(np.int64)
                masks = buf.action_masks.reshape(n, -1).astype(bool)
                seen["want"] = torch_view(model, obs, actions, masks)
                seen["got"] = (buf.log_probs.reshape(n), buf.values.reshape(n))
                seen["legal"] = masks[np.arange(n), actions].all()

        model.rollout_buffer = Capture(model.rollout_buffer)
        before = [p.detach().clone() for p in model.policy.parameters()]
        model.learn(48)
        np.testing.assert_allclose(seen["got"][0], seen["want"][0], atol=1e-5)
        np.testing.assert_allclose(seen["got"][1], seen["want"][1], atol=1e-5)
        assert seen["legal"]
        assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters()))
    finally:
        vec.close()


def test_the_torch_switch_uses_sb3s_own_loop():
    game = envs.make_game("bauer_trick_v0", episode="deal")
    league = League(game, "bauer_trick_v0", LeagueSettings(specs=["random"]))
    vec = MultiSeatVecEnv(game, league, num_envs=4, seed=0, scaled=True)
    model = small_model(vec)
    model.collector_forward = False
    league.set_self(mlp_from_policy(model.policy, obs_scale_for(game)))
    model.learn(48)
    assert vec.learner is None  # never handed the learner: sb3 chose every action itself
    with pytest.raises(RuntimeError, match="set_learner"):
        vec.learner_step()
