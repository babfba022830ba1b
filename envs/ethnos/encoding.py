"""Ethnos action table (spec §10) and observation layout.

Actions (289 ids, ``t`` = card type 0-66, ``k`` = kingdom 0-5):

| ids | action |
|---|---|
| 0-66 | `RECRUIT_DISPLAY[t]` take a face-up card of type t |
| 67 | `RECRUIT_DECK` draw the top card of the deck |
| 68-134 | `LEADER[t]` start a band led by a card of type t (134, Skeleton, never legal) |
| 135-201 | `ADD_CARD[t]` add a card of type t to the band being built |
| 202 | `FINISH_BAND` play the band built so far |
| 203-208 | `KINGDOM[k]` Wingfolk kingdom choice / Merfolk free marker |
| 209-214 | `TROLL[v]` take Troll token v = id - 208 |
| 215 | `CENTAUR_STOP` decline the Centaur follow-up band |
| 216-282 | `ELF_KEEP[t]` keep one card of type t (Elf-led last band) |
| 283 | `ELF_DONE` discard the rest |
| 284 / 285 | `WIZARD_DRAW` / `WIZARD_SKIP` |
| 286 / 287 | `ORC_EMPTY` / `ORC_KEEP` |
| 288 | `PASS` (only when nothing else is legal: ten Skeletons in hand) |

The observation is a flat float32 vector in three parts: public pieces that do not depend on a
seat, seat pieces of shape ``(num_players, ...)`` in seat-relative order (the observer first, then
the others clockwise), and the observer's private pieces. Counts are raw (not normalised).
"""

from __future__ import annotations

from envs.core.obs_spec import ObsPiece, ObsSpec
from envs.ethnos.components import NUM_KINGDOMS, NUM_TRIBES, NUM_TYPES, TYPE_NAMES

RECRUIT_DISPLAY = 0
RECRUIT_DECK = 67
LEADER = 68
ADD_CARD = 135
FINISH_BAND = 202
KINGDOM = 203
TROLL = 209
CENTAUR_STOP = 215
ELF_KEEP = 216
ELF_DONE = 283
WIZARD_DRAW = 284
WIZARD_SKIP = 285
ORC_EMPTY = 286
ORC_KEEP = 287
PASS = 288
NUM_ACTIONS = 289

# Pending decision kinds (the ``phase`` observation piece is one-hot over these).
PHASES: tuple[str, ...] = (
    "turn", "build", "wingfolk", "merfolk", "troll", "centaur", "elf", "wizard", "orc",
)  # fmt: skip
(TURN, BUILD, WINGFOLK_PICK, MERFOLK_PICK, TROLL_PICK, CENTAUR_PICK, ELF_PICK, WIZARD_PICK,
 ORC_PICK) = range(len(PHASES))  # fmt: skip
OVER = len(PHASES)  # no decision: the game is over

_KINGDOM_NAMES = ("Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton")


def action_name(a: int) -> str:
    """Readable name of action id ``a`` (e.g. ``LEADER[blue Elf]``)."""
    if RECRUIT_DISPLAY <= a < RECRUIT_DECK:
        return f"RECRUIT_DISPLAY[{TYPE_NAMES[a - RECRUIT_DISPLAY]}]"
    if a == RECRUIT_DECK:
        return "RECRUIT_DECK"
    if LEADER <= a < ADD_CARD:
        return f"LEADER[{TYPE_NAMES[a - LEADER]}]"
    if ADD_CARD <= a < FINISH_BAND:
        return f"ADD_CARD[{TYPE_NAMES[a - ADD_CARD]}]"
    if a == FINISH_BAND:
        return "FINISH_BAND"
    if KINGDOM <= a < TROLL:
        return f"KINGDOM[{_KINGDOM_NAMES[a - KINGDOM]}]"
    if TROLL <= a < CENTAUR_STOP:
        return f"TROLL[{a - TROLL + 1}]"
    if a == CENTAUR_STOP:
        return "CENTAUR_STOP"
    if ELF_KEEP <= a < ELF_DONE:
        return f"ELF_KEEP[{TYPE_NAMES[a - ELF_KEEP]}]"
    names = {ELF_DONE: "ELF_DONE", WIZARD_DRAW: "WIZARD_DRAW", WIZARD_SKIP: "WIZARD_SKIP",
             ORC_EMPTY: "ORC_EMPTY", ORC_KEEP: "ORC_KEEP", PASS: "PASS"}
    if a in names:
        return names[a]
    raise ValueError(f"ethnos: action id {a!r} out of range 0..{NUM_ACTIONS - 1}")


def action_table_markdown() -> str:
    rows = ["| ids | action | legal when |", "|---|---|---|"]
    for ids, name, when in (
        ("0-66", "RECRUIT_DISPLAY[t]", "turn start, hand < 10, display holds type t"),
        ("67", "RECRUIT_DECK", "turn start, hand < 10"),
        ("68-134", "LEADER[t]", "turn start or Centaur follow-up; t in hand; never the Skeleton"),
        ("135-201", "ADD_CARD[t]", "band building; a copy of t in hand keeps the band legal"),
        ("202", "FINISH_BAND", "band building"),
        ("203-208", "KINGDOM[k]", "Wingfolk choice (test passes in k) or Merfolk free marker"),
        ("209-214", "TROLL[v]", "Troll leader; token v unclaimed and v <= X"),
        ("215", "CENTAUR_STOP", "Centaur follow-up"),
        ("216-282", "ELF_KEEP[t]", "Elf discard; an unkept copy of t in hand and kept < X"),
        ("283", "ELF_DONE", "Elf discard"),
        ("284 / 285", "WIZARD_DRAW / WIZARD_SKIP", "after the discard of a Wizard-led last band"),
        ("286 / 287", "ORC_EMPTY / ORC_KEEP", "end of Age, own horde holds >= 1 marker"),
        ("288", "PASS", "turn start when nothing else is legal"),
        ("289", "NOOP (parallel env only)", "added by the core for waiting agents"),
    ):
        rows.append(f"| {ids} | `{name}` | {when} |")
    return "\n".join(rows)


# Public pieces (no seat): name, shape, doc, high.
GLOBAL_PIECES: tuple[tuple[str, tuple[int, ...], str, float], ...] = (
    ("display", (NUM_TYPES,), "face-up display cards by type", 12.0),
    ("glory_tokens", (NUM_KINGDOMS, 3), "glory token value per kingdom and slot I, II, III "
     "(0 where a slot is unused)", 10.0),
    ("tribes_in_play", (NUM_TRIBES,), "1 for each tribe in this game", 1.0),
    ("age", (3,), "current Age one-hot (I, II, III)", 1.0),
    ("dragons_revealed", (1,), "Dragons drawn this Age (0-3)", 3.0),
    ("deck_size", (1,), "cards left in the deck, Dragons included", 90.0),
    ("deck_safe_top", (1,), "top deck cards known to hold no Dragon", 90.0),
    ("troll_supply", (6,), "1 if Troll token of value v = index + 1 is unclaimed (Trolls in play)",
     1.0),
    ("giant_band_size", (1,), "size X of the band holding the Giant token (0: unclaimed)", 10.0),
    ("phase", (len(PHASES),), "pending decision kind one-hot: " + ", ".join(PHASES), 1.0),
    ("band_x", (1,), "size X of the band being resolved (0 while none / while building)", 10.0),
    ("band_leader", (NUM_TYPES,), "leader type one-hot of the band being resolved", 1.0),
    ("merfolk_markers_left", (1,), "free Merfolk markers still to place this band", 4.0),
    ("elf_kept", (1,), "cards kept so far in the pending Elf discard", 10.0),
)


def seat_pieces(markers_high: float, track_high: float = 18.0
                ) -> tuple[tuple[str, tuple[int, ...], str, float], ...]:
    """Seat pieces (shape without the leading ``num_players`` axis)."""
    return (
        ("acting", (), "1 for the seat that owns the pending decision", 1.0),
        ("first_player", (), "1 for this Age's first player", 1.0),
        ("third_dragon", (), "1 for the seat that drew this Age's third Dragon (set from that "
         "draw until the next Age starts)", 1.0),
        ("hand_size", (), "cards in hand (a band being built still counts as hand)", 10.0),
        ("glory", (), "glory points", 3000.0),
        ("markers", (NUM_KINGDOMS,), "own control markers per kingdom", markers_high),
        ("merfolk_track", (), "Merfolk track position (0-18)", track_high),
        ("horde", (NUM_KINGDOMS,), "Orc horde board: 1 per occupied colour space", 1.0),
        ("trolls_held", (6,), "1 per Troll token held (value = index + 1)", 1.0),
        ("giant_holder", (), "1 if this seat's band holds the Giant token", 1.0),
        ("known_hand", (NUM_TYPES,), "hand cards known to everybody (taken from the display, "
         "or the ten Skeletons a PASS shows, and not provably played or discarded since)", 10.0),
        ("band_cards", (NUM_TYPES,), "cards in this seat's bands (this Age) by type", 24.0),
        ("band_leaders", (NUM_TYPES,), "this seat's bands by leader type", 24.0),
        ("band_tribe_size", (NUM_TRIBES - 1, 10), "this seat's bands by leader tribe and size X",
         24.0),
        ("band_scored_size", (10,), "this seat's bands by size after Skeleton removal", 90.0),
        ("band_glory", (), "band glory this seat would score now (Dwarf bonus included)", 500.0),
    )


PRIVATE_PIECES: tuple[tuple[str, tuple[int, ...], str, float], ...] = (
    ("my_hand", (NUM_TYPES,), "own hand by type (not the band being built, not Elf-kept cards)",
     12.0),
    ("my_building", (NUM_TYPES,), "own band under construction by type (leader included)", 10.0),
    ("my_building_leader", (NUM_TYPES,), "leader type one-hot of own band under construction",
     1.0),
    ("my_elf_kept", (NUM_TYPES,), "cards kept so far in own pending Elf discard", 10.0),
)


def build_obs_spec(num_players: int, markers_high: float, track_high: float = 18.0,
                   free_markers_high: float = 4.0) -> tuple[ObsSpec, list[tuple[str, int]]]:
    """The observation spec and, for the seat block, ``(piece name, width)`` in layout order.

    ``free_markers_high``: the number of Merfolk marker spaces (option ``merfolk_spaces``).
    """
    highs = {"merfolk_markers_left": free_markers_high}
    pieces = [ObsPiece(name, shape, doc, highs.get(name, high))
              for name, shape, doc, high in GLOBAL_PIECES]
    widths = []
    for name, shape, doc, high in seat_pieces(markers_high, track_high):
        width = 1
        for s in shape:
            width *= s
        widths.append((name, width))
        pieces.append(ObsPiece(name, (num_players, *shape), "per seat: " + doc, high))
    pieces += [ObsPiece(name, shape, doc, high) for name, shape, doc, high in PRIVATE_PIECES]
    return ObsSpec(pieces), widths
