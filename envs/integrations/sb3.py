"""SuperSuit's vector env for sb3-contrib's ``MaskablePPO``: one shared policy for every seat.

``supersuit.pettingzoo_env_to_vec_env_v1`` turns a parallel env into a vector env with one
sub-env per seat, and ``concat_vec_envs_v1(..., base_class="stable_baselines3")`` makes it an
SB3 ``VecEnv``; its observations are still tablezoo's ``{"observation", "action_mask"}`` dicts.
``MaskableVecEnv`` is the missing piece: it hands the policy only ``"observation"`` and answers
``MaskablePPO``'s ``env_method("action_masks")`` with the masks of the last step. A seat that is
not deciding sees the parallel env's NOOP-only mask, so its step costs the policy nothing.

Observations and masks are copied when they arrive: SB3 stores the previous step's observation
after the next ``step``, so an array the env refills in place would be stored wrong.

Use::

    from sb3_contrib import MaskablePPO
    from tablezoo.envs.integrations.sb3 import maskable_vec_env
    venv = maskable_vec_env("bower_v0", num_vec_envs=4)
    MaskablePPO("MlpPolicy", venv, n_steps=256).learn(10_000)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import supersuit as ss
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

from tablezoo import envs

MASKS_METHOD = "action_masks"  # the name sb3-contrib's get_action_masks calls


class MaskableVecEnv(VecEnvWrapper):
    """Splits tablezoo's dict observations into the policy input and ``action_masks()``."""

    def __init__(self, venv: VecEnv):
        space = venv.observation_space
        if not (isinstance(space, spaces.Dict) and {"observation", "action_mask"} <= set(space)):
            raise ValueError(
                "MaskableVecEnv needs a vec env with Dict observations holding 'observation' and "
                f"'action_mask' (a tablezoo env through SuperSuit), got {space!r}"
            )
        super().__init__(venv, observation_space=space["observation"])
        self._masks = np.ones((venv.num_envs, venv.action_space.n), dtype=bool)
        self._seed: int | None = None

    def _split(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        self._masks = np.array(obs["action_mask"], dtype=bool)
        return np.array(obs["observation"])

    def reset(self) -> np.ndarray:
        seed, self._seed = self._seed, None
        inner = getattr(self.venv, "venv", None)
        if seed is not None and inner is not None:
            # SuperSuit's SB3 wrapper cannot seed (its seed() fails): reset the vector env it
            # wraps with the seed instead (its copy k is seeded with seed + k)
            obs, self.venv.reset_infos = inner.reset(seed=seed)
        else:
            obs = self.venv.reset()
        return self._split(obs)

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        for info in infos:
            final = info.get("terminal_observation")
            if isinstance(final, dict):
                info["terminal_observation"] = np.array(final["observation"])
        return self._split(obs), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-env, shape ``(num_envs, num_actions + 1)``."""
        return self._masks.copy()

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed the next ``reset`` (SB3's convention); later resets continue each env's own seeded
        generator, so a seeded run replays exactly."""
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == MASKS_METHOD or self.venv.has_attr(attr_name)

    def env_method(self, method_name: str, *args: Any, indices: VecEnvIndices = None,
                   **kwargs: Any) -> list[Any]:
        if method_name == MASKS_METHOD:
            return list(self._masks[list(self._get_indices(indices))])
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)


def maskable_vec_env(name: str, num_vec_envs: int = 1, seed: int | None = None,
                     **options: Any) -> MaskableVecEnv:
    """``num_vec_envs`` copies of the parallel env ``name`` as one SB3 ``VecEnv`` with
    ``num_vec_envs * num_players`` sub-envs (one per seat), ready for ``MaskablePPO``."""
    if num_vec_envs < 1:
        raise ValueError(f"num_vec_envs must be >= 1, got {num_vec_envs}")
    vec = ss.pettingzoo_env_to_vec_env_v1(envs.make_parallel(name, **options))
    sb3_vec = ss.concat_vec_envs_v1(vec, num_vec_envs, num_cpus=0, base_class="stable_baselines3")
    venv = MaskableVecEnv(sb3_vec)
    venv.seed(seed)
    return venv
