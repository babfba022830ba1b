"""Leaf evaluations for ``agents/ismcts.py`` at a depth cut-off: per-seat values in [-1, 1].

``"score"`` (every game) is the search's own score-margin value, so it maps to ``None`` here.
``"heuristic"`` uses a game's hand-written position value where one exists: bower's heuristic
scores a pair of nests in "egg tokens I expect to gain over the opponent" from one seat's
observation (materials, columns with the request probabilities it believes, egg tiles, gems,
holes). Its scores stay 0 until the end of the game, so the score margin says nothing there. Games
without such a value fall back to the score margin.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from envs.core.game import State

Evaluator = Callable[[State, int], Sequence[float]]
EVALUATOR_NAMES = ("score", "heuristic")


def leaf_evaluator(name: str, game_name: str, scale: float = 2.0) -> Evaluator | None:
    """The evaluator ``name`` for ``game_name``; ``None`` means the score margin."""
    if name not in EVALUATOR_NAMES:
        raise ValueError(f"ismcts agent: evaluator={name!r}; allowed: {', '.join(EVALUATOR_NAMES)}")
    if name == "heuristic" and game_name == "bower":
        return BowerValue(scale)
    return None


class BowerValue:
    """tanh(heuristic egg-difference estimate / ``scale``) for the searcher, the negative for the
    opponent (bower has two seats). Read from the searcher's observation of the sampled world,
    so it values the position with the searcher's beliefs, as the heuristic itself does."""

    def __init__(self, scale: float):
        from agents.heuristics.bower import HeuristicAgent

        self.scale = scale
        self.reader = HeuristicAgent(seed=0)  # only its evaluation is used: no random choice

    def __call__(self, state: State, player: int) -> list[float]:
        reader = self.reader
        reader._read(state.observe(player), state)
        v = math.tanh(reader._value(reader.nests[0]) / self.scale)
        out = [-v, -v]
        out[player] = v
        return out
