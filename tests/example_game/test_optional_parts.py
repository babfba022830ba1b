"""A record needs only ``env_id`` and ``game``: the example game registered without its views,
picture and agent parts still makes envs that pass PettingZoo's tests, and each missing part is
refused by name where a tool asks for it."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test

from tablezoo import envs
from tablezoo.envs.core.conformance import random_playthrough
from tests.example_game.kuhn_poker import KuhnGame


class BareKuhnGame(KuhnGame):
    """The example's engine under a record of its own that names nothing optional."""

    name = "bare_kuhn_poker"


@pytest.fixture
def bare():
    envs.register(envs.GameSpec(env_id="bare_kuhn_poker_v0", game=BareKuhnGame))
    yield "bare_kuhn_poker_v0"
    envs.unregister("bare_kuhn_poker_v0")


def test_a_record_of_env_id_and_game_alone_makes_working_envs(bare):
    for seed in range(20):
        random_playthrough(envs.make_game(bare), seed)
    api_test(envs.make(bare), num_cycles=200)
    parallel_api_test(envs.make_parallel(bare), num_cycles=200)
    render_test(lambda render_mode=None: envs.make(bare, render_mode=render_mode))
    assert "rgb_array" not in envs.make(bare).metadata["render_modes"]
    vec = envs.make_vector(bare, 3, seed=0)
    _, mask, _ = vec.reset()
    vec.step(np.array([np.flatnonzero(m)[0] for m in mask]))


def test_the_missing_parts_are_refused_by_name(bare):
    from tablezoo.agents import make_agent

    state = envs.make_game(bare).new_state(0)
    with pytest.raises(NotImplementedError, match="no text views"):
        state.game.text_views()
    with pytest.raises(NotImplementedError, match="names no picture"):
        state.to_svg()
    with pytest.raises(envs.core.InvalidOptionError, match="rgb_array"):
        envs.make(bare, render_mode="rgb_array")
    with pytest.raises(ValueError, match="no heuristic agent for env 'bare_kuhn_poker_v0'"):
        make_agent("heuristic", env_name=bare)
