"""Determinized rollout search on a compiled engine: every candidate move played out in many
sampled worlds at once, one batch of ``make_vector``.

For a decision of seat ``me`` the agent samples ``worlds`` determinizations of the position
(``state.determinize(me, rng)``: hidden cards re-drawn from what ``me`` has seen, so it never
peeks), loads every (candidate, world) pair into one slot of the game's compiled vector env
(each world by ``set_state`` once, then ``copy_slot`` to its other slots), plays the
candidate for ``me`` and lets the game's compiled heuristic (``playout="trained"``: the shipped
numpy model of the game and player count, greedy, one matrix product per step for all slots)
play every other decision of every slot (``me``'s later ones too) to the end of the game, all
slots stepped together. A candidate's value is its mean return over the worlds
(``margin_weight``: plus ISMCTS's score-margin value); the same worlds serve every candidate,
and a world's slots share its generator too (``copy_slot``), so candidates are compared on the
same deals and the same later chance (common random numbers).
``belief="policy"`` keeps only worlds in which the game's heuristic, the same player the
rollouts assume, would have made the others' earlier public choices (``agents/search/belief.py``;
bauer_trick's trump call), re-sampling up to ``belief_tries`` times.

This is perfect-information Monte-Carlo with a strong playout policy: cheap (the whole search is
a few hundred batched steps) and a teacher for distillation; it inherits the known flaw of
determinization (it assumes it will learn the hidden cards, so it never plays to hide or
discover them). Games without a compiled engine and compiled heuristic are refused by name.
Registered as ``rollout`` (``rollout:worlds=64``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.base import BaseAgent, acting_seat, search_preamble
from tablezoo.agents.games import agents_of, batched_agents, game_agents, games_with
from tablezoo.agents.learned.model_files import read_card
from tablezoo.agents.learned.policy import (
    NumpyMLP,
    load_model_file,
    shipped_models,
)
from tablezoo.agents.search.belief import (
    AgentPolicy,
    Rebuild,
    rebuild_for,
    sample_world,
)
from tablezoo.envs.core.game import State
from tablezoo.envs.core.spec import spec_named


def rollout_games() -> list[str]:
    """The env ids the rollout agent plays: a compiled engine and a compiled heuristic."""
    return [env_id for env_id, record in envs.SPECS.items()
            if record.compiled is not None and agents_of(env_id).compiled_heuristic is not None]


BELIEFS = ("uniform", "policy")
PLAYOUTS = ("heuristic", "trained")


class RolloutAgent(BaseAgent):
    """The candidate whose batched heuristic rollouts return most for ``me`` (see the module)."""

    name = "rollout"

    def __init__(self, seed: int | None = None, worlds: int = 32, belief: str = "uniform",
                 belief_tries: int = 20, playout: str = "heuristic", margin_weight: float = 0.0,
                 margin_scale: float = 10.0):
        super().__init__(seed)
        if type(worlds) is not int or not 1 <= worlds <= 4096:
            raise ValueError(f"rollout agent: worlds={worlds!r}; allowed: an int in 1..4096")
        if belief not in BELIEFS:
            raise ValueError(f"rollout agent: belief={belief!r}; allowed: {', '.join(BELIEFS)}")
        if type(belief_tries) is not int or belief_tries < 1:
            raise ValueError(f"rollout agent: belief_tries={belief_tries!r}; allowed: an int >= 1")
        if playout not in PLAYOUTS:
            raise ValueError(f"rollout agent: playout={playout!r}; allowed: "
                             f"{', '.join(PLAYOUTS)}")
        for label, value, low in (("margin_weight", margin_weight, 0.0),
                                  ("margin_scale", margin_scale, 1e-6)):
            if (type(value) not in (int, float) or not np.isfinite(value) or value < low
                    or value > 1e6):
                raise ValueError(f"rollout agent: {label}={value!r}; allowed: a number in "
                                 f"{low:g}..1e6")
        self.worlds = worlds
        self.playout = playout
        self.margin_weight = float(margin_weight)
        self.margin_scale = float(margin_scale)
        self.belief = belief
        self.belief_tries = belief_tries
        self._beliefs: dict[str, tuple[Rebuild, list[AgentPolicy]]] = {}  # game -> its model
        self._envs: dict[tuple, Any] = {}  # (env id, options, slots) -> its vector env
        self._policies: dict[tuple, Any] = {}  # (env id, options) -> the batched playout policy

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            state: State | None = None, player: int | None = None) -> int:
        values = self._values(action_mask, state, player)
        if isinstance(values, int):
            return values
        ids = np.fromiter(values, np.int64)
        scores = np.fromiter(values.values(), np.float64)
        best = np.flatnonzero(scores == scores.max())
        return int(ids[best[self.rng.integers(best.size)]])

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None,
                      player: int | None = None) -> dict[int, float] | None:
        """Each legal move's mean rollout return for the acting seat (a forced move: ``None``)."""
        values = self._values(action_mask, state, player)
        return None if isinstance(values, int) else values

    def _values(self, action_mask: np.ndarray, state: State | None,
                player: int | None) -> dict[int, float] | int:
        forced, ids = search_preamble(self.name, action_mask, state)
        if forced is not None:
            return forced
        me = acting_seat(state, player)
        options = self._rollout_options(state)
        if options != state.game.options:  # the same position, in the game the rollouts play
            state = type(state.game)(**options).state_from_dict(
                {**state.to_dict(), "options": options})
        worlds = [self._sample_world(state, me) for _ in range(self.worlds)]
        used = len(ids) * self.worlds
        env, policy = self._engine(state, used)
        for w, world in enumerate(worlds):  # slot k holds world k % worlds (past ``used``:
            env.set_state(w, world)  # not counted); each world is checked and loaded once
            env.copy_slot(w, np.arange(w + self.worlds, env.num_envs, self.worlds))
        candidate = np.full(env.num_envs, ids[0])
        candidate[:used] = np.repeat(ids, self.worlds)
        totals = _play_out(env, policy, me, candidate, state.game.max_decisions + 1)[:used]
        self.last_iterations = used
        if self.margin_weight:  # totals are the final scores: rank reward plus margin value
            values = (rank_values(totals, me)
                      + self.margin_weight * np.mean(np.tanh(
                          (totals[:, [me]] - np.delete(totals, me, axis=1)) / self.margin_scale),
                          axis=1))
        else:
            values = totals[:, me]
        means = values.reshape(len(ids), self.worlds).mean(axis=1)
        return {int(a): float(v) for a, v in zip(ids, means, strict=True)}

    def _sample_world(self, state: State, me: int) -> State:
        """A determinization, with ``belief="policy"`` one the heuristic agrees with."""
        if self.belief == "uniform":
            return state.determinize(me, self.rng)
        name = state.game.name
        if name not in self._beliefs:
            heuristic = game_agents(name).heuristic
            seats = state.game.num_players
            self._beliefs[name] = (
                rebuild_for(name, "rollout agent"),
                [AgentPolicy(heuristic(seed=int(self.rng.integers(2**63)))) for _ in range(seats)])
        rebuild, policies = self._beliefs[name]
        return sample_world(state, me, self.rng, rebuild, policies, self.belief_tries)

    def _rollout_options(self, state: State) -> dict[str, Any]:
        """The state's options; with ``margin_weight`` its rank reward played as ``"score"`` (the
        rules are the same; the game declares its rank reward the scores' ``rank_rewards``), so
        the rollouts return every seat's final score."""
        options = dict(state.game.options)
        if not self.margin_weight:
            return options
        if not game_agents(state.game.name).rank_from_scores or options.get("reward") != "rank":
            games = games_with(lambda parts: parts.rank_from_scores)
            raise ValueError(f"rollout agent: margin_weight needs a game played for its rank "
                             f"reward that is the rank of the final scores ({', '.join(games)}); "
                             f"game {state.game.name!r} has reward="
                             f"{options.get('reward', 'none')!r}")
        return {**options, "reward": "score"}

    def _engine(self, state: State, slots: int) -> tuple[Any, Any]:
        """A vector env of at least ``slots`` games with the state's options (sizes are powers
        of two, each made once, so a game's many move counts share a few) and the batched
        playout policy."""
        record = spec_named(state.game.name)
        env_id = None if record is None else record.env_id
        if env_id not in rollout_games():
            raise ValueError(f"rollout agent: game {state.game.name!r} has no compiled engine "
                             f"with a compiled heuristic; envs it plays: "
                             f"{', '.join(rollout_games())}")
        options = dict(state.game.options)
        key = (env_id, tuple(sorted((k, repr(v)) for k, v in options.items())))
        size = 1 << (slots - 1).bit_length()
        if (*key, size) not in self._envs:
            seed = int(self.rng.integers(2**63))
            env = envs.make_vector(env_id, size, seed=seed, backend="compiled", **options)
            env.reset()
            self._envs[(*key, size)] = env
        env = self._envs[(*key, size)]
        if key not in self._policies:
            if self.playout == "trained":
                self._policies[key] = _greedy_model(env_id, options, state.game.num_players,
                                                    env.observe()[0].shape[1])
            else:
                self._policies[key] = batched_agents(env_id, options)["heuristic"]
        return env, self._policies[key]


def _greedy_model(env_id: str, options: dict[str, Any], num_players: int,
                  obs_size: int) -> Any:
    """The shipped numpy model of ``env_id`` and ``num_players`` as a batched ``(obs, mask) ->
    actions`` policy playing its most likely legal move (an advised model reads the compiled
    heuristic's move as its advice); refused by name where none is shipped or it reads another
    observation (evolved heuristic weights: ``playout="heuristic"``)."""
    shipped = shipped_models(env_id, num_players)
    if not shipped:
        counts = sorted(read_card(path).get("num_players") for path in shipped_models(env_id))
        raise ValueError(f"rollout agent: playout='trained' needs a shipped model; {env_id} has "
                         f"them for {counts or 'no'} players, not {num_players}")
    model = load_model_file(shipped[0], env_id, num_players=num_players)
    if not isinstance(model, NumpyMLP) or model.observation != "default":
        raise ValueError(f"rollout agent: playout='trained' needs a network reading the "
                         f"default observation; the shipped model of {env_id} "
                         f"({num_players} players) is not one; use playout='heuristic'")
    model.check_obs_size(obs_size + (model.num_actions if model.advice else 0))
    advisor = batched_agents(env_id, options)["heuristic"] if model.advice else None

    def greedy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if advisor is not None:  # the observation, then a one-hot of the heuristic's move
            advised = np.zeros((len(obs), obs_size + model.num_actions), np.float32)
            advised[:, :obs_size] = obs
            advised[np.arange(len(obs)), obs_size + advisor(obs, mask)] = 1.0
            obs = advised
        logits = model.logits(obs)
        logits[~mask[:, :logits.shape[1]]] = -np.inf
        return logits.argmax(axis=1)

    return greedy


def rank_values(scores: np.ndarray, me: int) -> np.ndarray:
    """``me``'s rank reward (``envs.core.game.rank_rewards``: first +1, last -1, linear, ties
    share their places' mean) in each row of final ``scores`` ``[rows, seats]``."""
    others = np.delete(scores, me, axis=1)
    above = (others > scores[:, [me]]).sum(axis=1)
    tied = (others == scores[:, [me]]).sum(axis=1)
    return 1.0 - (2.0 * above + tied) / (scores.shape[1] - 1)


def _play_out(env: Any, policy: Any, me: int, candidate: np.ndarray,
              limit: int) -> np.ndarray:
    """Play every slot on from its loaded position: ``candidate[i]`` for ``me``'s first
    decision in slot ``i``, ``policy`` for every other; every seat's return gained in each slot
    ``[slots, seats]`` until its game ends (a slot restarts after its end: what follows is not
    counted)."""
    obs, mask, seat = env.observe()
    slots = len(candidate)
    played = np.zeros(slots, bool)
    live = np.ones(slots, bool)
    totals = np.zeros((slots, env.num_players))
    for _ in range(limit):
        actions = policy(obs, mask)
        root = ~played & (seat == me)
        actions[root] = candidate[root]
        played |= root
        obs, mask, seat, rewards, terminated, truncated = env.step(actions, copy=False)
        totals[live] += rewards[live]
        live &= ~(terminated | truncated)
        if not live.any():
            return totals
    raise RuntimeError(f"rollout agent: {int(live.sum())} rollouts did not end within {limit} "
                       "decisions")
