"""Where the web app's agents think: a few daemon threads of their own, not the request
threads, so a long search never starves the page or the API, and a stopping server never
waits for one. A request waits for its work at most ``Limits.wait_s`` and then answers 503
while the work goes on (the game's lock keeps other requests out of it meanwhile)."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from tablezoo.training.web.errors import WebError

T = TypeVar("T")


class Worker:
    """``threads`` daemon threads running submitted work in order of arrival."""

    def __init__(self, threads: int, queue_limit: int = 64):
        self.queue_limit = queue_limit
        self.waiting = 0  # jobs submitted and not finished
        self.count_lock = threading.Lock()
        self.jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue())
        self.threads = [threading.Thread(target=self._run, name=f"tablezoo-agents-{i}",
                                         daemon=True) for i in range(threads)]
        for thread in self.threads:
            thread.start()

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            work, future = job
            try:
                if future.set_running_or_notify_cancel():
                    future.set_result(work())
            except BaseException as exc:  # handed to the waiting request, which answers it
                future.set_exception(exc)
            finally:
                with self.count_lock:
                    self.waiting -= 1

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """Queue ``work``; a 503 when ``queue_limit`` jobs are waiting already."""
        with self.count_lock:
            if self.waiting >= self.queue_limit:
                raise WebError(503, f"the server is busy ({self.waiting} requests wait for "
                                    "the agents); try again in a moment")
            self.waiting += 1
        future: Future[T] = Future()
        self.jobs.put((work, future))
        return future

    async def run(self, work: Callable[[], T], wait_s: float, drop_late: bool = False) -> T:
        """``work()``'s result, or a 503 once ``wait_s`` has passed: the work goes on if it
        has begun or unless ``drop_late`` (a new game nobody would receive is not made)."""
        future = self.submit(work)
        waiting = asyncio.wrap_future(future)
        waiting.add_done_callback(lambda f: f.cancelled() or f.exception())  # read once
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), wait_s)
        except asyncio.TimeoutError:
            if drop_late and future.cancel():
                raise WebError(503, f"the server is busy (the request waited {wait_s:g} s); "
                                    "try again in a moment") from None
            raise WebError(503, f"the agents are still thinking (over {wait_s:g} s); ask for "
                                "the game's view again in a moment") from None

    def close(self) -> None:
        for _ in self.threads:
            self.jobs.put(None)
