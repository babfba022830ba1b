"""A trained ``MaskablePPO`` policy behind the agent protocol.

torch and sb3-contrib are imported only when a policy agent is built, so ``import agents`` works
without the training extras. The agent accepts either a saved model (``path`` to ``model.zip``)
or a live policy object (used for the frozen self-play snapshots). Sampling (when not
``deterministic``) draws from the agent's own numpy generator, not torch's global one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.base import BaseAgent, legal_ids, only_noop
from envs.core.game import State


def load_model(path: str | Path) -> Any:
    """Load a ``MaskablePPO`` zip on the CPU; a clear error if the file is missing."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"policy agent: no model file at {path}")
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(str(path), device="cpu")


class PolicyAgent(BaseAgent):
    """Plays the action a MaskablePPO policy prefers among the legal ones."""

    name = "policy"

    def __init__(
        self,
        path: str | Path | None = None,
        model: Any = None,
        seed: int | None = None,
        deterministic: bool = True,
    ):
        super().__init__(seed)
        if (path is None) == (model is None):
            raise ValueError("policy agent: give exactly one of path= (a model.zip) or model=")
        import torch

        self._torch = torch
        if model is None:
            model = load_model(path)
        self.policy = getattr(model, "policy", model)
        self.policy.set_training_mode(False)
        self.num_actions = int(self.policy.action_space.n)
        self.deterministic = deterministic
        self.path = None if path is None else str(path)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The masked policy distribution over the game's actions (illegal ones get 0)."""
        torch = self._torch
        mask = np.asarray(action_mask[: self.num_actions], dtype=bool).reshape(1, -1)
        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32).reshape(1, -1))
        with torch.no_grad():
            dist = self.policy.get_distribution(obs, action_masks=mask)
            return dist.distribution.probs[0].cpu().numpy().astype(np.float64)

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        if only_noop(action_mask, self.num_actions):
            return self.num_actions
        legal = legal_ids(action_mask[: self.num_actions])
        if legal.size == 1:
            return int(legal[0])
        probs = self.action_probabilities(observation, action_mask)[legal]
        if self.deterministic:
            return int(legal[np.argmax(probs)])
        return int(legal[self.rng.choice(legal.size, p=probs / probs.sum())])
