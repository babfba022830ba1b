"""The league's seats answered for many games at once, from the vector env's arrays.

Each (game, seat) of an episode has a controller code (``codes``): the learner, a network of
the league (``self`` or a frozen snapshot: one ``NumpyMLP`` forward pass over every row it
answers, then one masked softmax and one sampling pass over all network rows), ``random``
(uniform over the mask), ``heuristic`` where the game's agent record names a compiled heuristic
(``agents.games.batched_agents``: the agent's own decisions from the observation and mask), or
any other agent (asked row by row with the engine state, as the one-game
collector asks it).

Sampling draws one uniform per decision from the seat's own stream: ``uniforms(key, counter)``,
a counter-based generator (SplitMix64 of ``key + counter * golden ratio``), where ``key`` is
the league plan's seed for that seat and ``counter`` the seat's decisions so far in the episode.
A sequential loop that draws the same numbers plays the same games (tested).
"""

from __future__ import annotations

import numpy as np

LEARNER, RANDOM, HEURISTIC, AGENT = 0, 1, 2, 3
FIRST_NET = 4  # codes from here on: networks, by name (``Codes``)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
S30, S27, S31, S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


def uniforms(keys: np.ndarray, counters: np.ndarray) -> np.ndarray:
    """One uniform in [0, 1) per (key, counter) pair (uint64 arrays): SplitMix64's output
    function of ``key + counter * 0x9E3779B97F4A7C15``, top 53 bits."""
    z = np.asarray(keys, np.uint64) + np.asarray(counters, np.uint64) * GOLDEN
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    z = z ^ (z >> S31)
    return (z >> S11).astype(np.float64) * (1.0 / 2**53)


class Codes:
    """Controller codes: the fixed kinds, then one code per network name (``self`` and each
    snapshot; a snapshot keeps its code, and its weights stay with the episodes that drew it)."""

    def __init__(self) -> None:
        self.by_name: dict[str, int] = {}
        self.names: list[str] = []

    def of(self, name: str) -> int:
        code = self.by_name.get(name)
        if code is None:
            code = self.by_name[name] = FIRST_NET + len(self.names)
            self.names.append(name)
        return code

    def name(self, code: int) -> str:
        return self.names[code - FIRST_NET]

