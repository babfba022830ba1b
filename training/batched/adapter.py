"""``VectorLeagueEnv``: an SB3 ``VecEnv`` (with ``action_masks()``) over batched simulation, the
league in every seat the learner does not play.

Each of the ``num_envs`` games of a ``Stepper`` (``stepping``: a vector env whose games can be
held) has one learner seat, drawn per episode with the rest of the episode's plan by the league
(``tablezoo.training.selfplay.league``: PFSP over its entries, the partner in team games). A
step plays the learner's actions in every game, then answers every other seat until each game
waits for its learner again: in rounds, each round one decision in every game that is not
waiting, the deciding seats answered together (``opponents``: a forward pass per network over
all its rows, the batched heuristic, uniform random), the waiting games held. The reward is the
change of the learner's return since its last decision (times ``reward_scale``), so an
episode's rewards sum to its final return; ``info["episode"]`` follows sb3's ``Monitor``
(``r``: the return, unscaled; ``l``: the learner's decisions; ``t``: seconds), and a finished
episode's ``info["terminal_observation"]`` is the observation of the learner's last decision in
it (the vector contract restarts a finished game in the same step, so the final position is
not observed; sb3 reads it only to bootstrap a truncated episode), with
``info["TimeLimit.truncated"]``.

The learner may also be answered here (``set_learner`` + ``learner_step``: a numpy copy of the
rollout's actor and critic, ``selfplay/ppo.py``'s ``CollectorPPO``), or by sb3's own loop
through ``step``. ``pop_finished``/``set_self``/``add_snapshot`` are the league hooks of
``selfplay/callbacks.py``, as on the one-game collector (``selfplay/collector.py``).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from gymnasium import spaces

from tablezoo.agents.games import batched_agents
from tablezoo.agents.learned.policy import NumpyMLP, choose, masked_softmax
from tablezoo.training.batched.opponents import (
    AGENT,
    FIRST_NET,
    HEURISTIC,
    LEARNER,
    RANDOM,
    Codes,
    uniforms,
)
from tablezoo.training.batched.sparse import Sparse, pair_logits, sparse_rows, worth_it
from tablezoo.training.batched.sparse import logits as sparse_logits
from tablezoo.training.batched.stepping import Stepper
from tablezoo.training.selfplay.collector import Ended, LockstepVecEnv, obs_scale_for
from tablezoo.training.selfplay.league import Deferred, League, Plan

MAX_RESET_TRIES = 100


class VectorLeagueEnv(LockstepVecEnv):
    """``stepper``'s games, the learner in one seat of each, the league in the others."""

    def __init__(self, stepper: Stepper, league: League, seed: int = 0,
                 scaled: bool = False, reward_scale: float = 1.0,
                 env_name: str | None = None, sparse: bool = True):
        game = stepper.game
        self.stepper, self.game, self.league = stepper, game, league
        self.render_mode = None
        self.reward_scale = reward_scale
        spec = game.obs_spec
        low, high = np.asarray(spec.low, np.float32), np.asarray(spec.high, np.float32)
        extra = stepper.obs.shape[1] - spec.size  # an advised stepper's one-hot (0 or 1)
        # ``scaled``: the network reads the observations times the spec's scale
        self.obs_scale = obs_scale_for(game, extra > 0) if scaled else None
        low = np.concatenate([low, np.zeros(extra, np.float32)])
        high = np.concatenate([high, np.ones(extra, np.float32)])
        if self.obs_scale is not None:
            low, high = low * self.obs_scale, high * self.obs_scale
        super().__init__(stepper.num_envs, spaces.Box(low, high, (low.size,), np.float32),
                         spaces.Discrete(game.num_actions))
        n, players = stepper.num_envs, game.num_players
        self.rng = np.random.default_rng(seed)  # the league's plans
        self.learner_rng = np.random.default_rng([seed, 1])  # ``learner_step``'s samples
        self.batched = batched_agents(env_name, game.options)
        self.deferred = frozenset({"random", *self.batched})  # answered here, not built
        self.codes = Codes()
        self.learner_seat = np.zeros(n, np.int64)
        self.controller = np.zeros((n, players), np.int64)  # code per game and seat
        self.keys = np.zeros((n, players), np.uint64)  # each seat's sampling stream
        self.counters = np.zeros((n, players), np.uint64)
        self.plans: list[Plan | None] = [None] * n
        self.pending = np.zeros(n, np.float64)  # the learner's reward not yet paid
        self.episode_return = np.zeros(n, np.float64)
        self.episode_length = np.zeros(n, np.int64)
        self.started = np.zeros(n, np.float64)
        self.unplayed = np.zeros(n, np.int64)  # games in a row that ended before the learner
        self._actions = np.zeros(n, np.int64)
        self._requested: np.ndarray | None = None
        self._last_obs: np.ndarray | None = None
        self._masks: np.ndarray | None = None
        self.learner: tuple[NumpyMLP, NumpyMLP] | None = None
        self.finished: list[tuple[str, float]] = []
        self.on_new_game = None  # tests: called with the slot whenever its game starts
        # networks read the observations as lists of their non-zero inputs (``sparse``) where
        # that is cheaper than a dense product; ``False``: always dense (``NumpyMLP.logits``)
        # (decided on the first observations, in ``reset``)
        self.sparse = sparse
        self.learner_rows: Sparse | np.ndarray | None = None

    # --- VecEnv ----------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        self.stepper.reset()
        self.sparse = self.sparse and worth_it(sparse_rows(self.stepper.obs))
        self._new_episodes(list(range(self.num_envs)))
        self._run_until_learner(Ended.none(self.num_envs))
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        self._requested = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        actions, self._requested = self._requested, None
        if self._last_obs is None:
            raise RuntimeError("VectorLeagueEnv: step() before reset()")
        self._actions[:] = actions
        rewards, terminated, truncated = self.stepper.step(self._actions)
        self.episode_length += 1
        ended = Ended.none(self.num_envs)
        self._account(None, rewards, terminated, truncated, ended)
        self._run_until_learner(ended)
        rewards, dones = ended.rewards, ended.dones
        live = ~dones
        paid = self.pending[live]
        self.episode_return[live] += paid
        rewards[live] = paid * self.reward_scale
        self.pending[live] = 0.0
        return self._observe(), rewards, dones, ended.infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, ``(num_envs, num_actions)``."""
        return self._current_masks().copy()

    def _current_masks(self) -> np.ndarray:
        if self._masks is None:
            self._masks = self.stepper.mask.copy()
        return self._masks

    def seed(self, seed: int | None = None) -> list[int | None]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        return [seed] * self.num_envs

    def close(self) -> None:
        self.stepper.close()

    # --- the learner answered here too (``selfplay.ppo.CollectorPPO``) --------------------------
    def set_learner(self, actor: NumpyMLP, critic: NumpyMLP) -> None:
        self.learner = (actor, critic)

    def start_rollout(self, n_steps: int) -> None:
        """Nothing to start: the games are played step by step."""

    def cancel_rollout(self, obs: np.ndarray, dones: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return obs, dones

    def learner_step(self) -> tuple[Any, ...]:
        """One step whose learner actions are sampled here from the rollout's actor (one uniform
        each from ``learner_rng``): ``step``'s results, then the masks, actions, the critic's
        values and the actions' log-probabilities (what PPO's rollout buffer stores)."""
        if self.learner is None or self._last_obs is None:
            raise RuntimeError("learner_step needs set_learner(...) and reset() first")
        actor, critic = self.learner
        obs, masks = self._last_obs, self._current_masks()
        if self.sparse and actor.obs_scale is None and critic.obs_scale is None:
            rows = sparse_rows(obs)
            self.learner_rows = rows  # what the learner acted on (``BatchedPPO`` keeps it)
            logits, values = pair_logits(actor, critic, rows)
        else:
            self.learner_rows = obs
            logits, values = actor.logits(obs), critic.logits(obs)
        probs = masked_softmax(logits, masks)
        actions = choose(probs, self.learner_rng.random(self.num_envs))
        log_probs = np.log(probs[np.arange(self.num_envs), actions])
        values = values[:, 0]
        self.step_async(actions)
        return (*self.step_wait(), masks, actions, values, log_probs)

    # --- league hooks ----------------------------------------------------------------------------
    def set_self(self, mlp: NumpyMLP) -> None:
        self.league.set_self(mlp)

    def add_snapshot(self, name: str, mlp: NumpyMLP) -> None:
        self.league.add_snapshot(name, mlp)

    def pop_finished(self) -> list[tuple[str, float]]:
        out, self.finished = self.finished, []
        return out

    # --- episodes --------------------------------------------------------------------------------
    def _new_episodes(self, ids: list[int]) -> None:
        """The new games of slots ``ids`` (already started by the stepper) get a learner seat
        each and the league's plans for the other seats."""
        if not ids:
            return
        seats = self.rng.integers(self.game.num_players, size=len(ids))
        plans = self.league.plans(seats.tolist(), self.rng, self.deferred)
        now = time.perf_counter()
        for i, plan in zip(ids, plans):
            self.plans[i] = plan
            row = self.controller[i]
            for p, controller in enumerate(plan.controllers):
                if controller is None:
                    row[p] = LEARNER
                elif isinstance(controller, str):
                    row[p] = self.codes.of(controller)
                elif isinstance(controller, Deferred):
                    row[p] = RANDOM if controller.spec == "random" else HEURISTIC
                else:
                    row[p] = AGENT
            self.keys[i] = plan.seeds
            self.started[i] = now
        self.learner_seat[ids] = seats
        self.counters[ids] = 0
        self.episode_return[ids] = 0.0
        self.episode_length[ids] = 0
        self.pending[ids] = 0.0
        if self.on_new_game is not None:
            for i in ids:
                self.on_new_game(i)

    def _account(self, rows: np.ndarray | None, rewards: np.ndarray, terminated: np.ndarray,
                 truncated: np.ndarray, ended: Ended) -> None:
        """The learner's share of a step's rewards, and the games that ended in it."""
        if rows is None:
            self.pending += rewards[np.arange(self.num_envs), self.learner_seat]
            over = np.flatnonzero(terminated | truncated)
        else:
            self.pending[rows] += rewards[rows, self.learner_seat[rows]]
            over = rows[terminated[rows] | truncated[rows]]
        ids = over.tolist()
        for i in ids:
            if self.episode_length[i]:
                self._end_episode(i, bool(truncated[i]), ended)
                self.unplayed[i] = 0
            else:  # over before the learner decided once (never in the shipped games)
                self.unplayed[i] += 1
                if self.unplayed[i] >= MAX_RESET_TRIES:
                    raise RuntimeError(f"{self.game.name}: the learner's seat never had a "
                                       f"decision in {MAX_RESET_TRIES} new games")
        self._new_episodes(ids)

    def _end_episode(self, i: int, truncated: bool, ended: Ended) -> None:
        plan = self.plans[i]
        final = self.pending[i]
        self.episode_return[i] += final
        ret = float(self.episode_return[i])
        ended.rewards[i] = final * self.reward_scale
        ended.dones[i] = True
        ended.infos[i] = {"terminal_observation": self._last_obs[i].copy(),
                          "TimeLimit.truncated": truncated,
                          "episode": {"r": ret, "l": int(self.episode_length[i]),
                                      "t": round(time.perf_counter() - self.started[i], 6)},
                          "entry": plan.entry, "seat": int(self.learner_seat[i])}
        self.league.record(plan.entry, ret)
        self.finished.append((plan.entry, ret))

    def _run_until_learner(self, ended: Ended) -> None:
        """Answer and play every non-learner decision, one round at a time, until each game
        waits for its learner (the waiting games held)."""
        stepper = self.stepper
        while True:
            rows = np.flatnonzero(stepper.seat != self.learner_seat)
            if rows.size == 0:
                return
            self._answer(rows)
            rewards, terminated, truncated = stepper.step(self._actions, rows)
            self._account(rows, rewards, terminated, truncated, ended)

    def _answer(self, rows: np.ndarray) -> None:
        """``self._actions[rows]``: every deciding seat of ``rows`` answered by its controller."""
        stepper = self.stepper
        seats = stepper.seat[rows]
        codes = self.controller[rows, seats]
        kinds = np.unique(codes)
        sampled: list[np.ndarray] = []  # rows drawing a uniform: networks and random
        logits_parts: list[np.ndarray] = []
        for code in kinds.tolist():
            sel = rows[codes == code]
            if code >= FIRST_NET:
                name = self.codes.name(code)
                mlp = self.league.network(name, self.plans[int(sel[0])])  # frozen per name
                obs = stepper.obs[sel]
                logits_parts.append(self._logits(mlp, obs, sparse_rows(obs) if self.sparse
                                                 else None))
                sampled.append(sel)
            elif code == RANDOM:
                logits_parts.append(np.zeros((sel.size, self.game.num_actions), np.float32))
                sampled.append(sel)
            elif code == HEURISTIC:
                spec = self.plans[int(sel[0])].entry
                self._actions[sel] = self.batched[spec](stepper.env_obs[sel], stepper.mask[sel])
            elif code == AGENT:
                for i in sel.tolist():
                    p = int(stepper.seat[i])
                    agent = self.plans[i].controllers[p]
                    self._actions[i] = agent.act(stepper.env_obs[i].copy(), stepper.mask[i].copy(),
                                                 state=stepper.get_state(i), player=p)
            else:  # LEARNER: never asked here
                raise AssertionError("the learner's seat is answered by the learner")
        if not sampled:
            return
        sel = np.concatenate(sampled)
        probs = masked_softmax(np.concatenate(logits_parts), stepper.mask[sel])
        seats = stepper.seat[sel]
        # one uniform per sampled decision from the seat's stream; greedy networks
        # (``LeagueSettings(sample_nets=False)``) take the argmax, random seats always sample
        draw = np.ones(len(sel), bool) if self.league.sample_nets \
            else self.controller[sel, seats] == RANDOM
        rows, seats = sel[draw], seats[draw]
        self._actions[rows] = choose(probs[draw], uniforms(self.keys[rows, seats],
                                                           self.counters[rows, seats]))
        self.counters[rows, seats] += np.uint64(1)
        if not draw.all():
            self._actions[sel[~draw]] = choose(probs[~draw], None)

    @staticmethod
    def _logits(mlp: NumpyMLP, obs: np.ndarray, rows: Sparse | None) -> np.ndarray:
        return mlp.logits(obs) if rows is None else sparse_logits(mlp, rows)

    def _observe(self) -> np.ndarray:
        """The learner's observations (scaled) and masks where every game waits for it now."""
        obs = self.stepper.obs
        self._last_obs = obs * self.obs_scale if self.obs_scale is not None else obs.copy()
        self._masks = self.stepper.mask.copy()
        return self._last_obs
