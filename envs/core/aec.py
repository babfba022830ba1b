"""The generic PettingZoo AEC environment over any tablezoo ``Game``.

Written to be lean, because it sits on the hot path of every training run: observation and mask
buffers are allocated once per agent and refilled in place (``observe`` returns the same arrays
each call: copy them if you keep them across steps), rewards are only touched when a seat's
return changes, and actions and options are validated here, not by a wrapper stack.

Simultaneous decisions (several acting players) are asked one agent at a time; the actions are
held back and applied together when the last acting agent has answered, so no agent sees another's
choice early.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from envs.core.game import Game, State
from envs.core.spaces import MASK_DTYPE, action_space, agent_names, observation_space
from envs.core.stepping import (
    RENDER_MODES,
    as_action_id,
    check_render_mode,
    initial_state,
    render,
)


class TablezooAECEnv(AECEnv):
    """AEC view of a ``Game``: one agent acts per ``step``; ``state`` is the engine position."""

    def __init__(self, game: Game, env_name: str, render_mode: str | None = None):
        super().__init__()
        check_render_mode(env_name, render_mode)
        self.game = game
        self.render_mode = render_mode
        self.metadata = {"render_modes": list(RENDER_MODES), "name": env_name,
                         "is_parallelizable": True}
        self.possible_agents = agent_names(game)
        self._index = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(game) for a in self.possible_agents}
        self.action_spaces = {a: action_space(game) for a in self.possible_agents}
        n_act = game.num_actions
        self._obs = [game.obs_spec.zeros() for _ in self.possible_agents]
        self._masks = [np.zeros(n_act + 1, MASK_DTYPE) for _ in self.possible_agents]
        self._mask_views = [m[:n_act] for m in self._masks]
        self._views = [{"observation": o, "action_mask": m} for o, m in zip(self._obs, self._masks)]
        self._np_random: np.random.Generator | None = None
        self.state: State | None = None

    def __str__(self) -> str:
        return self.metadata["name"]

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # --- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``options={"state": saved}`` starts from a ``to_dict`` position."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.state = initial_state(self.game, self._np_random, options, self.metadata["name"])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._returns = list(self.state.returns())
        self._rewards_dirty = False
        self._pending: dict[int, int] = {}
        self._decisions = 0
        self._skip_agent_selection = None
        self._after_decision()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._index[agent]
        state = self.state
        state.observe(p, out=self._obs[p])
        if p in state.acting_players() and p not in self._pending and not self._over():
            self._mask_views[p][...] = state.legal_mask(p)
            self._masks[p][-1] = 0
        else:
            self._masks[p][...] = 0
        return self._views[p]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._index[agent]
        state = self.state
        a = action if type(action) is int else as_action_id(state, p, action)
        acting = state.acting_players()
        if len(acting) == 1:
            state.apply({p: a})
            self._decisions += 1
        else:
            if not (0 <= a < self.game.num_actions and state.legal_mask(p)[a]):
                raise state.illegal(p, action)
            self._pending[p] = a
            if len(self._pending) == len(acting):
                try:
                    state.apply(self._pending)
                except Exception:
                    del self._pending[p]  # the others' answers stand; this agent asks again
                    raise
                self._pending = {}
                self._decisions += 1  # one joint decision, as the engine counts them
        self._cumulative_rewards[agent] = 0.0
        self._after_decision()

    def _over(self) -> bool:
        return self.state.is_over() or self._decisions >= self.game.max_decisions

    def _after_decision(self) -> None:
        """Hand out reward changes, end the episode if over, else pick the next agent."""
        state = self.state
        returns = state.returns()
        if returns != self._returns:
            for p, agent in enumerate(self.possible_agents):
                delta = float(returns[p] - self._returns[p])
                self.rewards[agent] = delta
                self._cumulative_rewards[agent] += delta
            self._returns = list(returns)
            self._rewards_dirty = True
        elif self._rewards_dirty:
            for agent in self.agents:
                self.rewards[agent] = 0.0
            self._rewards_dirty = False
        if self._over():
            terminated = state.is_terminal()
            for agent in self.agents:
                self.terminations[agent] = terminated
                self.truncations[agent] = not terminated
            self.agent_selection = self.agents[0]
            return
        pending = self._pending
        for p in state.acting_players():
            if p not in pending:
                self.agent_selection = self.possible_agents[p]
                return

    def render(self) -> str | None:
        return render(self.state, self.render_mode)

    def close(self) -> None:
        pass
