"""The generic PettingZoo parallel environment over any tablezoo ``Game``.

Every live agent sends an action each step. Agents that must decide now (``acting_players``) send
a legal game action; the others get a mask that allows only ``NOOP`` (id ``num_actions``) and may
send it or leave their entry out. For a turn-based game a step is one decision; for simultaneous
phases (``bauer_draft``'s selection) it is the joint decision of every acting seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from envs.core.errors import IllegalActionError
from envs.core.game import Game, State
from envs.core.spaces import MASK_DTYPE, action_space, agent_names, observation_space
from envs.core.stepping import (
    RENDER_MODES,
    as_action_id,
    check_render_mode,
    initial_state,
    render,
)


class TablezooParallelEnv(ParallelEnv):
    """Parallel view of a ``Game``; ``state`` is the engine position."""

    def __init__(self, game: Game, env_name: str, render_mode: str | None = None):
        check_render_mode(env_name, render_mode)
        self.game = game
        self.render_mode = render_mode
        self.metadata = {"render_modes": list(RENDER_MODES), "name": env_name}
        self.possible_agents = agent_names(game)
        self.agents: list[str] = []
        self.observation_spaces = {a: observation_space(game) for a in self.possible_agents}
        self.action_spaces = {a: action_space(game) for a in self.possible_agents}
        self.noop = game.num_actions
        self._obs = [game.obs_spec.zeros() for _ in self.possible_agents]
        self._masks = [np.zeros(game.num_actions + 1, MASK_DTYPE) for _ in self.possible_agents]
        self._np_random: np.random.Generator | None = None
        self.state: State | None = None

    def __str__(self) -> str:
        return self.metadata["name"]

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a new game. ``options={"state": saved}`` starts from a ``to_dict`` position."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.state = initial_state(self.game, self._np_random, options, self.metadata["name"])
        self.agents = self.possible_agents[:]
        self._returns = list(self.state.returns())
        self._decisions = 0
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, Any]):
        state = self.state
        if not self.agents:
            raise IllegalActionError(f"{self}: the episode is over; call reset()")
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise IllegalActionError(
                f"{self}: actions for unknown or finished agents {unknown}; live agents: "
                f"{self.agents}"
            )
        joint: dict[int, int] = {}
        acting = state.acting_players()
        for p, agent in enumerate(self.possible_agents):
            sent = actions.get(agent)
            if p in acting:
                if sent is None:
                    raise state.illegal(p, None, f"{agent} must act now")
                joint[p] = as_action_id(state, p, sent)
            elif sent is not None and as_action_id(state, p, sent) != self.noop:
                raise state.illegal(p, sent, f"{agent} is not acting; send NOOP ({self.noop})")
        state.apply(joint)
        self._decisions += 1

        returns = state.returns()
        rewards = {
            agent: float(returns[p] - self._returns[p])
            for p, agent in enumerate(self.possible_agents)
        }
        self._returns = list(returns)
        over = state.is_over() or self._decisions >= self.game.max_decisions
        terminated = over and state.is_terminal()
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, over and not terminated)
        observations = self._observations()
        infos = {agent: {} for agent in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        state = self.state
        acting = state.acting_players()
        out = {}
        for p, agent in enumerate(self.possible_agents):
            mask = self._masks[p]
            if p in acting:
                mask[:-1] = state.legal_mask(p)
                mask[-1] = 0
            else:
                mask[:] = 0
                mask[-1] = 1
            out[agent] = {"observation": state.observe(p, out=self._obs[p]), "action_mask": mask}
        return out

    def render(self) -> str | None:
        return render(self.state, self.render_mode)

    def close(self) -> None:
        pass
