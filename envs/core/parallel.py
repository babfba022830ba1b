"""The generic PettingZoo parallel environment over any tablezoo ``Game``.

Every live agent sends an action each step. Agents that must decide now (``acting_players``) send
a legal game action; the others get a mask that allows only ``NOOP`` (id ``num_actions``) and may
send it or leave their entry out. For a turn-based game a step is one decision; for simultaneous
phases (``bauer_draft``'s selection) it is the joint decision of every acting seat.

``reset``/``step`` hand out fresh arrays by default; ``reuse_buffers=True`` refills one buffer
per agent in place. Under ``illegal_action="terminate"`` or ``"random_legal"`` (see
``tablezoo.envs.core.env_options``) any action of an agent with nothing to decide counts as
``NOOP``, and an acting agent's illegal or missing action ends the episode (offender -1, others 0)
or is replaced by a uniform legal action counted in ``infos[agent]["illegal_actions"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from tablezoo.envs.core.adapter import ILLEGAL_REWARD, AdapterBase
from tablezoo.envs.core.errors import IllegalActionError, ResetNeededError
from tablezoo.envs.core.game import Game
from tablezoo.envs.core.stepping import as_action_id


class TablezooParallelEnv(AdapterBase, ParallelEnv):
    """Parallel view of a ``Game``; ``game_state`` is the engine position and ``state()`` the
    global state for centralised critics."""

    def __init__(self, game: Game, env_name: str, render_mode: str | None = None, *,
                 reuse_buffers: bool = False, illegal_action: str = "raise",
                 observation: str = "default"):
        self._setup(game, env_name, render_mode, reuse_buffers, illegal_action, observation)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a new game. ``options={"state": saved}`` starts from a ``to_dict`` position."""
        state = self._new_game(seed, options)
        self.agents = self.possible_agents[:]
        self._returns = list(state.returns())
        self._decisions = 0
        self._over_at_reset = state.is_over()  # a finished saved game: the next step ends it
        return self._observations(), self._fresh_infos()

    def step(self, actions: Mapping[str, Any]):
        state = self._require_reset("step()")
        if not self.agents:
            raise ResetNeededError(f"{self}: step() after the episode ended; call reset() first")
        if type(actions) is not dict and not isinstance(actions, Mapping):  # dict: no ABC check
            raise IllegalActionError(
                f"{self}: step() takes a dict of agent name -> action (NOOP for waiting agents), "
                f"got {type(actions).__name__}; live agents: {self.agents}")
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise IllegalActionError(
                f"{self}: actions for unknown or finished agents {unknown}; live agents: "
                f"{self.agents}"
            )
        strict = self._mode == "raise"
        joint: dict[int, int] = {}
        offenders: list[int] = []
        acting = state.acting_players()
        for p, agent in enumerate(self.possible_agents):
            sent = actions.get(agent)
            if p in acting:
                if sent is None:
                    if strict:
                        raise state.illegal(p, None, f"{agent} must act now")
                    offenders.append(p)
                    continue
                a = as_action_id(state, p, sent)
                if not strict and not self._is_legal(p, a):
                    offenders.append(p)
                    continue
                joint[p] = a
            elif strict and sent is not None and as_action_id(state, p, sent) != self.noop:
                raise state.illegal(p, sent, f"{agent} is not acting; send NOOP ({self.noop})")
        if self._over_at_reset:  # checked once at reset, not on every step
            return self._end_finished(state)
        if offenders and self._mode == "terminate":
            return self._terminate_illegal(offenders)
        for p in offenders:
            joint[p] = self._random_legal(p)
        self._apply(state, joint)
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
        observations = self._observations(over)
        infos = self._fresh_infos()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _end_finished(self, state: Any):
        """The step after a reset into a game that is already over (a saved final position):
        nothing is played and nothing scored, every agent is done, as the AEC env's dead steps
        end it."""
        terminated = state.is_terminal()
        rewards = dict.fromkeys(self.agents, 0.0)
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, not terminated)
        observations = self._observations(over=True)
        infos = self._fresh_infos()
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _terminate_illegal(self, offenders: list[int]):
        """End the episode: each offender gets ``ILLEGAL_REWARD``, every other agent 0."""
        for p in offenders:
            self._illegal_counts[p] += 1
        rewards = {agent: ILLEGAL_REWARD if p in offenders else 0.0
                   for p, agent in enumerate(self.possible_agents)}
        terminations = dict.fromkeys(self.agents, True)
        truncations = dict.fromkeys(self.agents, False)
        observations = self._observations(over=True)
        infos = self._fresh_infos()
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self, over: bool = False) -> dict[str, dict[str, np.ndarray]]:
        """Every agent's observation; at the end every mask allows only NOOP."""
        acting = () if over else self.game_state.acting_players()
        return {
            agent: {"observation": self._observation(p),
                    "action_mask": self._mask(p, p in acting, p not in acting)}
            for p, agent in enumerate(self.possible_agents)
        }
