"""The generic PettingZoo AEC environment over any tablezoo ``Game``.

It sits on the hot path of every training run, so it is lean: rewards are only touched when a
seat's return changes, and actions and options are validated here, not by a wrapper stack.
``observe``/``last`` hand out fresh arrays by default (safe to store, as replay buffers and
collectors do); ``reuse_buffers=True`` instead refills one observation and one mask buffer per
agent in place, for loops that copy what they keep.

Simultaneous decisions (several acting players) are asked one agent at a time; the actions are
held back and applied together when the last acting agent has answered, so no agent sees another's
choice early.

``illegal_action`` (see ``tablezoo.envs.core.env_options``): ``"raise"`` raises
``IllegalActionError`` and
changes nothing; ``"terminate"`` ends the episode with -1 for the offender and 0 for the others
(the semantics of PettingZoo's ``TerminateIllegalWrapper``, except that the episode is marked
terminated, not also truncated: an illegal move is a terminal loss, not a time cut);
``"random_legal"`` plays a uniform legal action instead and counts it in
``infos[agent]["illegal_actions"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv

from tablezoo.envs.core.adapter import ILLEGAL_REWARD, AdapterBase
from tablezoo.envs.core.errors import ResetNeededError
from tablezoo.envs.core.game import Game
from tablezoo.envs.core.stepping import as_action_id


class TablezooAECEnv(AdapterBase, AECEnv):
    """AEC view of a ``Game``: one agent acts per ``step``; ``game_state`` is the engine position
    and ``state()`` the global state for centralised critics."""

    def __init__(self, game: Game, env_name: str, render_mode: str | None = None, *,
                 reuse_buffers: bool = False, illegal_action: str = "raise",
                 observation: str = "default"):
        AECEnv.__init__(self)
        self._setup(game, env_name, render_mode, reuse_buffers, illegal_action, observation)
        self.metadata["is_parallelizable"] = bool(game.all_seats_move_together)
        if self._reuse:
            self._views = [{"observation": o, "action_mask": m}
                           for o, m in zip(self._obs, self._masks)]

    # --- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``options={"state": saved}`` starts from a ``to_dict`` position."""
        state = self._new_game(seed, options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = self._fresh_infos()
        self._returns = list(state.returns())
        self._rewards_dirty = False
        self._pending: dict[int, int] = {}
        self._decisions = 0
        self._ended_illegally = False
        self._skip_agent_selection = None
        self._after_decision()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_reset("observe()")
        try:
            p = self._index[agent]
        except KeyError:  # named only when it fails: observe() runs at every step
            self._known(agent)
            raise
        legal = p in state.acting_players() and p not in self._pending and not self._over()
        obs = self._observation(p)
        mask = self._mask(p, legal, False)
        if self._reuse:
            return self._views[p]
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        self._require_reset("last()")
        if not self.agents:  # PettingZoo's own last() fails on the gone agent with a KeyError
            raise ResetNeededError(f"{self}: last() after the episode ended (every agent is "
                                   "done); call reset() first")
        return super().last(observe)

    def step(self, action: Any) -> None:
        state = self._require_reset("step()")
        if not self.agents:
            raise ResetNeededError(f"{self}: step() after the episode ended (every agent is "
                                   "done); call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._index[agent]
        a = action if type(action) is int else as_action_id(state, p, action)
        if self._mode != "raise" and not self._is_legal(p, a):
            if self._mode == "terminate":
                self._terminate_illegal(agent)
                return
            a = self._random_legal(p)
            self.infos[agent]["illegal_actions"] = self._illegal_counts[p]
        acting = state.acting_players()
        if len(acting) == 1:
            self._apply(state, {p: a})
            self._decisions += 1
        else:
            if not self._is_legal(p, a):
                raise state.illegal(p, action)
            self._pending[p] = a
            if len(self._pending) == len(acting):
                try:
                    self._apply(state, self._pending)
                except Exception:
                    del self._pending[p]  # the others' answers stand; this agent asks again
                    raise
                self._pending = {}
                self._decisions += 1  # one joint decision, as the engine counts them
        self._cumulative_rewards[agent] = 0.0
        self._after_decision()

    def _terminate_illegal(self, agent: str) -> None:
        """End the episode: the offender gets ``ILLEGAL_REWARD``, every other agent 0."""
        self._illegal_counts[self._index[agent]] += 1
        self.infos[agent]["illegal_actions"] = self._illegal_counts[self._index[agent]]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = ILLEGAL_REWARD
        self._accumulate_rewards()
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, False)
        self._pending = {}
        self._ended_illegally = True
        self._deads_step_first()

    def _over(self) -> bool:
        return (self._ended_illegally or self.game_state.is_over()
                or self._decisions >= self.game.max_decisions)

    def _after_decision(self) -> None:
        """Hand out reward changes, end the episode if over, else pick the next agent."""
        state = self.game_state
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
