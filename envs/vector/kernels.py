"""Numba helpers shared by the compiled engines: per-slot generators, exactly uniform draws and
shuffles, and the tables that write bit masks as floats or bools.

Every compiled engine gives slot ``i`` its own PCG32 generator (O'Neill's ``pcg32``: 64-bit
state, 32-bit output, an odd increment per stream), stored as row ``i`` of a ``[B, 2]`` uint64
array (state, increment) and seeded from ``slot_seed_words(seed, ...)``, so a slot's games do not
depend on ``num_envs``. Bounded integers use Lemire's multiply-and-reject method, exactly uniform
given uniform 32-bit words; ``shuffle`` is Fisher-Yates over those draws, so every order is
equally likely. The draw functions take and return the generator's state as a scalar, so a
kernel keeps it in a register through a loop and stores it back once.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

PCG_MULT = np.uint64(6364136223846793005)
M32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
U18, U27, U59, U31, U32, U1 = (np.uint64(18), np.uint64(27), np.uint64(59), np.uint64(31),
                               np.uint64(32), np.uint64(1))

# BYTE_FLOATS[b, k]: bit k of byte b as float32 (a bit mask written 8 values at a time)
BYTE_FLOATS = np.array([[(b >> k) & 1 for k in range(8)] for b in range(256)], np.float32)
BYTE_BOOLS = BYTE_FLOATS.astype(np.bool_)


def drop_stale_cache(package_file: str) -> None:
    """Drop the cached numba kernels of the compiled engine whose package ``__init__`` is
    ``package_file`` when any source they may be built from changed since they were cached: the
    package, its game's folder (components, layouts, tables) and these shared helpers. numba's
    cache (``cache=True``) checks only the file that defines a kernel, not the files of what it
    calls or reads, so each compiled engine's package calls this before its kernels load. A
    read-only install is left as it is (numba then compiles in memory)."""
    folder = Path(package_file).parent
    sources = [*folder.glob("*.py"), *folder.parent.glob("*.py"), *folder.parent.glob("*.json"),
               Path(__file__)]
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.read_bytes())
    cache = folder / "__pycache__"
    mark = cache / "kernels.digest"
    try:
        if mark.is_file() and mark.read_text() == digest.hexdigest():
            return
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        mark.write_text(digest.hexdigest())
    except OSError:
        pass


def slot_seed_words(seed: int, lo: int, hi: int) -> np.ndarray:
    """``[hi - lo, 2]`` uint64: the PCG32 seed (state, stream) of slots ``lo..hi-1``, from
    ``numpy.random.SeedSequence([seed, i])``."""
    return np.array([np.random.SeedSequence([seed, i]).generate_state(2, np.uint64)
                     for i in range(lo, hi)], np.uint64).reshape(hi - lo, 2)


@njit(cache=True)
def pcg32(state, inc):
    """One PCG32 step: (next state, 32-bit output of the old state), both uint64."""
    new = state * PCG_MULT + inc
    xorshifted = (((state >> U18) ^ state) >> U27) & M32
    rot = state >> U59
    out = ((xorshifted >> rot) | (xorshifted << ((U32 - rot) & U31))) & M32
    return new, out


@njit(cache=True)
def seed_rngs(rng, words):
    """Slot ``i``'s generator from two 64-bit seed words (pcg32's ``srandom``: state, stream)."""
    for i in range(rng.shape[0]):
        inc = (words[i, 1] << U1) | U1
        state, _ = pcg32(np.uint64(0), inc)
        state, _ = pcg32(state + words[i, 0], inc)
        rng[i, 0] = state
        rng[i, 1] = inc


@njit(cache=True)
def bounded(state, inc, n):
    """A uniform int in ``0..n-1`` (``1 <= n <= 2**32``): (next state, the int)."""
    un = np.uint64(n)
    state, x = pcg32(state, inc)
    m = x * un
    low = m & M32
    if low < un:
        floor = (TWO32 - un) % un
        while low < floor:
            state, x = pcg32(state, inc)
            m = x * un
            low = m & M32
    return state, np.int64(m >> U32)


@njit(cache=True)
def shuffle(state, inc, items, n):
    """Shuffle ``items[:n]`` in place (Fisher-Yates, from the last position down); returns the
    generator's next state."""
    for k in range(n - 1, 0, -1):
        state, j = bounded(state, inc, k + 1)
        c = items[k]
        items[k] = items[j]
        items[j] = c
    return state


@intrinsic
def _eight_entries(typingctx, mask, at):
    """The bool entries ``at..at+7`` of the C-contiguous ``mask`` (flat) as the bytes of one
    uint64 (each 0 or 1), one unaligned load, unchecked."""
    if not (isinstance(mask, types.Array) and mask.dtype == types.boolean):
        return None
    sig = types.uint64(mask, at)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        where = context.cast(builder, args[1], signature.args[1], types.int64)
        word = builder.bitcast(builder.gep(data, [where]), ir.IntType(64).as_pointer())
        return builder.load(word, align=1)

    return sig, codegen


@njit(cache=True, inline="always")
def _ones(word):
    """How many of ``word``'s eight bytes are 1 (each is 0 or 1)."""
    return (word * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def random_legal_actions(mask, uniforms):
    """One uniform legal action per row of ``mask`` ``[B, A]`` (every row has one): the
    ``floor(uniforms[i] * legal count)``-th legal id of row ``i``; int64 ``[B]``. Rows are
    read eight entries at a time (a word whose bytes are the entries), counted by one multiply."""
    mask = np.ascontiguousarray(mask)
    width = mask.shape[1]
    words = width // 8
    out = np.empty(mask.shape[0], np.int64)
    for i in range(mask.shape[0]):
        base = i * width
        count = np.uint64(0)
        for w in range(words):
            count += _ones(_eight_entries(mask, base + 8 * w))
        for a in range(8 * words, width):
            count += mask[i, a]
        k = min(int(uniforms[i] * count), int(count) - 1)
        start = 8 * words
        for w in range(words):
            inside = int(_ones(_eight_entries(mask, base + 8 * w)))
            if k < inside:
                start = 8 * w
                break
            k -= inside
        for a in range(start, width):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
    return out
