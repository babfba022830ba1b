"""Sixteen-entry block copies for the observation writer: ``_copy16(o, dst, s, src)`` turns the
int16 ``s[src:src + 16]`` into ``o[dst:dst + 16]`` (float32 or float64) as one vector load,
widening and store, with no loop around it. A seat piece of the observation is one or two short
runs; copied as whole blocks (``_run16``: the last block runs past the run's end into entries
written afterwards) each costs a block or a few instead of a vectorized loop's set-up and tail.
``_run16_exact`` ends with a block flush with the run's end (for a run at least 16 long that
nothing overwrites afterwards). The callers keep every block inside its row (the position rows
have 16 spare columns at the end)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

BLOCK = 16


@intrinsic
def _copy16(typingctx, o, dst, s, src):
    """``o[dst + k] = s[src + k]`` for ``k < 16`` (``s`` int16, ``o`` float), unchecked."""
    if not (isinstance(o, types.Array) and isinstance(s, types.Array)
            and s.dtype == types.int16 and o.dtype in (types.float32, types.float64)):
        return None
    sig = types.void(o, dst, s, src)

    def codegen(context, builder, signature, args):
        out = context.make_array(signature.args[0])(context, builder, args[0])
        row = context.make_array(signature.args[2])(context, builder, args[2])
        d = context.cast(builder, args[1], signature.args[1], types.int64)
        r = context.cast(builder, args[3], signature.args[3], types.int64)
        wide = ir.VectorType(context.get_value_type(signature.args[0].dtype), BLOCK)
        narrow = ir.VectorType(ir.IntType(16), BLOCK)
        v = builder.load(builder.bitcast(builder.gep(row.data, [r]), narrow.as_pointer()),
                         align=2)
        builder.store(builder.sitofp(v, wide),
                      builder.bitcast(builder.gep(out.data, [d]), wide.as_pointer()), align=4)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def _run16(o, dst, s, src, count):
    """``o[dst:dst + count] = s[src:src + count]`` in whole blocks: up to 15 entries past the
    end are written too (the caller writes them afterwards)."""
    c = np.uint64(0)
    while c < count:
        _copy16(o, dst + c, s, src + c)
        c += np.uint64(BLOCK)


@njit(cache=True, inline="always")
def _run16_exact(o, dst, s, src, count):
    """``o[dst:dst + count] = s[src:src + count]`` for ``count >= 16``, nothing past the end:
    the last block ends flush with the run (overlapping the one before)."""
    c = np.uint64(0)
    while c + np.uint64(BLOCK) <= count:
        _copy16(o, dst + c, s, src + c)
        c += np.uint64(BLOCK)
    if c < count:
        last = count - np.uint64(BLOCK)
        _copy16(o, dst + last, s, src + last)
