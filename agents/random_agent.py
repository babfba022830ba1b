"""The uniform random baseline: every agent and every trained model is compared with it."""

from __future__ import annotations

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids
from tablezoo.envs.core.game import State


class RandomAgent(BaseAgent):
    """Picks uniformly among the ids its mask allows, from its own seeded generator."""

    name = "random"

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        ids = legal_ids(action_mask)
        return int(ids[self.rng.integers(ids.size)])
