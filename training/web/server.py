"""``tablezoo serve``: watch and play the games in a browser (a local web app).

    tablezoo serve
    tablezoo serve --port 8800
    tablezoo serve --host 0.0.0.0 --port 8800

Open the address it prints. Pick an env, its options and who plays each seat (you, or any
agent spec: random, heuristic, ismcts:iterations=200, trained, trained:PATH.npz,
policy:PATH.zip); play your seats by clicking a card, a tile or a move; watch agents move by
move or to the end; open a saved position (``state.to_dict()`` as JSON) or replay a game of
``tablezoo evaluate --records FILE`` or of a tournament (its ``tournament.json``). Everything
is served from this machine (no CDN). It listens on 127.0.0.1 only; ``--host 0.0.0.0`` opens
it to the network on purpose (anyone who can reach the port can then start games).

The server keeps every game (by a random id, so games in several tabs never mix); a page that
plays a seat receives only that seat's view (``training/web/sessions.py``). The HTTP API:

    GET  /api/envs                      the envs, their options, the agent names
    POST /api/games                     {env, options, seats, seed?, state?} -> a new game
    GET  /api/games/ID?seat=S&token=T   the view of seat S (no seat: a game without humans)
    POST /api/games/ID/move             {seat, token, action, counter}
    POST /api/games/ID/step             {go: next|back|start|end, counter} (games without humans)
    POST /api/replays                   {record: text of the file, game: k}

A refused request is a 4xx answer ``{"error": message}`` naming the problem and what is
allowed; the game stays as it was.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.agents.registry import AGENTS
from tablezoo.training.runs import SettingsError
from tablezoo.training.web.sessions import (
    HUMAN,
    GameSession,
    Sessions,
    WebError,
    bad,
    human_move,
    new_session,
    replay_session,
    watch_step,
)

STATIC = Path(__file__).with_name("static")
MAX_BODY = 8_000_000  # bytes of a request body (a long records file fits)
# The seats the setup page offers (any other spec can be typed in).
AGENT_CHOICES = ("human", "random", "heuristic", "ismcts", "ismcts:iterations=200", "trained")


def catalog() -> dict[str, Any]:
    """What the setup page offers: every env with its options, and the agents."""
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
    return {"envs": out, "agents": list(AGENT_CHOICES),
            "agent_names": [a for a in AGENTS if a != "search"], "human": HUMAN}


def create_app(sessions: Sessions | None = None) -> Any:
    """The Starlette app (``app.state.sessions`` holds the games)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    store = sessions or Sessions()

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise bad(f"request body of {len(raw)} bytes; at most {MAX_BODY}")
        try:
            data = json.loads(raw or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise bad(f"malformed body: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise bad(f"malformed body: expected a JSON object, got {type(data).__name__}")
        return data

    def locked(session: GameSession, work: Any) -> Any:
        with session.lock:
            return work()

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def list_envs(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(catalog))

    async def create(request: Request) -> JSONResponse:
        body = await body_of(request)
        session = store.add(await run_in_threadpool(new_session, body))
        first = session.humans[0] if session.humans else None
        view = await run_in_threadpool(locked, session, lambda: session.view(first))
        return JSONResponse({"game": session.id, "tokens": {str(p): t for p, t
                                                            in session.tokens.items()},
                             "view": view}, status_code=201)

    def seat_of(session: GameSession, seat: Any, token: Any) -> int | None:
        """No seat: a watcher (refused by ``view`` in a game with human seats)."""
        return None if seat is None else session.check_seat(seat, token)

    async def show(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game"])
        query = request.query_params
        seat: Any = query.get("seat")
        if seat is not None:
            try:
                seat = int(seat)
            except ValueError:
                raise bad(f"seat={seat!r}; allowed: a seat number") from None

        def work() -> dict[str, Any]:
            return session.view(seat_of(session, seat, query.get("token")))

        return JSONResponse(await run_in_threadpool(locked, session, work))

    async def move(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game"])
        body = await body_of(request)
        allowed = {"seat", "token", "action", "counter"}
        if set(body) - allowed:
            raise bad(f"unknown field(s) {', '.join(sorted(set(body) - allowed))}; allowed: "
                      f"{', '.join(sorted(allowed))}")

        def work() -> dict[str, Any]:
            seat = session.check_seat(body.get("seat"), body.get("token"))
            human_move(session, seat, body.get("action"), body.get("counter"))
            return session.view(seat)

        return JSONResponse(await run_in_threadpool(locked, session, work))

    async def step(request: Request) -> JSONResponse:
        session = store.get(request.path_params["game"])
        body = await body_of(request)
        if session.mode != "watch":
            raise WebError(403, f"game {session.id} has human seats: it moves when they play "
                                "(POST .../move), not step by step")

        def work() -> dict[str, Any]:
            watch_step(session, body.get("go"), body.get("counter"))
            return session.view(None)

        return JSONResponse(await run_in_threadpool(locked, session, work))

    async def replay(request: Request) -> JSONResponse:
        body = await body_of(request)
        record, index = body.get("record"), body.get("game", 0)
        if not isinstance(record, str) or not record.strip():
            raise bad("record must be the text of a records file (tablezoo evaluate --records) "
                      "or of a tournament.json")
        if isinstance(index, bool) or not isinstance(index, int):
            raise bad(f"game={index!r}; allowed: the number of a recorded game")

        def work() -> GameSession:
            from tablezoo.training.web.replay import RecordError, recorded_game

            try:
                env, game, options, frames, title, seed = recorded_game(record, index)
            except (RecordError, ValueError, FileNotFoundError) as exc:
                raise bad(str(exc)) from None
            return replay_session(env, game, options, frames, title, seed)

        session = store.add(await run_in_threadpool(work))
        return JSONResponse({"game": session.id, "tokens": {},
                             "view": await run_in_threadpool(session.view, None)},
                            status_code=201)

    async def web_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, WebError)
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        text = exc.detail if exc.status_code != 404 else (
            f"no such page or API route: {request.method} {request.url.path}")
        return JSONResponse({"error": text}, status_code=exc.status_code)

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
    app = Starlette(routes=routes, exception_handlers={WebError: web_error,
                                                       HTTPException: http_error})
    app.state.sessions = store
    return app


@dataclass
class ServeSettings:
    """Where ``tablezoo serve`` listens: ``host`` (127.0.0.1 keeps it to this machine),
    ``port``, and uvicorn's ``log_level``."""

    host: str = "127.0.0.1"
    port: int = 8765
    log_level: str = "warning"


def serve(settings: ServeSettings) -> None:
    """Serve the web app until stopped; ``SettingsError`` where starlette or uvicorn is
    missing."""
    try:
        import uvicorn
        app = create_app()
    except ImportError as exc:
        raise SettingsError(f"the web app needs starlette and uvicorn: pip install "
                            f'"tablezoo[web]" ({exc})') from exc
    if settings.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {settings.host}: anyone who can reach port "
              f"{settings.port} can start games on this machine", file=sys.stderr)
    print(f"tablezoo serve: open http://{settings.host}:{settings.port}/ (Ctrl-C stops)",
          flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=settings.log_level)
