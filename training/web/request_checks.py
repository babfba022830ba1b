"""What a request must be before the web app reads it, as Jupyter's server checks it: the
``Host`` it names (only this machine's names unless ``--host`` opened the server on purpose, so
a DNS-rebound name of another site is refused), the page it comes from (a browser's ``Origin``
must be the server's own), and for a request that changes anything a JSON body sent by the
server's own page or carrying the server's token (``Authorization: token T``). A web page of
another site can therefore neither read an answer nor start or move a game.

The body is read up to ``Limits.body_bytes`` (413 at the limit, before the rest is read) and
parsed with bounded nesting and number size; every refusal is a ``WebError`` with a message
naming what is allowed.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from tablezoo.training.web.errors import WebError, bad
from tablezoo.training.web.limits import Limits

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# on every answer: no other site may frame the page (clicks steered through a hidden frame)
# or load an answer as a script or style of another type than it says
GUARD_HEADERS = ((b"x-frame-options", b"DENY"),
                 (b"content-security-policy", b"frame-ancestors 'none'"),
                 (b"x-content-type-options", b"nosniff"))


def is_loopback(host: str) -> bool:
    """``host`` names this machine only (``localhost``, ``127.x.y.z``, ``::1``)."""
    if host.lower() in LOCAL_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(bound: str) -> frozenset[str] | None:
    """The ``Host`` names the server answers when listening on ``bound``: this machine's names
    and ``bound`` itself; ``None`` (any) where ``bound`` opens it to the network on purpose."""
    if is_loopback(bound):
        return LOCAL_NAMES | {bound.lower()}
    return None


def host_name(host: str) -> str:
    """``"127.0.0.1:8765"`` -> ``"127.0.0.1"``, ``"[::1]:80"`` -> ``"::1"``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


class RequestGate:
    """An ASGI middleware: refuses a request whose ``Host``, ``Origin``, content type or missing
    token says it does not come from the server's own page or a script of its user, and adds
    ``GUARD_HEADERS`` to every answer."""

    def __init__(self, app: Any, hosts: frozenset[str] | None, token: str):
        self.app = app
        self.hosts = hosts
        self.token = token.encode()

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}

        async def guarded(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *GUARD_HEADERS]}
            await send(message)

        try:
            self.check(scope["method"], headers)
        except WebError as exc:
            body = json.dumps({"error": exc.message}).encode()
            await guarded({"type": "http.response.start", "status": exc.status,
                           "headers": [(b"content-type", b"application/json"),
                                       (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, guarded)

    def check(self, method: str, headers: Mapping[str, str]) -> None:
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            raise WebError(403, f"Host {host[:100]!r} refused: this server answers only to "
                                f"{', '.join(sorted(self.hosts))} (tablezoo serve --host opens "
                                "it to other names on purpose)")
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in (f"http://{host}".lower(),
                                                         f"https://{host}".lower()):
            raise WebError(403, f"cross-origin request from {origin[:100]!r} refused: the API "
                                "answers only the page it serves")
        if method not in CHANGING:
            return
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            raise WebError(415, f"a {method} needs Content-Type: application/json, got "
                                f"{kind[:60] or 'none'!r}")
        if origin is None and not self.has_token(headers.get("authorization", "")):
            raise WebError(403, "a request that changes a game needs the server's own page "
                                "(its Origin) or its token (header 'Authorization: token T', "
                                "T as tablezoo serve printed it)")

    def has_token(self, header: str) -> bool:
        scheme, _, given = header.partition(" ")
        return scheme.lower() == "token" and hmac.compare_digest(
            given.strip().encode("utf-8", "replace"), self.token)


async def read_body(request: Any, limits: Limits) -> bytes:
    """The body, read until ``limits.body_bytes`` and refused (413) there, not after, and
    within ``limits.body_s`` (408 past it: a body sent a byte at a time holds no request)."""
    limit = limits.body_bytes
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise WebError(413, f"request body of {declared[:20]} bytes; at most {limit}")
    parts: list[bytes] = []
    size = 0
    deadline = time.monotonic() + limits.body_s
    chunks = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(chunks.__anext__(), deadline - time.monotonic())
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            raise WebError(408, f"request body not received within {limits.body_s:g} s (after "
                                f"{size} bytes); send the whole body at once") from None
        size += len(chunk)
        if size > limit:
            raise WebError(413, f"request body over {limit} bytes; at most {limit}")
        parts.append(chunk)
    return b"".join(parts)


def parse_json(raw: bytes, limits: Limits) -> Any:
    """``raw`` as JSON, refusing non-UTF-8, ``NaN``/``Infinity``, huge numbers, deep nesting
    and a field given twice in one object (which of the two counts is no rule) with a 400 that
    names the limit."""

    def integer(text: str) -> int:
        if len(text.lstrip("-")) > limits.int_digits:
            raise bad(f"malformed body: an integer of {len(text.lstrip('-'))} digits; at most "
                      f"{limits.int_digits}")
        return int(text)

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise bad(f"malformed body: the number {text[:40]} is out of range")
        return value

    def constant(text: str) -> Any:
        raise bad(f"malformed body: {text} is not a JSON number")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) < len(pairs):
            seen: set[str] = set()
            twice = next(k for k, _ in pairs if k in seen or seen.add(k))
            raise bad(f"malformed body: the field {twice[:40]!r} is given twice in one object; "
                      "give each field once")
        return out

    try:
        text = raw.decode("utf-8")
        data = json.loads(text or "null", parse_int=integer, parse_float=number,
                          parse_constant=constant, object_pairs_hook=unique)
    except UnicodeDecodeError as exc:
        raise bad(f"malformed body: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise bad(f"malformed body: nested deeper than {limits.json_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise bad(f"malformed body: not JSON ({exc})") from None
    check_shape(data, limits.json_depth)
    return data


def check_shape(data: Any, depth: int) -> None:
    """Nesting at most ``depth`` deep, and every text encodable (no lone surrogate)."""
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, str):
            _text(item)
        elif isinstance(item, dict | list):
            if level >= depth:
                raise bad(f"malformed body: nested deeper than {depth} levels")
            if isinstance(item, dict):
                for key in item:
                    _text(key)
                todo.extend((v, level + 1) for v in item.values())
            else:
                todo.extend((v, level + 1) for v in item)


def _text(text: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise bad("malformed body: a text holds a lone surrogate (\\ud800-\\udfff), which "
                      "is no character") from None


def json_object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise bad(f"malformed body: expected a JSON object, got {type(data).__name__}")
    return data


def only_fields(body: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """The same rule on every endpoint: a field it does not know is refused by name."""
    known = sorted(allowed)
    unknown = sorted(set(body) - set(known))
    if unknown:
        shown = ", ".join(repr(k[:40]) if len(k) > 40 else k for k in unknown[:10])
        raise bad(f"unknown field(s) {shown}; allowed: {', '.join(known)}")
