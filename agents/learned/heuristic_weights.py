"""Evolved heuristic weights: a ``trained`` model that is a heuristic with learned parameters.

Where a game's hand-written heuristic is already a well-calibrated evaluation (bower: one-ply
search on an expected-egg position value), networks trained on its games have only learned to
copy it, imperfectly. The parameters of that evaluation (how much a bonus tile is worth, how
hard to read the opponent's columns, ...) are hand-tuned guesses, though, and evolution
strategies can fit them to game outcomes (``training/evolution/cma_es.py``: CMA-ES against the
default heuristic). The result is a small model in the same sense as a network: learned numbers in a
``.npz``, a card next to it, played by ``make_agent("trained")`` with numpy only.

File format: ``NAME.npz`` holds ``names`` (unicode) and ``values`` (float64), nothing
pickled; ``NAME.json`` is the card (``"format": FORMAT``, env, player count, training command,
budget, wall time, seed, measured strength). A file for another env, with parameters the env's
heuristic does not take, or with non-finite values is refused with a message naming the
problem and the allowed values.
"""

from __future__ import annotations

import inspect
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.base import BaseAgent
from tablezoo.agents.games import heuristic_class
from tablezoo.agents.learned.model_files import (
    ArraySpec,
    ModelFileError,
    ModelMismatchError,
    card_game,
    read_arrays,
    read_card,
)
from tablezoo.envs.core.game import State

FORMAT = "tablezoo-heuristic-weights-v1"


def heuristic_parameters(env_name: str) -> dict[str, float]:
    """The tunable numeric parameters of ``env_name``'s heuristic with their defaults."""
    sig = inspect.signature(heuristic_class(env_name))
    return {n: float(p.default) for n, p in sig.parameters.items()
            if n not in ("self", "seed") and isinstance(p.default, (int, float))
            and not isinstance(p.default, bool)}


def check_parameters(env_name: str, params: dict[str, float], where: str) -> None:
    """Refuse parameters the heuristic of ``env_name`` does not take, or non-finite values."""
    allowed = heuristic_parameters(env_name)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"{where}: the {env_name} heuristic has no parameter(s) "
                         f"{', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    bad = sorted(n for n, v in params.items() if not math.isfinite(v))
    if bad:
        raise ValueError(f"{where}: parameter(s) {', '.join(bad)} are not finite numbers")


@dataclass
class HeuristicWeights:
    """``env``'s heuristic with ``params`` in place of its defaults (the others stay)."""

    env: str
    params: dict[str, float]
    card: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_parameters(self.env, self.params, "heuristic weights")

    def make_heuristic(self, seed: int | None = None) -> BaseAgent:
        return heuristic_class(self.env)(seed=seed, **self.params)

    def describe(self) -> str:
        return ", ".join(f"{n}={v:.3g}" for n, v in sorted(self.params.items()))

    def save(self, path: str | Path, card: dict[str, Any] | None = None) -> Path:
        """Write ``path`` (.npz: ``names`` and ``values``) and its card (.json)."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        names = sorted(self.params)
        np.savez(path, names=np.array(names, dtype=str),
                 values=np.array([self.params[n] for n in names], dtype=np.float64))
        full = {**self.card, **(card or {}), "format": FORMAT, "env": self.env,
                "parameters": {n: self.params[n] for n in names},
                "defaults": heuristic_parameters(self.env)}
        self.card = full
        path.with_suffix(".json").write_text(json.dumps(full, indent=2, default=str) + "\n")
        return path


def load_weights(path: str | Path, env_name: str | None = None) -> HeuristicWeights:
    """Read a heuristic-weights ``.npz`` + card; refuse it for another ``env_name``."""
    path = Path(path).with_suffix(".npz")
    if not path.is_file():
        raise FileNotFoundError(f"trained agent: no model file at {path}")
    card_path = path.with_suffix(".json")
    if not card_path.is_file():
        raise ModelFileError(f"{path}: a {FORMAT} model needs its card {card_path.name}")
    card = read_card(path)
    model_env = card.get("env")
    if env_name is not None and model_env != env_name:
        raise ModelMismatchError(
            f"{path} was trained for env {model_env!r}, not for env {env_name!r}")
    card_game(path, card)  # an env the card names, played by its num_players
    data = read_arrays(path, weights_layout(str(model_env)), f"{FORMAT} file")
    names, values = data["names"], data["values"]
    if names.shape != values.shape or names.ndim != 1:
        raise ModelFileError(f"{path}: names {names.shape} and values {values.shape} must be "
                             "two 1-d arrays of the same length")
    return HeuristicWeights(str(model_env), {str(n): float(v) for n, v in zip(names, values)},
                            card)


def weights_layout(env_name: str) -> dict[str, ArraySpec]:
    """The arrays of a weights file for ``env_name``: at most one name (no longer than the
    heuristic's longest parameter name) and one float64 value per parameter of its heuristic."""
    allowed = sorted(heuristic_parameters(env_name))
    longest = max(map(len, allowed), default=1)
    return {"names": ArraySpec((len(allowed),), np.dtype(f"U{longest}"), at_most=True,
                               note=f"the {env_name} heuristic's: {', '.join(allowed)}"),
            "values": ArraySpec((len(allowed),), np.dtype(np.float64), at_most=True)}


class WeightedHeuristicAgent(BaseAgent):
    """Plays a ``HeuristicWeights`` model: the env's heuristic built with its parameters."""

    name = "trained"

    def __init__(self, weights: HeuristicWeights, seed: int | None = None):
        super().__init__(seed)
        self.weights = weights
        self.heuristic = weights.make_heuristic(seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.heuristic.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            state: State | None = None, player: int | None = None) -> int:
        return self.heuristic.act(observation, action_mask, state=state, player=player)

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None,
                      player: int | None = None) -> dict[int, float] | None:
        """The heuristic's own ``action_values`` under the learned parameters (a search ranks
        candidates by them); ``None``, as on the heuristic, where the heuristic has none."""
        return self.heuristic.action_values(observation, action_mask, state, player)
