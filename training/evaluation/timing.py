"""CPU time per decision of an agent, for the figures the README reports next to strength.

``TimedAgent`` wraps any agent and records the process CPU time of each ``act`` that had a real
choice (two or more legal actions: forced moves are answered without thinking and would only
pull the median down), and, for search agents that report ``last_iterations``, the iterations
run. ``timing_summary`` turns the records into median / p90 milliseconds and iterations/s.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from tablezoo.agents.base import Agent


class TimedAgent:
    """``agent`` with a CPU-time record of its real decisions (shared lists, so one record can
    collect every copy the evaluation creates)."""

    def __init__(self, agent: Agent, seconds: list[float], iterations: list[int]):
        self.agent = agent
        self.name = agent.name
        self.seconds = seconds
        self.iterations = iterations

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None,
            player: int | None = None) -> int:
        start = time.process_time()
        action = self.agent.act(observation, action_mask, state=state, player=player)
        spent = time.process_time() - start
        if np.count_nonzero(action_mask) > 1:
            self.seconds.append(spent)
            self.iterations.append(int(self.agent.last_iterations or 0))
        return action


def timing_summary(seconds: list[float], iterations: list[int]) -> dict[str, float] | None:
    """Median and p90 CPU milliseconds per real decision, and iterations per CPU second (search
    agents only); ``None`` when nothing was recorded."""
    if not seconds:
        return None
    t = np.asarray(seconds)
    out = {"decisions": int(t.size), "cpu_ms_median": float(np.median(t) * 1000),
           "cpu_ms_p90": float(np.percentile(t, 90) * 1000)}
    total_iterations = int(np.sum(iterations))
    if total_iterations and t.sum() > 0:
        out["iterations_per_s"] = float(total_iterations / t.sum())
    return out


def format_ms(ms: float) -> str:
    """Milliseconds to about three significant digits without an exponent: a heuristic's
    0.05 ms a decision printed as whole milliseconds read "0 ms"."""
    for floor, decimals in ((100, 0), (10, 1), (1, 2), (0.0005, 3)):
        if round(ms, decimals) >= floor:  # 9.9996 is "10.0", not "10.00"
            return f"{ms:.{decimals}f}"
    return "< 0.001"
