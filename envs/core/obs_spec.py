"""Observation layout declared once per game as an ordered list of named pieces.

The same declaration drives the flat vector's size, the gymnasium space bounds, views into a
buffer for the encoder and for tests, and the documentation table, so the docs cannot drift from
what the encoder writes.

The second half declares the rows of a recorded history the same way (``EventTable``, and the
state's ``EventLog``): what a game's information state (``State.information_state``) holds
after its default observation; see "Recorded history" below.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import StateFormatError

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
        # 1 / the upper bound per entry (1 where the bound is 0): a network's input scaling that
        # puts every entry in [0, 1] (ethnos counts reach 3000); read-only, shared
        self.scale = np.where(self.high > 0, 1.0 / np.maximum(self.high, 1e-12),
                              1.0).astype(OBS_DTYPE)
        self.scale.flags.writeable = False
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

    def markdown_table(self, first: int = 0) -> str:
        """The documentation table of the pieces from the ``first``-th on (the total is the
        whole vector's size)."""
        rows = ["| piece | shape | offset | range | meaning |", "|---|---|---|---|---|"]
        for p in self.pieces[first:]:
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


# --- Recorded history -----------------------------------------------------------------------------
# A game's recorded history and its rows in the information state (``State.information_state``).
#
# A game that encodes its information state as a sequence of events declares them once as an
# ``EventTable``: the kinds of event, their integer fields, and who sees what. The state records
# every event of the current scope (the whole game, or the current deal or Age where earlier ones
# are public and settled) in an ``EventLog``, with *all* fields, and the table writes the rows one
# seat may see into that seat's information state:
#
# - each row is ``(kind, seat, field_1, ..., field_k)`` as float32 integers: ``kind`` is the
#   event's kind + 1 (0 marks an unused row after the last event), ``seat`` the event's seat
#   relative to the observer + 1 (1 = the observer, 2 = the next seat, ...; 0 = no seat), then the
#   kind's fields, ``-1`` where the field is unused, hidden from the observer, or unknown;
# - a *private* field is shown only to the event's own seat (``-1`` to every other seat), a
#   *secret* kind only to its own seat (the others get no row at all), everything else to all;
# - rows are written in the order the events happened, so the vector keeps perfect recall of
#   what the seat saw, up to the table's row bound (``rows``): where a game's bound can be reached
#   (``window=True``) the oldest rows give way and ``dropped`` counts them, documented by the game.
#
# The log is append-only within a scope, so each seat's rows are encoded incrementally (only the
# events since its last call, vectorised); ``clear`` starts a new scope. ``copy`` (a state's
# ``clone``) drops the caches: a copy re-encodes on first use. A log rebuilt from a save written
# before the history was recorded is ``known=False`` and the information state refuses it.

HIDDEN = -1  # a field the observer does not see, an unused field, or one not known


@dataclass(frozen=True)
class EventKind:
    """One kind of event: its name, its field names (after kind and seat) and visibility."""

    name: str
    doc: str
    fields: tuple[str, ...] = ()
    private: tuple[str, ...] = ()  # fields only the event's own seat sees
    secret: bool = False  # only the event's own seat sees the event at all


class EventTable:
    """The events of one game (``kinds``), ``width`` fields per row and at most ``rows`` rows."""

    def __init__(self, game_name: str, kinds: Sequence[EventKind], width: int, rows: int,
                 num_players: int, field_high: int, window: bool = False):
        self.game_name = game_name
        self.kinds = tuple(kinds)
        self.index = {k.name: i for i, k in enumerate(self.kinds)}
        if len(self.index) != len(self.kinds):
            raise ValueError(f"{game_name}: duplicate event kinds")
        for k in self.kinds:
            if len(k.fields) > width or not set(k.private) <= set(k.fields):
                raise ValueError(f"{game_name}: event kind {k.name} does not fit {width} fields")
        self.width = width
        self.rows = rows
        self.num_players = num_players
        self.field_high = field_high
        self.window = window
        self.public_kind = np.array([not k.secret for k in self.kinds], bool)
        self._public = [not k.secret for k in self.kinds]
        self.private_field = np.zeros((len(self.kinds), width), bool)
        for i, k in enumerate(self.kinds):
            for name in k.private:
                self.private_field[i, k.fields.index(name)] = True
        # per kind, the field positions another seat never sees (all of a secret kind's)
        self._hidden_fields = [tuple(range(width)) if k.secret
                               else tuple(k.fields.index(f) for f in k.private)
                               for k in self.kinds]

    # --- recording ---------------------------------------------------------------------------
    def event(self, kind: str, seat: int, *fields: int) -> tuple[int, ...]:
        """The event tuple ``(kind id, seat, fields..., -1 padding)`` to append to a log."""
        return (self.index[kind], seat, *fields, *(HIDDEN,) * (self.width - len(fields)))

    # --- the observation pieces --------------------------------------------------------------
    def pieces(self, name: str = "history") -> list[ObsPiece]:
        high = float(max(self.field_high, len(self.kinds), self.num_players))
        pieces = [ObsPiece(name, (self.rows, 2 + self.width),
                           f"the events this seat has seen, in order, one row each: (kind, "
                           f"relative seat, {self.width} fields), integer codes, -1 where "
                           f"hidden, unused or unknown; rows after the last event are 0 (the "
                           f"kinds and their fields are listed below the table)",
                           high=high, low=float(HIDDEN))]
        if self.window:
            pieces.append(ObsPiece(f"{name}_dropped", (1,),
                                   f"oldest events left out because more than {self.rows} rows "
                                   "were seen in this scope (0: the rows are complete)",
                                   high=1e6))
        return pieces

    def markdown(self) -> str:
        """The table of event kinds for the game's README."""
        rows = ["| kind | event | fields | seen by |", "|---|---|---|---|"]
        for i, k in enumerate(self.kinds):
            fields = ", ".join(f"`{f}`" + (" (own only)" if f in k.private else "")
                               for f in k.fields) or "-"
            who = "its seat only" if k.secret else "every seat"
            rows.append(f"| {i + 1} | `{k.name}`: {k.doc} | {fields} | {who} |")
        return "\n".join(rows)

    # --- encoding ----------------------------------------------------------------------------
    def write(self, log: EventLog, player: int, out: np.ndarray,
              dropped: np.ndarray | None = None) -> None:
        """Write ``player``'s rows of ``log`` into ``out`` (shape ``(rows, 2 + width)``, every
        entry overwritten) and, for a windowed table, the dropped count into ``dropped``."""
        if not log.known:
            raise StateFormatError(
                f"{self.game_name}: this position was loaded from a save without its history "
                "(written before information states were recorded), and the history of its "
                f"current {log.scope} cannot be rebuilt from the position: information_state "
                "is not available for it (observe() is); it is again from the next "
                f"{log.scope}, or in a game saved by this version")
        if log.redact_for >= 0:
            log.materialize(self)
        cache = log.caches[player]
        if cache is None:
            cache = log.caches[player] = _Cache(np.zeros((self.rows, 2 + self.width), OBS_DTYPE))
        if cache.done < len(log.events):
            self._append(log.events[cache.done:], player, cache)
            cache.done = len(log.events)
        out[...] = cache.matrix
        if dropped is not None:
            dropped[...] = cache.dropped

    def _append(self, events: list[tuple[int, ...]], p: int, cache: _Cache) -> None:
        if len(events) <= 64:  # the usual case (a decision or a round): plain Python
            n, hidden, public = self.num_players, self._hidden_fields, self._public
            rows = []
            for e in events:
                kind, seat = e[0], e[1]
                if seat == p:
                    rows.append((kind + 1, 1, *e[2:]))
                elif public[kind]:
                    rel = (seat - p) % n + 1 if seat >= 0 else 0
                    drop = hidden[kind]
                    if drop:
                        fields = list(e[2:])
                        for i in drop:
                            fields[i] = HIDDEN
                        rows.append((kind + 1, rel, *fields))
                    else:
                        rows.append((kind + 1, rel, *e[2:]))
            if not rows:
                return
            if cache.used + len(rows) <= self.rows:  # room: straight into the matrix
                matrix, used = cache.matrix, cache.used
                for row in rows:
                    matrix[used] = row
                    used += 1
                cache.used = used
            else:
                self._store(np.array(rows, OBS_DTYPE), cache)
            return
        arr = np.asarray(events, np.int64)
        kinds, seats = arr[:, 0], arr[:, 1]
        own = seats == p
        keep = self.public_kind[kinds] | own
        if not keep.all():
            arr, kinds, seats, own = arr[keep], kinds[keep], seats[keep], own[keep]
        m = len(arr)
        if not m:
            return
        rows = np.empty((m, 2 + self.width), np.int64)
        rows[:, 0] = kinds + 1
        rows[:, 1] = np.where(seats >= 0, (seats - p) % self.num_players + 1, 0)
        hide = self.private_field[kinds] & ~own[:, None]
        rows[:, 2:] = np.where(hide, HIDDEN, arr[:, 2:])
        self._store(rows, cache)

    def _store(self, rows: np.ndarray, cache: _Cache) -> None:
        """Append ``rows`` to ``cache``'s matrix (the oldest give way past ``self.rows`` for a
        windowed table)."""
        m = len(rows)
        matrix, used, limit = cache.matrix, cache.used, self.rows
        if used + m > limit:
            if not self.window:
                raise RuntimeError(f"{self.game_name}: more than {limit} history rows for one "
                                   "seat; the documented bound is wrong (please report)")
            over = used + m - limit
            cache.dropped += over
            if m >= limit:
                matrix[:] = rows[m - limit:]
                cache.used = limit
                return
            matrix[: used - over] = matrix[over:used]
            used -= over
        matrix[used:used + m] = rows
        cache.used = used + m

    def redact(self, events: list[tuple[int, ...]], player: int) -> list[tuple[int, ...]]:
        """``events`` with every field only another seat sees set to -1 (unknown): what a world
        re-sampled for ``player`` records of the other seats' private information."""
        hidden = self._hidden_fields
        out = []
        for e in events:
            drop = hidden[e[0]]
            if drop and e[1] != player and e[1] >= 0:
                fields = list(e[2:])
                for i in drop:
                    fields[i] = HIDDEN
                e = (e[0], e[1], *fields)
            out.append(e)
        return out

    # --- saving ------------------------------------------------------------------------------
    def to_list(self, log: EventLog) -> list[list[int]]:
        log.materialize(self)
        return [list(e) for e in log.events]

    def from_list(self, data: Any, what: str, most: int) -> list[tuple[int, ...]]:
        """Saved events, type- and range-checked before use (``StateFormatError`` otherwise)."""
        name = self.game_name
        if type(data) is not list:
            raise StateFormatError(f"{name} state: {what} must be a list, got "
                                   f"{type(data).__name__}")
        if len(data) > most:
            raise StateFormatError(f"{name} state: {what} has {len(data)} events, at most "
                                   f"{most} allowed")
        out = []
        n, k = self.num_players, len(self.kinds)
        for i, e in enumerate(data):
            ok = (type(e) is list and len(e) == 2 + self.width
                  and all(type(v) is int for v in e)
                  and 0 <= e[0] < k and -1 <= e[1] < n
                  and all(HIDDEN <= v <= self.field_high for v in e[2:]))
            if not ok:
                raise StateFormatError(
                    f"{name} state: {what}[{i}] must be a list of {2 + self.width} ints (an "
                    f"event kind 0..{k - 1}, a seat -1..{n - 1}, fields -1..{self.field_high})")
            out.append(tuple(e))
        return out


class _Cache:
    __slots__ = ("done", "dropped", "matrix", "used")

    def __init__(self, matrix: np.ndarray):
        self.matrix = matrix
        self.done = 0  # events of the log looked at
        self.used = 0  # rows written
        self.dropped = 0


class EventLog:
    """The events of the current scope (tuples from ``EventTable.event``), append-only.

    A re-sampled world (``determinize``) hides the other seats' private fields of its events
    so far (``defer_redaction``); that is done when the world first needs its rows (an
    information state or a save), so a search that only observes pays nothing for it.
    """

    __slots__ = ("caches", "events", "known", "redact_before", "redact_for", "scope")

    def __init__(self, num_players: int, scope: str = "game",
                 events: list[tuple[int, ...]] | None = None, known: bool = True):
        self.events: list[tuple[int, ...]] = [] if events is None else events
        self.caches: list[_Cache | None] = [None] * num_players
        self.known = known
        self.scope = scope
        self.redact_for = -1  # a pending redaction: the seat whose records stay
        self.redact_before = 0  # ... of the events before this index

    def add(self, event: tuple[int, ...]) -> None:
        self.events.append(event)

    def clear(self) -> None:
        """A new scope (a new deal or Age): no events, every cache dropped, known again."""
        self.events = []
        self.caches = [None] * len(self.caches)
        self.known = True
        self.redact_for = -1

    def replace(self, events: list[tuple[int, ...]]) -> None:
        """New contents (a re-sampled world): the caches are dropped."""
        self.events = events
        self.caches = [None] * len(self.caches)
        self.redact_for = -1

    def defer_redaction(self, table: EventTable, player: int, before: int | None = None) -> None:
        """In a world re-sampled for ``player``: the other seats' private fields of the events
        before ``before`` (default: all so far) become unknown, when first needed."""
        self.materialize(table)  # an earlier world's pending redaction first
        self.redact_for = player
        self.redact_before = len(self.events) if before is None else before
        self.caches = [None] * len(self.caches)

    def materialize(self, table: EventTable) -> None:
        """Carry out a pending redaction (``defer_redaction``)."""
        if self.redact_for >= 0:
            b = self.redact_before
            self.events = table.redact(self.events[:b], self.redact_for) + self.events[b:]
            self.redact_for = -1
            self.caches = [None] * len(self.caches)

    def copy(self) -> EventLog:
        new = EventLog(len(self.caches), self.scope, self.events[:], self.known)
        new.redact_for, new.redact_before = self.redact_for, self.redact_before
        return new

    def __len__(self) -> int:
        return len(self.events)
