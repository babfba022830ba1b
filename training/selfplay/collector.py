"""The batched multi-seat collector: N games stepped in lockstep, as an SB3 ``VecEnv``.

Each of the ``num_envs`` slots is one game (an engine ``State``, stepped directly; no PettingZoo
on this path) with one learner seat, drawn per episode. The other seats are played as the league
(``tablezoo.training.selfplay.league``) plans: network seats (the learner's ``self`` copy as partner
or opponent,
frozen snapshots) and agent seats (heuristic, random, search). Whenever the games wait for
non-learner decisions, every waiting network seat across all N games is answered by one forward
pass per network (``NumpyMLP`` on a stacked batch), agents answer in-process, and all decisions
are applied; simultaneous moves (several acting seats) are answered in the same round, the
learner's with them. ``step`` returns when every game waits for its learner again.

Sampling for network seats uses one uniform per decision from that seat's own generator (seeded
by the plan), so a game played here is the same game a sequential loop of ``MLPAgent``s plays
with the same seeds (tested). The reward is the change of the learner's return (times
``reward_scale``), so an episode's rewards sum to its final return; ``info["episode"]``
follows sb3's ``Monitor`` convention and ``info["terminal_observation"]`` its auto-reset one.
``action_masks()`` gives MaskablePPO the learner's legal actions.

With ``advice`` (``tablezoo.agents.learned.advice``) every network seat, the learner's included,
reads its observation followed by the one-hot of its own advisor's move (one advisor per seat and
game, asked once per decision), and the observation space grows by the action count.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from tablezoo.agents.base import Agent
from tablezoo.agents.learned.advice import (
    advice_of,
    advisor_factory,
    advisor_seed,
    with_advice,
    write_advice,
)
from tablezoo.agents.learned.policy import NumpyMLP, choose, masked_softmax
from tablezoo.envs.core.game import Game, State
from tablezoo.training.selfplay.league import League, Plan

MAX_RESET_TRIES = 100


@dataclass
class Ended:
    """What ``step`` reports per game: filled in for the games that end during it."""

    rewards: np.ndarray
    dones: np.ndarray
    infos: list[dict[str, Any]]

    @classmethod
    def none(cls, num_envs: int) -> Ended:
        return cls(np.zeros(num_envs, np.float32), np.zeros(num_envs, bool),
                   [{} for _ in range(num_envs)])


@dataclass
class Slot:
    """One game of the batch and who plays it."""

    state: State
    seat: int
    plan: Plan
    rngs: dict[int, np.random.Generator]
    seed: int
    decisions: int = 0
    last_return: float = 0.0
    episode_return: float = 0.0
    episode_length: int = 0
    started: float = 0.0
    advisors: dict[int, Agent] = field(default_factory=dict)  # per network seat (--advice)
    advice: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (decision, move)


def obs_scale_for(game: Game, advised: bool = False) -> np.ndarray:
    """The network's input scaling: the spec's ``scale`` (1 / its upper bound per entry);
    an advised network's advice one-hot (``tablezoo.agents.learned.advice``) stays as it is."""
    scale = game.obs_spec.scale
    if advised:
        return np.concatenate([scale, np.ones(game.num_actions, np.float32)])
    return scale.copy()


def network_input_size(game: Game, advised: bool) -> int:
    """The observation size, plus the action count for an advised network."""
    return game.obs_spec.size + (game.num_actions if advised else 0)


class LockstepVecEnv(VecEnv):
    """The VecEnv plumbing both collectors share: ``action_masks`` through ``env_method`` (how
    MaskablePPO asks for masks), attributes of the whole batch, no gymnasium wrappers."""

    def action_masks(self) -> np.ndarray:
        raise NotImplementedError

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        raise AttributeError(f"{type(self).__name__} has no per-env method {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self, attr_name)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


class MultiSeatVecEnv(LockstepVecEnv):
    """``num_envs`` lockstep games of ``game``; the league fills the non-learner seats."""

    def __init__(self, game: Game, league: League, num_envs: int = 16, seed: int = 0,
                 scaled: bool = False, reward_scale: float = 1.0,
                 advice: str | None = None, env_name: str | None = None):
        if num_envs < 1:
            raise ValueError(f"num_envs={num_envs}; allowed: >= 1")
        # every network of the run (learner, self, snapshots) reads the advice when set
        if advice is not None and env_name is None:
            raise ValueError("MultiSeatVecEnv: advice needs env_name (the advisor is per env)")
        self.advisor = None if advice is None else advisor_factory(advice, str(env_name))
        self.render_mode = None
        self.reward_scale = reward_scale
        self.game = game
        self.league = league
        # ``scaled``: the network reads the observations times the spec's scale
        self.obs_scale = obs_scale_for(game, advice is not None) if scaled else None
        spec = game.obs_spec
        low, high = np.asarray(spec.low, np.float32), np.asarray(spec.high, np.float32)
        if advice is not None:
            low = np.concatenate([low, np.zeros(game.num_actions, np.float32)])
            high = np.concatenate([high, np.ones(game.num_actions, np.float32)])
        if self.obs_scale is not None:
            low, high = low * self.obs_scale, high * self.obs_scale
        self.input_size = network_input_size(game, advice is not None)
        obs_space = spaces.Box(low, high, (self.input_size,), np.float32)
        super().__init__(num_envs, obs_space, spaces.Discrete(game.num_actions))
        self.rng = np.random.default_rng(seed)
        # the learner's own choices when the collector answers them too (``learner_step``)
        self.learner_rng = np.random.default_rng([seed, 1])
        self.learner: tuple[NumpyMLP, NumpyMLP] | None = None
        self._last_obs: np.ndarray | None = None
        self._masks: np.ndarray | None = None  # the learner's masks where the games stand now
        self.slots: list[Slot] = []
        self._actions: np.ndarray | None = None
        self.finished: list[tuple[str, float]] = []  # (entry, learner return) since last read

    # --- VecEnv ----------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        self.slots = [self._new_slot() for _ in range(self.num_envs)]
        self._run_until_learner(range(self.num_envs), Ended.none(self.num_envs))
        self._last_obs, self._masks = self._observations(), self._learner_masks()
        return self._last_obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        actions, self._actions = self._actions, None
        joints: list[dict[int, int]] = [{s.seat: int(a)} for s, a in zip(self.slots, actions)]
        requests = [(i, p) for i, s in enumerate(self.slots)
                    for p in s.state.acting_players() if p != s.seat]
        self._answer(requests, joints)
        masks = self._current_masks()
        for slot, joint, mask in zip(self.slots, joints, masks):
            a = joint[slot.seat]
            if not (0 <= a < self.game.num_actions and mask[a]):
                raise slot.state.illegal(slot.seat, a)
            slot.state.apply(joint)
            slot.decisions += 1
            slot.episode_length += 1
        ended = Ended.none(self.num_envs)
        self._run_until_learner(range(self.num_envs), ended)
        rewards, dones, infos = ended.rewards, ended.dones, ended.infos
        for i, slot in enumerate(self.slots):
            if not dones[i]:  # rewards during a game (the ended ones were paid in full)
                rewards[i] = self._pay(slot)
        self._last_obs, self._masks = self._observations(), self._learner_masks()
        return self._last_obs, rewards, dones, infos

    # --- the learner answered here too (``selfplay.ppo.CollectorPPO``) --------------------------
    def set_learner(self, actor: NumpyMLP, critic: NumpyMLP) -> None:
        """The learner's current actor and critic (taking the observations this env returns):
        PPO's weights are fixed during a rollout, so a numpy copy answers exactly as the torch
        policy would, without a torch call per step."""
        self.learner = (actor, critic)

    def start_rollout(self, n_steps: int) -> None:
        """Nothing to start in one process (``ShardedVecEnv`` streams the rollout)."""

    def cancel_rollout(self, obs: np.ndarray, dones: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nothing streams in one process: the games stand where the last step left them."""
        return obs, dones

    def learner_step(self) -> tuple[Any, ...]:
        """One step in which the learner's choices are made here as well: in every game one
        sample from its masked softmax (one uniform each from ``learner_rng``), then ``step``.
        Returns ``step``'s four results, the masks the choices were made under, the actions,
        the critic's values and the log-probabilities of the actions (what PPO's rollout
        buffer stores)."""
        if self.learner is None or self._last_obs is None:
            raise RuntimeError("learner_step needs set_learner(...) and reset() first")
        actor, critic = self.learner
        obs, masks = self._last_obs, self._current_masks()
        probs = masked_softmax(actor.logits(obs), masks)
        actions = choose(probs, self.learner_rng.random(self.num_envs))
        log_probs = np.log(probs[np.arange(self.num_envs), actions])
        values = critic.logits(obs)[:, 0]
        self.step_async(actions)
        return (*self.step_wait(), masks, actions, values, log_probs)

    def close(self) -> None:
        self.slots, self._masks = [], None

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, ``(num_envs, num_actions)`` (a fresh
        array)."""
        return self._current_masks().copy()

    def _current_masks(self) -> np.ndarray:
        """The learner's masks, computed once per step (``step`` checks the learner's actions
        against them, ``learner_step`` samples under them, and sb3 asks for them too)."""
        if self._masks is None:
            self._masks = self._learner_masks()
        return self._masks

    def _learner_masks(self) -> np.ndarray:
        return np.stack([s.state.legal_mask(s.seat) for s in self.slots]).astype(bool)

    def seed(self, seed: int | None = None) -> list[int | None]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        return [seed] * self.num_envs

    # --- league hooks (the same on the multi-process version) -----------------------------------
    def set_self(self, mlp: NumpyMLP) -> None:
        self.league.set_self(mlp)

    def add_snapshot(self, name: str, mlp: NumpyMLP) -> None:
        self.league.add_snapshot(name, mlp)

    def pop_finished(self) -> list[tuple[str, float]]:
        out, self.finished = self.finished, []
        return out

    # --- the lockstep loop -----------------------------------------------------------------------
    def _new_slot(self) -> Slot:
        n = self.game.num_players
        seat = int(self.rng.integers(n))
        plan = self.league.plan(seat, self.rng)
        seed = int(self.rng.integers(2**63 - 1))
        state = self.game.new_state(seed)
        rngs = {p: np.random.default_rng(plan.seeds[p]) for p in range(n)
                if isinstance(plan.controllers[p], str)}
        return Slot(state, seat, plan, rngs, seed, last_return=float(state.returns()[seat]),
                    started=time.perf_counter())

    def _over(self, slot: Slot) -> bool:
        return slot.state.is_over() or slot.decisions >= self.game.max_decisions

    def _pay(self, slot: Slot) -> float:
        """The learner's return gained since it was last paid, scaled: dense rewards whatever
        the game's scoring schedule, summing to the episode's return."""
        now = float(slot.state.returns()[slot.seat])
        delta, slot.last_return = now - slot.last_return, now
        slot.episode_return += delta
        return delta * self.reward_scale

    def _end_episode(self, i: int, ended: Ended) -> None:
        """Game ``i`` is over after its learner decided: pay the rest of its return, report the
        episode (sb3's ``Monitor`` and auto-reset conventions) and the league result."""
        slot = self.slots[i]
        ended.rewards[i] = self._pay(slot)
        ended.dones[i] = True
        ended.infos[i] = {"terminal_observation": self._observe(slot),
                          "TimeLimit.truncated": not slot.state.is_terminal(),
                          "episode": {"r": slot.episode_return, "l": slot.episode_length,
                                      "t": round(time.perf_counter() - slot.started, 6)},
                          "entry": slot.plan.entry, "seat": slot.seat}
        self.league.record(slot.plan.entry, slot.episode_return)
        self.finished.append((slot.plan.entry, slot.episode_return))

    def _run_until_learner(self, ids: Sequence[int], ended: Ended) -> None:
        """Answer and apply non-learner decisions, batched, until each game in ``ids`` waits
        for its learner.

        A game that ends after its learner decided is reported in ``ended`` and replaced at
        once by a new game, whose opening decisions join the same rounds: one chain of batched
        rounds per step however many games end in it (each round has a fixed cost: a forward
        pass per network, the softmax and the sampling). A new game over before its learner
        decided once is replaced without a report (rare: never in our games)."""
        active, unplayed = list(ids), [0] * self.num_envs
        while active:
            waiting, requests = [], []
            for i in active:
                while self._over(self.slots[i]):
                    if self.slots[i].episode_length:
                        self._end_episode(i, ended)
                    else:
                        unplayed[i] += 1
                        if unplayed[i] == MAX_RESET_TRIES:
                            raise RuntimeError(f"{self.game.name}: the learner's seat never had "
                                               f"a decision in {MAX_RESET_TRIES} new games")
                    self.slots[i] = self._new_slot()
                slot = self.slots[i]
                acting = slot.state.acting_players()
                if slot.seat not in acting:
                    waiting.append(i)
                    requests.extend((i, p) for p in acting)
            if not waiting:
                return
            joints: dict[int, dict[int, int]] = {i: {} for i in waiting}
            self._answer(requests, joints)
            for i in waiting:
                slot = self.slots[i]
                slot.state.apply(joints[i])
                slot.decisions += 1
            active = waiting

    def _answer(self, requests: Sequence[tuple[int, int]], joints: Any) -> None:
        """Fill ``joints[i][p]`` for every (game, seat) request: one forward pass per network."""
        by_net: dict[str, list[tuple[int, int]]] = {}
        for i, p in requests:
            slot = self.slots[i]
            controller = slot.plan.controllers[p]
            if isinstance(controller, str):
                by_net.setdefault(controller, []).append((i, p))
            else:
                state = slot.state
                joints[i][p] = controller.act(state.observe(p), state.legal_mask(p),
                                              state=state, player=p)
        if not by_net:
            return
        # logits per network, then one masked softmax and one sampling pass over every row
        # (row-wise arithmetic, so the same actions as one call per network)
        size, num_actions = self.game.obs_spec.size, self.game.num_actions
        width = self.input_size
        all_rows = [row for rows in by_net.values() for row in rows]
        logits = np.empty((len(all_rows), num_actions), np.float32)
        masks = np.empty((len(all_rows), num_actions), bool)
        start = 0
        for key, rows in by_net.items():
            mlp = self.league.network(key, self.slots[rows[0][0]].plan)  # frozen per key
            obs = np.empty((len(rows), width), np.float32)
            for j, (i, p) in enumerate(rows):
                state = self.slots[i].state
                state.observe(p, out=obs[j, :size])  # written in place: no per-row array
                masks[start + j] = state.legal_mask(p)
                if self.advisor is not None:
                    write_advice(obs[j, size:], self._advice(self.slots[i], p, obs[j, :size],
                                                             masks[start + j]))
            logits[start:start + len(rows)] = mlp.logits(obs)
            start += len(rows)
        probs = masked_softmax(logits, masks)
        u = (np.array([self.slots[i].rngs[p].random() for i, p in all_rows])
             if self.league.sample_nets else None)
        for (i, p), a in zip(all_rows, choose(probs, u)):
            joints[i][p] = int(a)

    def _observe(self, slot: Slot) -> np.ndarray:
        obs = np.asarray(slot.state.observe(slot.seat), np.float32)
        if self.advisor is not None:
            n = self.game.num_actions
            advice = n if self._over(slot) else self._advice(slot, slot.seat, obs)
            obs = with_advice(obs, advice, n)
        return obs * self.obs_scale if self.obs_scale is not None else obs.copy()

    def _advice(self, slot: Slot, p: int, observation: np.ndarray | None = None,
                mask: np.ndarray | None = None) -> int:
        """Seat ``p``'s advisor's move in the current position, asked once per decision (its
        own advisor for the whole game, so a stateful heuristic keeps its plans). The caller's
        ``observation`` and ``mask`` of that position, when it has them, spare observing it
        again."""
        cached = slot.advice.get(p)
        if cached is not None and cached[0] == slot.decisions:
            return cached[1]
        advisor = slot.advisors.get(p)
        if advisor is None:
            advisor = slot.advisors[p] = self.advisor(advisor_seed(slot.seed, p))
        state = slot.state
        a = advice_of(advisor, state, p,
                      state.observe(p) if observation is None else observation,
                      state.legal_mask(p) if mask is None else mask, self.game.num_actions)
        slot.advice[p] = (slot.decisions, a)
        return a

    def _observations(self) -> np.ndarray:
        return np.stack([self._observe(s) for s in self.slots])
