"""Observation layout declared once per game as an ordered list of named pieces.

The same declaration drives the flat vector's size, the gymnasium space bounds, views into a
buffer for the encoder and for tests, and the documentation table, so the docs cannot drift from
what the encoder writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np

OBS_DTYPE = np.float32


@dataclass(frozen=True)
class ObsPiece:
    """A named block of the observation; ``high`` is the largest value any entry can take."""

    name: str
    shape: tuple[int, ...]
    doc: str
    high: float = 1.0
    low: float = 0.0

    @property
    def size(self) -> int:
        return prod(self.shape)


class ObsSpec:
    """Ordered pieces -> offsets into one flat float32 vector."""

    def __init__(self, pieces: Sequence[ObsPiece]):
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate observation piece names in {names}")
        self.pieces: tuple[ObsPiece, ...] = tuple(pieces)
        self.offsets: dict[str, int] = {}
        start = 0
        for piece in self.pieces:
            self.offsets[piece.name] = start
            start += piece.size
        self.size: int = start
        self.low = np.concatenate([np.full(p.size, p.low, OBS_DTYPE) for p in self.pieces])
        self.high = np.concatenate([np.full(p.size, p.high, OBS_DTYPE) for p in self.pieces])
        self._by_name = {p.name: p for p in self.pieces}

    def slice(self, name: str) -> slice:
        start = self.offsets[name]
        return slice(start, start + self._by_name[name].size)

    def view(self, buffer: np.ndarray, name: str) -> np.ndarray:
        """A writable view of piece ``name`` inside the flat ``buffer``, in the piece's shape."""
        return buffer[self.slice(name)].reshape(self._by_name[name].shape)

    def split(self, buffer: np.ndarray) -> dict[str, np.ndarray]:
        """Every piece of ``buffer`` by name (views), for tests, notebooks and debugging."""
        return {p.name: self.view(buffer, p.name) for p in self.pieces}

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, OBS_DTYPE)

    def markdown_table(self) -> str:
        rows = ["| piece | shape | offset | range | meaning |", "|---|---|---|---|---|"]
        for p in self.pieces:
            shape = "×".join(str(s) for s in p.shape)
            rng = f"{p.low:g}..{p.high:g}"
            rows.append(f"| `{p.name}` | {shape} | {self.offsets[p.name]} | {rng} | {p.doc} |")
        rows.append(f"| total | {self.size} | | | |")
        return "\n".join(rows)
