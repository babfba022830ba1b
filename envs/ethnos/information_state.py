"""The information state of ``ethnos`` (``State.information_state``): perfect recall of the Age.

The default observation shows the position: the display, every band and track, the hand sizes,
the cards everybody knows a hand holds and the own hand. It forgets the order of the turns: who
recruited which display card or drew from the deck when, which cards went to the display when,
which cards the seat drew itself and when. The information state is the default observation
followed by one row per event of the current Age as the seat saw it, in order
(``envs.core.obs_spec.EventTable``): ``(kind, seat, a, b)``, seat relative to the observer
(1 = me, 2 = the next seat clockwise, ...), -1 for a field the seat does not see. The kinds are
listed in the README: the card each seat was dealt, every recruit from the display and every
deck draw (its card only to the drawer; a Dragon to all), a PASS, the bands as they are revealed
(leader and size, then the other cards by type) and my own band as I build it, the Wingfolk and
Merfolk kingdoms, the Troll tokens, the Centaur follow-ups, the Elf keeps (the card only to the
keeper), the cards discarded to the display, the Wizard draws and the Orc hordes.

Earlier Ages are left out on purpose: an Age starts with every card reshuffled and nothing
hidden carries over; what does (glory, markers, Merfolk track, Orc hordes, first player) is in
the default observation. The rows of one Age are bounded by ``ROWS`` = 640 per seat (the
longest Age of 1,500 random games showed a seat 457 rows; the spec's bound of 10,000 decisions
would allow far more): past it the oldest rows give way and ``history_dropped`` counts them, so
the information state is perfect recall of the last 640 events of the Age the seat saw, plus
the public position.

``determinize(p)`` leaves ``p``'s rows as they are and marks the other seats' private fields
unknown (-1); a band another seat is building, which ``determinize`` replaces by a one-card band
of a random leader, is recorded for that seat as that leader only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.obs_spec import HIDDEN, EventKind, EventTable, ObsSpec
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import NUM_TYPES, SKELETON

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosGame, EthnosState

ROWS = 640
KINDS = (
    EventKind("dealt", "the card dealt at the start of the Age", ("card",), ("card",)),
    EventKind("recruit", "a display card recruited", ("card",)),
    EventKind("draw", "a deck card drawn (a recruit, or a Wizard draw)", ("card",), ("card",)),
    EventKind("dragon", "a Dragon drawn (the third ends the Age)"),
    EventKind("pass", "PASS: ten Skeletons in hand"),
    EventKind("leader", "my band's leader, as I chose it", ("card",), secret=True),
    EventKind("add", "a card added to my band", ("card",), secret=True),
    EventKind("band", "a band played: its leader and size X", ("leader", "size")),
    EventKind("band_card", "the band's other cards, by type", ("card", "count")),
    EventKind("kingdom", "a Wingfolk or Merfolk marker placed", ("kingdom",)),
    EventKind("troll", "a Troll token taken", ("value",)),
    EventKind("centaur", "a Centaur follow-up band (1) or not (0)", ("follow",)),
    EventKind("elf_keep", "a card kept with an Elf", ("card",), ("card",)),
    EventKind("discard", "cards discarded to the display, by type", ("card", "count")),
    EventKind("wizard", "the Wizard draw taken (1) or not (0)", ("draw",)),
    EventKind("orc", "a horde emptied (1) or kept (0)", ("empty",)),
)
KIND = {k.name: i for i, k in enumerate(KINDS)}


def event_table(game: EthnosGame) -> EventTable:
    return EventTable("ethnos", KINDS, width=2, rows=ROWS, num_players=game.num_players,
                      field_high=NUM_TYPES, window=True)


def info_spec(game: EthnosGame) -> ObsSpec:
    return ObsSpec([*game.obs_spec.pieces, *game.event_table.pieces()])


def information_state(s: EthnosState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    game = s.game
    if out is None:
        out = np.empty(game.information_state_spec.size, np.float32)
    n = game.obs_spec.size
    s.observe(player, out=out[:n])
    end = n + ROWS * 4
    game.event_table.write(s.events, player, out[n:end].reshape(ROWS, 4), out[end:])
    return out


def log(s: EthnosState, kind: str, seat: int, *fields: int) -> None:
    fields = (*fields, *(HIDDEN,) * (2 - len(fields)))
    s.events.add((KIND[kind], seat, *fields))


def log_cards(s: EthnosState, kind: str, seat: int, counts: np.ndarray) -> None:
    """One row per card type of ``counts`` (a band's other cards, a discard)."""
    for t in np.flatnonzero(counts).tolist():
        s.events.add((KIND[kind], seat, t, int(counts[t])))


def dealt(s: EthnosState) -> None:
    """A new Age: its rows start afresh with the card dealt to each seat."""
    s.events.clear()
    for p in range(s.n):
        log(s, "dealt", p, int(np.flatnonzero(s.hands[p])[0]))


# --- determinize -------------------------------------------------------------------------------
def redact(world: EthnosState, player: int) -> None:
    """The other seats' private fields unknown (done when first needed:
    ``EventLog.defer_redaction``); a band another seat builds recorded as the leader
    ``determinize`` gave it."""
    log = world.events
    other = world.actor
    if not world.terminal and other != player and world.phase == act.BUILD:
        events = log.events[:]
        secret = (KIND["leader"], KIND["add"])
        while events and events[-1][1] == other and events[-1][0] in secret:
            events.pop()
        log.replace(events)
        log.defer_redaction(world.game.event_table, player)
        log.add((KIND["leader"], other, world.building_leader, HIDDEN))
        return
    log.defer_redaction(world.game.event_table, player)


# --- saving ------------------------------------------------------------------------------------
NOT_SAVED = object()  # ``from_list``'s argument for a save without the "history" key
MOST = 100_000  # events a saved Age may hold (a size cap for the loader)


def to_list(s: EthnosState) -> list[list[int]] | None:
    return s.game.event_table.to_list(s.events) if s.events.known else None


def from_list(s: EthnosState, data: Any) -> None:
    """The saved events of the Age (``NOT_SAVED``: a save without them, rebuilt at the game's
    first decision, where the Age holds only the dealt cards; unknown otherwise)."""
    if data is NOT_SAVED:
        fresh = (s.decisions == 0 and s.age == 0 and not any(s.bands)
                 and all(n == 1 for n in s.hand_len) and not s.terminal)
        if fresh:
            dealt(s)
        else:
            s.events.clear()
            s.events.known = False
        return
    s.events.replace(s.game.event_table.from_list(data, "history", MOST))
    s.events.known = True


def check(s: EthnosState) -> None:
    """The recorded Age fits the position: one band row per band of the Age, one Dragon row
    per Dragon drawn, the dealt cards first. (A position edited by hand loads without its
    "history" key: its information state is then refused, the rest works.)"""
    if not s.events.known:
        return
    events = s.events.events
    for q in range(s.n):
        bands = sum(1 for e in events if e[0] == KIND["band"] and e[1] == q)
        if bands != len(s.bands[q]):
            raise StateFormatError(f"ethnos state: history records {bands} bands of seat {q}, "
                                   f"but it played {len(s.bands[q])} this Age")
        first = [e for e in events[:s.n] if e[0] == KIND["dealt"] and e[1] == q]
        if len(first) != 1 or not HIDDEN <= first[0][2] <= SKELETON:
            raise StateFormatError("ethnos state: history must start with the card dealt to "
                                   "each seat")
    dragons = sum(1 for e in events if e[0] == KIND["dragon"])
    if dragons != s.dragons:
        raise StateFormatError(f"ethnos state: history records {dragons} Dragons, but "
                               f"{s.dragons} were drawn this Age")
