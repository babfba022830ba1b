"""CPU time per decision is recorded for real choices only, with search iterations."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.registry import make_agent
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.timing import TimedAgent, format_ms, timing_summary


def test_timed_agent_records_exactly_the_decisions_with_a_choice_and_keeps_the_actions():
    game = envs.make_game("bauer_trick_v0", episode="deal")
    seconds: list[float] = []
    iterations: list[int] = []
    choices = []

    class Counting:
        name = "counting"

        def __init__(self):
            self.inner = make_agent("ismcts", env_name="bauer_trick_v0", iterations=5)

        @property
        def last_iterations(self):
            return self.inner.last_iterations

        def reset(self, seed=None):
            self.inner.reset(seed)

        def act(self, observation, action_mask, state=None, player=None):
            choices.append(int(np.count_nonzero(action_mask)))
            return self.inner.act(observation, action_mask, state=state, player=player)

    timed = [TimedAgent(Counting(), seconds, iterations)] + [
        make_agent("heuristic", env_name="bauer_trick_v0") for _ in range(3)]
    plain = [Counting()] + [make_agent("heuristic", env_name="bauer_trick_v0")
                            for _ in range(3)]
    timed_results = [play_game(game, timed, seed) for seed in range(4)]
    real = [c for c in choices if c > 1]
    assert timed_results == [play_game(game, plain, seed) for seed in range(4)]
    assert len(seconds) == len(iterations) == len(real) > 0
    assert set(iterations) == {5}
    summary = timing_summary(seconds, iterations)
    assert summary["decisions"] == len(real)
    assert summary["cpu_ms_p90"] >= summary["cpu_ms_median"] >= 0
    assert summary["iterations_per_s"] > 0
    assert timing_summary([], []) is None


@pytest.mark.parametrize("ms, shown", [(0.0523, "0.052"), (4.213, "4.21"), (12.34, "12.3"),
                                       (303.4, "303"), (1234.5, "1234"), (9.9999, "10.0"),
                                       (99.96, "100"), (0.0001, "< 0.001")])
def test_milliseconds_keep_about_three_significant_digits(ms, shown):
    """A fast agent's time read "median 0 ms" when printed in whole milliseconds."""
    assert format_ms(ms) == shown
