"""Text views of an Ethnos position.

``render_text`` is the debugging view of the whole table (``str(state)``, ``render_mode="ansi"``):
it shows every hand. ``render_seat`` is what one seat may see (``tablezoo play``);
``LEGEND``, ``explain`` and ``public_move`` serve the terminal player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.core.views import no_menu_groups, plain_menu_label
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import (
    KINGDOMS,
    MERFOLK,
    NUM_KINGDOMS,
    ORCS,
    TRIBES,
    TYPE_NAMES,
)

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState


def cards_text(counts: np.ndarray) -> str:
    parts = [f"{TYPE_NAMES[t]}x{int(counts[t])}" if counts[t] > 1 else TYPE_NAMES[t]
             for t in np.flatnonzero(counts).tolist()]
    return ", ".join(parts) if parts else "-"


def render_text(s: EthnosState) -> str:
    lines = [
        f"Ethnos {s.n}p  Age {'I' * (s.age + 1)}  tribes: {', '.join(TRIBES[t] for t in s.tribes)}",
        f"deck {len(s.deck)}  dragons {s.dragons}/3  first player {s.first_player}"
        f"  decisions {s.decisions}",
    ]
    if s.terminal:
        lines.append(f"GAME OVER  winners: {s.winners()}")
    else:
        lines.append(f"to act: player {s.actor} ({act.PHASES[s.phase]})")
    toks = "  ".join(f"{KINGDOMS[k]} {'/'.join(map(str, s.tokens[k]))}"
                     for k in range(NUM_KINGDOMS))
    lines.append(f"glory tokens: {toks}")
    lines.append("display: " + cards_text(s.display))
    for p in range(s.n):
        mk = " ".join(f"{KINGDOMS[k][:3]}{int(s.markers[p, k])}" for k in range(NUM_KINGDOMS))
        extra = []
        if s.has[MERFOLK]:
            extra.append(f"merfolk {int(s.merfolk[p])}")
        if s.has[ORCS]:
            extra.append("horde " + "".join(
                "x" if s.horde[p, k] else "." for k in range(NUM_KINGDOMS)))
        trolls = [v + 1 for v, o in enumerate(s.troll_owner) if o == p]
        if trolls:
            extra.append(f"trolls {trolls}")
        if s.giant_seat == p:
            extra.append(f"giant token ({s.giant_size})")
        lines.append(f"P{p}{'*' if p == s.actor and not s.terminal else ' '} "
                     f"glory {int(s.glory[p]):3d}  hand {int(s.hand_size[p]):2d}  "
                     f"markers {mk}  {'  '.join(extra)}".rstrip())
        lines.append(f"    hand: {cards_text(s.hands[p])}")
        for band in s.bands[p]:
            lines.append(f"    band X={len(band)}: " + ", ".join(
                TYPE_NAMES[c] + ("*" if i == 0 else "") for i, c in enumerate(band)))
    if s.phase == act.BUILD:
        lines.append(f"building (leader {TYPE_NAMES[s.building_leader]}): "
                     + cards_text(s.building))
    return "\n".join(lines)


def render_seat(s: EthnosState, seat: int, colour: bool = False) -> str:
    """What ``seat`` may see (rules §11): its own hand (and the band it is building), the other
    hands as sizes plus the cards everybody knows are there, every played band, the display and
    all public tracks. Another seat's band under construction shows only that it is building."""
    lines = [
        f"Ethnos {s.n}p  you are player_{seat}  Age {'I' * (s.age + 1)}  "
        f"tribes: {', '.join(TRIBES[t] for t in s.tribes)}",
        f"deck {len(s.deck)}  dragons {s.dragons}/3  first player player_{s.first_player}",
    ]
    if not s.terminal:  # the terminal player's summary says "game over" once
        lines.append(f"to act: player_{s.actor} ({act.PHASES[s.phase]})")
    toks = "  ".join(f"{KINGDOMS[k]} {'/'.join(map(str, s.tokens[k]))}"
                     for k in range(NUM_KINGDOMS))
    lines.append(f"glory tokens: {toks}")
    lines.append("display: " + cards_text(s.display))
    secret = not s.terminal and s.actor != seat and s.phase in (act.BUILD, act.ELF_PICK)
    for p in range(s.n):
        mk = " ".join(f"{KINGDOMS[k][:3]}{int(s.markers[p, k])}" for k in range(NUM_KINGDOMS))
        lines.append(f"player_{p}{' (you)' if p == seat else ''} glory {int(s.glory[p])}  "
                     f"hand {int(s.hand_size[p])}  markers {mk}  {_extras(s, p)}".rstrip())
        if p == seat:
            lines.append(f"    hand: {cards_text(s.hands[p])}")
        elif s.known[p].any():
            lines.append(f"    known in hand: {cards_text(s.known[p])}")
        for band in s.bands[p]:
            lines.append(f"    band X={len(band)}: " + ", ".join(
                TYPE_NAMES[c] + ("*" if i == 0 else "") for i, c in enumerate(band)))
    if s.phase == act.BUILD and not s.terminal:
        if secret:
            lines.append(f"player_{s.actor} is building a band")
        else:
            lines.append(f"building (leader {TYPE_NAMES[s.building_leader]}): "
                         + cards_text(s.building))
    return "\n".join(lines)


def _extras(s: EthnosState, p: int) -> str:
    extra = []
    if s.has[MERFOLK]:
        extra.append(f"merfolk {int(s.merfolk[p])}")
    if s.has[ORCS]:
        extra.append("horde " + "".join("x" if s.horde[p, k] else "." for k in range(NUM_KINGDOMS)))
    trolls = [v + 1 for v, o in enumerate(s.troll_owner) if o == p]
    if trolls:
        extra.append(f"trolls {trolls}")
    if s.giant_seat == p:
        extra.append(f"giant token ({s.giant_size})")
    return "  ".join(extra)


LEGEND = """\
Cards: '<colour> <Tribe>' (colour = kingdom: green Althea, purple Duris, orange Ithys, grey
Pelagon, red Rhea, blue Straton); Skeletons are wild and never lead. A turn: recruit (take a
display card or draw from the deck) or play a band: LEADER[card] first (its tribe's ability
applies; * marks the leader), then ADD_CARD[...] cards of the leader's tribe or colour, then
FINISH_BAND. A band of X cards places a marker in the leader colour's kingdom if you have fewer
than X markers there. markers Alt2 = 2 markers in Althea. Three Dragons end an Age.
'help Elves' prints a tribe's ability."""

_ABILITY = {
    "Centaurs": "may play one more band from the remaining hand before discarding",
    "Dwarves": "the band counts one card more at the end-of-Age band scoring",
    "Elves": "keep up to X of the remaining cards instead of discarding them",
    "Giants": "take the Giant token (+2 glory) if no band holds it or this band is larger",
    "Halflings": "the band places no kingdom marker",
    "Merfolk": "advance the Merfolk track by X; each space passed places a free marker",
    "Minotaurs": "the band counts as X+1 for the kingdom marker test",
    "Orcs": "mark the horde space of the leader's colour (a full horde scores at the Age end)",
    "Skeletons": "wild, never lead, removed from bands before the Age's band scoring",
    "Trolls": "take an unclaimed Troll token of value <= X (tie-breaks)",
    "Wingfolk": "place the marker in any kingdom where the test passes",
    "Wizards": "after discarding, may draw X cards from the deck",
}


def explain(token: str) -> str | None:
    """``help Elves`` (or ``help Elf``): a tribe's leader ability."""
    words = token.strip().lower().split()
    key = words[-1] if words else ""
    for tribe, text in _ABILITY.items():
        if key in (tribe.lower(), _SINGULAR.get(tribe, tribe[:-1]).lower()):
            return f"{tribe}: {text}"
    return None


_SINGULAR = {"Dwarves": "Dwarf", "Elves": "Elf", "Merfolk": "Merfolk", "Wingfolk": "Wingfolk"}


def public_move(s: EthnosState, player: int, action: int) -> str:
    """Another seat's decision as everybody sees it: a band under construction and the cards an
    Elf keeps stay secret until the band is finished (the view shows the band then)."""
    if s.phase in (act.BUILD, act.ELF_PICK) and action != act.FINISH_BAND:
        return f"decides ({act.PHASES[s.phase]})"
    return act.action_name(action)


menu_label = plain_menu_label  # names carry the cards ("band 3 green Elves")
menu_groups = no_menu_groups
