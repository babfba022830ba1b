"""A single-agent gymnasium view of one seat of any tablezoo game, for sb3-contrib's MaskablePPO.

Each episode the learner gets a random seat and every other seat an agent drawn from an
``OpponentPool``. ``step`` applies the learner's action together with the answers of every other
acting seat (so simultaneous-move games work: all acting opponents answer in the same joint
decision), then lets the opponents play until the learner must decide again or the game is over.
The reward is the change of the learner's return since its previous decision, so the episode's
rewards sum to the learner's final return.

Spaces: ``Box`` observation (the game's flat observation vector; ``observation=
"information_state"``: the learner's information state, ``State.information_state``, while the
opponents keep reading the default observation) and ``Discrete(num_actions)``
(no NOOP: the learner is only ever asked when it has a decision); ``action_masks()`` gives the
legal actions for MaskablePPO. It drives the engine ``State`` directly, like the AEC env does,
and truncates at ``game.max_decisions`` joint decisions like the envs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from tablezoo import envs
from tablezoo.agents.base import Agent
from tablezoo.envs.core.errors import ResetNeededError
from tablezoo.envs.core.game import OBSERVATION_KINDS, Game, State
from tablezoo.envs.core.stepping import as_action_id, check_seed
from tablezoo.training.selfplay.pool import OpponentPool

ON_ILLEGAL = ("raise", "random_legal")
MAX_RESET_TRIES = 1000


class SeatEnv(gym.Env):
    """One seat of ``env_name`` (a registered name, or a ``Game``) against an opponent pool.

    ``seat=None`` draws the learner's seat uniformly each episode. ``on_illegal="raise"`` (the
    default) raises ``IllegalActionError`` for a masked-out action; ``"random_legal"`` replaces it
    by a random legal action and sets ``info["illegal_action"]`` (only for tools that do not
    read masks, e.g. gymnasium's ``check_env``). A value that is no integer action id (``1.7``,
    ``True``) is refused in both modes, as by the PettingZoo envs.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env_name: str | Game,
        env_options: dict[str, Any] | None = None,
        opponents: OpponentPool | Sequence[str] | str = ("random",),
        seat: int | None = None,
        on_illegal: str = "raise",
        render_mode: str | None = None,
        observation: str = "default",
    ):
        if isinstance(env_name, Game):  # an engine not (yet) in the registry, e.g. in tests
            if env_options:
                raise ValueError("env_options are only for a registered env name, not a Game")
            self.game, env_name = env_name, env_name.name
        else:
            env_options = dict(env_options or {})
            given = env_options.pop("observation", observation)  # the env option, if given
            if given != observation and observation != "default":
                raise ValueError(f"{env_name}: observation={observation!r} and env option "
                                 f"observation={given!r} disagree")
            observation = given
            self.game = envs.make_game(env_name, **env_options)
        self.env_name = env_name
        if seat is not None and seat not in range(self.game.num_players):
            raise ValueError(
                f"{env_name}: seat={seat!r}; allowed: None or 0..{self.game.num_players - 1}"
            )
        if on_illegal not in ON_ILLEGAL:
            raise ValueError(f"on_illegal={on_illegal!r}; allowed values: {', '.join(ON_ILLEGAL)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}; allowed values: None, 'ansi'")
        registered = env_name if env_name in envs.ENVS else None
        if isinstance(opponents, str):  # one spec, not a sequence of its letters
            opponents = [opponents]
        self.pool = (opponents if isinstance(opponents, OpponentPool)
                     else OpponentPool(registered, opponents,
                                       num_players=self.game.num_players))
        self.fixed_seat = seat
        self.on_illegal = on_illegal
        self.render_mode = render_mode
        if observation not in OBSERVATION_KINDS:
            raise ValueError(f"observation={observation!r}; allowed values: "
                             f"{', '.join(map(repr, OBSERVATION_KINDS))}")
        self.observation_kind = observation
        spec = self.game.observation_spec(observation)  # NotImplementedError: none offered
        self.observation_space = gym.spaces.Box(spec.low, spec.high, (spec.size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self.state: State | None = None
        self.seat = 0
        self.agents: list[Agent | None] = []
        self.opponent_names: list[str | None] = []
        self._decisions = 0
        self._last_return = 0.0

    # --- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=check_seed(self.env_name, seed))  # as the envs: True, -1 refused
        rng = self.np_random
        for _ in range(MAX_RESET_TRIES):
            self._new_game(rng)
            if not self._over():
                break
        else:
            raise RuntimeError(
                f"{self.env_name}: the learner's seat never had a decision in "
                f"{MAX_RESET_TRIES} new games"
            )
        return self._observation(), self._info()

    def _new_game(self, rng: np.random.Generator) -> None:
        n = self.game.num_players
        self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
        self.agents, self.opponent_names = [], []
        for p in range(n):
            if p == self.seat:
                self.agents.append(None)
                self.opponent_names.append(None)
                continue
            entry = self.pool.sample(rng)
            self.agents.append(entry.make(int(rng.integers(2**63 - 1))))
            self.opponent_names.append(entry.name)
        self.state = self.game.new_state(int(rng.integers(2**63 - 1)))
        self._decisions = 0
        self._last_return = float(self.state.returns()[self.seat])
        self._play_opponents()

    def step(self, action: Any):
        state = self.state
        if state is None:
            raise ResetNeededError(f"{self.env_name}: step() before reset(); call reset() first")
        if self._over():
            raise ResetNeededError(f"{self.env_name}: step() called on a finished episode; "
                                   "call reset() first")
        info: dict[str, Any] = {}
        a = as_action_id(state, self.seat, action)  # 1.7 or True is no action id
        mask = state.legal_mask(self.seat)
        if not (0 <= a < self.game.num_actions and mask[a]):
            if self.on_illegal == "raise":
                raise state.illegal(self.seat, action)
            legal = np.flatnonzero(mask)
            a = int(legal[self.np_random.integers(legal.size)])
            info["illegal_action"] = True
        joint = self._opponent_actions()
        joint[self.seat] = a
        state.apply(joint)
        self._decisions += 1
        self._play_opponents()
        now = float(state.returns()[self.seat])
        reward, self._last_return = now - self._last_return, now
        over = self._over()
        terminated = over and state.is_terminal()
        truncated = over and not terminated
        info.update(self._info())
        return self._observation(), reward, terminated, truncated, info

    # --- helpers -----------------------------------------------------------------------------
    def _over(self) -> bool:
        return self.state.is_over() or self._decisions >= self.game.max_decisions

    def _opponent_actions(self) -> dict[int, int]:
        state = self.state
        joint = {}
        for p in state.acting_players():
            if p != self.seat:
                obs = state.observe(p)
                joint[p] = self.agents[p].act(obs, state.legal_mask(p), state=state, player=p)
        return joint

    def _play_opponents(self) -> None:
        """Let the other seats decide until the learner acts or the game ends."""
        state = self.state
        while not self._over() and self.seat not in state.acting_players():
            state.apply(self._opponent_actions())
            self._decisions += 1

    def _observation(self) -> np.ndarray:
        return self.state.observation(self.seat, self.observation_kind)

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "opponents": list(self.opponent_names)}

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now; all True once the episode is over (no decision is
        pending, and an all-False mask would make the masked distribution undefined)."""
        if self.state is None or self._over():
            return np.ones(self.game.num_actions, dtype=bool)
        return self.state.legal_mask(self.seat).copy()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return str(self.state)
