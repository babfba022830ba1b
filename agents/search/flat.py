"""A generic information-set Monte-Carlo agent, usable for every game through the engine ``State``.

For each legal action it plays out random continuations from *determinized* copies of the
position (``state.determinize(me, rng)``: hidden information re-sampled from what ``me`` has
seen), so it never peeks at cards it could not know. The same sampled worlds are reused for every
candidate action (common random numbers), which makes the comparison between actions much less
noisy for the same budget. The budget is the number of rollouts per decision.

Registered as ``flat_search`` (``search`` is kept as an alias): a cheap baseline without a tree.
The documented search agent is ``ismcts`` (``agents/search/ismcts.py``).
"""

from __future__ import annotations

import numpy as np

from tablezoo.agents.base import BaseAgent, acting_seat, search_preamble
from tablezoo.envs.core.game import State


class SearchAgent(BaseAgent):
    """Determinized flat Monte-Carlo: the action whose random rollouts return most for ``me``."""

    name = "flat_search"

    def __init__(
        self, seed: int | None = None, rollouts: int = 64, max_depth: int | None = None
    ):
        super().__init__(seed)
        if type(rollouts) is not int or rollouts < 1:
            raise ValueError(f"search agent: rollouts={rollouts!r}; expected an int >= 1")
        if max_depth is not None and (type(max_depth) is not int or max_depth < 1):
            raise ValueError(f"search agent: max_depth={max_depth!r}; expected None or int >= 1")
        self.rollouts = rollouts
        self.max_depth = max_depth

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        forced, ids = search_preamble("search", action_mask, state)
        if forced is not None:
            return forced
        me = acting_seat(state, player)
        worlds = max(1, self.rollouts // ids.size)
        samples = [state.determinize(me, self.rng) for _ in range(worlds)]
        start = state.returns()[me]
        totals = np.zeros(ids.size)
        for i, action in enumerate(ids):
            for world in samples:
                sim = world.clone()
                joint = {
                    p: int(action) if p == me else self._random_action(sim, p)
                    for p in sim.acting_players()
                }
                sim.apply(joint)
                self._rollout(sim)
                totals[i] += sim.returns()[me] - start
        best = np.flatnonzero(totals == totals.max())
        return int(ids[best[self.rng.integers(best.size)]])

    def _random_action(self, state: State, player: int) -> int:
        legal = np.flatnonzero(state.legal_mask(player))
        return int(legal[self.rng.integers(legal.size)])

    def _rollout(self, state: State) -> None:
        """Random play to the end of the game (or ``max_depth`` joint decisions)."""
        limit = self.max_depth if self.max_depth is not None else state.game.max_decisions
        for _ in range(limit):
            if state.is_over():
                return
            state.apply({p: self._random_action(state, p) for p in state.acting_players()})
