"""The league: who sits in the seats the learner does not play, and how often.

Entries are agent specs (``random``, ``heuristic`` (in by default), ``search:...``) and frozen
snapshots of the learner (numpy MLPs, ``tablezoo.agents.learned.policy.NumpyMLP``). One entry plays
every opponent seat of an episode, so its result against the learner is one clean number. Sampling
is prioritised fictitious self-play (PFSP, AlphaStar-style): an entry's weight is ``(1 - p) ** power
+ floor`` where ``p`` is the learner's recent score against it (win 1, draw 0.5, running mean over
the last ``window`` episodes, 0.5 before any), so opponents the learner still loses to are met most.

Team games (bauer_trick): the learner's partner is the learner itself (the latest weights, the
``self`` network refreshed every rollout) or, with probability ``partner_snapshot_prob``, one
of its snapshots; never a random player.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablezoo.agents.base import BaseAgent
from tablezoo.agents.learned.policy import NumpyMLP
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.training.evaluation.teams import partners_of

SELF = "self"
AgentFactory = Callable[[int | None], BaseAgent]


@dataclass
class Entry:
    """One opponent of the pool: an agent factory or the key of a network in the bank."""

    name: str
    make: AgentFactory | None = None
    net: str | None = None
    results: deque = field(default_factory=lambda: deque(maxlen=200))
    # the sum of ``results`` in half points: every new episode asks for the scores of all
    # entries, so they are kept as a running total instead of a mean over the window each time
    # (exact: results are 0, 0.5 or 1, so this is the same number np.mean gives)
    half_points: int = 0

    def add(self, result: float) -> None:
        """Record one episode's score (win 1, draw 0.5, loss 0) in the window."""
        if self.results.maxlen is not None and len(self.results) == self.results.maxlen:
            self.half_points -= round(2 * self.results[0])
        self.results.append(result)
        self.half_points += round(2 * result)

    def score(self) -> float:
        """The learner's mean score against this entry (win 1, draw 0.5); 0.5 if unplayed."""
        return self.half_points / 2 / len(self.results) if self.results else 0.5


@dataclass(frozen=True)
class Deferred:
    """An agent seat whose agent is not built: the batched collector answers ``spec`` itself
    (``League.plans``); ``seed`` is the seat's seed."""

    spec: str
    seed: int


@dataclass
class Plan:
    """Who plays each seat in one episode: ``None`` (the learner), a network key, or an agent;
    ``seeds[p]`` seeds that seat's agent or sampling generator."""

    controllers: list[Any]
    seeds: list[int]
    entry: str
    # the frozen networks this episode uses: a snapshot evicted from the league mid-episode
    # still plays the episode out (``self`` is always the league's latest)
    nets: dict[str, NumpyMLP] = field(default_factory=dict)


@dataclass(kw_only=True)
class LeagueSettings:
    """A league (``tablezoo train --opponent``/``--self-play``/``--max-snapshots``/...): the
    agent ``specs``; with ``self_play`` the learner's latest weights and its newest
    ``max_snapshots`` snapshots too; PFSP's ``pfsp_power``, ``floor`` and ``window`` (module
    docstring); the partner's ``partner_snapshot_prob``; ``sample_nets`` (networks sample their
    moves; ``False``: the argmax); ``entry_weights``, a fixed factor on an entry's PFSP weight
    (e.g. heuristic=3: meet the opponent the model is judged against more often than the
    snapshots)."""

    specs: Sequence[str] = ("heuristic",)
    self_play: bool = False
    max_snapshots: int = 5
    pfsp_power: float = 2.0
    floor: float = 0.05
    window: int = 200
    partner_snapshot_prob: float = 0.2
    sample_nets: bool = True
    entry_weights: dict[str, float] | None = None


class League:
    """Opponent entries, the network bank (``self`` + snapshots) and PFSP sampling."""

    def __init__(self, game: Game, env_name: str | None,
                 settings: LeagueSettings | None = None):
        s = settings if settings is not None else LeagueSettings()
        specs, self_play, window = s.specs, s.self_play, s.window
        if not specs and not self_play:
            raise ValueError("league: give at least one agent spec (e.g. heuristic) or self_play")
        self.game = game
        self.max_snapshots = s.max_snapshots
        self.pfsp_power = s.pfsp_power
        self.floor = s.floor
        self.self_play = self_play
        self.partner_snapshot_prob = s.partner_snapshot_prob
        self.sample_nets = s.sample_nets
        self.window = window
        self.entry_weights = dict(s.entry_weights or {})
        known = set(specs) | {SELF, "snapshots"}
        unknown = sorted(set(self.entry_weights) - known)
        if unknown:
            raise ValueError(f"league: entry weight(s) for {', '.join(unknown)}, which are not "
                             f"in the league; entries: {', '.join(sorted(known))}")
        self.bank: dict[str, NumpyMLP] = {}
        self.entries: list[Entry] = [Entry(spec, make=factory_from_spec(spec, env_name,
                                                                        game.num_players),
                                           results=deque(maxlen=window)) for spec in specs]
        self.snapshots: list[str] = []
        self.has_teams = any(len(t) > 1 for t in getattr(game, "teams", None) or ())
        if self_play:
            self.entries.append(Entry(SELF, net=SELF, results=deque(maxlen=window)))

    # --- networks --------------------------------------------------------------------------------
    def set_self(self, mlp: NumpyMLP) -> None:
        """The learner's current weights, for its partner and ``self`` opponent seats."""
        self.bank[SELF] = mlp

    def add_snapshot(self, name: str, mlp: NumpyMLP) -> None:
        """Freeze ``mlp`` as a new opponent; only the last ``max_snapshots`` stay."""
        self.bank[name] = mlp
        self.snapshots.append(name)
        self.entries.append(Entry(name, net=name, results=deque(maxlen=self.window)))
        while len(self.snapshots) > self.max_snapshots:
            old = self.snapshots.pop(0)
            self.bank.pop(old, None)
            self.entries = [e for e in self.entries if e.name != old]

    # --- sampling --------------------------------------------------------------------------------
    def usable(self) -> list[Entry]:
        return [e for e in self.entries if e.net is None or e.net in self.bank]

    def weights(self, entries: Sequence[Entry] | None = None) -> np.ndarray:
        entries = self.usable() if entries is None else entries
        return np.array([((1.0 - e.score()) ** self.pfsp_power + self.floor) * self._factor(e)
                         for e in entries])

    def _factor(self, entry: Entry) -> float:
        if entry.name in self.entry_weights:
            return self.entry_weights[entry.name]
        if entry.name in self.snapshots:
            return self.entry_weights.get("snapshots", 1.0)
        return 1.0

    def plan(self, learner_seat: int, rng: np.random.Generator) -> Plan:
        entries = self.usable()
        if not entries:
            raise RuntimeError("league: no usable entry (self-play needs set_self first)")
        w = self.weights(entries)
        entry = entries[int(rng.choice(len(entries), p=w / w.sum()))]
        partners = set(partners_of(self.game, learner_seat)) if self.has_teams else set()
        seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=self.game.num_players)]
        controllers: list[Any] = []
        for p in range(self.game.num_players):
            if p == learner_seat:
                controllers.append(None)
            elif p in partners:
                controllers.append(self._partner(rng))
            elif entry.make is not None:
                controllers.append(entry.make(seeds[p]))
            else:
                controllers.append(entry.net)
        nets = {c: self.bank[c] for c in controllers if isinstance(c, str) and c != SELF}
        return Plan(controllers, seeds, entry.name, nets)

    def plans(self, learner_seats: Sequence[int], rng: np.random.Generator,
              deferred: Collection[str] = ()) -> list[Plan]:
        """One plan per learner seat, drawn as ``plan`` draws them (PFSP over the entries, the
        partner, a seed per seat) but together: the weights are computed once and every draw is
        one array. The seats of an entry in ``deferred`` get ``Deferred(spec, seed)`` instead
        of a built agent (the batched collector answers them itself)."""
        entries = self.usable()
        if not entries:
            raise RuntimeError("league: no usable entry (self-play needs set_self first)")
        n, players = len(learner_seats), self.game.num_players
        w = self.weights(entries)
        picks = rng.choice(len(entries), size=n, p=w / w.sum())
        seeds = rng.integers(0, 2**63 - 1, size=(n, players))
        snap = rng.random((n, players)) < self.partner_snapshot_prob if self.snapshots \
            else np.zeros((n, players), bool)
        which = rng.integers(max(1, len(self.snapshots)), size=(n, players))
        if self.has_teams and SELF not in self.bank:
            raise RuntimeError("league: a team game needs the learner's weights (set_self)")
        out = []
        for k, seat in enumerate(learner_seats):
            entry = entries[int(picks[k])]
            partners = partners_of(self.game, int(seat)) if self.has_teams else ()
            row = [int(s) for s in seeds[k]]
            controllers: list[Any] = []
            for p in range(players):
                if p == seat:
                    controllers.append(None)
                elif p in partners:
                    controllers.append(self.snapshots[int(which[k, p])] if snap[k, p] else SELF)
                elif entry.make is None:
                    controllers.append(entry.net)
                elif entry.name in deferred:
                    controllers.append(Deferred(entry.name, row[p]))
                else:
                    controllers.append(entry.make(row[p]))
            nets = {c: self.bank[c] for c in controllers if isinstance(c, str) and c != SELF}
            out.append(Plan(controllers, row, entry.name, nets))
        return out

    def network(self, key: str, plan: Plan) -> NumpyMLP:
        """The network ``key`` of an episode planned as ``plan``."""
        return self.bank[SELF] if key == SELF else plan.nets[key]

    def _partner(self, rng: np.random.Generator) -> str:
        if self.snapshots and rng.random() < self.partner_snapshot_prob:
            return self.snapshots[int(rng.integers(len(self.snapshots)))]
        if SELF not in self.bank:
            raise RuntimeError("league: a team game needs the learner's weights (set_self)")
        return SELF

    def record(self, entry: str, learner_return: float) -> None:
        for e in self.entries:
            if e.name == entry:
                e.add(1.0 if learner_return > 0 else 0.5 if learner_return == 0 else 0.0)

    def summary(self) -> dict[str, dict[str, float]]:
        entries = self.usable()
        w = self.weights(entries)
        return {e.name: {"score": e.score(), "games": len(e.results),
                         "weight": float(wi / w.sum())} for e, wi in zip(entries, w)}
