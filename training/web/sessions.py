"""The games the web app keeps: one ``GameSession`` per game id, and what it may send whom.

The server keeps the position; a browser receives only views built here. In a game with a
human seat (``mode == "play"``) a view is built for that seat alone, from the game's seat views:
its picture (``state.to_svg(seat)``), its text (``render_seat``), the move list as that seat
learned it (``public_move`` for the other seats' moves), its own legal moves; nothing else of the
position (no seed, no saved position) is sent until the end, and then only the scores.
All-seeing views exist only for games without a human seat (``mode == "watch"``: agents only,
or a replay), which can step back and forth: they keep every joint move and one position in
``Limits.keyframe_every`` (a position in between is played again from the one before it).

Every mistake in a request is a ``WebError`` carrying its HTTP status and a message that names
the problem and what is allowed; it is raised before anything changes, so the game stays as it
was. A move carries the move counter it was made at (``counter``): a stale one is refused.

``Sessions`` keeps the games by a policy that never drops a game in play for another client's
new one: a game nobody asked about for ``Limits.idle_s`` is dropped; when ``Limits.games`` are
kept, a finished game idle for ``Limits.over_idle_s`` makes room, and otherwise a new game is
refused (503) until one ends or expires.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablezoo import envs
from tablezoo.agents.base import Agent
from tablezoo.envs.core.errors import TablezooError
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.pictures.moves import LastMove, record_move
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.runs import parse_env_options
from tablezoo.training.web.errors import WebError, bad
from tablezoo.training.web.limits import Limits
from tablezoo.training.web.seats import HUMAN, ModelShelf, allowed_text, seat_factory

LOG_LIMIT = 400  # the last moves a view lists


@dataclass
class Frame:
    """One position of a game and the move that led to it (``training/web/replay.py``)."""

    state: State
    last: LastMove | None


@dataclass
class GameSession:
    """One game: its position, who plays each seat, the moves so far."""

    id: str
    env: str
    options: dict[str, Any]
    game: Game
    state: State  # the position now (watch mode: the last position played)
    seats: list[str]  # "human" or an agent spec, per seat
    seed: int | None
    agents: dict[int, Agent] = field(default_factory=dict)
    tokens: dict[int, str] = field(default_factory=dict)  # human seat -> its secret
    decisions: int = 0  # the decisions played so far
    moves: deque[LastMove] = field(default_factory=lambda: deque(maxlen=LOG_LIMIT))  # play: last
    pending: dict[int, int] = field(default_factory=dict)  # human answers to a joint decision
    joints: list[dict[int, int]] = field(default_factory=list)  # watch mode: every joint move
    lines: list[tuple[str, ...]] = field(default_factory=list)  # watch mode: each move's lines
    keyframes: dict[int, State] = field(default_factory=dict)  # watch mode: position k
    every: int = 32  # watch mode: a keyframe every this many positions
    cursor: int = 0  # watch mode: the position shown
    replay: bool = False  # a recorded game (played again from its seeds)
    title: str = ""
    think_s: float = 0.0  # the agents' time in the last request
    used: float = field(default_factory=time.monotonic)  # the last request about it
    stop: threading.Event = field(default_factory=threading.Event)  # set: the server stops
    lock: threading.Lock = field(default_factory=threading.Lock)
    _shown: tuple[int, State, LastMove | None] | None = None  # watch: the last one rebuilt
    _tail: LastMove | None = None  # watch mode: the move to the last position played

    @property
    def humans(self) -> list[int]:
        return sorted(self.tokens)

    @property
    def mode(self) -> str:
        return "play" if self.tokens else "watch"

    @property
    def frames(self) -> int:
        """Watch mode: the positions played so far (the first is the deal)."""
        return len(self.joints) + 1

    def over(self) -> bool:
        """The played game has ended (by its rules or at ``max_decisions``)."""
        return self.state.is_over() or self.decisions >= self.game.max_decisions

    def finished(self) -> bool:
        """Nothing more to play: the game (watch mode: the last position played) is over."""
        return self.over()

    def frame(self, index: int) -> tuple[State, LastMove | None]:
        """Watch mode: position ``index`` and the move that led to it, played again from the
        keyframe before it."""
        if index == len(self.joints):
            return self.state, self._tail
        if self._shown is not None and self._shown[0] == index:
            return self._shown[1], self._shown[2]
        start = index - index % self.every
        if start == index and index > 0:  # a keyframe: its move is played from the one before
            start -= self.every
        state = self.keyframes[start].clone()
        last = None
        for k in range(start, index):
            if k == index - 1:
                last = record_move(state, self.joints[k])
            state.apply(self.joints[k])
        self._shown = (index, state, last)
        return state, last

    def frame_state(self, index: int) -> State:
        """Watch mode: position ``index``."""
        return self.frame(index)[0]

    def frame_over(self) -> bool:
        """The watched position is the end of the game."""
        if self.frame_state(self.cursor).is_over():
            return True
        return self.cursor == len(self.joints) and self.decisions >= self.game.max_decisions

    # --- who may ask what ---------------------------------------------------------------------
    def check_seat(self, seat: Any, token: Any) -> int:
        """``seat`` as an int, if it is a human seat of this game and ``token`` is its secret."""
        n = self.game.num_players
        if self.mode == "watch":
            raise WebError(403, f"game {self.id} has no human seat: it is watched, not played "
                                "(leave out seat and token)")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            shown = repr(seat) if isinstance(seat, int | str | None) else type(seat).__name__
            raise bad(f"seat={shown[:40]}; allowed: your seat, one of {self.humans}")
        if seat not in self.tokens:
            raise WebError(403, f"seat {seat} ({self.game.player_name(seat)}) is played by "
                                f"{self.seats[seat]}, not by you; your seats: {self.humans}")
        if not isinstance(token, str) or not secrets.compare_digest(
                token.encode("utf-8", "replace"), self.tokens[seat].encode()):
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
        game = self.game
        if self.mode == "watch":
            state, last = self.frame(self.cursor)
            made = self.cursor
            first = max(0, made - LOG_LIMIT)
            log = [{"n": i + 1, "lines": list(self.lines[i])} for i in range(first, made)]
        else:
            state, made = self.state, self.decisions
            last = self.moves[-1] if self.moves else None
            log = [{"n": made - len(self.moves) + i + 1,
                    "lines": move.lines(game.player_name, seat)}
                   for i, move in enumerate(self.moves)]
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
        out: dict[str, Any] = {
            "game": self.id, "env": self.env, "options": self.options, "mode": self.mode,
            "title": self.title, "viewer": seat,
            "seats": [{"name": game.player_name(p), "player": self.seats[p],
                       "you": p == seat} for p in range(game.num_players)],
            "counter": made if self.mode == "play" else self.cursor,
            "to_act": [game.player_name(p) for p in acting],
            "over": over,
            "svg": state.to_svg(seat, last, choices),
            "text": str(state) if seat is None else views.render_seat(state, seat, False),
            "log": log, "moves": made, "menu": menu, "answered": answered,
            "think_ms": round(self.think_s * 1000, 1),
        }
        if self.mode == "watch":
            out.update(frame=self.cursor, frames=self.frames, replay=self.replay,
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
def env_options(env: Any, given: Any, limits: Limits) -> tuple[str, Game, dict[str, Any]]:
    """The env name, its game and the options actually set, or a 400 naming what is allowed.
    Option values may be JSON values or text as on the command line (``"3"``, ``"false"``).
    Options that let a game run longer than ``limits.max_decisions`` decisions are refused."""
    if not isinstance(env, str) or env not in envs.ENVS:
        shown = repr(env[:60]) if isinstance(env, str) else type(env).__name__
        raise bad(f"unknown env {shown}; allowed: {', '.join(envs.ENVS)}")
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise bad(f"options must be an object of option name -> value, got "
                  f"{type(given).__name__}")
    known = [o.name for o in envs.make_game(env).OPTIONS]
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise bad(f"{env}: unknown option(s) {', '.join(k[:40] for k in unknown[:10])}; "
                  f"allowed: {', '.join(known)}")
    options: dict[str, Any] = {}
    for key, value in given.items():
        if isinstance(value, str):
            try:
                value = parse_env_options([f"{key}={value}"])[key]
            except ValueError as exc:
                raise bad(str(exc)) from None
        options[key] = value
        check_option_numbers(env, key, value, limits.option_number)
    try:
        game = envs.make_game(env, **options)
    except (TablezooError, ValueError, TypeError, OverflowError) as exc:
        raise bad(str(exc)[:400]) from None
    if game.max_decisions > limits.max_decisions:
        shown = ", ".join(f"{k}={v!r}"[:60] for k, v in options.items())
        raise bad(f"{env} with {shown} runs up to {game.max_decisions} decisions; this "
                  f"server plays games of at most {limits.max_decisions} (smaller values)")
    return env, game, options


def check_option_numbers(env: str, key: str, value: Any, bound: float) -> None:
    """Every number in option ``key`` (or in its list) finite and at most ``bound`` in size: a
    game's rules take any size, but its scores and pictures then overflow (ethnos with a glory
    of 10**39 cannot draw its table)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, list | tuple):
            todo.extend(item)
        elif isinstance(item, int | float) and not isinstance(item, bool) and not (
                math.isfinite(item) and abs(item) <= bound):
            shown = repr(item) if len(repr(item)) <= 20 else f"a number of {len(repr(item))} digits"
            raise bad(f"{env}: option {key[:40]}: {shown} is out of range; this server takes "
                      f"numbers of at most {bound:g} in size in a game's options")


def make_agents(env: str, game: Game, seats: Any, seed: int, limits: Limits,
                shelf: ModelShelf) -> tuple[list[str], dict[int, Agent]]:
    """The seat list (``"human"`` or an agent spec per seat) and the agents, seeded as
    ``training.evaluation.match.play_game`` seeds them (so a seeded watched game is that game)."""
    n = game.num_players
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str)
                                                                  for s in seats):
        raise bad(f"seats must be a list of {n} texts for {env} with these options, one per "
                  f"seat: {allowed_text(shelf)}")
    long = [s for s in seats if len(s) > limits.text_chars]
    if long:
        raise bad(f"a seat spec of {len(long[0])} characters; at most {limits.text_chars}")
    specs = [s.strip() for s in seats]
    factories = {spec: seat_factory(spec, env, n, game.num_actions, limits, shelf)
                 for spec in sorted(set(specs) - {HUMAN})}
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
        shown = repr(seed)[:50] if isinstance(seed, int | float | str) else type(seed).__name__
        raise bad(f"seed={shown}; allowed: an integer >= 0 and < 2**63, or null for a random one")
    return seed


NEW_GAME_FIELDS = ("env", "options", "seats", "seed", "state")


def new_session(body: Mapping[str, Any], limits: Limits | None = None,
                shelf: ModelShelf | None = None,
                stop: threading.Event | None = None) -> GameSession:
    """A game from a request body: ``env``, ``options``, ``seats``, ``seed`` and optionally
    ``state`` (a saved position, ``state.to_dict()``; its options unless given)."""
    limits = limits or Limits()
    unknown = sorted(set(body) - set(NEW_GAME_FIELDS))
    if unknown:
        raise bad(f"unknown field(s) {', '.join(k[:40] for k in unknown[:10])}; allowed: "
                  f"{', '.join(sorted(NEW_GAME_FIELDS))}")
    saved = body.get("state")
    options = body.get("options")
    env = body.get("env")
    if saved is not None:
        env, options = saved_env(saved, env, options)
    env, game, options = env_options(env, options, limits)
    seed = check_seed(body.get("seed"))
    seats, agents = make_agents(env, game, body.get("seats"), seed, limits,
                                shelf or ModelShelf())
    if saved is not None:
        try:
            state = game.state_from_dict(saved)
        except (TablezooError, ValueError, TypeError, KeyError, IndexError, AttributeError,
                OverflowError) as exc:
            raise bad(f"state: not a position of {env} with these options: "
                      f"{str(exc)[:300]}") from None
    else:
        state = game.new_state(seeds_for(seed, game.num_players + 1)[0])
    session = GameSession(id=secrets.token_hex(8), env=env, options=options, game=game,
                          state=state, seats=seats, seed=seed, agents=agents,
                          tokens={p: secrets.token_urlsafe(16) for p, s in enumerate(seats)
                                  if s == HUMAN}, every=limits.keyframe_every,
                          stop=stop or threading.Event())
    session.title = f"{env} " + ", ".join(
        f"{game.player_name(p)}: {s}" for p, s in enumerate(seats))
    if session.mode == "watch":
        session.keyframes = {0: state.clone()}
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
        shown = saved.get("game")
        shown = repr(shown[:40]) if isinstance(shown, str) else type(shown).__name__
        raise bad(f"state: names no known game ({shown}); the games: "
                  f"{', '.join(envs.make_game(e).name for e in envs.ENVS)}")
    if env is not None and env != named[0]:
        shown = repr(env[:40]) if isinstance(env, str) else type(env).__name__
        raise bad(f"state holds a {saved.get('game')!r} position, not one of {shown}; leave "
                  f"out env to open it in {named[0]}")
    inside = saved.get("options") or {}
    if not isinstance(inside, Mapping):
        raise bad("state: 'options' must be an object of option names and values")
    if options is not None and not isinstance(options, Mapping):
        raise bad(f"options must be an object of option name -> value, got "
                  f"{type(options).__name__}")
    merged = dict(inside)
    if "num_players" in saved and "num_players" not in merged:
        merged["num_players"] = saved["num_players"]
    merged.update(options or {})
    return named[0], merged


# --- playing ---------------------------------------------------------------------------------
def agent_actions(session: GameSession, state: State, seats: Sequence[int]) -> dict[int, int]:
    if session.stop.is_set():  # the server is stopping: no more thinking
        raise WebError(503, "the server is stopping")
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
        session.moves.append(record_move(state, joint))
        session.decisions += 1
        state.apply(joint)


def human_move(session: GameSession, seat: int, action: Any, counter: Any) -> None:
    """A human seat's move at move ``counter``; agents then play until a human must answer."""
    if isinstance(counter, bool) or not isinstance(counter, int):
        raise bad(f"counter={_shown(counter)}; send the move counter of the view the move was "
                  f"made in (now {session.decisions})")
    if counter != session.decisions:
        raise WebError(409, f"stale move: it was made at move {_shown(counter)}, but the game "
                            f"is at move {session.decisions}; reload the game")
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
        raise bad(f"action {_shown(action)} is not a legal move of {name} now; legal: "
                  f"{shown}{more}")
    session.think_s = 0.0
    session.pending[seat] = action
    play_agents(session)


STEPS = ("next", "back", "start", "end")


def watch_step(session: GameSession, go: Any, counter: Any, seconds: float = 5.0) -> None:
    """Move through a watched game: ``go`` is ``next``, ``back``, ``start`` or ``end``
    (``next`` and ``end`` let the agents play where the game has not been played yet; ``end``
    plays on for at most ``seconds`` a request and shows the last position played)."""
    if not isinstance(go, str) or go not in STEPS:
        raise bad(f"go={_shown(go)}; allowed: {', '.join(STEPS)}")
    if isinstance(counter, bool) or not isinstance(counter, int):
        raise bad(f"counter={_shown(counter)}; send the frame number the view shows (now "
                  f"{session.cursor})")
    if counter != session.cursor:
        raise WebError(409, f"stale step: the view showed position {_shown(counter)}, the game "
                            f"shows {session.cursor}; reload the game")
    session.think_s = 0.0
    if go == "back":
        session.cursor = max(0, session.cursor - 1)
    elif go == "start":
        session.cursor = 0
    elif go == "next":
        if session.cursor < len(session.joints) or _grow(session):
            session.cursor += 1
    else:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and _grow(session):
            pass
        session.cursor = len(session.joints)


def _grow(session: GameSession) -> bool:
    """One more decision by the agents at the end of a watched game; False when it is over."""
    state = session.state
    if session.over():
        return False
    joint = agent_actions(session, state, list(state.acting_players()))
    move = record_move(state, joint)
    state.apply(joint)
    session.joints.append(joint)
    session.lines.append(tuple(move.lines(session.game.player_name, None)))
    session._tail = move
    session.decisions += 1
    if len(session.joints) % session.every == 0:
        session.keyframes[len(session.joints)] = state.clone()
    return True


def _shown(value: Any) -> str:
    """A value of a request as a message shows it: short, and only its type if not a scalar."""
    if isinstance(value, bool | int | float | str) or value is None:
        return repr(value)[:50]
    return f"<{type(value).__name__}>"


class Sessions:
    """Every game of the server by id, kept by the policy of this module's docstring."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.games: OrderedDict[str, GameSession] = OrderedDict()  # least recently used first
        self.lock = threading.Lock()
        self.stop = threading.Event()  # set by close(): every game's agents stop thinking

    def close(self) -> None:
        self.stop.set()

    def _expire(self, now: float) -> None:
        for key, session in list(self.games.items()):
            if now - session.used <= self.limits.idle_s:
                break  # the rest were used later
            del self.games[key]

    def room(self) -> None:
        """Raise a 503 if no new game fits (after dropping expired and idle finished games)."""
        with self.lock:
            self._room(time.monotonic())

    def _room(self, now: float) -> None:
        self._expire(now)
        if len(self.games) < self.limits.games:
            return
        for key, session in self.games.items():
            if now - session.used < self.limits.over_idle_s:
                break
            if not session.lock.locked() and session.finished():
                del self.games[key]
                return
        raise WebError(503, f"this server keeps {self.limits.games} games at once and all are "
                            f"in play; a game nobody asks about for "
                            f"{self.limits.idle_s / 60:g} minutes ends: try again later")

    def add(self, session: GameSession) -> GameSession:
        with self.lock:
            now = time.monotonic()
            self._room(now)
            session.used = now
            self.games[session.id] = session
        return session

    def get(self, game_id: str) -> GameSession:
        with self.lock:
            now = time.monotonic()
            self._expire(now)
            session = self.games.get(game_id)
            if session is None:
                raise WebError(404, f"no game {game_id[:40]!r} on this server (it ended with a "
                                    f"server restart, or nobody asked about it for "
                                    f"{self.limits.idle_s / 60:g} minutes); start a new one")
            session.used = now
            self.games.move_to_end(game_id)
            return session
