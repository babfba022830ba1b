"""Whole games as lists of positions: a seeded game between agents, a game of an evaluation's
records or of a tournament, replayed; and any of them written as an animated GIF or MP4.

The tools record seeds, not moves (``training/evaluation/records.py``, ``tournament.json``), and
one seed fixes a game (``training.evaluation.match``), so a game is replayed by playing it
again with the same agents and seeds, exactly as ``match.play_game`` played it (agents that
load a model need its file where the run found it).

    from tablezoo.training.web.replay import seeded_game, write_game
    frames = seeded_game("bower_v0", {}, ["heuristic", "random"], seed=3)
    write_game("bower.gif", frames)             # or .mp4; seat=0 draws player_0's view
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.agents.base import Agent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.envs.pictures.animation import write_animation
from tablezoo.envs.pictures.moves import record_move
from tablezoo.training.evaluation.evaluate import SELF_PARTNER
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.evaluation.records import GAME_KEYS
from tablezoo.training.evaluation.teams import partners_of
from tablezoo.training.evaluation.tournament import schedule
from tablezoo.training.web.sessions import Frame


class RecordError(ValueError):
    """A record that names no game this replay can play again."""


def history(game: Game, agents: Sequence[Agent], seed: int) -> list[Frame]:
    """Every position of the game ``match.play_game(game, agents, seed)`` plays, with the move
    that led to it (the first has none)."""
    state_seed, *agent_seeds = seeds_for(seed, game.num_players + 1)
    for agent, agent_seed in zip(agents, agent_seeds):
        agent.reset(agent_seed)
    state = game.new_state(state_seed)
    frames = [Frame(state.clone(), None)]
    while not state.is_over() and len(frames) - 1 < game.max_decisions:
        joint = {p: int(agents[p].act(state.observe(p), state.legal_mask(p), state=state,
                                      player=p)) for p in state.acting_players()}
        last = record_move(state, joint)
        state.apply(joint)
        frames.append(Frame(state.clone(), last))
    return frames


def seeded_game(env: str, options: Mapping[str, Any], specs: Sequence[str], seed: int
                ) -> list[Frame]:
    """A game between agents (one spec per seat) from ``seed``."""
    game = envs.make_game(env, **options)
    if len(specs) != game.num_players:
        raise ValueError(f"{env}: {len(specs)} agent specs for {game.num_players} seats")
    return history(game, [factory_from_spec(s, env, game.num_players)(None) for s in specs],
                   seed)


def agent_spec(text: str) -> str:
    """A records file's agent: a spec, or (``tablezoo evaluate --model``) a model's path."""
    if text.endswith(".zip") and not text.startswith("policy:"):
        return "policy:" + text
    if text.endswith(".npz") and ":" not in text:
        return "trained:" + text
    return text


def evaluation_game(text: str, index: int) -> tuple[str, Game, dict[str, Any], list[Frame], str,
                                                   int]:
    """Game ``index`` of a ``tablezoo evaluate --records`` file (its text)."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        header = json.loads(lines[0])["run"]
        games = [json.loads(line) for line in lines[1:]]
    except (IndexError, KeyError, TypeError, json.JSONDecodeError) as exc:
        raise RecordError(f"not a records file of tablezoo evaluate (a first line "
                          f'{{"run": ...}}, then one JSON line per game): {exc}') from None
    if not all(isinstance(g, dict) and set(GAME_KEYS) <= set(g) for g in games):
        raise RecordError(f"records file: every game line needs {', '.join(GAME_KEYS)}")
    found = {g["game"]: g for g in games}
    if index not in found:
        raise RecordError(f"records file: no game {index!r}; recorded games: "
                          f"{_ranges(sorted(found))}")
    record = found[index]
    env, options = header.get("env"), dict(header.get("env_options") or {})
    if env not in envs.ENVS:
        raise RecordError(f"records file: unknown env {env!r}; allowed: {', '.join(envs.ENVS)}")
    game = envs.make_game(env, **options)
    n = game.num_players
    seat = record["seat"]
    hero = agent_spec(str(header["hero"]))
    partner = header.get("partner")
    partner = hero if partner in (None, SELF_PARTNER) else agent_spec(str(partner))
    opponent = agent_spec(str(header["opponent"]))
    partners = partners_of(game, seat)
    specs = [hero if p == seat else partner if p in partners else opponent for p in range(n)]
    factories = {s: factory_from_spec(s, env, n) for s in set(specs)}
    frames = history(game, [factories[s](None) for s in specs], record["seed"])
    title = (f"{env} evaluation game {index} (seed {record['seed']}): "
             + ", ".join(f"{game.player_name(p)} {s}" for p, s in enumerate(specs)))
    return env, game, options, frames, title, record["seed"]


def tournament_game(data: Mapping[str, Any], index: int
                    ) -> tuple[str, Game, dict[str, Any], list[Frame], str, int]:
    """Game ``index`` of a ``tablezoo tournament`` run (its ``tournament.json``)."""
    try:
        env, options, agents = data["env"], dict(data.get("env_options") or {}), data["agents"]
        games, seed = int(data["games"]), int(data["seed"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"not a tournament.json (env, env_options, games, seed, agents): "
                          f"{exc}") from None
    if env not in envs.ENVS:
        raise RecordError(f"tournament.json: unknown env {env!r}; allowed: {', '.join(envs.ENVS)}")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < games:
        raise RecordError(f"tournament.json: no game {index!r}; its games are 0..{games - 1}")
    game = envs.make_game(env, **options)
    seats, _, deal_seed = next(islice(schedule(game, len(agents), games, seed), index, None))
    factories = [factory_from_spec(s, env, game.num_players) for s in agents]
    frames = history(game, [factories[i](None) for i in seats], deal_seed)
    title = (f"{env} tournament game {index} (deal seed {deal_seed}): "
             + ", ".join(f"{game.player_name(p)} {agents[i]}" for p, i in enumerate(seats)))
    return env, game, options, frames, title, deal_seed


def recorded_game(text: str, index: int) -> tuple[str, Game, dict[str, Any], list[Frame], str,
                                                 int]:
    """Game ``index`` of either record: a ``tournament.json`` or an evaluation's records."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None  # JSON lines: an evaluation's records
    if isinstance(data, dict) and "agents" in data:
        return tournament_game(data, index)
    return evaluation_game(text, index)


def write_game(path: str | Path, frames: Sequence[Frame], seat: int | None = None,
               seconds_per_frame: float = 1.0) -> Path:
    """``frames`` as an animated GIF or MP4 (by ``path``'s suffix), as ``seat`` sees them."""
    return write_animation(path, [f.state.to_svg(seat, f.last) for f in frames],
                           seconds_per_frame)


def _ranges(values: list[int]) -> str:
    if not values:
        return "none"
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(map(str, values[:20])) + (" ..." if len(values) > 20 else "")
