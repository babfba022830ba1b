"""The games the web app keeps: one ``GameSession`` per game id, and what it may send whom.

The server keeps the position; a browser receives only views built here. In a game with a
human seat (``mode == "play"``) a view is built for that seat alone, from the game's seat views:
its picture (``state.to_svg(seat)``), its text (``render_seat``), the move list as that seat
learned it (``public_move`` for the other seats' moves), its own legal moves; nothing else of the
position (no seed, no saved position) is sent until the end, and then only the scores.
All-seeing views exist only for games without a human seat (``mode == "watch"``: agents only,
or a replay), which keep every position so a viewer can step back and forth.

Every mistake in a request is a ``WebError`` carrying its HTTP status and a message that names
the problem and what is allowed; it is raised before anything changes, so the game stays as it
was. A move carries the move counter it was made at (``counter``): a stale one is refused.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablezoo import envs
from tablezoo.agents.base import Agent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.errors import TablezooError
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.pictures.moves import LastMove, record_move
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.runs import parse_env_options

HUMAN = "human"
LOG_LIMIT = 400  # the last moves a view lists
MAX_GAMES = 200  # games kept at once; the longest unused one goes first


class WebError(Exception):
    """A refused request: ``status`` (400, 403, 404, 409) and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def bad(message: str) -> WebError:
    return WebError(400, message)


@dataclass
class Frame:
    """One position of a watched game and the move that led to it."""

    state: State
    last: LastMove | None


@dataclass
class GameSession:
    """One game: its position, who plays each seat, the moves so far."""

    id: str
    env: str
    options: dict[str, Any]
    game: Game
    state: State
    seats: list[str]  # "human" or an agent spec, per seat
    seed: int | None
    agents: dict[int, Agent] = field(default_factory=dict)
    tokens: dict[int, str] = field(default_factory=dict)  # human seat -> its secret
    moves: list[LastMove] = field(default_factory=list)
    pending: dict[int, int] = field(default_factory=dict)  # human answers to a joint decision
    frames: list[Frame] = field(default_factory=list)  # watch mode: every position
    cursor: int = 0  # watch mode: the frame shown
    replay: bool = False  # a recorded game: no agents, no moves past the last frame
    title: str = ""
    think_s: float = 0.0  # the agents' time in the last request
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def humans(self) -> list[int]:
        return sorted(self.tokens)

    @property
    def mode(self) -> str:
        return "play" if self.tokens else "watch"

    def over(self) -> bool:
        """The played game has ended (by its rules or at ``max_decisions``)."""
        return self.state.is_over() or len(self.moves) >= self.game.max_decisions

    def frame_over(self) -> bool:
        """The watched frame is the end of the game."""
        if self.frames[self.cursor].state.is_over():
            return True
        last = self.cursor == len(self.frames) - 1
        return last and (self.replay or len(self.moves) >= self.game.max_decisions)

    # --- who may ask what ---------------------------------------------------------------------
    def check_seat(self, seat: Any, token: Any) -> int:
        """``seat`` as an int, if it is a human seat of this game and ``token`` is its secret."""
        n = self.game.num_players
        if self.mode == "watch":
            raise WebError(403, f"game {self.id} has no human seat: it is watched, not played "
                                "(leave out seat and token)")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise bad(f"seat={seat!r}; allowed: your seat, one of {self.humans}")
        if seat not in self.tokens:
            raise WebError(403, f"seat {seat} ({self.game.player_name(seat)}) is played by "
                                f"{self.seats[seat]}, not by you; your seats: {self.humans}")
        if not isinstance(token, str) or not secrets.compare_digest(token, self.tokens[seat]):
            raise WebError(403, f"wrong or missing token for seat {seat}: only the page that "
                                "started the game may play it")
        return seat

    # --- the views ----------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What the browser of ``seat`` (``None``: a watcher of a game without humans) may see."""
        if seat is None and self.mode == "play":
            raise WebError(403, f"game {self.id} has human seats {self.humans}: ask for your "
                                "seat's view (seat and token); the whole table is shown only "
                                "in games without a human seat")
        if self.mode == "watch":
            frame = self.frames[self.cursor]
            state, last, moves = frame.state, frame.last, self.moves[: self.cursor]
        else:
            state, moves = self.state, self.moves
            last = moves[-1] if moves else None
        game = self.game
        views = game.text_views()
        over = self.over() if self.mode == "play" else self.frame_over()
        acting = [] if over else list(state.acting_players())
        menu = None
        answered = None
        choices: list[int] = []
        if seat is not None and seat in acting:
            if seat in self.pending:
                answered = game.action_name(self.pending[seat])
            else:
                choices = state.legal_actions(seat)
                menu = {"labels": [[a, views.menu_label(state, a)] for a in choices],
                        "groups": [[key, title, list(ids)] for key, title, ids
                                   in views.menu_groups(state, seat, choices)]}
        log = [{"n": i + 1, "lines": move.lines(game.player_name, seat)}
               for i, move in enumerate(moves)][-LOG_LIMIT:]
        out: dict[str, Any] = {
            "game": self.id, "env": self.env, "options": self.options, "mode": self.mode,
            "title": self.title, "viewer": seat,
            "seats": [{"name": game.player_name(p), "player": self.seats[p],
                       "you": p == seat} for p in range(game.num_players)],
            "counter": len(moves) if self.mode == "play" else self.cursor,
            "to_act": [game.player_name(p) for p in acting],
            "over": over,
            "svg": state.to_svg(seat, last, choices),
            "text": str(state) if seat is None else views.render_seat(state, seat, False),
            "log": log, "moves": len(moves), "menu": menu, "answered": answered,
            "think_ms": round(self.think_s * 1000, 1),
        }
        if self.mode == "watch":
            out.update(frame=self.cursor, frames=len(self.frames), replay=self.replay,
                       seed=self.seed, can_grow=not self.replay)
        if over:
            out["result"] = result(state)
        return out


def result(state: State) -> dict[str, Any]:
    """The end of a game: scores, returns and the score breakdown per seat."""
    breakdown = state.score_breakdown()
    return {"scores": [float(x) for x in state.scores()],
            "returns": [float(x) for x in state.returns()],
            "categories": list(dict.fromkeys(k for row in breakdown for k in row)),
            "breakdown": [{k: float(v) for k, v in row.items()} for row in breakdown],
            "truncated": not state.is_terminal()}


# --- building a game ----------------------------------------------------------------------------
def env_options(env: Any, given: Any) -> tuple[str, Game, dict[str, Any]]:
    """The env name, its game and the options actually set, or a 400 naming what is allowed.
    Option values may be JSON values or text as on the command line (``"3"``, ``"false"``)."""
    if not isinstance(env, str) or env not in envs.ENVS:
        raise bad(f"unknown env {env!r}; allowed: {', '.join(envs.ENVS)}")
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise bad(f"options must be an object of option name -> value, got "
                  f"{type(given).__name__}")
    known = [o.name for o in envs.make_game(env).OPTIONS]
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise bad(f"{env}: unknown option(s) {', '.join(map(str, unknown))}; allowed: "
                  f"{', '.join(known)}")
    options: dict[str, Any] = {}
    for key, value in given.items():
        if isinstance(value, str):
            try:
                value = parse_env_options([f"{key}={value}"])[key]
            except ValueError as exc:
                raise bad(str(exc)) from None
        options[key] = value
    try:
        game = envs.make_game(env, **options)
    except (TablezooError, ValueError, TypeError) as exc:
        raise bad(str(exc)) from None
    return env, game, options


def make_agents(env: str, game: Game, seats: Any, seed: int) -> tuple[list[str], dict[int, Agent]]:
    """The seat list (``"human"`` or an agent spec per seat) and the agents, seeded as
    ``training.evaluation.match.play_game`` seeds them (so a seeded watched game is that game)."""
    n = game.num_players
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str)
                                                                  for s in seats):
        raise bad(f"seats must be a list of {n} texts for {env} with these options, one per "
                  f"seat: 'human' or an agent spec (random, heuristic, ismcts[:k=v], trained, "
                  f"trained:PATH.npz, policy:PATH.zip)")
    specs = [s.strip() for s in seats]
    factories: dict[str, Callable[[int | None], Agent]] = {}
    for spec in set(specs) - {HUMAN}:
        try:
            factories[spec] = factory_from_spec(spec, env, n)
        except (ValueError, FileNotFoundError, ImportError) as exc:
            raise bad(f"seat agent {spec!r}: {exc}") from None
    _, *agent_seeds = seeds_for(seed, n + 1)
    agents = {}
    for p, spec in enumerate(specs):
        if spec != HUMAN:
            agent = factories[spec](None)
            agent.reset(agent_seeds[p])
            agents[p] = agent
    return specs, agents


def check_seed(seed: Any) -> int:
    if seed is None:
        return secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise bad(f"seed={seed!r}; allowed: an integer >= 0, or null for a random one")
    return seed


def new_session(body: Mapping[str, Any]) -> GameSession:
    """A game from a request body: ``env``, ``options``, ``seats``, ``seed`` and optionally
    ``state`` (a saved position, ``state.to_dict()``; its options unless given)."""
    known = {"env", "options", "seats", "seed", "state"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise bad(f"unknown field(s) {', '.join(map(str, unknown))}; allowed: "
                  f"{', '.join(sorted(known))}")
    saved = body.get("state")
    options = body.get("options")
    env = body.get("env")
    if saved is not None:
        env, options = saved_env(saved, env, options)
    env, game, options = env_options(env, options)
    seed = check_seed(body.get("seed"))
    seats, agents = make_agents(env, game, body.get("seats"), seed)
    if saved is not None:
        try:
            state = game.state_from_dict(saved)
        except (TablezooError, ValueError, TypeError, KeyError) as exc:
            raise bad(f"state: not a position of {env} with these options: {exc}") from None
    else:
        state = game.new_state(seeds_for(seed, game.num_players + 1)[0])
    session = GameSession(id=secrets.token_hex(8), env=env, options=options, game=game,
                          state=state, seats=seats, seed=seed, agents=agents,
                          tokens={p: secrets.token_urlsafe(16) for p, s in enumerate(seats)
                                  if s == HUMAN})
    session.title = f"{env} " + ", ".join(
        f"{game.player_name(p)}: {s}" for p, s in enumerate(seats))
    if session.mode == "watch":
        session.frames = [Frame(state.clone(), None)]
    else:
        play_agents(session)
    return session


def saved_env(saved: Any, env: Any, options: Any) -> tuple[str, dict[str, Any]]:
    """The env and options of a saved position (``"game"`` and ``"options"`` inside it)."""
    if not isinstance(saved, Mapping):
        raise bad(f"state must be a saved position (the JSON object of state.to_dict()), got "
                  f"{type(saved).__name__}")
    named = [e for e in envs.ENVS if envs.make_game(e).name == saved.get("game")]
    if not named:
        raise bad(f"state: names no known game ({saved.get('game')!r}); the games: "
                  f"{', '.join(envs.make_game(e).name for e in envs.ENVS)}")
    if env is not None and env != named[0]:
        raise bad(f"state holds a {saved.get('game')!r} position, not one of {env!r}; leave "
                  f"out env to open it in {named[0]}")
    inside = saved.get("options") or {}
    if not isinstance(inside, Mapping):
        raise bad("state: 'options' must be an object of option names and values")
    merged = dict(inside)
    if "num_players" in saved and "num_players" not in merged:
        merged["num_players"] = saved["num_players"]
    merged.update(options or {})
    return named[0], merged


# --- playing ---------------------------------------------------------------------------------
def apply_joint(session: GameSession, state: State, joint: dict[int, int]) -> LastMove:
    move = record_move(state, joint)
    state.apply(joint)
    session.moves.append(move)
    return move


def agent_actions(session: GameSession, state: State, seats: Sequence[int]) -> dict[int, int]:
    t0 = time.perf_counter()
    joint = {p: int(session.agents[p].act(state.observe(p), state.legal_mask(p), state=state,
                                          player=p)) for p in seats}
    session.think_s += time.perf_counter() - t0
    return joint


def play_agents(session: GameSession) -> None:
    """Play the agents' decisions until a human seat must answer or the game ends."""
    state = session.state
    while not session.over():
        acting = state.acting_players()
        waiting = [p for p in acting if p in session.tokens and p not in session.pending]
        if waiting:
            return
        joint = dict(session.pending)
        joint.update(agent_actions(session, state, [p for p in acting if p not in joint]))
        session.pending = {}
        apply_joint(session, state, joint)


def human_move(session: GameSession, seat: int, action: Any, counter: Any) -> None:
    """A human seat's move at move ``counter``; agents then play until a human must answer."""
    if isinstance(counter, bool) or not isinstance(counter, int):
        raise bad(f"counter={counter!r}; send the move counter of the view the move was made "
                  f"in (now {len(session.moves)})")
    if counter != len(session.moves):
        raise WebError(409, f"stale move: it was made at move {counter}, but the game is at "
                            f"move {len(session.moves)}; reload the game")
    state = session.state
    name = session.game.player_name(seat)
    if session.over():
        raise WebError(409, "the game is over: no more moves")
    if seat not in state.acting_players():
        waiting = ", ".join(session.game.player_name(p) for p in state.acting_players())
        raise WebError(409, f"not {name}'s turn: waiting for {waiting}")
    if seat in session.pending:
        raise WebError(409, f"{name} has already answered this decision "
                            f"({session.game.action_name(session.pending[seat])})")
    legal = state.legal_actions(seat)
    if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
        shown = ", ".join(f"{a} ({session.game.action_name(a)})" for a in legal[:40])
        more = f" and {len(legal) - 40} more" if len(legal) > 40 else ""
        raise bad(f"action {action!r} is not a legal move of {name} now; legal: {shown}{more}")
    session.think_s = 0.0
    session.pending[seat] = action
    play_agents(session)


def watch_step(session: GameSession, go: Any, counter: Any) -> None:
    """Move through a watched game: ``go`` is ``next``, ``back``, ``start`` or ``end``
    (``next`` and ``end`` let the agents play where the game has not been played yet)."""
    moves = ("next", "back", "start", "end")
    if go not in moves:
        raise bad(f"go={go!r}; allowed: {', '.join(moves)}")
    if isinstance(counter, bool) or not isinstance(counter, int):
        raise bad(f"counter={counter!r}; send the frame number the view shows (now "
                  f"{session.cursor})")
    if counter != session.cursor:
        raise WebError(409, f"stale step: the view showed position {counter}, the game shows "
                            f"{session.cursor}; reload the game")
    session.think_s = 0.0
    if go == "back":
        session.cursor = max(0, session.cursor - 1)
    elif go == "start":
        session.cursor = 0
    elif go == "next":
        if session.cursor + 1 < len(session.frames) or _grow(session):
            session.cursor += 1
    else:
        while _grow(session):
            pass
        session.cursor = len(session.frames) - 1


def _grow(session: GameSession) -> bool:
    """One more decision by the agents at the end of a watched game; False when it is over."""
    if session.replay:
        return False
    state = session.frames[-1].state.clone()
    if state.is_over() or len(session.moves) >= session.game.max_decisions:
        return False
    joint = agent_actions(session, state, list(state.acting_players()))
    move = apply_joint(session, state, joint)
    session.frames.append(Frame(state, move))
    return True


def replay_session(env: str, game: Game, options: dict[str, Any], frames: list[Frame],
                   title: str, seed: int | None) -> GameSession:
    """A recorded game to step through (all-seeing; no agents)."""
    session = GameSession(id=secrets.token_hex(8), env=env, options=options, game=game,
                          state=frames[-1].state, seats=[], seed=seed, replay=True, title=title)
    session.seats = ["recorded"] * game.num_players
    session.frames = frames
    session.moves = [f.last for f in frames[1:] if f.last is not None]
    return session


class Sessions:
    """Every game of the server by id (at most ``MAX_GAMES``, the least recently used dropped)."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self.games: OrderedDict[str, GameSession] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, session: GameSession) -> GameSession:
        with self.lock:
            self.games[session.id] = session
            while len(self.games) > self.limit:
                self.games.popitem(last=False)
        return session

    def get(self, game_id: str) -> GameSession:
        with self.lock:
            session = self.games.get(game_id)
            if session is None:
                raise WebError(404, f"no game {game_id!r} on this server (it may have ended "
                                    "with a server restart); start a new one")
            self.games.move_to_end(game_id)
            return session
