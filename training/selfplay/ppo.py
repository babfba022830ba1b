"""``CollectorPPO``: sb3-contrib's ``MaskablePPO`` with the learner's forward pass in the collector.

sb3's ``collect_rollouts`` runs the torch policy once per step in the main process, then steps the
environment. With ``--processes K`` the worker processes wait during that forward pass and the
main process waits while they play. PPO's weights do not change during a rollout, so this
subclass hands a numpy copy of the actor and the critic to the collector at the start of each
rollout (``set_learner``) and lets it answer the learner's seats itself (``learner_step``): in the
worker processes, in parallel, and in one process without a torch call per step. What goes into
the rollout buffer is what sb3's loop stores (observations, actions, rewards, episode starts,
values, log-probabilities, masks; the timeout bootstrap and the last values from the torch
critic), and the PPO update (``train``) is sb3's own, unchanged. The actions are sampled from the
collector's generator instead of torch's (the same distribution; tested against the torch policy's
probabilities and values).

With ``--processes K`` the workers play the whole rollout straight through (``start_rollout``)
and stream it back while this loop fills the buffer. Callbacks therefore must not send the env
commands in ``on_step``; the league adds its snapshots at rollout ends.

An environment without ``learner_step`` (any other VecEnv) gets sb3's own loop.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import obs_as_tensor

from tablezoo.training.shipping.export import mlp_from_policy, value_mlp_from_policy


class CollectorPPO(MaskablePPO):
    """``MaskablePPO`` whose rollouts the batched collector plays, learner seats included."""

    collector_forward = True  # False: sb3's own rollout loop (for comparison)

    def collect_rollouts(self, env: Any, callback: BaseCallback, rollout_buffer: Any,
                         n_rollout_steps: int, use_masking: bool = True) -> bool:
        if not (self.collector_forward and use_masking and hasattr(env, "learner_step")
                and hasattr(env, "start_rollout")):
            return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps,
                                            use_masking)
        import torch

        assert self._last_obs is not None, "No previous observation was provided"
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        env.set_learner(mlp_from_policy(self.policy), value_mlp_from_policy(self.policy))
        callback.on_rollout_start()
        env.start_rollout(n_rollout_steps)
        n_steps = 0
        new_obs, dones = self._last_obs, self._last_episode_starts
        try:
            while n_steps < n_rollout_steps:
                (new_obs, rewards, dones, infos, action_masks, actions, values,
                 log_probs) = env.learner_step()
                self.num_timesteps += env.num_envs
                callback.update_locals(locals())
                if not callback.on_step():
                    self._cancel_rollout(env, new_obs, dones)
                    return False
                self._update_info_buffer(infos, dones)
                n_steps += 1
                self._bootstrap_timeouts(rewards, dones, infos)
                rollout_buffer.add(self._last_obs, actions.reshape(-1, 1), rewards,
                                   self._last_episode_starts, torch.as_tensor(values),
                                   torch.as_tensor(log_probs, dtype=torch.float32),
                                   action_masks=action_masks)
                self._last_obs = new_obs
                self._last_episode_starts = dones
        except BaseException:  # e.g. Ctrl-C: leave the workers listening, then re-raise
            with contextlib.suppress(Exception):  # a dead worker: the first error is the news
                self._cancel_rollout(env, new_obs, dones)
            raise
        with torch.no_grad():
            last_values = self.policy.predict_values(obs_as_tensor(new_obs, self.device))
        rollout_buffer.compute_returns_and_advantage(last_values=last_values, dones=dones)
        callback.on_rollout_end()
        return True

    def _cancel_rollout(self, env: Any, obs: np.ndarray, dones: np.ndarray) -> None:
        """A callback stopped the rollout (e.g. ``--max-minutes``): the steps the workers
        already played beyond it are dropped (each stops at its next step), and the next
        rollout starts from where the games really stand."""
        self._last_obs, self._last_episode_starts = env.cancel_rollout(obs, dones)

    def _bootstrap_timeouts(self, rewards: np.ndarray, dones: np.ndarray,
                            infos: list[dict[str, Any]]) -> None:
        """A game cut by its decision limit is not lost: add the discounted value of where it
        stopped (sb3's rule, its issue #633)."""
        import torch

        for idx, done in enumerate(dones):
            info = infos[idx]
            if (done and info.get("terminal_observation") is not None
                    and info.get("TimeLimit.truncated", False)):
                terminal = self.policy.obs_to_tensor(info["terminal_observation"])[0]
                with torch.no_grad():
                    rewards[idx] += self.gamma * self.policy.predict_values(terminal)[0]
