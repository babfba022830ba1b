"""``BatchedPPO``: masked PPO for the batched trainer, its first layers on sparse observations.

A clean masked PPO (clipped objective, value loss, entropy bonus, GAE, minibatch epochs, the
approximate-KL stop, gradient clipping; CleanRL's and sb3's formulas) over sb3-contrib's
``MaskablePPO`` model object: the policy (``MaskableActorCriticPolicy``: the same actor and critic
MLPs), its optimizer, the learning loop, the callbacks, logging and the saved ``model.zip`` are
sb3's, so cloning, checkpoints, ``--resume``/``--init``, evaluation and export are unchanged. Two
things are new:

- the rollout (``collect_rollouts``) is played by ``VectorLeagueEnv.learner_step`` (the learner
  sampled in numpy from the rollout's weights, as ``selfplay/ppo.py``'s ``CollectorPPO``), and
  keeps each observation as its list of non-zero inputs (``sparse.Sparse``), built once per step
  for the collector's numpy passes and reused by every epoch of the update;
- the update (``train``) computes both networks' first layers from those lists
  (``sparse.sparse_linear``): a ``bauer_trick`` observation has ~33 non-zero inputs of 374, and
  the first layer is most of a 128-128 network's arithmetic (measured in training/README.md).

The loss is sb3's: ``-min(r A, clip(r) A) + ent_coef * -H + vf_coef * (R - V)^2`` with advantages
normalised per minibatch, illegal logits masked before the softmax (the entropy over the legal
actions only), ``max_grad_norm`` clipping and ``target_kl`` stopping an epoch at ``1.5 *
target_kl``. Minibatches are drawn from the model's own generator (seeded with ``seed``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import explained_variance

from tablezoo.training.batched.sparse import Sparse, concat, sparse_linear
from tablezoo.training.selfplay.ppo import CollectorPPO
from tablezoo.training.shipping.export import mlp_from_policy, value_mlp_from_policy

HUGE_NEG = -1e8  # sb3-contrib's masked logit


class Rollout:
    """One rollout's steps, ``[n_steps, n_envs]`` each (observations as ``Sparse`` rows or a
    dense array)."""

    def __init__(self, n_steps: int, n_envs: int, num_actions: int):
        self.n_steps, self.n_envs = n_steps, n_envs
        self.obs: list[Any] = []
        self.masks = np.zeros((n_steps, n_envs, num_actions), bool)
        self.actions = np.zeros((n_steps, n_envs), np.int64)
        self.log_probs = np.zeros((n_steps, n_envs), np.float32)
        self.values = np.zeros((n_steps, n_envs), np.float32)
        self.rewards = np.zeros((n_steps, n_envs), np.float32)
        self.starts = np.zeros((n_steps, n_envs), np.float32)
        self.advantages = np.zeros((n_steps, n_envs), np.float32)
        self.returns = np.zeros((n_steps, n_envs), np.float32)

    def gae(self, last_values: np.ndarray, last_dones: np.ndarray, gamma: float,
            lam: float) -> None:
        """Generalised advantage estimates and returns (sb3's recursion, over all games at
        once)."""
        last = np.zeros(self.n_envs, np.float32)
        for t in reversed(range(self.n_steps)):
            if t == self.n_steps - 1:
                alive, following = 1.0 - last_dones.astype(np.float32), last_values
            else:
                alive, following = 1.0 - self.starts[t + 1], self.values[t + 1]
            delta = self.rewards[t] + gamma * following * alive - self.values[t]
            last = delta + gamma * lam * alive * last
            self.advantages[t] = last
        self.returns[:] = self.advantages + self.values

    def observations(self) -> Any:
        """Every step's observations in one batch (step-major, as the flat arrays)."""
        if isinstance(self.obs[0], Sparse):
            return concat(self.obs)
        return torch.from_numpy(np.concatenate(self.obs))


class BatchedPPO(CollectorPPO):
    """Masked PPO on ``VectorLeagueEnv`` rollouts with sparse first layers (see the module)."""

    def _setup_model(self) -> None:
        n_steps, self.n_steps = self.n_steps, 1  # sb3's own rollout buffer is not used
        try:
            super()._setup_model()
        finally:
            self.n_steps = n_steps
        self.minibatch_rng = np.random.default_rng(self.seed)
        self.rollout: Rollout | None = None
        for group in self.policy.optimizer.param_groups:  # one multi-tensor step, not per tensor
            group["foreach"] = True

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "rollout", "minibatch_rng"]

    # --- the rollout ---------------------------------------------------------------------------
    def collect_rollouts(self, env: Any, callback: BaseCallback, rollout_buffer: Any,
                         n_rollout_steps: int, use_masking: bool = True) -> bool:
        if not hasattr(env, "learner_rows"):
            raise TypeError("BatchedPPO plays VectorLeagueEnv rollouts (training/batched/)")
        assert self._last_obs is not None, "No previous observation was provided"
        self.policy.set_training_mode(False)
        actor, critic = mlp_from_policy(self.policy), value_mlp_from_policy(self.policy)
        env.set_learner(actor, critic)
        rollout = self.rollout = Rollout(n_rollout_steps, env.num_envs, env.action_space.n)
        callback.on_rollout_start()
        new_obs, dones = self._last_obs, self._last_episode_starts
        for t in range(n_rollout_steps):
            (new_obs, rewards, dones, infos, masks, actions, values,
             log_probs) = env.learner_step()
            self.num_timesteps += env.num_envs
            callback.update_locals(locals())
            if not callback.on_step():
                return False
            self._update_info_buffer(infos, dones)
            for i in np.flatnonzero(dones):  # a cut game is not lost: bootstrap its value
                info = infos[i]
                if info.get("TimeLimit.truncated") and info.get("terminal_observation") \
                        is not None:
                    rewards[i] += self.gamma * critic.logits(info["terminal_observation"])[0]
            rollout.obs.append(env.learner_rows)
            rollout.masks[t], rollout.actions[t] = masks, actions
            rollout.values[t], rollout.log_probs[t] = values, log_probs
            rollout.rewards[t], rollout.starts[t] = rewards, self._last_episode_starts
            self._last_obs = new_obs
            self._last_episode_starts = dones
        last_values = critic.logits(new_obs)[:, 0]
        rollout.gae(last_values, dones, self.gamma, self.gae_lambda)
        callback.update_locals(locals())
        callback.on_rollout_end()
        return True

    # --- the update ----------------------------------------------------------------------------
    def _heads(self, obs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        """The actor's logits and the critic's values of a minibatch (``Sparse`` rows: the
        first layers from the lists)."""
        extractor = self.policy.mlp_extractor
        if isinstance(obs, Sparse):  # both first layers in one pass over the lists
            pi_net, vf_net = extractor.policy_net, extractor.value_net
            first = sparse_linear(obs, torch.cat([pi_net[0].weight, vf_net[0].weight]),
                                  torch.cat([pi_net[0].bias, vf_net[0].bias]))
            width = pi_net[0].out_features
            latent_pi = pi_net[1:](first[:, :width])
            latent_vf = vf_net[1:](first[:, width:])
        else:
            features = self.policy.extract_features(obs)
            latent_pi, latent_vf = extractor(features)
        return self.policy.action_net(latent_pi), self.policy.value_net(latent_vf)[:, 0]

    def train(self) -> None:
        rollout = self.rollout
        if rollout is None:
            return
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        clip_range = self.clip_range(self._current_progress_remaining)
        obs = rollout.observations()
        masks = torch.from_numpy(rollout.masks.reshape(-1, rollout.masks.shape[-1]))
        actions = torch.from_numpy(rollout.actions.reshape(-1))
        old_log_probs = torch.from_numpy(rollout.log_probs.reshape(-1))
        advantages_all = torch.from_numpy(rollout.advantages.reshape(-1))
        returns = torch.from_numpy(rollout.returns.reshape(-1))
        n = len(actions)
        batch = min(self.batch_size, n)
        pg_losses, value_losses, entropy_losses, clip_fractions = [], [], [], []
        approx_kls: list[float] = []
        continue_training = True
        loss = torch.zeros(())
        for _ in range(self.n_epochs):
            approx_kls = []
            order = self.minibatch_rng.permutation(n)
            # the epoch's order gathered once; each minibatch is then a slice
            idx = torch.from_numpy(order)
            e_obs = obs.take(order) if isinstance(obs, Sparse) else obs[idx]
            e_masks, e_actions, e_old = masks[idx], actions[idx], old_log_probs[idx]
            e_advantages, e_returns = advantages_all[idx], returns[idx]
            for start in range(0, n, batch):
                mb = slice(start, start + batch)
                logits, values = self._heads(e_obs.slice(mb) if isinstance(e_obs, Sparse)
                                             else e_obs[mb])
                mb_masks = e_masks[mb]
                logits = torch.where(mb_masks, logits, torch.tensor(HUGE_NEG))
                log_all = torch.log_softmax(logits, dim=-1)
                log_prob = log_all.gather(1, e_actions[mb, None])[:, 0]
                legal_log = torch.where(mb_masks, log_all, torch.zeros(()))  # no exp(-1e8)
                entropy = -(legal_log.exp() * legal_log).sum(-1)
                advantages = e_advantages[mb]
                if self.normalize_advantage and len(advantages) > 1:
                    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
                ratio = torch.exp(log_prob - e_old[mb])
                policy_loss = -torch.min(advantages * ratio, advantages * torch.clamp(
                    ratio, 1 - clip_range, 1 + clip_range)).mean()
                value_loss = torch.nn.functional.mse_loss(e_returns[mb], values)
                entropy_loss = -entropy.mean()
                loss = policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss
                pg_losses.append(policy_loss.item())
                value_losses.append(value_loss.item())
                entropy_losses.append(entropy_loss.item())
                clip_fractions.append(((ratio - 1).abs() > clip_range).float().mean().item())
                with torch.no_grad():
                    log_ratio = log_prob - e_old[mb]
                    approx_kl = ((log_ratio.exp() - 1) - log_ratio).mean().item()
                approx_kls.append(approx_kl)
                if self.target_kl is not None and approx_kl > 1.5 * self.target_kl:
                    continue_training = False
                    break
                self.policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += 1
            if not continue_training:
                break
        self.rollout = None
        explained = explained_variance(rollout.values.reshape(-1), rollout.returns.reshape(-1))
        record = self.logger.record
        record("train/entropy_loss", float(np.mean(entropy_losses)))
        record("train/policy_gradient_loss", float(np.mean(pg_losses)))
        record("train/value_loss", float(np.mean(value_losses)))
        record("train/approx_kl", float(np.mean(approx_kls)) if approx_kls else 0.0)
        record("train/clip_fraction", float(np.mean(clip_fractions)))
        record("train/loss", loss.item())
        record("train/explained_variance", explained)
        record("train/n_updates", self._n_updates, exclude="tensorboard")
        record("train/clip_range", clip_range)
