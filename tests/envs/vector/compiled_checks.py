"""Helpers the compiled engines' tests share: random legal actions from a mask, and everything a
caller can see of a vector env, to check that refused input changed nothing."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.vector.base import VectorEnv


def legal_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One random legal action per row of ``mask``."""
    return np.argmax(mask + rng.random(mask.shape), axis=1)


def snapshot(env: VectorEnv) -> tuple:
    """Everything a caller can see of ``env``: decisions, global states, every slot's position."""
    obs, mask, seat = env.observe()
    states = [env.get_state(i).to_dict() for i in range(env.num_envs)]
    for data in states:
        data.pop("rng")
    return obs, mask, seat, env.state(), states


def assert_same(a: tuple, b: tuple) -> None:
    """``a`` and ``b``, two ``snapshot``s, show the same."""
    for x, y in zip(a[:4], b[:4]):
        assert np.array_equal(x, y)
    assert a[4] == b[4]
