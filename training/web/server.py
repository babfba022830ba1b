"""``tablezoo serve``: watch and play the games in a browser (a local web app).

    tablezoo serve
    tablezoo serve --port 8800 --models runs/
    tablezoo serve --host 0.0.0.0 --port 8800

Open the address it prints. Pick an env, its options and who plays each seat (you, or an
agent: random, heuristic, ismcts:iterations=200, flat_search:rollouts=64, trained (the shipped
models), or model:NAME, one of your own models); play your seats by clicking a card, a tile or
a move; watch agents move by move or to the end; open a saved position (``state.to_dict()``
as JSON) or replay a game of ``tablezoo evaluate --records FILE`` or of a tournament (its
``tournament.json``). Everything is served from this machine (no CDN).

Safety. A request never names a file: ``policy:PATH`` and ``trained:PATH`` seats are refused.
Your own models come from the folders given with ``--models DIR`` (every ``*.zip`` and ``*.npz``
below them, offered as ``model:NAME``); those folders are trusted as code is, since a
MaskablePPO zip is a pickle and loading it runs what it holds. The server listens on 127.0.0.1
and answers only the Host names of this machine (against DNS rebinding); ``--host 0.0.0.0``
opens it to the network on purpose (anyone who can reach the port can then start games). A
request from another site's page (a foreign ``Origin``) is refused; a request that changes a
game must be JSON (``Content-Type: application/json``) and come from the server's own page or
carry the token it prints (header ``Authorization: token T``), as Jupyter's server checks.

Bounds (``training/web/limits.py``). A body of at most 8 MB (refused while reading) that
arrives within 30 s, JSON at most 32 levels deep with integers of at most 40 digits and each
field once; a search agent spends at most 1000 iterations, rollouts or 10 s a move; numbers in
a game's options are at most 10**6 in size, and options that let a game run over 10,000
decisions are refused; a tournament.json of at most 20,000 games. The agents think in
threads of their own: at most 64 requests wait for them (503 past that), a request waits at
most 20 s (then 503: a move goes on, a new game is not made), and "end" in a watched game
plays on for at most 5 s a request. A watched game keeps one position in 32 and plays the
others again when shown.

Games kept. The server keeps a game by a random id (games in several tabs never mix) until
nobody has asked about it for 30 minutes. It keeps at most 300 games: past that a finished
game idle for a minute makes room, and otherwise a new game is refused with 503 until one
ends or expires; a game in play is never dropped for another one. A page that plays a seat
receives only that seat's view (``training/web/sessions.py``). The HTTP API:

    GET  /api/envs                      the envs, their options, the agents, the models
    POST /api/games                     {env, options, seats, seed?, state?} -> a new game
    GET  /api/games/ID?seat=S&token=T   the view of seat S (no seat: a game without humans)
    POST /api/games/ID/move             {seat, token, action, counter}
    POST /api/games/ID/step             {go: next|back|start|end, counter} (games without humans)
    POST /api/replays                   {record: text of the file, game: k}

A refused request is a 4xx answer ``{"error": message}`` naming the problem and what is
allowed (503 where the server is full or busy); the game stays as it was.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tablezoo import envs
from tablezoo.agents.registry import AGENTS
from tablezoo.training.runs import SettingsError
from tablezoo.training.web.errors import WebError, bad
from tablezoo.training.web.limits import Limits
from tablezoo.training.web.request_checks import (
    RequestGate,
    allowed_hosts,
    json_object,
    only_fields,
    parse_json,
    read_body,
)
from tablezoo.training.web.seats import HUMAN, MODEL, WEB_AGENTS, ModelShelf
from tablezoo.training.web.sessions import (
    GameSession,
    Sessions,
    human_move,
    new_session,
    watch_step,
)
from tablezoo.training.web.worker import Worker

T = TypeVar("T")
STATIC = Path(__file__).with_name("static")
# The seats the setup page offers (any other spec of the registry's agents can be typed in).
AGENT_CHOICES = ("human", "random", "heuristic", "ismcts", "ismcts:iterations=200", "trained")
MOVE_FIELDS = ("seat", "token", "action", "counter")
STEP_FIELDS = ("go", "counter")
REPLAY_FIELDS = ("record", "game")
VIEW_QUERY = ("seat", "token")


def catalog(shelf: ModelShelf | None = None) -> dict[str, Any]:
    """What the setup page offers: every env with its options, and the agents (the user's
    models as ``model:NAME``)."""
    out = []
    for name in envs.ENVS:
        game = envs.make_game(name)
        out.append({
            "name": name, "game": game.name, "players": game.num_players,
            "legend": game.text_views().LEGEND,
            "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                         "allowed": list(o.allowed) if o.allowed is not None else None}
                        for o in game.OPTIONS],
            "quick": dict(envs.spec(name).tool_options),  # short games by default
            "variants": envs.VARIANTS[name],
        })
    models = [f"{MODEL}:{n}" for n in (shelf.names() if shelf else [])]
    return {"envs": out, "agents": list(AGENT_CHOICES) + models,
            "agent_names": [a for a in AGENTS if a in WEB_AGENTS and a != "search"],
            "models": models, "human": HUMAN}


def create_app(sessions: Sessions | None = None, limits: Limits | None = None,
               host: str = "127.0.0.1", token: str | None = None,
               models: Sequence[str | Path] = ()) -> Any:
    """The Starlette app: ``app.state.sessions`` holds the games, ``app.state.token`` is the
    token a script sends (``Authorization: token T``). It answers the ``Host`` names of
    ``host`` (``allowed_hosts``) and offers the models under ``models`` by name."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    limits = limits or (sessions.limits if sessions is not None else Limits())
    store = sessions or Sessions(limits)
    shelf = ModelShelf(models)
    worker = Worker(limits.workers, limits.queue)
    token = token or secrets.token_urlsafe(24)
    offered = catalog(shelf)

    async def body_of(request: Request, allowed: Sequence[str]) -> dict[str, Any]:
        body = json_object(parse_json(await read_body(request, limits), limits))
        only_fields(body, allowed)
        return body

    def locked(session: GameSession, work: Callable[[], T]) -> Callable[[], T]:
        """``work`` holding the game's lock (503 if another request keeps it too long)."""

        def run() -> T:
            if not session.lock.acquire(timeout=limits.busy_s):
                raise WebError(503, f"game {session.id} is busy with an earlier request (its "
                                    "agents are thinking); ask again in a moment")
            try:
                return work()
            finally:
                session.lock.release()

        return run

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def list_envs(request: Request) -> JSONResponse:
        return JSONResponse(offered)

    async def create(request: Request) -> JSONResponse:
        body = await body_of(request, ("env", "options", "seats", "seed", "state"))
        store.room()

        def work() -> tuple[GameSession, dict[str, Any]]:
            session = new_session(body, limits, shelf, store.stop)
            with session.lock:
                return session, session.view(session.humans[0] if session.humans else None)

        session, view = await worker.run(work, limits.wait_s, drop_late=True)
        store.add(session)
        return JSONResponse({"game": session.id, "tokens": {str(p): t for p, t
                                                            in session.tokens.items()},
                             "view": view}, status_code=201)

    def seat_of(session: GameSession, seat: Any, token: Any) -> int | None:
        """No seat: a watcher (refused by ``view`` in a game with human seats)."""
        return None if seat is None else session.check_seat(seat, token)

    async def show(request: Request) -> JSONResponse:
        query = request.query_params
        only_fields(query, VIEW_QUERY)
        session = store.get(request.path_params["game"])
        seat: Any = query.get("seat")
        if seat is not None:
            if not (seat.isascii() and seat.isdigit() and len(seat) <= 3):
                raise bad(f"seat={seat[:40]!r}; allowed: a seat number")
            seat = int(seat)

        def work() -> dict[str, Any]:
            return session.view(seat_of(session, seat, query.get("token")))

        return JSONResponse(await run_in_threadpool(locked(session, work)))

    async def move(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game"])
        body = await body_of(request, MOVE_FIELDS)

        def work() -> dict[str, Any]:
            seat = session.check_seat(body.get("seat"), body.get("token"))
            human_move(session, seat, body.get("action"), body.get("counter"))
            return session.view(seat)

        return JSONResponse(await worker.run(locked(session, work), limits.wait_s))

    async def step(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game"])
        body = await body_of(request, STEP_FIELDS)
        if session.mode != "watch":
            raise WebError(403, f"game {session.id} has human seats: it moves when they play "
                                "(POST .../move), not step by step")

        def work() -> dict[str, Any]:
            watch_step(session, body.get("go"), body.get("counter"), limits.step_s)
            return session.view(None)

        return JSONResponse(await worker.run(locked(session, work), limits.wait_s))

    async def replay(request: Request) -> JSONResponse:
        body = await body_of(request, REPLAY_FIELDS)
        record, index = body.get("record"), body.get("game", 0)
        if not isinstance(record, str) or not record.strip():
            raise bad("record must be the text of a records file (tablezoo evaluate --records) "
                      "or of a tournament.json")
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < limits.replay_games):
            shown = repr(index)[:40] if isinstance(index, int | str | float) else (
                type(index).__name__)
            raise bad(f"game={shown}; allowed: the number of a recorded game (0 to "
                      f"{limits.replay_games - 1})")
        store.room()

        def work() -> tuple[GameSession, dict[str, Any]]:
            from tablezoo.training.web.replay import RecordError, record_setup

            try:
                found = record_setup(record, index, limits.replay_games)
            except RecordError as exc:
                raise bad(str(exc)) from None
            session = new_session({"env": found.env, "options": found.options,
                                   "seats": found.specs, "seed": found.seed}, limits, shelf,
                                  store.stop)
            session.replay, session.title = True, found.title
            session.seats = list(found.specs)
            with session.lock:
                return session, session.view(None)

        session, view = await worker.run(work, limits.wait_s, drop_late=True)
        store.add(session)
        return JSONResponse({"game": session.id, "tokens": {}, "view": view}, status_code=201)

    def refusal(message: str, status: int) -> Response:
        """``{"error": message}`` in ASCII JSON (a text of a request may hold any code point)."""
        return Response(json.dumps({"error": message}), status_code=status,
                        media_type="application/json")

    async def web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return refusal(exc.message, exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        text = exc.detail if exc.status_code != 404 else (
            f"no such page or API route: {request.method} {request.url.path[:80]}")
        return refusal(str(text), exc.status_code)

    @asynccontextmanager
    async def lifespan(app: Any) -> Any:
        yield
        store.close()  # the agents stop at their next move
        worker.close()

    routes = [
        Route("/", index),
        Route("/api/envs", list_envs),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game}", show),
        Route("/api/games/{game}/move", move, methods=["POST"]),
        Route("/api/games/{game}/step", step, methods=["POST"]),
        Route("/api/replays", replay, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(RequestGate, hosts=allowed_hosts(host), token=token)],
                    exception_handlers={WebError: web_error, HTTPException: http_error})
    app.state.sessions = store
    app.state.token = token
    app.state.limits = limits
    return app


@dataclass
class ServeSettings:
    """How ``tablezoo serve`` runs: ``host`` (127.0.0.1 keeps it to this machine), ``port``,
    uvicorn's ``log_level``, the folders of the user's own models (``models``, trusted: a
    MaskablePPO zip is a pickle) and the token scripts send (``None``: a random one)."""

    host: str = "127.0.0.1"
    port: int = 8765
    log_level: str = "warning"
    models: list[str] = field(default_factory=list)
    token: str | None = None


def serve(settings: ServeSettings) -> None:
    """Serve the web app until stopped; ``SettingsError`` where starlette or uvicorn is
    missing or a ``--models`` folder is not there."""
    try:
        import uvicorn
        app = create_app(host=settings.host, token=settings.token, models=settings.models)
    except ImportError as exc:
        raise SettingsError(f"the web app needs starlette and uvicorn: pip install "
                            f'"tablezoo[web]" ({exc})') from exc
    except ValueError as exc:
        raise SettingsError(str(exc)) from exc
    if allowed_hosts(settings.host) is None:
        print(f"warning: listening on {settings.host}: anyone who can reach port "
              f"{settings.port} can start games on this machine", file=sys.stderr)
    print(f"tablezoo serve: open http://{settings.host}:{settings.port}/ (Ctrl-C stops)\n"
          f"scripts: send the header 'Authorization: token {app.state.token}'", flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=settings.log_level,
                timeout_graceful_shutdown=3)
