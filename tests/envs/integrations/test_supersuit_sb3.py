"""SuperSuit ``pettingzoo_env_to_vec_env_v1`` -> SB3 ``VecEnv`` -> sb3-contrib ``MaskablePPO``,
through ``tablezoo.envs.integrations.sb3.MaskableVecEnv``: masked random steps on every env compared
with a replay on an untouched parallel env, and a short ``MaskablePPO.learn``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("supersuit")
pytest.importorskip("sb3_contrib")
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from tablezoo import envs
from tablezoo.envs.integrations.sb3 import MaskableVecEnv, maskable_vec_env
from tests.envs.integrations.integration_helpers import options, parallel_truth

STEPS = 300
SEED = 2


@pytest.mark.parametrize("name", envs.ENVS)
def test_vec_env_steps_match_the_parallel_env(name):
    venv = maskable_vec_env(name, seed=SEED, **options(name))
    agents = envs.make_parallel(name, **options(name)).possible_agents
    assert venv.num_envs == len(agents)  # one sub-env per seat
    assert is_masking_supported(venv)
    rng = np.random.default_rng(SEED)
    obs = venv.reset()
    seen, joints, ended_at, final = [], [], None, None
    for t in range(STEPS):
        masks = get_action_masks(venv)  # what MaskablePPO asks for
        assert masks.shape == (len(agents), venv.action_space.n)
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if ended_at is None:
            seen.append((obs, masks))
            joints.append(dict(zip(agents, actions.tolist())))
        obs, rewards, dones, infos = venv.step(actions)
        assert obs.shape == (len(agents), *venv.observation_space.shape)
        if dones.any():
            assert dones.all()  # every seat's episode ends together
            assert all(info["terminal_observation"].shape == obs.shape[1:] for info in infos)
            assert abs(rewards.sum()) < 1e-6  # zero-sum outcome
            if ended_at is None:
                ended_at, final = t, [info["terminal_observation"] for info in infos]
    truth = parallel_truth(name, SEED, joints)
    n = len(joints)
    assert len(truth) == n + 1 if ended_at is not None else len(truth) >= n
    for t in range(n):
        for i, agent in enumerate(agents):
            np.testing.assert_array_equal(seen[t][0][i], truth[t][0][agent][0])
            np.testing.assert_array_equal(seen[t][1][i], truth[t][0][agent][1].astype(bool))
    if final is not None:  # the last observation survives the automatic reset
        for i, agent in enumerate(agents):
            np.testing.assert_array_equal(final[i], truth[n][0][agent][0])


def test_maskable_ppo_learns_briefly_and_predicts_legal_actions():
    torch.set_num_threads(1)  # as tablezoo train does: far faster on a busy 2-core machine
    name = "bauer_trick_v0"
    venv = maskable_vec_env(name, num_vec_envs=2, **options(name))
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=128, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(2 * 64 * venv.num_envs)  # an illegal action would raise in the env
    assert model.num_timesteps >= 2 * 64 * venv.num_envs
    obs = venv.reset()
    for _ in range(50):
        masks = venv.action_masks()
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(venv.num_envs), actions].all()
        obs, *_ = venv.step(actions)


def test_maskable_vec_env_rejects_a_plain_vec_env():
    from stable_baselines3.common.env_util import make_vec_env

    with pytest.raises(ValueError, match="Dict observations"):
        MaskableVecEnv(make_vec_env("CartPole-v1", n_envs=1))
    with pytest.raises(ValueError, match="num_vec_envs"):
        maskable_vec_env("bower_v0", num_vec_envs=0)
