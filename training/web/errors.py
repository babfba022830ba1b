"""A refused request of the web app: ``WebError`` carries the HTTP status (400, 403, 404, 408,
409, 413, 415, 429, 503) and a message that names the problem and what is allowed."""

from __future__ import annotations


class WebError(Exception):
    """A refused request: ``status`` and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def bad(message: str) -> WebError:
    """A 400: the request itself is malformed or names something not allowed."""
    return WebError(400, message)
