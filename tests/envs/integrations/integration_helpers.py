"""Ground truth for the integration tests: replay what a library did on a fresh tablezoo env.

A library stores observations in its own buffers; whether they are right is checked against an
env that nobody else touches, stepped with the same seed and the same actions, its arrays copied
at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tablezoo import envs

# Single deals keep bauer_trick episodes short (~33 decisions), as the training tools do.
OPTIONS: dict[str, dict[str, Any]] = {"bauer_trick_v0": {"episode": "deal"}}


def options(name: str) -> dict[str, Any]:
    return dict(OPTIONS.get(name, {}))


def aec_truth(name: str, seed: int, actions: Sequence[int]
              ) -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    """``(acting agent, observation, mask, global state)`` before each action and after the last
    one (until the episode ends: the list is shorter than ``len(actions) + 1`` then)."""
    env = envs.make(name, **options(name))
    env.reset(seed=seed)
    out = []
    for action in [*actions, None]:
        agent = env.agent_selection
        obs = env.observe(agent)
        out.append((agent, np.array(obs["observation"]), np.array(obs["action_mask"]),
                    np.array(env.state())))
        if action is None or env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(action))
    return out


def parallel_truth(name: str, seed: int, joint_actions: Sequence[dict[str, int]]
                   ) -> list[tuple[dict[str, tuple[np.ndarray, np.ndarray]], np.ndarray]]:
    """Every agent's ``(observation, mask)`` and the global state, after reset and after each
    joint action (until the episode ends)."""
    env = envs.make_parallel(name, **options(name))
    obs, _ = env.reset(seed=seed)
    out = []
    for joint in [*joint_actions, None]:
        out.append(({a: (np.array(o["observation"]), np.array(o["action_mask"]))
                     for a, o in obs.items()}, np.array(env.state())))
        if joint is None or not env.agents:
            break
        obs, *_ = env.step({a: int(x) for a, x in joint.items()})
    return out
