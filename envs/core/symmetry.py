"""Symmetries of a game: relabellings that map every position to an equivalent one.

A symmetry renames parts of the game (in ``bauer_trick``, the suits) so that the rules, the
returns and each seat's information are unchanged; only the ids in the observation and the
action table move. Training can then show a network every position under each relabelling,
which multiplies the data without playing a single extra game (AlphaGo Zero trained on the eight
rotations and reflections of the Go board the same way).

Both tables are *gather* indices, one row per symmetry (row 0 the identity): for symmetry ``k``
the relabelled position's observation is ``obs[observation[k]]``, its legal mask
``mask[action[k]]``, and any per-action vector (values, logits targets) moves the same way; an
action ``a`` of the original position is ``inverse_action(k)[a]`` there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Symmetries:
    observation: np.ndarray  # (k, obs_size) intp: gather index of each relabelled observation
    action: np.ndarray       # (k, num_actions) intp: gather index of each per-action vector

    def __post_init__(self) -> None:
        obs, act = np.asarray(self.observation), np.asarray(self.action)
        if obs.ndim != 2 or act.ndim != 2 or len(obs) != len(act) or len(obs) < 1:
            raise ValueError(f"symmetries: observation {obs.shape} and action {act.shape} "
                             "tables need one row per symmetry each")
        for name, table in (("observation", obs), ("action", act)):
            width = table.shape[1]
            if any(sorted(row) != list(range(width)) for row in table.tolist()):
                raise ValueError(f"symmetries: every {name} row must be a permutation of "
                                 f"0..{width - 1}")
            if not np.array_equal(table[0], np.arange(width)):
                raise ValueError(f"symmetries: row 0 of the {name} table must be the identity")

    def __len__(self) -> int:
        return len(self.observation)

    def inverse_action(self, k: int) -> np.ndarray:
        """Where each action of the original position goes under symmetry ``k``."""
        inverse = np.empty_like(self.action[k])
        inverse[self.action[k]] = np.arange(self.action.shape[1])
        return inverse

    def input_table(self, width: int) -> np.ndarray:
        """The gather table of a network input ``width`` wide: the observation, or the
        observation followed by an advice one-hot (``with_advice``)."""
        size, actions = self.observation.shape[1], self.action.shape[1]
        if width == size:
            return self.observation
        if width == size + actions:
            return self.with_advice()
        raise ValueError(f"symmetries for observations of {size} (or {size + actions} with "
                         f"advice); got inputs of {width}")

    def with_advice(self) -> np.ndarray:
        """The observation table of an advised network's input (``agents.learned.advice``): the
        observation followed by a one-hot over the actions, which moves like an action."""
        width = self.observation.shape[1]
        return np.concatenate([self.observation, width + self.action], axis=1)
