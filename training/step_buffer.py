"""A rollout's steps in shared memory: how ``--processes K`` workers hand their steps over.

A streamed rollout used to travel through the workers' pipes: every step's observations and
masks pickled by the worker, copied through the kernel and unpickled by the main process, which
on two cores took its CPU from the workers (bauer_trick, 32 games: the workers spent ~8% of a
rollout sending, and played ~7% slower beside the main process's unpickling). Now each worker
writes its steps' arrays into one shared-memory block (``multiprocessing.shared_memory``) that it
creates at its first rollout, and its pipe carries only which steps are ready and their ``info``
dicts (small, and not arrays of a fixed shape). The main process reads the arrays in place.

The worker owns the block: it creates it when a rollout needs more steps than it holds (at the
rollout's first step, when the main process has read everything before), and unlinks it then and
when it closes. The main process only attaches to it by name.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from multiprocessing import shared_memory
from typing import Any

import numpy as np

# the arrays of one step, in the order of ``MultiSeatVecEnv.learner_step``'s results (less its
# infos) followed by the masks of the next step
FIELDS = ("obs", "rewards", "dones", "masks", "actions", "values", "log_probs", "next_masks")


@dataclass(frozen=True)
class Layout:
    """Where each field lives in the block: ``(name, dtype string, shape of one step)``,
    packed one field after the other, each ``steps`` steps long."""

    steps: int
    fields: tuple[tuple[str, str, tuple[int, ...]], ...]

    def nbytes(self) -> int:
        return sum(self.steps * int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
                   for _, dtype, shape in self.fields)


class StepBuffer:
    """``layout.steps`` steps of one shard, each field an array ``(steps, *shape)``."""

    def __init__(self, block: shared_memory.SharedMemory, layout: Layout, owner: bool):
        self.block, self.layout, self.owner = block, layout, owner
        self.arrays: dict[str, np.ndarray] = {}
        offset = 0
        for name, dtype, shape in layout.fields:
            array = np.ndarray((layout.steps, *shape), np.dtype(dtype), buffer=block.buf,
                               offset=offset)
            self.arrays[name] = array
            offset += array.nbytes

    @classmethod
    def create(cls, steps: int, example: dict[str, np.ndarray]) -> StepBuffer:
        """A new block for ``steps`` steps shaped like ``example`` (one step's arrays)."""
        layout = Layout(steps, tuple((name, np.asarray(example[name]).dtype.str,
                                      np.shape(example[name])) for name in FIELDS))
        block = shared_memory.SharedMemory(create=True, size=max(1, layout.nbytes()))
        return cls(block, layout, owner=True)

    @classmethod
    def attach(cls, name: str, layout: Layout) -> StepBuffer:
        """The block another process created (by the name it sent)."""
        return cls(shared_memory.SharedMemory(name=name), layout, owner=False)

    @property
    def name(self) -> str:
        return self.block.name

    def fits(self, steps: int, example: dict[str, np.ndarray]) -> bool:
        """Holds ``steps`` steps of arrays shaped and typed like ``example``."""
        return steps <= self.layout.steps and all(
            self.arrays[name].dtype == np.asarray(example[name]).dtype
            and self.arrays[name].shape[1:] == np.shape(example[name]) for name in FIELDS)

    def write(self, index: int, step: dict[str, Any]) -> None:
        for name in FIELDS:
            self.arrays[name][index] = step[name]

    def read(self, index: int) -> dict[str, np.ndarray]:
        """Step ``index``'s arrays as views into the block: copy what you keep (the next
        rollout writes the block again)."""
        return {name: array[index] for name, array in self.arrays.items()}

    def close(self) -> None:
        """Let go of the block (and, in the process that created it, free it)."""
        self.arrays = {}  # the views must go before the block's memory can be closed
        with contextlib.suppress(OSError, BufferError):
            self.block.close()
        if self.owner:
            with contextlib.suppress(FileNotFoundError):
                self.block.unlink()
