"""Tianshou: ``PettingZooEnv`` + ``Collector`` with masked random policies, on every env.

The reason for this test is issue 9's "silent data corruption": when the env refilled one
observation array per seat in place, the Collector stored ``obs == obs_next`` for 9% to 51% of
transitions. Here every stored transition is compared with a replay on an untouched env.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tianshou")
from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from tablezoo import envs
from tests.envs.integrations.integration_helpers import aec_truth, options

STEPS = 300
SEED = 11


@pytest.mark.parametrize("name", envs.ENVS)
def test_collector_stores_the_true_observations(name):
    def make() -> PettingZooEnv:
        return PettingZooEnv(envs.make(name, **options(name)))

    env = make()
    algos = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents]
    collector = Collector(MultiAgentOffPolicyAlgorithm(algorithms=algos, env=env),
                          DummyVectorEnv([make]), VectorReplayBuffer(STEPS, 1))
    collector.reset(gym_reset_kwargs={"seed": SEED})
    np.random.seed(SEED)  # Tianshou's random policy draws from numpy's global generator
    collector.collect(n_step=STEPS)
    buf = collector.buffer
    assert len(buf) == STEPS
    done = buf.done[:STEPS]
    first_end = int(np.argmax(done)) if done.any() else STEPS - 1
    acts = buf.act[: first_end + 1]
    truth = aec_truth(name, SEED, acts)
    assert len(truth) == first_end + 2  # the episode ends exactly where the buffer says
    differ = 0
    for t in range(first_end + 1):
        agent, obs, mask, _ = truth[t]
        assert buf.obs.agent_id[t] == agent
        np.testing.assert_array_equal(buf.obs.obs[t], obs)
        np.testing.assert_array_equal(buf.obs.mask[t], mask.astype(bool))
        assert mask[acts[t]] == 1  # the random policy obeyed the mask
        next_agent, next_obs, _, _ = truth[t + 1]
        assert buf.obs_next.agent_id[t] == next_agent
        np.testing.assert_array_equal(buf.obs_next.obs[t], next_obs)
        differ += not np.array_equal(buf.obs.obs[t], buf.obs_next.obs[t])
    assert differ > 0.5 * (first_end + 1)  # obs and obs_next are not one array stored twice
    # after the first episode the collector went on through resets: masks obeyed throughout
    assert all(buf.obs.mask[t][buf.act[t]] for t in range(STEPS))
