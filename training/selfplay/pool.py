"""The opponent pool of the single-agent view: who plays the seats the learner does not.

Entries are *factories* (seed -> fresh agent), so every seat of every episode gets its own agent
object: an agent with per-game memory can never leak it across seats. Self-play adds frozen
snapshots of the learner's own policy; ``max_snapshots`` keeps only the most recent ones so the
pool follows the learner instead of being dominated by early, weak copies.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.base import Agent
from tablezoo.agents.registry import factory_from_spec

AgentFactory = Callable[[int | None], Agent]


@dataclass
class PoolEntry:
    name: str
    make: AgentFactory
    weight: float = 1.0
    snapshot: bool = False


class OpponentPool:
    """A weighted list of agent factories; ``sample`` picks one entry for one seat.

    ``env_name`` is needed for game-specific agents (``heuristic``); ``None`` allows only the
    generic ones. ``num_players``, the count the games are played with, picks a ``trained``
    agent's model and checks a search's options against that count's defaults now, not at its
    first move.
    """

    def __init__(self, env_name: str | None, specs: Sequence[str] = ("random",),
                 max_snapshots: int = 5, num_players: int | None = None):
        if not specs:
            raise ValueError("opponent pool: give at least one agent spec, e.g. 'random'")
        self.env_name = env_name
        self.max_snapshots = max_snapshots
        self.entries: list[PoolEntry] = []
        for spec in specs:
            self.entries.append(PoolEntry(spec, factory_from_spec(spec, env_name, num_players)))

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def add_policy_snapshot(self, name: str, policy: Any, weight: float = 1.0) -> None:
        """Freeze a copy of ``policy`` (an sb3 policy) and let it play opponent seats."""
        from tablezoo.agents.learned.policy import PolicyAgent

        frozen = copy.deepcopy(policy)

        def make(seed: int | None) -> Agent:
            return PolicyAgent(model=frozen, seed=seed, deterministic=False)

        self.entries.append(PoolEntry(name, make, weight, snapshot=True))
        snapshots = [e for e in self.entries if e.snapshot]
        for old in snapshots[: max(0, len(snapshots) - self.max_snapshots)]:
            self.entries.remove(old)

    def add_checkpoint(self, path: str | Path, weight: float = 1.0) -> None:
        """A saved model as a frozen opponent (e.g. the checkpoints of an earlier run)."""
        from tablezoo.agents.learned.policy import load_model

        self.add_policy_snapshot(f"checkpoint:{Path(path).name}", load_model(path).policy,
                                 weight)

    def sample(self, rng: np.random.Generator) -> PoolEntry:
        if len(self.entries) == 1:
            return self.entries[0]
        cumulative = np.cumsum([e.weight for e in self.entries])
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        return self.entries[min(pick, len(self.entries) - 1)]
