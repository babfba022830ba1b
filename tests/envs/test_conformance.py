"""Random simulation of every env case through the engine protocol (``envs.core.conformance``):
thousands of seeded games checking masks, legality, rejections without state change, clone and
JSON round-trips, scores against breakdowns, observations unchanged by ``determinize``, and
termination within ``max_decisions``."""

from __future__ import annotations

import pytest

from tablezoo import envs
from tablezoo.envs.core.conformance import random_playthrough
from tests.envcases import sim_chunks


@pytest.mark.parametrize(("name", "options", "start", "stop"), sim_chunks())
def test_random_games(name, options, start, stop):
    game = envs.make_game(name, **options)
    longest = 0
    for seed in range(start, stop):
        stats = random_playthrough(game, seed, deep_checks=2)
        assert stats.terminal or stats.truncated
        longest = max(longest, stats.decisions)
    assert longest <= game.max_decisions
