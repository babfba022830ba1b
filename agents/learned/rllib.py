"""A policy trained by ``tablezoo rllib`` behind the agent protocol (``rllib:DIR``).

``DIR`` is the run's ``--out`` folder (its ``checkpoint/`` is used), a checkpoint folder written by
``Algorithm.save_to_path``, or the RLModule folder inside one. Ray and torch are imported only
when such an agent is built. The module is run on the CPU in this process (no Ray cluster needed);
sampling (``deterministic=False``) draws from the agent's own numpy generator.

Ray unpickles a checkpoint (``module_state.pkl``, ``class_and_ctor_args.pkl``): loading one runs
code from it, as loading an sb3 ``model.zip`` does, so load only checkpoints you made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids, only_noop
from tablezoo.envs.core.game import State


def module_dir(path: str | Path) -> Path:
    """The RLModule folder of a run folder, a checkpoint folder or the module folder itself."""
    from tablezoo.envs.integrations.rllib import SHARED_POLICY

    path = Path(path)
    candidates = [path / "checkpoint", path]
    for base in candidates:
        for sub in (Path("learner_group", "learner", "rl_module", SHARED_POLICY), Path()):
            folder = base / sub
            if (folder / "module_state.pkl").is_file() and (folder / "metadata.json").is_file():
                return folder
    raise FileNotFoundError(
        f"rllib agent: no RLModule checkpoint under {path} (expected DIR/checkpoint/, a folder "
        f"from Algorithm.save_to_path, or its learner_group/learner/rl_module/{SHARED_POLICY}/)"
    )


RAY_MISSING = ("needs Ray RLlib, which is not installed here: pip install -e \".[rllib]\" in a "
               "venv of its own (ray[rllib] pins gymnasium 1.2.2; README, Ray RLlib section)")


def load_module(path: str | Path) -> Any:
    """The trained masked PPO ``RLModule`` of ``path`` (see ``module_dir``), in eval mode."""
    try:
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ModuleNotFoundError:
        raise ValueError(f"agent 'rllib:{path}' {RAY_MISSING}") from None
    folder = module_dir(path)

    module = RLModule.from_checkpoint(folder)
    module.eval()
    return module


class RLlibAgent(BaseAgent):
    """Plays the action an RLlib masked-PPO module prefers among the legal ones."""

    name = "rllib"

    def __init__(
        self,
        path: str | Path | None = None,
        module: Any = None,
        seed: int | None = None,
        deterministic: bool = True,
    ):
        super().__init__(seed)
        if (path is None) == (module is None):
            raise ValueError("rllib agent: give exactly one of path= (a checkpoint) or module=")
        import torch
        from ray.rllib.core.columns import Columns

        self._torch, self._columns = torch, Columns
        self.module = load_module(path) if module is None else module
        self.num_ids = int(self.module.action_space.n)  # game actions + the NOOP id
        self.deterministic = deterministic

    def logits(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The module's masked logits for one observation (illegal ids at the float minimum)."""
        torch, cols = self._torch, self._columns
        mask = np.zeros(self.num_ids, np.float32)
        mask[: len(action_mask)] = action_mask[: self.num_ids]
        batch = {cols.OBS: {
            "observations": torch.as_tensor(np.asarray(observation, np.float32)[None]),
            "action_mask": torch.as_tensor(mask[None]),
        }}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        return out[cols.ACTION_DIST_INPUTS][0].numpy().astype(np.float64)

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        noop = self.num_ids - 1
        if only_noop(action_mask, noop):
            return noop
        legal = legal_ids(action_mask[:noop])
        if legal.size == 1:
            return int(legal[0])
        scores = self.logits(observation, action_mask)[legal]
        if self.deterministic:
            return int(legal[np.argmax(scores)])
        probs = np.exp(scores - scores.max())
        return int(legal[self.rng.choice(legal.size, p=probs / probs.sum())])
