"""Same seed, same trajectory, whatever the global ``random`` and ``numpy.random`` do."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tablezoo import envs
from tests.envcases import cases


def trajectory(name, options, seed, stir):
    env = envs.make(name, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for agent in env.agent_iter(3000):
        obs, reward, term, trunc, _ = env.last()
        if stir:
            random.seed(len(out))
            random.random()
            np.random.seed(len(out) + 1)
            np.random.random(3)
        if term or trunc:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        out.append((agent, action, reward, obs["observation"].tobytes(),
                    obs["action_mask"].tobytes()))
        env.step(action)
    return out


@pytest.mark.parametrize(("name", "options"), cases())
def test_same_seed_same_trajectory_with_global_rngs_stirred(name, options):
    first = trajectory(name, options, 11, stir=False)
    second = trajectory(name, options, 11, stir=True)
    assert first == second
    other = trajectory(name, options, 12, stir=False)
    assert other != first


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_env_same_seed_same_observations(name, options):
    def run(stir):
        env = envs.make_parallel(name, **options)
        obs, _ = env.reset(seed=4)
        rng = np.random.default_rng(4)
        seen = []
        for _ in range(200):
            if not env.agents:
                break
            if stir:
                np.random.seed(len(seen))
                random.seed(len(seen))
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                       for a in env.agents}
            obs, rewards, *_ = env.step(actions)
            seen.append([(a, o["observation"].tobytes(), rewards[a]) for a, o in obs.items()])
        return seen

    assert run(False) == run(True)
