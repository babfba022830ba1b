"""Ethnos action table (spec §10): action ids, their names and the pending decision kinds.

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

A pending decision is of one kind (``PHASES``, shown one-hot by the ``phase`` observation piece);
each kind offers its own group of the ids above.
"""

from __future__ import annotations

from tablezoo.envs.ethnos.components import TYPE_NAMES

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
