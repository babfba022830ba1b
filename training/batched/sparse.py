"""Sparse observations through a network's first layer: numba kernels for numpy and for torch.

A ``bauer_trick`` observation is one-hot pieces: about 33 of its 374 values are non-zero (at most
~60). A network's first layer (``x @ W0 + b0``, 70% of a 128-128 MLP's arithmetic) then needs only
the rows of ``W0`` of the non-zero inputs, and its weight gradient only those rows too. Here:

- ``Sparse``: a batch of observations as per-row lists of non-zero inputs (``index``, ``value``,
  ``count``), built once per observation (``sparse_rows``) and used by every network that reads
  it: the collector's numpy passes and every epoch of the PPO update;
- ``logits(mlp, rows)``: ``NumpyMLP.logits`` with the first layer from the lists (the same
  numbers up to float rounding: the sums run in another order);
- ``SparseLinear``: a torch autograd function, the first layer of a torch network over the same
  lists (forward, and the weight and bias gradients; the inputs take none).

``worth_it`` decides per batch: dense inputs (a density over ``MAX_DENSITY``) go the dense way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

MAX_DENSITY = 0.25


@dataclass
class Sparse:
    """``n`` observations of width ``width``: row ``i``'s non-zero inputs are
    ``index[i, :count[i]]`` (int32) with values ``value[i, :count[i]]`` (float32)."""

    index: np.ndarray
    value: np.ndarray
    count: np.ndarray
    width: int

    def __len__(self) -> int:
        return len(self.count)

    def take(self, rows: np.ndarray) -> Sparse:
        return Sparse(self.index[rows], self.value[rows], self.count[rows], self.width)

    def slice(self, rows: slice) -> Sparse:
        return Sparse(self.index[rows], self.value[rows], self.count[rows], self.width)

    def scaled(self, scale: np.ndarray | None) -> Sparse:
        """The inputs times ``scale`` (per input), as a network with that input scale reads
        them."""
        if scale is None:
            return self
        return Sparse(self.index, self.value * scale[self.index], self.count, self.width)

    def dense(self) -> np.ndarray:
        out = np.zeros((len(self), self.width), np.float32)
        _scatter(self.index, self.value, self.count, out)
        return out


def sparse_rows(x: np.ndarray) -> Sparse:
    """The non-zero inputs of every row of ``x`` (float32 ``[n, width]``)."""
    x = np.ascontiguousarray(x, np.float32)
    count = np.count_nonzero(x, axis=1).astype(np.int32)
    k = max(1, int(count.max(initial=0)))
    index = np.zeros((len(x), k + 1), np.int32)  # one spare column: the writes are branch-free
    value = np.zeros((len(x), k + 1), np.float32)
    _gather(x, index, value)
    return Sparse(index[:, :k], value[:, :k], count, x.shape[1])


def worth_it(rows: Sparse) -> bool:
    """Whether the lists beat a dense product (the observations are sparse enough)."""
    return rows.index.shape[1] <= MAX_DENSITY * rows.width


def concat(parts: list[Sparse]) -> Sparse:
    """Rows of several batches, one after the other (padded to the widest list)."""
    k = max(p.index.shape[1] for p in parts)
    n = sum(len(p) for p in parts)
    index = np.zeros((n, k), np.int32)
    value = np.zeros((n, k), np.float32)
    at = 0
    for p in parts:
        index[at:at + len(p), :p.index.shape[1]] = p.index
        value[at:at + len(p), :p.value.shape[1]] = p.value
        at += len(p)
    return Sparse(index, value, np.concatenate([p.count for p in parts]), parts[0].width)


def first_layer(rows: Sparse, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """``dense(rows) @ weight + bias`` from the lists; ``weight`` is ``(width, out)``."""
    out = np.empty((len(rows), weight.shape[1]), np.float32)
    _forward(rows.index, rows.value, rows.count, np.ascontiguousarray(weight, np.float32),
             np.ascontiguousarray(bias, np.float32), out)
    return out


def logits(mlp: Any, rows: Sparse) -> np.ndarray:
    """``mlp.logits(dense(rows))`` of a ``NumpyMLP`` with the first layer from the lists."""
    return after_first(mlp, first_layer(rows.scaled(mlp.obs_scale), mlp.weights[0],
                                        mlp.biases[0]))


def pair_logits(first: Any, second: Any, rows: Sparse) -> tuple[np.ndarray, np.ndarray]:
    """``logits(first, rows), logits(second, rows)`` for two networks without input scales
    (the learner's actor and critic), both first layers in one pass over the lists."""
    width = first.weights[0].shape[1]
    both = first_layer(rows, np.hstack([first.weights[0], second.weights[0]]),
                       np.concatenate([first.biases[0], second.biases[0]]))
    return after_first(first, both[:, :width]), after_first(second, both[:, width:])


def after_first(mlp: Any, x: np.ndarray) -> np.ndarray:
    """The rest of ``mlp`` (a ``NumpyMLP``) from its first layer's output ``x`` (overwritten)."""
    last = len(mlp.weights) - 1
    for i in range(1, last + 1):
        if mlp.activation == "relu":
            np.maximum(x, 0.0, out=x)
        else:
            np.tanh(x, out=x)
        x = x @ mlp.weights[i]
        x += mlp.biases[i]
    return x


@njit(cache=True)
def _gather(x, index, value):
    last = index.shape[1] - 1
    for i in range(x.shape[0]):
        k = 0
        for j in range(x.shape[1]):  # branch-free: a zero is written, then overwritten
            v = x[i, j]
            index[i, k] = j
            value[i, k] = v
            k = min(k + (v != 0.0), last)
        index[i, last] = 0
        value[i, last] = 0.0


@njit(cache=True)
def _scatter(index, value, count, out):
    for i in range(count.shape[0]):
        for k in range(count[i]):
            out[i, index[i, k]] = value[i, k]


@njit(cache=True)
def _forward(index, value, count, weight, bias, out):
    h = weight.shape[1]
    for i in range(count.shape[0]):
        row = out[i]
        for c in range(h):
            row[c] = bias[c]
        for k in range(count[i]):
            w = weight[index[i, k]]
            v = value[i, k]
            for c in range(h):
                row[c] += v * w[c]


@njit(cache=True)
def _weight_grad(index, value, count, grad_out, grad_w):
    h = grad_out.shape[1]
    for i in range(count.shape[0]):
        g = grad_out[i]
        for k in range(count[i]):
            w = grad_w[index[i, k]]
            v = value[i, k]
            for c in range(h):
                w[c] += v * g[c]


def sparse_linear(rows: Sparse, weight: Any, bias: Any) -> Any:
    """``dense(rows) @ weight.T + bias`` (a ``torch.nn.Linear``'s ``weight`` ``(out, width)``
    and ``bias``) on the lists, with gradients for the weight and the bias."""
    return _function()(weight, bias, rows)


_FUNCTION = None


def _function() -> Any:
    """``SparseLinear`` (built on first use: torch is imported only then)."""
    global _FUNCTION
    if _FUNCTION is None:
        import torch

        class SparseLinear(torch.autograd.Function):
            """``x @ weight.T + bias`` for ``x`` given as ``Sparse`` rows (no input gradient)."""

            @staticmethod
            def forward(ctx, weight, bias, rows):
                w = weight.detach().numpy().T  # (width, out), a view (copied contiguous)
                ctx.rows = rows
                return torch.from_numpy(first_layer(rows, w, bias.detach().numpy()))

            @staticmethod
            def backward(ctx, grad_out):
                rows = ctx.rows
                g = np.ascontiguousarray(grad_out.numpy(), np.float32)
                grad_w = np.zeros((rows.width, g.shape[1]), np.float32)
                _weight_grad(rows.index, rows.value, rows.count, g, grad_w)
                return torch.from_numpy(grad_w.T.copy()), torch.from_numpy(g.sum(0)), None

        _FUNCTION = SparseLinear
    return _FUNCTION.apply
