"""Data collection for the research notebooks: many seeded games through the engine protocol.

The notebooks ask questions of thousands of games (who wins from which seat, how long games last,
how many choices a decision offers, where points come from). Playing them through the PettingZoo
adapters would cost observation copies nobody reads, so this module drives ``Game``/``State``
directly, asks agents built by ``tablezoo.agents.registry`` for moves, and keeps one compact
``GameRecord`` per game. A per-game ``extras`` function pulls the few game-specific facts a
notebook studies from the public ``State.to_dict()`` of the final position (who called trump,
which characters a seat played, which bonus tiles it kept, which tribes were in play), so the
notebooks never reach into a game's internals.

Games are split over worker processes (``workers``); each game's seeds come from
``tablezoo.training.evaluation.match.seeds_for``, so a record depends only on ``(seed, index)`` and
never on how the games were split. Budgets for the notebooks come from ``TABLEZOO_NOTEBOOK_BUDGET``
(``small`` for the test suite, ``full`` for the committed figures).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.base import Agent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game, State
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.evaluation.processes import game_pool
from tablezoo.training.evaluation.stats import Interval, mean_interval, wilson_interval
from tablezoo.training.evaluation.teams import teams_of

BUDGET_VARIABLE = "TABLEZOO_NOTEBOOK_BUDGET"
BUDGETS = ("small", "full")
WORKERS_VARIABLE = "TABLEZOO_WORKERS"


def budget() -> str:
    """The notebook budget named by ``TABLEZOO_NOTEBOOK_BUDGET`` (default ``full``)."""
    value = os.environ.get(BUDGET_VARIABLE, "full").strip().lower()
    if value not in BUDGETS:
        raise ValueError(f"{BUDGET_VARIABLE}={value!r}; allowed: {', '.join(BUDGETS)}")
    return value


def pick(small: Any, full: Any) -> Any:
    """``small`` under the small budget, else ``full`` (one line per size in a notebook)."""
    return small if budget() == "small" else full


def default_workers() -> int:
    """Worker processes: ``TABLEZOO_WORKERS`` if set, else 1 under the small budget, else 2."""
    text = os.environ.get(WORKERS_VARIABLE)
    if text is None:
        return 1 if budget() == "small" else 2
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{WORKERS_VARIABLE}={text!r}; expected an integer >= 1")
    return int(text)


@dataclass
class GameRecord:
    """One finished game: outcome per seat, its length, and the choices offered on the way."""

    seed: int
    returns: list[float]
    scores: list[float]
    breakdown: list[dict[str, float]]
    decisions: int  # joint decisions (one step of ``State.apply``)
    truncated: bool
    first_actor: int  # the seat asked first (bauer_trick: left of the dealer; ethnos: Age I)
    # Legal actions of every seat asked, in order (simultaneous phases: one entry per seat).
    branching: np.ndarray = field(repr=False)
    extras: dict[str, Any] = field(default_factory=dict)

    def winners(self) -> list[int]:
        """Seats with the best return (all of them on a draw where every seat ties)."""
        best = max(self.returns)
        return [p for p, r in enumerate(self.returns) if r == best]

    def margin(self, seat: int) -> float:
        """``seat``'s score minus the best score among the other teams' seats."""
        others = [s for p, s in enumerate(self.scores) if p != seat]
        return float(self.scores[seat] - max(others))


# --- playing ---------------------------------------------------------------------------------
def play_record(game: Game, agents: Sequence[Agent], seed: int,
                extras: Callable[[State], dict[str, Any]] | None = None,
                needs_observation: Sequence[bool] | None = None) -> GameRecord:
    """Play one game seeded like ``evaluation.match.play_game`` and keep its ``GameRecord``.

    ``needs_observation[p]`` False skips ``state.observe`` for seat ``p`` (the random agent reads
    only the mask), which makes random play several times faster.
    """
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"{game.name}: {len(agents)} agents given for {n} seats")
    observe = list(needs_observation) if needs_observation is not None else [True] * n
    state_seed, *agent_seeds = seeds_for(seed, n + 1)
    for agent, agent_seed in zip(agents, agent_seeds):
        agent.reset(agent_seed)
    state = game.new_state(state_seed)
    branching: list[int] = []
    first_actor = min(state.acting_players())
    decisions = 0
    while not state.is_over() and decisions < game.max_decisions:
        joint = {}
        for p in state.acting_players():
            mask = state.legal_mask(p)
            branching.append(int(np.count_nonzero(mask)))
            obs = state.observe(p) if observe[p] else None
            joint[p] = agents[p].act(obs, mask, state=state, player=p)
        state.apply(joint)
        decisions += 1
    return GameRecord(
        seed=seed,
        returns=[float(r) for r in state.returns()],
        scores=[float(s) for s in state.scores()],
        breakdown=[{k: float(v) for k, v in row.items()} for row in state.score_breakdown()],
        decisions=decisions,
        truncated=not state.is_terminal(),
        first_actor=first_actor,
        branching=np.asarray(branching, dtype=np.int16),
        extras=extras(state) if extras is not None else {},
    )


def _seat_specs(agents: str | Sequence[str], num_players: int) -> list[str]:
    if isinstance(agents, str):
        return [agents] * num_players
    specs = list(agents)
    if len(specs) != num_players:
        raise ValueError(f"{len(specs)} agent specs given for {num_players} seats")
    return specs


def _play_chunk(env_name: str, options: Mapping[str, Any], specs: Sequence[str],
                seeds: Sequence[int]) -> list[GameRecord]:
    """Worker: build the game and the agents once, then play ``seeds``."""
    game = envs.make_game(env_name, **options)
    factories = {spec: factory_from_spec(spec, env_name, game.num_players) for spec in set(specs)}
    agents = [factories[spec](None) for spec in specs]
    observe = [spec != "random" for spec in specs]
    extras = envs.spec(env_name).summary
    return [play_record(game, agents, s, extras, observe) for s in seeds]


def collect(env_name: str, agents: str | Sequence[str], games: int, seed: int = 0,
            options: Mapping[str, Any] | None = None,
            workers: int | None = None) -> list[GameRecord]:
    """``games`` seeded games of ``env_name`` (with ``options``), one ``GameRecord`` each.

    ``agents`` is one agent spec for every seat (``"random"``, ``"heuristic"``,
    ``"search:rollouts=16"``) or one per seat. The result is the same for any ``workers``.
    """
    if env_name not in envs.ENVS:
        raise ValueError(f"unknown env {env_name!r}; known envs: {', '.join(envs.ENVS)}")
    if type(games) is not int or games < 1:
        raise ValueError(f"games={games!r}; expected an int >= 1")
    opts = dict(options or {})
    game = envs.make_game(env_name, **opts)  # validates the options before any worker starts
    specs = _seat_specs(agents, game.num_players)
    for spec in set(specs):
        factory_from_spec(spec, env_name, game.num_players)  # checks the specs here, clearly
    seeds = seeds_for(seed, games)
    count = workers if workers is not None else default_workers()
    if count <= 1 or games < 2 * count:
        return _play_chunk(env_name, opts, specs, seeds)
    chunks = [seeds[i::count] for i in range(count)]
    with game_pool(count) as pool:
        parts = list(pool.map(_play_chunk, [env_name] * count, [opts] * count,
                              [specs] * count, chunks))
    by_seed = {r.seed: r for part in parts for r in part}
    return [by_seed[s] for s in seeds]


# --- summaries -------------------------------------------------------------------------------
def seat_win_rates(records: Sequence[GameRecord]) -> list[Interval]:
    """Per seat, the rate of games it finished first (shared firsts count), Wilson 95% CI.

    A game every seat ties (a 0-0 deal) counts for nobody.
    """
    n = len(records[0].returns)
    wins = [0] * n
    for record in records:
        if len(set(record.returns)) == 1:
            continue
        for p in record.winners():
            wins[p] += 1
    return [wilson_interval(w, len(records)) for w in wins]


def positional_win_rates(records: Sequence[GameRecord],
                         start: Callable[[GameRecord], int] | None = None) -> list[Interval]:
    """Win rate by position after the starting seat (0 = the seat that starts), Wilson 95% CI.

    ``start(record)`` names the starting seat (default: the first seat asked to decide); seats
    are dealt out at random in these games, so position, not seat number, is what can matter.
    """
    n = len(records[0].returns)
    wins = [0] * n
    for record in records:
        if len(set(record.returns)) == 1:
            continue
        first = start(record) if start is not None else record.first_actor
        for p in record.winners():
            wins[(p - first) % n] += 1
    return [wilson_interval(w, len(records)) for w in wins]


def team_win_rates(game: Game, records: Sequence[GameRecord]) -> list[Interval]:
    """Per team (``evaluation.teams.teams_of``), the rate of games it won outright."""
    units = teams_of(game)
    wins = [0] * len(units)
    for record in records:
        values = [record.returns[unit[0]] for unit in units]
        best = max(values)
        if values.count(best) == 1:
            wins[values.index(best)] += 1
    return [wilson_interval(w, len(records)) for w in wins]


def branching_profile(records: Sequence[GameRecord], bins: int = 20
                      ) -> tuple[np.ndarray, list[Interval]]:
    """Mean legal actions per decision in ``bins`` equal slices of each game's course.

    Returns the bin centres (fraction of the game, 0..1) and, per bin, the mean over games of
    each game's mean branching in that slice, with a 95% interval.
    """
    per_bin: list[list[float]] = [[] for _ in range(bins)]
    for record in records:
        b = record.branching
        if b.size == 0:
            continue
        where = np.minimum((np.arange(b.size) * bins) // b.size, bins - 1)
        for k in np.unique(where):
            per_bin[int(k)].append(float(b[where == k].mean()))
    centres = (np.arange(bins) + 0.5) / bins
    return centres, [mean_interval(v) if len(v) > 1 else Interval(np.nan, np.nan, np.nan)
                     for v in per_bin]


def breakdown_means(records: Sequence[GameRecord], seats: str = "all"
                    ) -> dict[str, Interval]:
    """Mean points per scoring category per seat-game, over every seat or only the winners.

    ``seats`` is ``"all"`` or ``"winners"``.
    """
    if seats not in ("all", "winners"):
        raise ValueError(f"seats={seats!r}; allowed: all, winners")
    values: dict[str, list[float]] = {}
    for record in records:
        chosen = record.winners() if seats == "winners" else range(len(record.scores))
        for p in chosen:
            for key, v in record.breakdown[p].items():
                values.setdefault(key, []).append(v)
    return {key: mean_interval(v) for key, v in values.items()}


def rate(successes: int, n: int) -> Interval:
    """``evaluation.stats.wilson_interval``, re-exported so a notebook imports one module."""
    return wilson_interval(successes, n)


def mean(values: Sequence[float]) -> Interval:
    """``evaluation.stats.mean_interval``, re-exported so a notebook imports one module."""
    return mean_interval(list(values))


if __name__ == "__main__":  # a module of functions: say so instead of exiting 0 in silence
    raise SystemExit("tablezoo.training.figures.notebook_data is the notebooks' data module: "
                     "import it (collect, seat_win_rates, branching_profile, ...). From the "
                     "command line, tablezoo ladder compares agents head to head and tablezoo "
                     "tournament rates them.")
