"""Observation layout declared once per game as an ordered list of named pieces.

The same declaration drives the flat vector's size, the gymnasium space bounds, views into a
buffer for the encoder and for tests, and the documentation table, so the docs cannot drift from
what the encoder writes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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
        # name -> (slice, shape), computed once: heuristics read pieces on every decision
        self._layout = {p.name: (slice(self.offsets[p.name], self.offsets[p.name] + p.size),
                                 p.shape) for p in self.pieces}

    def slice(self, name: str) -> slice:
        return self._layout[name][0]

    def view(self, buffer: np.ndarray, name: str) -> np.ndarray:
        """A writable view of piece ``name`` inside the flat ``buffer``, in the piece's shape."""
        where, shape = self._layout[name]
        return buffer[where].reshape(shape)

    def split(self, buffer: np.ndarray) -> PieceViews:
        """Every piece of ``buffer`` by name (views, made on first access: a heuristic that
        reads three of twenty pieces per decision pays for three). An observation of another
        length (another env's, or another player count's) is refused here, naming both sizes,
        rather than read as pieces that do not fit."""
        if np.shape(buffer) != (self.size,):
            raise ValueError(f"an observation of shape {np.shape(buffer)}, but this layout's "
                             f"observations have size {self.size} (another env's, or another "
                             "player count's?)")
        return PieceViews(self, buffer)

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


class PieceViews(Mapping):
    """The pieces of one flat buffer by name, as writable views created when first read."""

    __slots__ = ("_buffer", "_spec", "_views")

    def __init__(self, spec: ObsSpec, buffer: np.ndarray):
        self._spec = spec
        self._buffer = buffer
        self._views: dict[str, np.ndarray] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        view = self._views.get(name)
        if view is None:
            if name not in self._spec._layout:
                raise KeyError(f"no observation piece {name!r}; pieces: "
                               f"{', '.join(self._spec._layout)}")
            view = self._views[name] = self._spec.view(self._buffer, name)
        return view

    def __iter__(self) -> Iterator[str]:
        return iter(self._spec._layout)

    def __len__(self) -> int:
        return len(self._spec._layout)
