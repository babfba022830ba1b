"""A TestClient of the web app as the server's own page is: the Host of 127.0.0.1 and the
page's Origin (the app refuses other hosts and origins)."""

from __future__ import annotations

import warnings
from typing import Any

ORIGIN = "http://127.0.0.1:8765"


def page_client(app: Any, **headers: str) -> Any:
    """Requests to ``app`` as its page at ``ORIGIN`` sends them (``headers`` added)."""
    with warnings.catch_warnings():  # newer Starlette asks for httpx2; httpx works the same
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    return TestClient(app, base_url=ORIGIN, headers={"Origin": ORIGIN, **headers})
