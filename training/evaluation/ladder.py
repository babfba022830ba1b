r"""Head-to-head matches for the baselines notebook: a win-rate matrix, ratings, time per move.

Every pair of agents ``(A, B)`` plays seeded games in which A and B alternate around the table
(A in the even seats, B in the odd ones; in bauer_trick that is exactly team against team), and
each deal is played twice with the seats swapped (duplicate format), so neither the cards nor
the seat favour one side. A game counts 1 for A when A's best-placed seat finishes ahead of B's,
0.5 when they tie. The same games feed one OpenSkill model
(``tablezoo.training.evaluation.ratings``), and every
``act`` call is timed with ``time.process_time`` (CPU time of the playing process, so the load of a
shared machine does not inflate it). Pairs run in worker processes.

    tablezoo ladder --env bauer_trick_v0 --agents random heuristic ismcts \
        --games-per-pair 100 --workers 2 --json ladder.json

prints the win-rate matrix (row against column, with 95% intervals), the OpenSkill ratings and
the CPU milliseconds per move; ``tablezoo tournament`` instead rates agents over
shared tables.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.base import Agent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.evaluation.match import play_game, seeds_for
from tablezoo.training.evaluation.processes import game_pool
from tablezoo.training.evaluation.ratings import Ratings
from tablezoo.training.evaluation.stats import Interval, mean_interval, wilson_interval
from tablezoo.training.evaluation.teams import teams_of


class TimedAgent:
    """Wraps an agent and adds up the CPU seconds and the number of its ``act`` calls."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.moves = 0

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act(self, observation, action_mask, state=None, player=None) -> int:
        start = time.process_time()
        action = self.agent.act(observation, action_mask, state=state, player=player)
        self.seconds += time.process_time() - start
        self.moves += 1
        return action


@dataclass
class PairResult:
    """The games of one pair: per game A's result (1 / 0.5 / 0), returns per seat, seat names."""

    a: str
    b: str
    outcomes: list[float]
    seat_specs: list[list[str]]
    returns: list[list[float]]
    seconds: dict[str, float]
    moves: dict[str, int]


def play_pair(env_name: str, options: Mapping[str, Any], a: str, b: str, games: int,
              seed: int) -> PairResult:
    """``games`` games of ``a`` against ``b`` (an even number: each deal with both seatings)."""
    game = envs.make_game(env_name, **options)
    timed = {spec: TimedAgent(factory_from_spec(spec, env_name, game.num_players)(None))
             for spec in (a, b)}
    outcomes, seat_specs, returns = [], [], []
    deals = seeds_for(seed, (games + 1) // 2)
    for k in range(games):
        first, second = (a, b) if k % 2 == 0 else (b, a)
        specs = [first if p % 2 == 0 else second for p in range(game.num_players)]
        result = play_game(game, [timed[s] for s in specs], deals[k // 2]).returns
        best_a = max(r for r, s in zip(result, specs) if s == a)
        best_b = max(r for r, s in zip(result, specs) if s == b)
        outcomes.append(1.0 if best_a > best_b else 0.5 if best_a == best_b else 0.0)
        seat_specs.append(specs)
        returns.append(result)
    return PairResult(a, b, outcomes, seat_specs, returns,
                      {s: t.seconds for s, t in timed.items()},
                      {s: t.moves for s, t in timed.items()})


@dataclass
class Ladder:
    """Everything the baselines notebook draws for one game setting."""

    specs: list[str]
    win: np.ndarray  # win[i, j]: share of games agent i beat agent j (NaN on the diagonal)
    win_intervals: dict[tuple[int, int], Interval]
    ratings: dict[str, dict[str, float]]  # tablezoo.training.evaluation.ratings.Ratings.table()
    ms_per_move: dict[str, float]
    games_per_pair: int


def run_ladder(env_name: str, specs: Sequence[str], games_per_pair: int, seed: int = 0,
               options: Mapping[str, Any] | None = None, workers: int = 1) -> Ladder:
    """Every pair of ``specs`` plays ``games_per_pair`` games; see the module docstring."""
    specs = list(specs)
    if len(set(specs)) != len(specs) or len(specs) < 2:
        raise ValueError(f"need at least two distinct agent specs, got {specs}")
    if isinstance(games_per_pair, np.integer):  # from a sweep over np.arange
        games_per_pair = int(games_per_pair)
    if type(games_per_pair) is not int or games_per_pair < 2 or games_per_pair % 2:
        raise ValueError(f"games_per_pair={games_per_pair!r}; expected an even int >= 2")
    opts = dict(options or {})
    game = envs.make_game(env_name, **opts)  # validates env and options here
    for spec in specs:
        factory_from_spec(spec, env_name, game.num_players)  # checks the specs before any worker
    pairs = list(combinations(specs, 2))
    pair_seeds = seeds_for(seed, len(pairs))
    args = [(env_name, opts, a, b, games_per_pair, s) for (a, b), s in zip(pairs, pair_seeds)]
    if workers <= 1:
        results = [play_pair(*x) for x in args]
    else:
        with game_pool(workers) as pool:
            results = list(pool.map(play_pair, *zip(*args)))
    n = len(specs)
    win = np.full((n, n), np.nan)
    intervals: dict[tuple[int, int], Interval] = {}
    ratings = Ratings(specs)
    units = teams_of(game)
    seconds = dict.fromkeys(specs, 0.0)
    moves = dict.fromkeys(specs, 0)
    for result in results:
        i, j = specs.index(result.a), specs.index(result.b)
        iv = share_interval(result.outcomes)
        win[i, j], win[j, i] = iv.value, 1 - iv.value
        intervals[(i, j)] = iv
        intervals[(j, i)] = Interval(1 - iv.value, 1 - iv.high, 1 - iv.low)
        for seat_specs, returns in zip(result.seat_specs, result.returns):
            ratings.update([[seat_specs[p] for p in unit] for unit in units],
                           [returns[unit[0]] for unit in units])
        for spec in (result.a, result.b):
            seconds[spec] += result.seconds[spec]
            moves[spec] += result.moves[spec]
    ms = {s: 1000 * seconds[s] / moves[s] if moves[s] else float("nan") for s in specs}
    return Ladder(specs, win, intervals, ratings.table(), ms, games_per_pair)


def share_interval(outcomes: Sequence[float]) -> Interval:
    """95% interval of the share of games won (a tie counts half). A perfect record gets the
    Wilson interval of its wins, not the normal interval's zero width, which is not certainty."""
    n = len(outcomes)
    if n and set(outcomes) in ({0.0}, {1.0}):
        return wilson_interval(int(sum(outcomes)), n)
    iv = mean_interval(list(outcomes))
    return Interval(iv.value, max(0.0, iv.low), min(1.0, iv.high))  # a share stays in [0, 1]


def format_ladder(ladder: Ladder) -> str:
    """Markdown: agents by OpenSkill mu with their time per move, then the win-rate matrix."""
    order = sorted(range(len(ladder.specs)), key=lambda i: -ladder.ratings[ladder.specs[i]]["mu"])
    lines = ["| agent | mu | sigma | ms per move |", "|---|---|---|---|"]
    for i in order:
        spec = ladder.specs[i]
        rating = ladder.ratings[spec]
        lines.append(f"| {spec} | {rating['mu']:.2f} | {rating['sigma']:.2f} | "
                     f"{ladder.ms_per_move[spec]:.3f} |")
    lines += ["", f"Share of games the row beat the column ({ladder.games_per_pair} games a pair, "
              "95% interval):", "",
              "| | " + " | ".join(ladder.specs[j] for j in order) + " |",
              "|---|" + "---|" * len(order)]
    for i in order:
        cells = []
        for j in order:
            iv = ladder.win_intervals.get((i, j))
            cells.append("" if iv is None else f"{iv.value:.2f} [{iv.low:.2f}, {iv.high:.2f}]")
        lines.append(f"| {ladder.specs[i]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ladder_json(ladder: Ladder, env_name: str, options: Mapping[str, Any], seed: int
                ) -> dict[str, Any]:
    """What ``--json`` writes: the set-up, the matrix (None on the diagonal), ratings, times."""
    n = len(ladder.specs)
    return {"env": env_name, "env_options": dict(options), "seed": seed,
            "games_per_pair": ladder.games_per_pair, "agents": ladder.specs,
            "win": [[None if i == j else {"value": ladder.win_intervals[(i, j)].value,
                                          "low": ladder.win_intervals[(i, j)].low,
                                          "high": ladder.win_intervals[(i, j)].high}
                     for j in range(n)] for i in range(n)],
            "ratings": ladder.ratings, "ms_per_move": ladder.ms_per_move}
