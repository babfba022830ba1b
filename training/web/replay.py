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
from dataclasses import dataclass
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


@dataclass
class RecordedGame:
    """What a record says of one game: the env, its game and options, the agent spec of every
    seat and the seed ``match.play_game`` played it from, and a title."""

    env: str
    game: Game
    options: dict[str, Any]
    specs: list[str]
    seed: int
    title: str

    def frames(self) -> list[Frame]:
        """The whole game played again (agents that load a model need its file)."""
        n = self.game.num_players
        factories = {s: factory_from_spec(s, self.env, n) for s in set(self.specs)}
        return history(self.game, [factories[s](None) for s in self.specs], self.seed)


def _game_of(where: str, env: Any, options: Any) -> tuple[str, Game, dict[str, Any]]:
    if not isinstance(env, str) or env not in envs.ENVS:
        shown = repr(env[:40]) if isinstance(env, str) else type(env).__name__
        raise RecordError(f"{where}: unknown env {shown}; allowed: {', '.join(envs.ENVS)}")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RecordError(f"{where}: env_options must be an object of option name -> value, "
                          f"got {type(options).__name__}")
    try:
        return env, envs.make_game(env, **options), dict(options)
    except (ValueError, TypeError, OverflowError) as exc:
        raise RecordError(f"{where}: env_options: {str(exc)[:300]}") from None


def _seed(where: str, seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RecordError(f"{where}: seed={_short(seed)}; expected an integer >= 0")
    return seed


def _spec(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RecordError(f"{where}: {_short(value)} is no agent spec (a text such as "
                          "'heuristic' or 'ismcts:iterations=200')")
    return agent_spec(value.strip())


def _short(value: Any) -> str:
    if isinstance(value, bool | int | float | str) or value is None:
        return repr(value)[:40]
    return f"<{type(value).__name__}>"


def evaluation_setup(text: str, index: Any) -> RecordedGame:
    """Game ``index`` of a ``tablezoo evaluate --records`` file (its text), as a record says;
    a ``RecordError`` naming what is wrong with a malformed one."""
    where = "records file"
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        header = json.loads(lines[0])["run"]
        games = [json.loads(line) for line in lines[1:]]
    except (IndexError, KeyError, TypeError, ValueError, RecursionError) as exc:
        raise RecordError(f"not a records file of tablezoo evaluate (a first line "
                          f'{{"run": ...}}, then one JSON line per game): '
                          f"{type(exc).__name__}: {str(exc)[:200]}") from None
    if not isinstance(header, dict):
        raise RecordError(f'{where}: "run" must be an object (env, env_options, hero, '
                          f"opponent, ...), got {type(header).__name__}")
    if not all(isinstance(g, dict) and set(GAME_KEYS) <= set(g) for g in games):
        raise RecordError(f"{where}: every game line needs {', '.join(GAME_KEYS)}")
    if isinstance(index, bool) or not isinstance(index, int):
        raise RecordError(f"{where}: game={_short(index)}; allowed: the number of a recorded "
                          "game")
    for g in games:
        if isinstance(g["game"], bool) or not isinstance(g["game"], int):
            raise RecordError(f"{where}: a game line has game={_short(g['game'])}; expected "
                              "the game's number (an integer)")
    found = {g["game"]: g for g in games}
    if index not in found:
        raise RecordError(f"{where}: no game {index!r}; recorded games: "
                          f"{_ranges(sorted(found))}")
    record = found[index]
    env, game, options = _game_of(where, header.get("env"), header.get("env_options"))
    n = game.num_players
    seat = record["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise RecordError(f"{where}: game {index}: seat={_short(seat)}; seats are 0..{n - 1}")
    seed = _seed(f"{where}: game {index}", record["seed"])
    for key in ("hero", "opponent"):
        if key not in header:
            raise RecordError(f'{where}: its "run" names no {key}')
    hero = _spec(f"{where}: hero", header["hero"])
    partner = header.get("partner")
    partner = hero if partner in (None, SELF_PARTNER) else _spec(f"{where}: partner", partner)
    opponent = _spec(f"{where}: opponent", header["opponent"])
    partners = partners_of(game, seat)
    specs = [hero if p == seat else partner if p in partners else opponent for p in range(n)]
    title = (f"{env} evaluation game {index} (seed {seed}): "
             + ", ".join(f"{game.player_name(p)} {s}" for p, s in enumerate(specs)))
    return RecordedGame(env, game, options, specs, seed, title)


def tournament_setup(data: Mapping[str, Any], index: Any,
                     max_games: int | None = None) -> RecordedGame:
    """Game ``index`` of a ``tablezoo tournament`` run (its ``tournament.json``), as the record
    says; a ``RecordError`` naming what is wrong with a malformed one (``max_games``: the most
    games a tournament may say it has)."""
    where = "tournament.json"
    for key in ("env", "games", "seed", "agents"):
        if key not in data:
            raise RecordError(f"not a tournament.json (env, env_options, games, seed, agents): "
                              f"no {key}")
    agents = data["agents"]
    if not isinstance(agents, list) or len(agents) < 2 or not all(
            isinstance(a, str) and a.strip() for a in agents):
        shown = (f"[{', '.join(_short(a) for a in agents[:5])}]" if isinstance(agents, list)
                 else _short(agents))
        raise RecordError(f"{where}: agents={shown}; expected a list of at least two agent "
                          "specs (texts)")
    games = data["games"]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1 or (
            max_games is not None and games > max_games):
        raise RecordError(f"{where}: games={_short(games)}; expected an integer >= 1"
                          + (f" and <= {max_games}" if max_games is not None else ""))
    seed = _seed(where, data["seed"])
    env, game, options = _game_of(where, data["env"], data.get("env_options"))
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < games:
        raise RecordError(f"{where}: no game {_short(index)}; its games are 0..{games - 1}")
    specs = [_spec(f"{where}: agents", a) for a in agents]
    seats, _, deal_seed = next(islice(schedule(game, len(agents), games, seed), index, None))
    title = (f"{env} tournament game {index} (deal seed {deal_seed}): "
             + ", ".join(f"{game.player_name(p)} {agents[i]}" for p, i in enumerate(seats)))
    return RecordedGame(env, game, options, [specs[i] for i in seats], deal_seed, title)


def record_setup(text: str, index: Any, max_games: int | None = None) -> RecordedGame:
    """Game ``index`` of either record: a ``tournament.json`` or an evaluation's records."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError):
        data = None  # JSON lines: an evaluation's records
    if isinstance(data, dict) and "agents" in data:
        return tournament_setup(data, index, max_games)
    return evaluation_setup(text, index)


Played = tuple[str, Game, dict[str, Any], list[Frame], str, int]


def evaluation_game(text: str, index: int) -> Played:
    """Game ``index`` of a ``tablezoo evaluate --records`` file (its text), played again."""
    return _played(evaluation_setup(text, index))


def tournament_game(data: Mapping[str, Any], index: int) -> Played:
    """Game ``index`` of a ``tablezoo tournament`` run (its ``tournament.json``), played again."""
    return _played(tournament_setup(data, index))


def recorded_game(text: str, index: int) -> Played:
    """Game ``index`` of either record, played again."""
    return _played(record_setup(text, index))


def _played(record: RecordedGame) -> Played:
    return (record.env, record.game, record.options, record.frames(), record.title,
            record.seed)


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
