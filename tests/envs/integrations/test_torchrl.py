"""TorchRL: ``PettingZooWrapper`` over the AEC env (``use_mask=True``, ``return_state=True`` for
``env.state()``) and over the parallel env, on every env: masked random rollouts (TorchRL samples
from the action spec, whose mask it updates from ``action_mask``), the stored data compared with
a replay on an untouched env.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torchrl")
import torch
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

from tablezoo import envs
from tests.envs.integrations.integration_helpers import aec_truth, options, parallel_truth

STEPS = 200
SEED = 5


def first_episode_length(rollout) -> int:
    done = rollout["next", "done"].reshape(-1).numpy()
    return int(np.argmax(done)) + 1 if done.any() else len(done)


@pytest.mark.parametrize("name", envs.ENVS)
def test_aec_wrapper_with_mask(name):
    env = PettingZooWrapper(env=envs.make(name, **options(name)), use_mask=True,
                            return_state=True, seed=SEED)
    torch.manual_seed(SEED)
    start = env.reset(seed=SEED)  # the seed reaches the tablezoo env's reset
    rollout = env.rollout(STEPS, auto_reset=False, tensordict=start, break_when_any_done=False)
    assert rollout.batch_size[0] == STEPS
    n = first_episode_length(rollout)
    groups = env.group_map  # one group per agent for an AEC env: index 0 in each is that agent
    acting, actions = [], []
    for t in range(STEPS):
        movers = [g for g in groups if rollout[t][g, "mask"].item()]
        assert len(movers) == 1, "exactly one agent acts per AEC step"
        g = movers[0]
        a = int(rollout[t][g, "action"][0])
        assert rollout[t][g, "action_mask"][0, a], "TorchRL sampled an action outside the mask"
        acting.append(g)
        actions.append(a)
    truth = aec_truth(name, SEED, actions[:n])
    assert len(truth) == n + 1
    for t in range(n):
        agent, obs, mask, state = truth[t]
        assert acting[t] == agent
        step = rollout[t][agent]
        np.testing.assert_array_equal(step["observation", "observation"][0].numpy(), obs)
        np.testing.assert_array_equal(step["action_mask"][0].numpy(), mask.astype(bool))
        np.testing.assert_array_equal(rollout[t]["state"].numpy(), state)  # env.state()
    rewards = sum(rollout["next", g, "reward"][:n].sum().item() for g in groups)
    assert abs(rewards) < 1e-6  # zero-sum game rewards, summed over the seats


@pytest.mark.parametrize("name", envs.ENVS)
def test_parallel_wrapper(name):
    env = PettingZooWrapper(env=envs.make_parallel(name, **options(name)), return_state=True,
                            seed=SEED)
    torch.manual_seed(SEED)
    start = env.reset(seed=SEED)  # the seed reaches the tablezoo env's reset
    rollout = env.rollout(STEPS, auto_reset=False, tensordict=start, break_when_any_done=False)
    n = first_episode_length(rollout)
    (group, agents), = env.group_map.items()  # player_0.. share the group "player"
    actions = rollout[group, "action"][:n].numpy()
    masks = rollout[group, "action_mask"].numpy()
    taken = np.take_along_axis(masks, rollout[group, "action"].numpy()[..., None], -1)
    assert taken.all(), "TorchRL sampled an action outside the mask"
    truth = parallel_truth(name, SEED, [dict(zip(agents, row)) for row in actions])
    assert len(truth) == n + 1
    obs = rollout[group, "observation", "observation"].numpy()
    for t in range(n):
        for i, agent in enumerate(agents):
            np.testing.assert_array_equal(obs[t, i], truth[t][0][agent][0])
            np.testing.assert_array_equal(masks[t, i], truth[t][0][agent][1].astype(bool))
        np.testing.assert_array_equal(rollout[t]["state"].numpy(), truth[t][1])
    noop = env.action_spec[group, "action"].space.n - 1
    waiting = masks[:n, :, noop]
    if name != "bauer_draft_v0" or waiting.any():  # turn-based: all but one seat wait each step
        assert waiting.any() and (actions[waiting] == noop).all()
