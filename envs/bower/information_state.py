"""The information state of ``bower`` (``State.information_state``): perfect recall of the game.

The default observation shows the position (both nests, display, hands, kept tiles, the eggs a
seat knows); it forgets the order of the moves, what the display held, which bonus tiles a seat
drew and put back face down once the pile is reshuffled, and when a spy looked. The information
state is the default observation followed by one row per event of the game, in order, as
``envs.core.obs_spec.EventTable`` writes them: ``(kind, seat, a, b, c, d)``, seat relative to
the observer (1 = me, 2 = the opponent), -1 for a field the seat does not see. Every decision is
an event (its answer and the tile it moved), plus the bonus draws and reshuffles; the kinds are
listed in the README. The rows are bounded by ``max_decisions``: at most one row per decision
plus a draw and a reshuffle per turn and one SP2 look, ``ROWS`` = 350 (a random game has about
70).

What a row shows is what the seat saw: a bonus draw's tiles and a spied egg only to the seat
that drew or looked. Every nest tile reaches a hand from the public display (a draft pick, a take,
an IA2 gift) or as a kept nest bonus tile (public), and leaves it face up (played or discarded),
so with ``hands_public=False`` too a seat recalls the opponent's whole hand: the rows of a take
show its tile and the refill to both seats, and ``determinize`` keeps both hands. That option only
hides the opponent's hand tiles from the default observation (a seat without memory).

``determinize(p)`` leaves ``p``'s rows as they are and marks the opponent's own private fields
unknown (-1), except the draw it holds now, which gets the re-sampled tiles: a re-sampled world
never carries the true private record of a seat other than ``p``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.bower.actions import PH_KEEP
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.obs_spec import HIDDEN, EventKind, EventTable, ObsSpec

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerGame, BowerState

ROWS = 350
DECISION_KINDS = ("draft", "take", "play", "bonus", "keep", "spy", "token", "branch",
                  "cover_ask", "cover", "force", "double", "discard_ask", "discard")


def event_table(game: BowerGame) -> EventTable:
    kinds = [
        EventKind("draft", "an opening draft pick", ("slot", "tile")),
        EventKind("take", "a display tile taken (the slot is refilled from the stack)",
                  ("slot", "tile", "refill")),
        EventKind("play", "a hand tile placed in the own nest", ("hand_slot", "placement",
                                                                 "tile")),
        EventKind("bonus", "the bonus taken (1) or declined (0)", ("accepted",)),
        EventKind("draw", "bonus tiles drawn (how many, which)",
                  ("count", "bonus_1", "bonus_2", "bonus_3"),
                  ("bonus_1", "bonus_2", "bonus_3")),
        EventKind("reshuffle", "the bonus discard pile shuffled into the deck", ("tiles",)),
        EventKind("keep", "the bonus tile kept (the others go face down)", ("bonus",)),
        EventKind("spy", "SP1: a look at the opponent's egg of a column", ("column", "egg"),
                  ("egg",)),
        EventKind("spy_removed", "SP2: a look at the 2 removed eggs", ("egg_1", "egg_2"),
                  ("egg_1", "egg_2")),
        EventKind("token", "a token placed (nest 0 own, 1 the other's) or passed (-1)",
                  ("token", "nest", "cell")),
        EventKind("branch", "the branch placed or passed (-1)", ("cell", "orientation")),
        EventKind("cover_ask", "IA1 used (1) or not (0)", ("accepted",)),
        EventKind("cover", "IA1: the revealed stack tile placed over two own cells",
                  ("tile", "placement")),
        EventKind("force", "IA2: a display tile forced on the opponent (slot -1: passed)",
                  ("slot", "tile", "refill")),
        EventKind("double", "IA3 used (1) or not (0)", ("accepted",)),
        EventKind("discard_ask", "IA4 used (1) or not (0)", ("accepted",)),
        EventKind("discard", "a hand tile discarded face up (hand check, or IA4 for the "
                  "opponent)", ("hand_slot", "tile")),
    ]
    return EventTable("bower", kinds, width=4, rows=ROWS, num_players=2, field_high=80)


def info_spec(game: BowerGame) -> ObsSpec:
    return ObsSpec([*game.obs_spec.pieces, *game.event_table.pieces()])


def information_state(s: BowerState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    game = s.game
    if out is None:
        out = np.empty(game.information_state_spec.size, np.float32)
    n = game.obs_spec.size
    s.observe(player, out=out[:n])
    game.event_table.write(s.events, player, out[n:].reshape(ROWS, 6))
    return out


def log(s: BowerState, kind: str, seat: int, *fields: int) -> None:
    s.events.add(s.game.event_table.event(kind, seat, *fields))


# --- determinize -------------------------------------------------------------------------------
def redact(world: BowerState, player: int) -> None:
    """The opponent's private fields unknown (-1, done when first needed:
    ``EventLog.defer_redaction``); its pending draw, the last event, gets the world's tiles."""
    table = world.game.event_table
    log = world.events
    events = log.events
    pending = (world.phase == PH_KEEP and world.turn_player != player and world.drawn
               and events and events[-1][0] == table.index["draw"])
    if pending:
        kind, seat, count, *_ = events[-1]
        drawn = [*world.drawn, *(HIDDEN,) * (3 - len(world.drawn))]
        log.replace([*events[:-1], (kind, seat, count, *drawn)])
    log.defer_redaction(table, player, len(log.events) - 1 if pending else None)


# --- saving ------------------------------------------------------------------------------------
def to_list(s: BowerState) -> list[list[int]] | None:
    return s.game.event_table.to_list(s.events) if s.events.known else None


NOT_SAVED = object()  # ``from_list``'s argument for a save without the "history" key


def from_list(s: BowerState, data: Any, hand_built: bool) -> None:
    """The saved events (``NOT_SAVED``: a save without them, known only before the first
    decision; a hand-built position has none)."""
    if hand_built:
        s.events.known = False
        return
    if data is NOT_SAVED:
        s.events.known = s.decisions == 0
        return
    table = s.game.event_table
    s.events.replace(with_refills(s, table.from_list(data, "history", ROWS)))
    s.events.known = True


def with_refills(s: BowerState, events: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """``events`` with the refills that saves of ``hands_public=False`` games once left out
    (-1) filled in: a display slot changes only by a take or an IA2 gift from it, so a refill
    is the tile the next such move from its slot took, else the slot's tile now."""
    table = s.game.event_table
    moves = (table.index["take"], table.index["force"])
    later = list(s.display)  # per slot: the tile the next move from it took
    out = list(events)
    for i in range(len(out) - 1, -1, -1):
        kind, seat, slot, tile, refill, rest = out[i]
        if kind in moves and slot >= 0:
            if refill == HIDDEN:
                out[i] = (kind, seat, slot, tile, later[slot], rest)
            later[slot] = tile
    return out


def check(s: BowerState) -> None:
    """The recorded history fits the position: one decision row per decision so far."""
    if not s.events.known or s.hand_built:
        return
    table = s.game.event_table
    kinds = {table.index[k] for k in DECISION_KINDS}
    rows = sum(1 for e in s.events.events if e[0] in kinds)
    if rows != s.decisions:
        raise StateFormatError(f"bower: history records {rows} decisions, but {s.decisions} "
                               "were taken")
