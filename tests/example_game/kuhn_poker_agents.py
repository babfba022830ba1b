"""The example game's agent parts (a real game's ``agents/games/<game>/__init__.py``): a
heuristic, which ISMCTS also plays its playouts with, and ISMCTS's defaults."""

from __future__ import annotations

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids
from tablezoo.agents.games import GameAgents
from tablezoo.agents.search.defaults import GameDefaults
from tablezoo.envs.core.game import State

PASS, BET = 0, 1


class KuhnHeuristic(BaseAgent):
    """Bets or calls with the best card, passes with the worst, and with a middle card checks,
    or calls a bet one time in three. Reads the observation's ``now`` piece alone."""

    name = "heuristic"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None,
            player: int | None = None) -> int:
        strength, bet_made = observation[0], observation[1]
        if strength == 1.0 or (strength > 0.0 and bet_made and self.rng.random() < 1 / 3):
            wanted = BET
        else:
            wanted = PASS
        legal = legal_ids(action_mask)
        return wanted if wanted in legal else int(legal[0])


AGENTS = GameAgents(heuristic=KuhnHeuristic,
                    search=GameDefaults(iterations=200, playout="heuristic"))
