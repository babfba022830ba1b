"""Information-Set Monte-Carlo Tree Search (IS-MCTS), usable for every game through the engine.

Each iteration samples a fresh world from what the searching seat has seen
(``state.determinize(me, rng)``) and walks one tree of *information sets* in it:

- A node holds the statistics of one seat at one information set. Its key is the acting seat
  plus the bytes of the *searcher's* observation at that point (single-observer IS-MCTS, as in
  Cowling, Powley and Whitehouse 2012): worlds the searcher cannot tell apart share one node, so
  statistics pile up across determinizations. With ``keys="own"`` the other seats' nodes are
  keyed by their own observation instead (their private cards matter to their choice; this is the
  multiple-observer reading, sounder but slower to learn). With ``keys="policy"`` only the
  searcher has nodes and every other seat plays the playout policy inside the tree too (an
  opponent model: with the heuristic as playout policy, small budgets are spent on the
  searcher's own choices). With ``keys="root"`` only the root is a node: every later decision,
  the searcher's too, is the playout policy's, so the search is UCB over the root actions with
  policy rollouts (the right tool when the policy is strong and the branching huge).
  Observations are the seat-relative vectors the envs hand out, so a
  key never holds information the keyed seat lacks.
- Selection is UCB1 with *availability counts*: an action's exploration term uses how often it
  was legal when its node was visited, not the node's visit count, because in a sampled world
  some actions do not exist (Cowling et al., "ISMCTS", section 4.2).
- Returns are vectors: each node maximises its own seat's return, so partners (``Game.teams``,
  who share returns) cooperate and 3+ player games need no zero-sum trick.
- Simultaneous moves (bauer_draft) use *decoupled* UCT: every acting seat picks from its own
  node, which never sees the others' choices of the same step, and the joint action is applied.
- The tree stops growing at the first new node of an iteration; a playout (``playout=``: random,
  the game's heuristic, any agent object or a callable ``(state, player) -> action``) continues,
  cut after ``depth`` joint decisions, where the leaf is valued by ``evaluator=``: the score
  margins (``"score"``: ``tanh(margin / leaf_scale)`` averaged over the opponents), a game's
  heuristic position value (``"heuristic"``, bower; ``agents/search/leaf_values.py``), the glory
  margins if the current Age ended now (``"age_end"``, ethnos, scale ``leaf_scale``), an exact
  perfect-information solve of the sampled world (``"solver"``, bauer_trick's trick play,
  ``agents/games/bauer_trick/solver.py``: with ``depth=0`` and ``keys="root"`` this is
  perfect-information Monte Carlo) or a callable ``(state, searcher) -> per-seat values``; an
  evaluator that returns ``None`` cannot value that position yet, and the playout goes on until it
  can. ``margin_weight`` adds the score-margin value to finished playouts too (a softer signal than
  win/loss for small budgets).
- The node table is kept between the moves of a game (tree reuse); the next move's root is found
  by its key whenever an earlier search reached it. ``reset()`` clears it, and so does a table
  grown past ``max_nodes`` (default: about 100 MB of statistics).
- ``prior=`` (default: the game's heuristic, or its shipped trained model where its
  ``GameAgents.search`` says so; ``None`` turns it off) adds a progressive bias ``prior_weight / (1
  + n)`` to the action the prior agent picks at the root, so a small budget starts from the prior's
  choice and leaves it only when the samples say so. With ``candidates=k`` only the prior's k best
  root actions are searched, ranked by the prior agent's ``action_values`` (the heuristic's own
  values for bower, the policy's probabilities for a trained model): progressive widening cut to a
  fixed width, for branching factors the budget cannot cover.
- ``belief="policy"`` keeps a sampled world only if the playout policy (the search's model of
  every player) would have made the other seats' earlier public choices in it, re-sampling up
  to ``belief_tries`` times (``agents/search/belief.py``; bauer_trick's trump call).
  ``belief="items"`` redraws the hidden request eggs of each sampled world jointly, weighted by
  the items the opponent has put in its columns (bower: it sees its own eggs and builds for
  them).
- ``exact_turns=K`` (bower's ``"heuristic"`` / ``"world_heuristic"`` leaf) plays a playout on
  to the real end when at most ``K`` turns of the game are left at its cut-off.
- ``playout="trained"`` / ``prior="trained"`` play the shipped numpy model of the game and
  player count (``agents/pretrained``); as a game default they fall back to the heuristic for
  player counts without a shipped model. ``model=PATH`` plays that numpy model file there
  instead (checked against the game and player count), so a search built on an earlier model
  stays reachable as a spec.

The budget is ``iterations=`` or ``seconds=`` (CPU time of this process) per move; the defaults
per game (``GameAgents.search``) take well under 0.5 s per move on the project machine.
Everything random comes from the agent's own generator; the true state is only ever used through
``determinize(me, ...)``, so the choice depends only on what ``me`` has seen (tested).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.base import Agent, BaseAgent, acting_seat, search_preamble
from tablezoo.agents.games import game_agents
from tablezoo.agents.learned.policy import shipped_models, trained_factory
from tablezoo.agents.search.belief import (
    BELIEFS,
    AgentPolicy,
    rebuild_for,
    sample_world,
    world_belief_for,
)
from tablezoo.agents.search.defaults import GameDefaults, SearchSettings
from tablezoo.agents.search.leaf_values import (
    evaluator_names,
    leaf_evaluator,
    margin_values,
    takes_exact_turns,
)
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.core.spec import spec_named

PlayoutPolicy = Callable[[State, int], int]
# a playout/prior policy spec: "random", "heuristic", an agent object or a callable
PolicySpec = Any
# the settings that ``_configure`` resolves against the game's defaults at the first move
GIVEN = ("iterations", "exploration", "playout", "depth", "leaf_scale", "prior_weight",
         "evaluator", "margin_weight")

KEYS = ("searcher", "own", "policy", "root")
POLICY_NAMES = ("random", "heuristic", "trained")


class _Node:
    """Per-action statistics of one seat at one information set."""

    __slots__ = ("avail", "total", "visits")

    def __init__(self, num_actions: int):
        self.visits = np.zeros(num_actions)
        self.total = np.zeros(num_actions)
        self.avail = np.zeros(num_actions)


class ISMCTSAgent(BaseAgent):
    """Single-observer IS-MCTS with availability-count UCB, decoupled simultaneous moves,
    playout policies, a depth cut-off with a leaf value and tree reuse.

    Every option left ``None`` takes the game's value from ``GameAgents.search`` at the first move:
    ``iterations`` / ``seconds`` (budget per move, one of them), ``exploration`` (UCB constant for
    returns in [-1, 1]), ``playout`` (``"random"``, ``"heuristic"``, an agent or a callable),
    ``depth`` (playout cut-off in joint decisions; ``None``: to the end), ``leaf_scale``,
    ``evaluator``, ``margin_weight``, ``keys`` (``"searcher"``, ``"own"``, ``"policy"``,
    ``"root"``),
    ``candidates`` (search only the prior's k best root actions, ranked by the prior agent's
    ``action_values(observation, mask, state, player) -> {action: value}`` where it has one),
    ``prior`` / ``prior_weight`` (root bias; ``prior=None`` turns it off), ``paired``,
    ``belief`` (``"uniform"``, ``"policy"`` or ``"items"``) / ``belief_tries``,
    ``exact_turns`` (bower's heuristic evaluators), ``reuse`` (keep the table between moves),
    ``max_nodes``.
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, settings: SearchSettings | None = None,
                 **options: Any):
        """``settings``, with any ``SearchSettings`` field given as a keyword over it
        (``ISMCTSAgent(iterations=300)``); an unknown keyword is a ``TypeError``."""
        super().__init__(seed)
        o = self.settings = dataclasses.replace(settings or SearchSettings(), **options)
        if o.iterations is not None and o.seconds is not None:
            raise ValueError("ismcts agent: give iterations= or seconds=, not both")
        if o.iterations is not None and (type(o.iterations) is not int or o.iterations < 1):
            raise ValueError(f"ismcts agent: iterations={o.iterations!r}; expected an int >= 1")
        if o.seconds is not None and (not isinstance(o.seconds, (int, float)) or o.seconds <= 0):
            raise ValueError(f"ismcts agent: seconds={o.seconds!r}; expected a number > 0")
        if o.depth is not None and (type(o.depth) is not int or o.depth < 0):
            raise ValueError(f"ismcts agent: depth={o.depth!r}; expected None or an int >= 0")
        for label, value in (("exploration", o.exploration), ("leaf_scale", o.leaf_scale),
                             ("prior_weight", o.prior_weight), ("margin_weight", o.margin_weight)):
            if value is not None and (not isinstance(value, (int, float)) or value < 0):
                raise ValueError(f"ismcts agent: {label}={value!r}; expected a number >= 0")
        if o.leaf_scale is not None and o.leaf_scale <= 0:
            raise ValueError(f"ismcts agent: leaf_scale={o.leaf_scale!r}; expected a number > 0")
        if o.keys is not None and o.keys not in KEYS:
            raise ValueError(f"ismcts agent: keys={o.keys!r}; allowed: {', '.join(KEYS)}")
        for label, spec in (("playout", o.playout), ("prior", o.prior)):
            _check_policy_spec(label, spec, allow_none=True,
                               allow_default=label == "prior")
        if o.evaluator is not None and not callable(o.evaluator) \
                and o.evaluator not in evaluator_names():
            raise ValueError(f"ismcts agent: evaluator={o.evaluator!r}; expected one of "
                             f"{', '.join(evaluator_names())} or a callable (state, player) -> "
                             "per-seat values (or None: play on)")
        self.given = {name: getattr(o, name) for name in GIVEN}
        self.seconds = o.seconds
        self.prior_spec = o.prior
        if o.model is not None and not isinstance(o.model, str | Path):
            raise ValueError(f"ismcts agent: model={o.model!r}; expected the path of a numpy "
                             "model file (.npz), or None for the shipped model")
        self.model = None if o.model is None else str(o.model)
        self.keys_given = o.keys
        if o.candidates is not None and (type(o.candidates) is not int or o.candidates < 1):
            raise ValueError(
                f"ismcts agent: candidates={o.candidates!r}; expected None or an int >= 1")
        self.candidates_given = o.candidates
        if o.paired is not None and not isinstance(o.paired, bool):
            raise ValueError(f"ismcts agent: paired={o.paired!r}; expected true or false")
        if o.paired and o.keys not in (None, "root"):
            raise ValueError(_paired_needs_root(o.keys))
        self.paired_given = o.paired
        if o.belief is not None and o.belief not in BELIEFS:
            raise ValueError(f"ismcts agent: belief={o.belief!r}; allowed: {', '.join(BELIEFS)}")
        if type(o.belief_tries) is not int or o.belief_tries < 1:
            raise ValueError(f"ismcts agent: belief_tries={o.belief_tries!r}; expected an int >= 1")
        self.belief_given = o.belief
        self.belief_tries = o.belief_tries
        if o.exact_turns is not None and (type(o.exact_turns) is not int or o.exact_turns < 0):
            raise ValueError(f"ismcts agent: exact_turns={o.exact_turns!r}; expected None or an "
                             "int >= 0")
        self.exact_turns_given = o.exact_turns
        self.reuse = bool(o.reuse)
        if o.max_nodes is not None and (type(o.max_nodes) is not int or o.max_nodes < 1):
            raise ValueError(f"ismcts agent: max_nodes={o.max_nodes!r}; expected None or an "
                             "int >= 1")
        self.max_nodes_given = o.max_nodes
        self._game_name: tuple[str, int] | None = None
        self.table: dict[tuple[int, bytes], _Node] = {}
        self.last_iterations = 0

    # ----------------------------------------------------------------------------- set-up
    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.table = {}
        self._game_name = None

    def check_game(self, game: Game) -> None:
        """Resolve the options against ``game`` now, so one the game lacks (``evaluator=
        "solver"`` outside bauer_trick, ``belief="items"`` outside bower) is refused before any
        game is played rather than at this agent's first move, mid-run."""
        drawn_from = self.rng.bit_generator.state
        try:
            self._configure(game.new_state(seed=0))
        finally:  # refused or not, the check leaves nothing behind: no draws, no set-up
            self.rng.bit_generator.state = drawn_from
            self.reset()

    def _configure(self, state: State) -> None:
        """Resolve the per-game defaults and build the playout and prior policies once."""
        game = state.game
        if self._game_name == (game.name, game.num_players):  # the defaults depend on both
            return
        self._game_name = (game.name, game.num_players)
        self.table = {}
        base = _defaults_for(game, self.model)
        given = self.given
        default_iterations = (base.iterations if base.seat_budget is None
                              else max(1, base.seat_budget // game.num_players))
        self.iterations = given["iterations"] if given["iterations"] is not None else (
            default_iterations)
        self.c = float(given["exploration"] if given["exploration"] is not None
                       else base.exploration)
        self.depth = given["depth"] if given["depth"] is not None else base.depth
        self.leaf_scale = float(given["leaf_scale"] if given["leaf_scale"] is not None
                                else base.leaf_scale)
        self.prior_weight = float(given["prior_weight"] if given["prior_weight"] is not None
                                  else base.prior_weight)
        self.margin_weight = float(given["margin_weight"] if given["margin_weight"] is not None
                                   else base.margin_weight)
        evaluator = given["evaluator"] if given["evaluator"] is not None else base.evaluator
        exact_turns = (self.exact_turns_given if self.exact_turns_given is not None
                       else base.exact_turns
                       if isinstance(evaluator, str) and takes_exact_turns(evaluator, game.name)
                       else 0)
        if exact_turns and not isinstance(evaluator, str):
            raise ValueError(f"ismcts agent: exact_turns={exact_turns} applies to a game's "
                             "named evaluators, not a callable one")
        self.evaluator = (leaf_evaluator(evaluator, game.name, self.leaf_scale, exact_turns)
                          if isinstance(evaluator, str) else evaluator)
        self.keys = self.keys_given if self.keys_given is not None else base.keys
        self.candidates = (self.candidates_given if self.candidates_given is not None
                           else base.candidates)
        self.paired = self.paired_given if self.paired_given is not None else base.paired
        if self.paired and self.keys != "root":
            raise ValueError(_paired_needs_root(self.keys))
        playout = given["playout"] if given["playout"] is not None else base.playout
        self.playout = [self._policy(playout, game.name, game.num_players)
                        for _ in range(game.num_players)]
        prior = base.prior if self.prior_spec == "default" else self.prior_spec
        if self.model is not None and "trained" not in (playout, prior):
            raise ValueError(f"ismcts agent: model={self.model!r} replaces the shipped model, "
                             f"but this search of {game.name} plays none (playout={playout!r}, "
                             f"prior={prior!r}); allowed: model= with playout=trained or "
                             "prior=trained")
        self.prior = None if prior is None else self._policy(prior, game.name, game.num_players)
        self.opponents = _opponents(game)
        belief = self.belief_given if self.belief_given is not None else base.belief
        self.rebuild = rebuild_for(game.name) if belief == "policy" else None
        self.world_belief = world_belief_for(game.name) if belief == "items" else None
        self._redraw = None  # this move's world_belief, set in act
        # a node holds 3 float arrays of num_actions: cap the table near 100 MB by default
        self.max_nodes = self.max_nodes_given or max(1000, 4_000_000 // game.num_actions)

    def _policy(self, spec: PolicySpec, game_name: str,
                num_players: int | None = None) -> PlayoutPolicy | None:
        """A ``(state, player) -> action`` function from a spec; ``None`` means uniform random
        (inlined in the playout loop, the cheapest case). ``"trained"`` is the shipped numpy
        model for the game and player count."""
        if spec == "random":
            return None
        if spec == "heuristic":
            heuristic = game_agents(game_name).heuristic
            if heuristic is None:
                raise ValueError(f"ismcts agent: no heuristic known for game {game_name!r}")
            return AgentPolicy(heuristic(seed=int(self.rng.integers(2**63))))
        if spec == "trained":
            env_name = _env_id(game_name)
            if env_name is None:
                raise ValueError(f"ismcts agent: no trained model known for game {game_name!r}")
            make = _trained_factory(env_name, num_players, self.model)
            return AgentPolicy(make(int(self.rng.integers(2**63))))
        if hasattr(spec, "act"):
            return AgentPolicy(self._own_copy(spec))
        return spec  # a callable (state, player) -> action

    def _own_copy(self, agent: Any) -> Any:
        """A copy of an agent object given as playout or prior, seeded from this search's
        generator: every seat and every search gets its own, so one object given to several
        searches is not shared between them and a seeded search replays exactly. An object
        that cannot be copied (a ``policy`` agent holds torch) is used as given, and one
        without ``reset`` is not reseeded."""
        with contextlib.suppress(TypeError, copy.Error, RecursionError):
            agent = copy.deepcopy(agent)
        if isinstance(agent, Agent):  # the protocol's reset (a bare object with act has none)
            agent.reset(int(self.rng.integers(2**63)))
        return agent

    # ----------------------------------------------------------------------------- acting
    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        forced, ids = search_preamble("ismcts", action_mask, state)
        if forced is not None:
            return forced
        num_actions = state.game.num_actions
        self._configure(state)
        me = acting_seat(state, player)
        if not self.reuse or len(self.table) > self.max_nodes:
            self.table = {}
        self._redraw = None if self.world_belief is None else self.world_belief(state, me)
        first = self._sample_world(state, me)
        root_key = (me, first.observe(me).tobytes())
        bias = np.zeros(num_actions)
        self.root_allowed = np.asarray(action_mask[:num_actions], dtype=bool)
        ranked = self._ranked_candidates(first, me)
        if ranked is not None:
            if len(ranked) == 1:  # nothing to compare: the prior's choice, no search
                self.last_iterations = 0
                return ranked[0]
            self.root_allowed = np.zeros(num_actions, dtype=bool)
            self.root_allowed[ranked] = True
            bias[ranked[0]] = self.prior_weight
        elif self.prior is not None and self.prior_weight > 0:
            bias[self.prior(first, me)] = self.prior_weight
        self._search(state, me, first, root_key, bias)  # the truth only via determinize
        node = self.table[root_key]
        if self.paired:  # equal visits: the best mean, the prior's choice given a head start
            n = np.maximum(node.visits, 1.0)
            score = np.where(self.root_allowed, node.total / n + bias / (1.0 + node.visits),
                             -np.inf)
            best = np.flatnonzero(score == score.max())
            return int(best[self.rng.integers(best.size)])
        visits = np.where(self.root_allowed, node.visits, -1.0)
        best = np.flatnonzero(visits == visits.max())
        if best.size > 1:  # equal visits: the better mean, then the prior, then the generator
            means = node.total[best] / np.maximum(node.visits[best], 1) + 1e-9 * bias[best]
            best = best[means == means.max()]
        return int(best[self.rng.integers(best.size)])

    def _ranked_candidates(self, first: State, me: int) -> list[int] | None:
        """The prior's ``candidates`` best actions, best first, when the prior agent can value
        its actions (``action_values``); ``None`` when not asked for or not possible. Computed
        on a determinization, so it too depends only on what ``me`` has seen."""
        if not self.candidates or not isinstance(self.prior, AgentPolicy) \
                or not isinstance(self.prior.agent, Agent):
            return None
        values = self.prior.agent.action_values(first.observe(me), first.legal_mask(me),
                                                state=first, player=me)
        if values is None:
            return None
        ranked = sorted(values, key=lambda a: (-values[a], a))
        return [int(a) for a in ranked[: self.candidates]]

    def _search(self, state: State, me: int, first: State, root_key: tuple[int, bytes],
                bias: np.ndarray) -> None:
        start_returns = np.asarray(first.returns(), dtype=float)  # public: equal in every world
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        limit = self.iterations if self.seconds is None else 1 << 62
        done = 0
        world = first
        while done < limit:
            if done > 0:
                if deadline is not None and time.process_time() >= deadline:
                    break
                world = self._sample_world(state, me)
            if self.paired:
                done += self._iterate_paired(world, me, root_key, start_returns)
            else:
                self._iterate(world, me, root_key, bias, start_returns)
                done += 1
        self.last_iterations = done

    def _sample_world(self, state: State, me: int) -> State:
        """A determinization; with ``belief="items"`` its hidden eggs redrawn by this move's
        weights; with ``belief="policy"`` re-sampled (up to ``belief_tries`` times, then the
        last one is kept) until the playout policy would have made the other seats' earlier
        choices."""
        if self.rebuild is not None:
            return sample_world(state, me, self.rng, self.rebuild, self.playout,
                                self.belief_tries)
        world = state.determinize(me, self.rng)
        if self._redraw is not None:
            self._redraw(world, self.rng)
        return world

    def _iterate_paired(self, world: State, me: int, root_key: tuple[int, bytes],
                        start_returns: np.ndarray) -> int:
        """One sampled world played on from every root candidate, the others' choices of this
        step and the world's own chance (a clone shares the generator's state) the same for
        each: common random numbers, so candidates are compared on equal luck. Returns the
        playouts spent."""
        node = self.table.get(root_key)
        if node is None:
            node = self.table[root_key] = _Node(world.game.num_actions)
        candidates = np.flatnonzero(self.root_allowed & world.legal_mask(me)[: node.visits.size])
        others = {p: self._policy_action(world, p) for p in world.acting_players() if p != me}
        node.avail[candidates] += 1.0
        for a in candidates:
            branch = world.clone()
            branch.apply({**others, me: int(a)})
            value = self._playout(branch, me) - start_returns
            node.visits[a] += 1.0
            node.total[a] += value[me]
        return int(candidates.size)

    def _iterate(self, world: State, me: int, root_key: tuple[int, bytes], bias: np.ndarray,
                 start_returns: np.ndarray) -> None:
        """One selection / expansion / playout / backpropagation pass through ``world``."""
        path: list[tuple[_Node, int, int]] = []
        grow = True
        at_root = True
        while grow and not world.is_over():
            key_obs = None if self.keys == "own" else world.observe(me).tobytes()
            joint: dict[int, int] = {}
            for p in world.acting_players():
                if p != me and self.keys in ("policy", "root"):
                    joint[p] = self._policy_action(world, p)
                    continue
                if at_root and p == me:
                    key = root_key
                else:
                    key = (p, world.observe(p).tobytes() if key_obs is None else key_obs)
                node = self.table.get(key)
                if node is None:
                    node = self.table[key] = _Node(world.game.num_actions)
                    grow = False
                mask = world.legal_mask(p)
                if key is root_key:
                    mask = mask & self.root_allowed
                action, fresh = self._select(node, mask, bias if key is root_key else None)
                grow = grow and not fresh
                path.append((node, p, action))
                joint[p] = action
            at_root = False
            world.apply(joint)
            if self.keys == "root":
                break
        value = self._playout(world, me) - start_returns
        for node, p, action in path:
            node.visits[action] += 1.0
            node.total[action] += value[p]

    def _select(self, node: _Node, mask: np.ndarray, bias: np.ndarray | None) -> tuple[int, bool]:
        """UCB1 over the available actions; an untried one first (the prior's one first of
        all). Returns the action and whether it was untried (the tree stops growing there)."""
        legal = np.flatnonzero(mask)
        node.avail[legal] += 1.0
        n = node.visits[legal]
        untried = legal[n == 0]
        if untried.size:
            if bias is not None and bias[untried].max() > 0:
                return int(untried[np.argmax(bias[untried])]), True
            return int(untried[self.rng.integers(untried.size)]), True
        mean = node.total[legal] / n
        score = mean + self.c * np.sqrt(np.log(node.avail[legal]) / n)
        if bias is not None:
            score = score + bias[legal] / (1.0 + n)
        best = np.flatnonzero(score == score.max())
        return int(legal[best[self.rng.integers(best.size)]]), False

    def _playout(self, world: State, me: int) -> np.ndarray:
        """Play on with the playout policies; value the end (or the cut-off) per seat: the
        returns, plus at a cut-off the leaf evaluation, plus ``margin_weight`` times the
        score-margin value at the end (a softer signal than win/loss for small budgets)."""
        limit = world.game.max_decisions if self.depth is None else self.depth
        steps = 0
        while not world.is_over():
            if steps >= limit:
                leaf = self._leaf_value(world, me)
                if leaf is not None:  # else the evaluator cannot value it yet: play on
                    return np.asarray(world.returns(), dtype=float) + leaf
            world.apply({p: self._policy_action(world, p) for p in world.acting_players()})
            steps += 1
        value = np.asarray(world.returns(), dtype=float)
        if self.margin_weight:
            value = value + self.margin_weight * self._leaf(world.scores())
        return value

    def _leaf_value(self, world: State, me: int) -> np.ndarray | None:
        """The evaluator's per-seat values at a cut-off (the score margin without one)."""
        if self.evaluator is None:
            return self._leaf(world.scores())
        leaf = self.evaluator(world, me)
        return None if leaf is None else np.asarray(leaf, dtype=float)

    def _policy_action(self, world: State, p: int) -> int:
        policy = self.playout[p]
        if policy is None:
            legal = np.flatnonzero(world.legal_mask(p))
            return int(legal[self.rng.integers(legal.size)])
        return int(policy(world, p))

    def _leaf(self, scores: list[float]) -> np.ndarray:
        """Mean over each seat's opponents of ``tanh(margin / leaf_scale)``: in [-1, 1] like the
        terminal rewards, 0 for equal scores, and a team's seats share it."""
        return margin_values(scores, self.opponents, self.leaf_scale)


def _env_id(game_name: str) -> str | None:
    """The env id whose game is called ``game_name``."""
    record = spec_named(game_name)
    return None if record is None else record.env_id


def _defaults_for(game: Any, model: str | None = None) -> GameDefaults:
    """The game's ISMCTS defaults (its ``GameAgents.search``); their ``untrained`` set where they
    play a shipped model that this player count lacks (and no ``model`` file is given)."""
    base = game_agents(game.name).search
    if base.needs_model() and base.untrained is not None and model is None:
        env_name = _env_id(game.name)
        if not (env_name and shipped_models(env_name, game.num_players)):
            return base.untrained
    return base


def _paired_needs_root(keys: str) -> str:
    return (f"ismcts agent: paired=True needs keys='root' (got keys={keys!r}): only a root-only "
            "search can play one sampled world on from every root action")


def _opponents(game: Any) -> list[tuple[int, ...]]:
    """Per seat, the seats outside its team."""
    teams = getattr(game, "teams", None) or tuple((p,) for p in range(game.num_players))
    team_of = {p: t for t in teams for p in t}
    return [tuple(q for q in range(game.num_players) if q not in team_of[p])
            for p in range(game.num_players)]


@cache
def _trained_factory(env_name: str, num_players: int | None,
                     model: str | None = None) -> Callable[[int], BaseAgent]:
    """``seed -> TrainedAgent`` for the shipped model (or the ``model`` file), its weights
    loaded once per process (each search builds one per seat and the prior at every game's
    first move)."""
    return trained_factory(env_name, num_players, model)


def _check_policy_spec(label: str, spec: PolicySpec, allow_none: bool,
                       allow_default: bool = False) -> None:
    if (spec is None and allow_none) or (spec == "default" and allow_default):
        return
    if spec in POLICY_NAMES or hasattr(spec, "act") or callable(spec):
        return
    raise ValueError(
        f"ismcts agent: {label}={spec!r}; expected 'random', 'heuristic', 'trained', an agent "
        "object or a callable (state, player) -> action"
    )
