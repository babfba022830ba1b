"""What the AEC and the parallel adapters share: construction from a ``Game`` and the env
options, the engine position ``game_state`` and the global ``state()``, fresh or reused
observation arrays, the illegal-action policy's random choice, the reset guard, and copying.

Copies (``copy.deepcopy`` and ``pickle``) carry the engine position as its ``to_dict`` save, the
documented exact format, and rebuild it with ``game.state_from_dict``: the copy then owns fresh
engine caches instead of numpy views detached from their buffers. The immutable ``Game`` is
shared by a deep copy (as ``State.clone`` shares it), not duplicated.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium.utils import seeding

from tablezoo.envs.core.env_options import EnvOptions
from tablezoo.envs.core.errors import InvalidOptionError, ResetNeededError, UnknownAgentError
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.core.spaces import (
    MASK_DTYPE,
    action_space,
    agent_names,
    observation_space,
    state_space,
)
from tablezoo.envs.core.stepping import (
    check_render_mode,
    check_seed,
    initial_state,
    render,
    render_modes,
)

# The reward of the agent whose illegal action ended the episode under illegal_action="terminate"
# (PettingZoo's TerminateIllegalWrapper is used with -1 in its classic games).
ILLEGAL_REWARD = -1.0


class _SavedState:
    """The engine position inside a pickled or deep-copied env (a ``to_dict`` save)."""

    __slots__ = ("data",)

    def __init__(self, data: dict[str, Any]):
        self.data = data

    def __getstate__(self) -> dict[str, Any]:
        return self.data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.data = data


class AdapterBase:
    """Shared state and helpers of ``TablezooAECEnv`` and ``TablezooParallelEnv``."""

    game: Game
    game_state: State | None

    def _setup(self, game: Game, env_name: str, render_mode: str | None,
               reuse_buffers: bool, illegal_action: str, observation: str = "default") -> None:
        modes = render_modes(game)
        check_render_mode(env_name, render_mode, modes)
        self.game = game
        self.render_mode = render_mode
        self.env_options = EnvOptions.resolve(
            env_name, {"reuse_buffers": reuse_buffers, "illegal_action": illegal_action,
                       "observation": observation})
        # "information_state": the seat's perfect-recall information state instead of observe()
        self.observation_kind = self.env_options.observation
        self._info_state = self.observation_kind == "information_state"
        try:
            obs_spec = game.observation_spec(self.observation_kind)
        except NotImplementedError as exc:
            raise InvalidOptionError(f"{env_name}: observation={self.observation_kind!r} is not "
                                     f"offered ({exc}); allowed: 'default'") from None
        self.metadata = {"render_modes": list(modes), "name": env_name}
        self.possible_agents = agent_names(game)
        self.agents = []
        self._index = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(game, self.observation_kind)
                                   for a in self.possible_agents}
        self.action_spaces = {a: action_space(game) for a in self.possible_agents}
        self.state_space = state_space(game)
        self.noop = game.num_actions
        self._reuse = self.env_options.reuse_buffers
        self._mode = self.env_options.illegal_action
        if self._reuse:
            self._obs = [obs_spec.zeros() for _ in self.possible_agents]
            self._masks = [np.zeros(game.num_actions + 1, MASK_DTYPE)
                           for _ in self.possible_agents]
        self._np_random: np.random.Generator | None = None
        self._action_rng: np.random.Generator | None = None
        self.game_state = None

    def __str__(self) -> str:
        return self.metadata["name"]

    def observation_space(self, agent: str):
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str):
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        if agent not in self._index:
            raise UnknownAgentError(f"{self}: no agent {agent!r}; agents: "
                                    f"{', '.join(self.possible_agents)}")
        return agent

    # --- episode -----------------------------------------------------------------------------
    def _new_game(self, seed: int | None, options: dict[str, Any] | None) -> State:
        """Seed the env (when asked or first time) and set up ``game_state`` for a new episode."""
        seed = check_seed(str(self), seed)  # gymnasium takes only a Python int, and True
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptionError(f"{self}: reset(options=...) takes a dict such as "
                                     f"{{'state': saved}}, got {type(options).__name__}")
        # a refused saved state leaves the env as it was, its generator included
        rng = self._np_random
        if seed is not None or rng is None:
            rng, _ = seeding.np_random(seed)
        before = rng.bit_generator.state
        try:
            self.game_state = initial_state(self.game, rng, options, self.metadata["name"])
        except Exception:
            rng.bit_generator.state = before
            raise
        self._np_random = rng
        self._last_move = None
        if self._mode == "random_legal":
            # drawn after the game's seed, so positions are the same as under the other modes
            self._action_rng = np.random.default_rng(int(self._np_random.integers(2**63 - 1)))
        self._illegal_counts = [0] * len(self.possible_agents)
        return self.game_state

    def _require_reset(self, what: str) -> State:
        state = self.game_state
        if state is None:
            raise ResetNeededError(f"{self}: {what} before the first reset(); call reset() first")
        return state

    def _fresh_infos(self) -> dict[str, dict[str, Any]]:
        if self._mode == "raise":
            return {agent: {} for agent in self.agents}
        return {agent: {"illegal_actions": self._illegal_counts[self._index[agent]]}
                for agent in self.agents}

    def state(self) -> np.ndarray:
        """The global state for centralised critics (a fresh array in ``state_space``); its
        pieces are ``game.state_spec``. The engine position itself is ``game_state``."""
        return self._require_reset("state()").global_state()

    def render(self) -> str | np.ndarray | None:
        return render(self.game_state, self.render_mode, getattr(self, "_last_move", None))

    def _apply(self, state: State, joint: dict[int, int]) -> None:
        """``state.apply(joint)``; under ``render_mode="rgb_array"`` the move is recorded first
        (``envs.pictures.moves``) so the picture highlights it."""
        if self.render_mode != "rgb_array":
            state.apply(joint)
            return
        from tablezoo.envs.pictures.moves import record_move

        move = record_move(state, joint)
        state.apply(joint)
        self._last_move = move

    def close(self) -> None:
        pass

    # --- observations ------------------------------------------------------------------------
    def _observation(self, p: int) -> np.ndarray:
        if self._info_state:
            if self._reuse:
                return self.game_state.information_state(p, out=self._obs[p])
            return self.game_state.information_state(p)
        if self._reuse:
            return self.game_state.observe(p, out=self._obs[p])
        return self.game_state.observe(p)

    def _mask(self, p: int, legal: bool, noop: bool) -> np.ndarray:
        """The int8 mask of seat ``p``: its legal actions, only NOOP, or nothing."""
        n = self.noop
        if self._reuse:
            mask = self._masks[p]
            if not legal:
                mask[:n] = 0
        else:
            mask = np.zeros(n + 1, MASK_DTYPE)
        if legal:
            mask[:n] = self.game_state.legal_mask(p)
        mask[n] = noop
        return mask

    # --- illegal actions ---------------------------------------------------------------------
    def _is_legal(self, p: int, action: int) -> bool:
        return 0 <= action < self.noop and bool(self.game_state.legal_mask(p)[action])

    def _random_legal(self, p: int) -> int:
        """A uniform legal action of seat ``p`` from the env's own seeded generator, counted."""
        legal = np.flatnonzero(self.game_state.legal_mask(p))
        self._illegal_counts[p] += 1
        return int(legal[int(self._action_rng.integers(len(legal)))])

    # --- copying -----------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        if data.get("game_state") is not None:
            data["game_state"] = _SavedState(data["game_state"].to_dict())
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        saved = data.get("game_state")
        if isinstance(saved, _SavedState):
            data["game_state"] = data["game"].state_from_dict(saved.data)
        self.__dict__.update(data)

    def __deepcopy__(self, memo: dict[int, Any]) -> AdapterBase:
        memo[id(self.game)] = self.game  # immutable: shared, as State.clone shares it
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new
