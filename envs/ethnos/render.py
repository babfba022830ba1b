"""Text views of an Ethnos position.

``render_text`` is the debugging view of the whole table (``str(state)``, ``render_mode="ansi"``):
it shows every hand. ``render_seat`` is what one seat may see (``tablezoo play``);
``LEGEND``, ``explain`` and ``public_move`` serve the terminal player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.core.views import no_menu_groups
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
display card or draw from the deck) or play a band: its leader first ('play a band led by
...'; its tribe's ability applies; * marks the leader), then 'add ... to the band' for cards of
the leader's tribe or colour, then 'finish the band'. A band of X cards places a marker in
the leader colour's kingdom if you have fewer than X markers there. markers Alt2 = 2 markers
in Althea. Three Dragons end an Age.
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
    return menu_label(s, action)


def menu_label(s: EthnosState, action: int) -> str:
    """A menu line in words, naming the card, kingdom or token it means (the same line is the
    move's name in the move lists)."""
    a = action
    if act.RECRUIT_DISPLAY <= a < act.RECRUIT_DECK:
        return f"recruit {TYPE_NAMES[a - act.RECRUIT_DISPLAY]} from the display"
    if a == act.RECRUIT_DECK:
        return "recruit the top card of the deck"
    if act.LEADER <= a < act.ADD_CARD:
        lead = f"play a band led by {TYPE_NAMES[a - act.LEADER]}"
        return f"Centaur: {lead.replace('a band', 'another band')}" \
            if s.phase == act.CENTAUR_PICK else lead
    if act.ADD_CARD <= a < act.FINISH_BAND:
        return f"add {TYPE_NAMES[a - act.ADD_CARD]} to the band"
    if a == act.FINISH_BAND:
        size = int(s.building_len) if s.phase == act.BUILD else 0
        return f"finish the band ({size} card{'s' * (size != 1)})" if size else "finish the band"
    if act.KINGDOM <= a < act.TROLL:
        kingdom = KINGDOMS[a - act.KINGDOM]
        if s.phase == act.MERFOLK_PICK:
            return f"Merfolk: a free marker in {kingdom}"
        return f"Wingfolk: place the marker in {kingdom}"
    if act.TROLL <= a < act.CENTAUR_STOP:
        return f"take Troll token {a - act.TROLL + 1}"
    if act.ELF_KEEP <= a < act.ELF_DONE:
        return f"Elf: keep {TYPE_NAMES[a - act.ELF_KEEP]} in hand"
    words = {act.CENTAUR_STOP: "Centaur: no other band (discard the rest)",
             act.ELF_DONE: "Elf: keep no more (discard the rest)",
             act.WIZARD_SKIP: "Wizard: draw no cards",
             act.ORC_EMPTY: "Orcs: empty your horde now and score it",
             act.ORC_KEEP: "Orcs: keep your horde",
             act.PASS: "pass (only Skeletons in hand)"}
    if a == act.WIZARD_DRAW:
        x = int(s.cur_x)
        return f"Wizard: draw {x} card{'s' * (x != 1)}" if x else "Wizard: draw cards"
    if a in words:
        return words[a]
    return act.action_name(a)


menu_groups = no_menu_groups
