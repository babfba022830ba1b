"""A rollout's steps in shared memory: how ``--processes K`` workers hand their steps over.

A streamed rollout used to travel through the workers' pipes: every step's observations and
masks pickled by the worker, copied through the kernel and unpickled by the main process, which
on two cores took its CPU from the workers (bauer_trick, 32 games: the workers spent ~8% of a
rollout sending, and played ~7% slower beside the main process's unpickling). Now each worker
writes its steps' arrays into one shared-memory block (``multiprocessing.shared_memory``) that it
creates at its first rollout, and its pipe carries only which steps are ready and their ``info``
dicts (small, and not arrays of a fixed shape). The main process reads the arrays in place.

The worker owns the block: it creates it when a rollout needs more steps than it holds, or steps
of another shape (at the rollout's first step, when the main process has read everything
before), and unlinks it then and when it closes. The main process attaches to it by name, and
unlinks it only for a worker that died without closing.

A block holds a whole rollout of a shard (ethnos, 4 players, 64 games a shard, 128 steps: about
65 MB), in ``/dev/shm`` on Linux, which containers often keep small (Docker: 64 MB unless
``--shm-size``): a block that does not fit is refused with the sizes, before any step is
written, rather than failing later with a bus error.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass
from multiprocessing import shared_memory
from typing import Any

import numpy as np

# the arrays of one step, in the order of ``MultiSeatVecEnv.learner_step``'s results (less its
# infos) followed by the masks of the next step
FIELDS = ("obs", "rewards", "dones", "masks", "actions", "values", "log_probs", "next_masks")


SHM_DIR = "/dev/shm"  # where Linux keeps POSIX shared memory
ALIGN = 64  # each field starts on a cache line (bool fields would leave the next unaligned)


@dataclass(frozen=True)
class Layout:
    """Where each field lives in the block: ``(name, dtype string, shape of one step)``,
    one field after the other, each ``steps`` steps long and starting at a multiple of
    ``ALIGN`` bytes."""

    steps: int
    fields: tuple[tuple[str, str, tuple[int, ...]], ...]

    def offsets(self) -> list[int]:
        """Where each field starts, and (last) where the block ends."""
        out = [0]
        for _, dtype, shape in self.fields:
            size = self.steps * int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            out.append(out[-1] + -(-size // ALIGN) * ALIGN)
        return out

    def nbytes(self) -> int:
        return self.offsets()[-1]


class StepBuffer:
    """``layout.steps`` steps of one shard, each field an array ``(steps, *shape)``."""

    def __init__(self, block: shared_memory.SharedMemory, layout: Layout, owner: bool):
        self.block, self.layout, self.owner = block, layout, owner
        self.arrays: dict[str, np.ndarray] = {}
        for (name, dtype, shape), offset in zip(layout.fields, layout.offsets()):
            self.arrays[name] = np.ndarray((layout.steps, *shape), np.dtype(dtype),
                                           buffer=block.buf, offset=offset)

    @classmethod
    def create(cls, steps: int, example: dict[str, np.ndarray]) -> StepBuffer:
        """A new block for ``steps`` steps shaped like ``example`` (one step's arrays)."""
        layout = Layout(steps, tuple((name, np.asarray(example[name]).dtype.str,
                                      np.shape(example[name])) for name in FIELDS))
        check_room(layout.nbytes())
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

    def close(self, unlink: bool | None = None) -> None:
        """Let go of the block, and free it (``unlink``; by default in the process that created
        it: the main process frees the block of a worker that died)."""
        self.arrays = {}  # the views must go before the block's memory can be closed
        with contextlib.suppress(OSError, BufferError):
            self.block.close()
        if self.owner if unlink is None else unlink:
            with contextlib.suppress(FileNotFoundError):
                self.block.unlink()


def check_room(nbytes: int, where: str = SHM_DIR) -> None:
    """Refuse a block that ``where`` (``/dev/shm``) has no room for: the kernel would create it
    and then stop the worker with a bus error at the first page it cannot back."""
    if not os.path.isdir(where):  # no /dev/shm (not Linux): nothing to check here
        return
    free = shutil.disk_usage(where).free
    if nbytes > free:
        raise MemoryError(
            f"a rollout of this shard needs {nbytes / 2**20:.0f} MiB of shared memory "
            f"but {where} has {free / 2**20:.0f} MiB free (in a container: a larger "
            "--shm-size; or fewer --n-envs or --n-steps, or --processes 1)")
