r"""Seeded tournaments between any agents, with OpenSkill ratings, a table and a plot.

    tablezoo tournament --env bauer_trick_v0 \
        --agents random heuristic search:rollouts=32 policy:RUN/model.zip --games 400 --out DIR

Agents play *units*: a whole team in team games (bauer_trick: both partners are the same agent),
else one seat. Games come in blocks of one seeded deal per rotation: a block draws which agent
plays which unit (different agents per unit while there are enough agents), then replays the
same deal with every agent index shifted by 1, 2, ... so each agent meets the same cards from
every position (duplicate format, which cancels much of the luck of the deal).

Over a block each agent holds every unit exactly once (with more agents than units, once per
game it plays; with fewer, sometimes several units in one game). By default an agent's mean
reward and its interval count each game it played as one sample. ``--duplicate`` counts each
deal as one: the agent's sample for a block is the mean of its returns over the units it held
there, every unit's cards once, so the deal's luck cancels inside the sample and the interval
narrows (``evaluation/duplicate.py``); the win/draw/loss rates stay per game.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.training.evaluation.duplicate import check_duplicate
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.ratings import Ratings
from tablezoo.training.evaluation.report import write_plot, write_tables
from tablezoo.training.evaluation.stats import mean_interval, summarize
from tablezoo.training.evaluation.teams import teams_of
from tablezoo.training.runs import SettingsError, env_options_for

AgentFactory = Callable[[int | None], BaseAgent]


def block_lineup(rng: np.random.Generator, agents: int, units: int) -> list[int]:
    """Agent index per unit: all different when ``agents >= units``, else not all the same."""
    if agents >= units:
        return rng.choice(agents, size=units, replace=False).tolist()
    while True:
        lineup = rng.integers(agents, size=units).tolist()
        if len(set(lineup)) > 1:
            return lineup


def check_games(games: int, agents: int) -> None:
    """A block is one deal played once per rotation of the agents: a cut block would leave them
    with unequal games on unequal cards, and fewer games than agents leaves some with none."""
    if games < agents or games % agents:
        low, high = max(agents, games - games % agents), games - games % agents + agents
        raise ValueError(f"--games {games}: a block plays one deal {agents} times (once per "
                         f"rotation of the {agents} agents), so games must be a multiple of "
                         f"{agents}, e.g. {low}" + ("" if low == high else f" or {high}"))


def schedule(game: Game, agents: int, games: int, seed: int = 0
             ) -> Iterator[tuple[list[int], list[int], int]]:
    """Game by game: the agent index of every seat, of every unit, and the game's seed (one
    deal per block of ``agents`` games). ``run_tournament`` plays these games, and a replay of
    game ``k`` of a ``tournament.json`` takes the ``k``-th."""
    units = teams_of(game)
    rng = np.random.default_rng(seed)
    lineup: list[int] = []
    for k in range(games):
        rotation = k % agents
        if rotation == 0:
            lineup = block_lineup(rng, agents, len(units))
        by_unit = [(i + rotation) % agents for i in lineup]
        seats = [0] * game.num_players
        for unit, agent_index in zip(units, by_unit):
            for p in unit:
                seats[p] = agent_index
        yield seats, by_unit, seed + k // agents


def run_tournament(
    game: Game,
    names: Sequence[str],
    factories: Sequence[AgentFactory],
    games: int,
    seed: int = 0,
    progress: Callable[[], None] | None = None,
    duplicate: bool = False,
) -> list[dict[str, Any]]:
    """Play ``games`` games; one result row per agent, best OpenSkill ordinal first. A row's
    ``games`` are the games the agent played in, and where it held several seats (fewer agents
    than seats) its reward in a game is the mean over them, and its win/draw/loss the sign of
    that mean: the seats of one game are not independent results, so they count once in its
    interval. With ``duplicate`` the mean reward and its interval are over the deals instead
    (one sample a block: the agent's mean return over the units it held), and a row also
    holds its ``deals``."""
    if len(names) < 2:
        raise ValueError("a tournament needs at least two agents")
    if len(factories) != len(names):
        raise ValueError(f"{len(names)} names for {len(factories)} agent factories; give one "
                         "name per factory")
    if len(set(names)) != len(names):
        raise ValueError(f"agent names must be distinct, got {list(names)}")
    units = teams_of(game)
    a = len(names)
    check_games(games, a)
    check_duplicate(duplicate, games, 1)
    rewards: dict[str, list[float]] = {name: [] for name in names}
    by_deal: dict[str, dict[int, list[float]]] = {name: {} for name in names}
    ratings = Ratings(names)
    for k, (seats, by_unit, deal_seed) in enumerate(schedule(game, a, games, seed)):
        result = play_game(game, [factories[i](None) for i in seats], deal_seed)
        unit_returns = [result.returns[unit[0]] for unit in units]
        for agent_index in sorted(set(by_unit)):
            held = [r for i, r in zip(by_unit, unit_returns) if i == agent_index]
            rewards[names[agent_index]].append(sum(held) / len(held))
            by_deal[names[agent_index]].setdefault(k // a, []).extend(held)
        ratings.update([[names[seats[p]] for p in unit] for unit in units], unit_returns)
        if progress is not None:
            progress()
    table = ratings.table()
    rows = []
    for name in names:
        if not rewards[name]:
            continue
        summary = summarize(rewards[name])
        if duplicate:
            deals = [math.fsum(held) / len(held) for held in by_deal[name].values()]
            summary = replace(summary, mean_reward=mean_interval(deals), deals=len(deals))
        rows.append({"agent": name, "games": summary.n,
                     **({"deals": summary.deals} if duplicate else {}),
                     "mean_reward": summary.mean_reward.value,
                     "mean_reward_low": summary.mean_reward.low,
                     "mean_reward_high": summary.mean_reward.high,
                     "win": summary.win.value, "draw": summary.draw.value,
                     "loss": summary.loss.value, **table[name]})
    rows.sort(key=lambda row: -row["ordinal"])
    return rows


@dataclass(kw_only=True)
class TournamentSettings:
    """One tournament (``tablezoo tournament``'s flags): two or more distinct agent specs,
    the games in all (whole blocks, ``check_games``), the first seed, the game options over the
    tools' defaults, and the folder for the tables, the plot and ``tournament.json``."""

    env: str
    agents: list[str]
    games: int = 400
    seed: int = 0
    env_options: dict[str, Any] | None = None
    out: Path
    plot: bool = True
    progress: bool = True
    duplicate: bool = False  # intervals over the deals' means (one sample a block)


def play_tournament(settings: TournamentSettings) -> list[dict[str, Any]]:
    """Play the tournament, print its table and write its files; returns the rows. Settings that
    cannot run raise ``SettingsError`` before any game."""
    s = settings
    try:
        options = env_options_for(s.env, s.env_options or {})
        players = envs.make_game(s.env, **options).num_players
        factories = [factory_from_spec(spec, s.env, players) for spec in s.agents]
        if len(s.agents) < 2 or len(set(s.agents)) != len(s.agents):
            raise ValueError(f"--agents needs at least two distinct specs, got {s.agents}")
        check_games(s.games, len(s.agents))
        check_duplicate(s.duplicate, s.games, 1)
    except (ValueError, FileNotFoundError) as exc:
        raise SettingsError(str(exc)) from exc
    if any(spec.startswith("policy") for spec in s.agents):
        import torch

        torch.set_num_threads(1)
    game = envs.make_game(s.env, **options)
    bar = None
    if s.progress:
        from tqdm import tqdm

        bar = tqdm(total=s.games, file=sys.stderr, desc="tournament")
    rows = run_tournament(game, s.agents, factories, s.games, s.seed,
                          progress=bar.update if bar else None, duplicate=s.duplicate)
    if bar is not None:
        bar.close()
    written = write_tables(rows, s.out)
    if s.plot:
        plot = write_plot(rows, s.out, f"{s.env} {options}")
        if plot is not None:
            written.append(plot)
    summary = s.out / "tournament.json"
    summary.write_text(json.dumps(
        {"env": s.env, "env_options": options, "games": s.games, "seed": s.seed,
         "agents": s.agents, **({"duplicate": True} if s.duplicate else {}), "results": rows},
        indent=2))
    written.append(summary)
    print(f"{s.env} {options}: {s.games} games, seeds from {s.seed}"
          + (f" ({s.games // len(s.agents)} deals: each mean's interval is over the deals' "
             "means)" if s.duplicate else ""))
    print((s.out / "results.md").read_text())
    print("wrote " + ", ".join(str(p) for p in written))
    return rows
