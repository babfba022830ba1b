"""``strongest``: the strongest agent the library ships for a game and player count.

Each game names, per player count, the agent spec that beat the others head to head
(``GameAgents.strongest``, measured in ``agents/README.md``); where it names none, ``ismcts``
with its defaults is the strongest. The spec is picked at the first move of a game, from the
player count of the state the tool passes, and its agent is kept for the later games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.games import agents_of
from tablezoo.envs.core.game import State

# (spec, env name, seed) -> the agent: the registry's ``agent_from_spec``
SpecMaker = Callable[[str, str, int], BaseAgent]

DEFAULT = "ismcts"


def strongest_spec(env_name: str, num_players: int | None = None) -> str:
    """The spec of the strongest agent of ``env_name`` with ``num_players`` seats (``None``:
    the env's default count)."""
    if num_players is None:
        num_players = envs.make_game(env_name).num_players
    return agents_of(env_name).strongest.get(num_players, DEFAULT)


class StrongestAgent(BaseAgent):
    """Plays ``strongest_spec(env_name, players)`` for the game it is handed (see the module)."""

    name = "strongest"

    def __init__(self, seed: int | None = None, env_name: str | None = None,
                 make: SpecMaker | None = None):
        super().__init__(seed)
        if env_name is None or make is None:
            raise ValueError("agent 'strongest' is game-specific: make it with "
                             "make_agent('strongest', env_name=...)")
        self.env_name = env_name
        self._make = make
        self._agents: dict[int | None, BaseAgent] = {}  # player count -> its agent

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        for agent in self._agents.values():
            agent.reset(None if seed is None else int(self.rng.integers(2**63)))

    def spec_for(self, state: State | None) -> str:
        """The spec this agent plays in ``state``'s game."""
        return strongest_spec(self.env_name, None if state is None else state.game.num_players)

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            state: State | None = None, player: int | None = None) -> int:
        agent = self._agent(state)
        action = agent.act(observation, action_mask, state=state, player=player)
        self.last_iterations = agent.last_iterations
        return action

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None, player: int | None = None) -> Any:
        return self._agent(state).action_values(observation, action_mask, state=state,
                                                player=player)

    def _agent(self, state: State | None) -> BaseAgent:
        count = None if state is None else state.game.num_players
        if count not in self._agents:
            self._agents[count] = self._make(self.spec_for(state), self.env_name,
                                             int(self.rng.integers(2**63)))
        return self._agents[count]
