"""Worker processes of a loop vector env (``num_workers=K``): each holds a contiguous shard of
the slots as a ``Slots`` and steps it when told.

The per-step arrays (actions in; observations, masks, seats, rewards and end flags out) live in
shared memory that every process maps, so a step moves no array through a pipe: the parent
writes the actions, sends ``"step"`` down every worker's pipe, and waits for each ``"ok"``.
Positions (``get_state``/``set_state``) travel as their ``to_dict`` saves, global states as
arrays. Workers are started with ``spawn`` (no inherited threads or locks; a script that makes
one needs the usual ``if __name__ == "__main__":`` guard), ignore Ctrl-C (the parent stops
them), run BLAS on one thread, and exit when the parent closes the env, drops it, or dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import multiprocessing as mp
import signal
import traceback
import weakref
from typing import Any

import numpy as np

from tablezoo.envs.core.game import Game
from tablezoo.envs.vector.slots import Slots

# name, per-slot shape and dtype of each shared array; the first six are a Slots' buffers
Layout = list[tuple[str, tuple[int, ...], Any]]


def layout(game: Game, observation: str = "default") -> Layout:
    return [("obs", (game.observation_spec(observation).size,), np.float32),
            ("mask", (game.num_actions,), np.bool_),
            ("seat", (), np.int64),
            ("rewards", (game.num_players,), np.float32),
            ("terminated", (), np.bool_),
            ("truncated", (), np.bool_),
            ("actions", (), np.int64)]


def local_arrays(game: Game, num_envs: int, observation: str = "default") -> list[np.ndarray]:
    """The same arrays, private to this process (a loop vector env without workers)."""
    return [np.zeros((num_envs, *shape), dtype)
            for _, shape, dtype in layout(game, observation)]


def _nbytes(num_envs: int, shape: tuple[int, ...], dtype: Any) -> int:
    return max(1, num_envs * int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize)


def _view(raw: Any, num_envs: int, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    count = num_envs * int(np.prod(shape, dtype=np.int64))
    return np.frombuffer(raw, dtype=dtype, count=count).reshape(num_envs, *shape)


def _serve(conn: Any, game: Game, num_envs: int, lo: int, hi: int, raws: list[Any],
           observation: str = "default") -> None:
    """A worker's life: map the arrays, build slots ``lo..hi-1``, answer commands until told to
    stop or the parent's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
        arrays = [_view(raw, num_envs, shape, dtype)
                  for raw, (_, shape, dtype) in zip(raws, layout(game, observation))]
        slots = Slots(game, lo, hi, tuple(a[lo:hi] for a in arrays[:6]), observation)
        actions = arrays[6][lo:hi]
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        return
    conn.send(("ok", None))
    while True:
        try:
            command, arg = conn.recv()
        except (EOFError, OSError):
            return
        if command == "close":
            return
        try:
            if command == "step":
                result = slots.step(actions)
            elif command == "reset":
                result = slots.reset(arg)
            elif command == "get":
                result = slots.get(arg).to_dict()
            elif command == "set":
                result = slots.set(arg[0], game.state_from_dict(arg[1]))
            elif command == "state":
                result = slots.global_states()
            else:
                raise ValueError(f"unknown command {command!r}")
        except BaseException:
            conn.send(("error", traceback.format_exc()))
            continue
        conn.send(("ok", result))


def _shutdown(processes: list[Any], conns: list[Any]) -> None:
    for conn in conns:
        with contextlib.suppress(OSError, ValueError):  # a worker already gone
            conn.send(("close", None))
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)
    for conn in conns:
        conn.close()


class WorkerPool:
    """``num_workers`` processes holding shards of ``num_envs`` slots; ``arrays`` are the
    shared arrays in ``layout`` order."""

    def __init__(self, game: Game, num_envs: int, num_workers: int, name: str,
                 observation: str = "default"):
        self.name = name
        ctx = mp.get_context("spawn")
        spec = layout(game, observation)
        raws = [ctx.RawArray(ctypes.c_byte, _nbytes(num_envs, shape, dtype))
                for _, shape, dtype in spec]
        self.arrays = [_view(raw, num_envs, shape, dtype)
                       for raw, (_, shape, dtype) in zip(raws, spec)]
        edges = np.linspace(0, num_envs, num_workers + 1).round().astype(int).tolist()
        self.shards = list(itertools.pairwise(edges))
        self.processes: list[Any] = []
        self.conns: list[Any] = []
        self._closer = weakref.finalize(self, _shutdown, self.processes, self.conns)
        for lo, hi in self.shards:
            parent, child = ctx.Pipe()
            process = ctx.Process(target=_serve,
                                  args=(child, game, num_envs, lo, hi, raws, observation),
                                  name=f"{name} slots {lo}..{hi - 1}", daemon=True)
            process.start()
            child.close()
            self.processes.append(process)
            self.conns.append(parent)
        self._gather(range(len(self.conns)), "start")

    def call_all(self, command: str, arg: Any = None) -> list[Any]:
        """Send ``command`` to every worker, then collect every answer (they work together)."""
        if not self._closer.alive:
            raise RuntimeError(f"{self.name}: closed")
        for conn in self.conns:
            conn.send((command, arg))
        return self._gather(range(len(self.conns)), command)

    def call(self, slot: int, command: str, arg: Any = None) -> Any:
        """Send ``command`` to the worker holding ``slot``."""
        if not self._closer.alive:
            raise RuntimeError(f"{self.name}: closed")
        w = next(w for w, (lo, hi) in enumerate(self.shards) if lo <= slot < hi)
        self.conns[w].send((command, arg))
        return self._gather([w], command)[0]

    def _gather(self, workers: Any, command: str) -> list[Any]:
        results, failures = [], []
        for w in workers:
            try:
                status, value = self.conns[w].recv()
            except (EOFError, OSError):
                code = self.processes[w].exitcode
                status, value = "error", f"the worker exited (exit code {code})"
            if status == "ok":
                results.append(value)
            else:
                lo, hi = self.shards[w]
                failures.append(f"worker of slots {lo}..{hi - 1}: {value}")
        if failures:
            raise RuntimeError(f"{self.name}: {command} failed in a worker process:\n"
                               + "\n".join(failures))
        return results

    def close(self) -> None:
        self._closer()
