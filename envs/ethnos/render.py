"""Readable text of an Ethnos position (``str(state)``, ``render_mode="ansi"``).

A debugging view of the whole table: it shows every hand. Agents only see ``observe``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.ethnos import actions as act
from envs.ethnos.components import KINGDOMS, MERFOLK, NUM_KINGDOMS, ORCS, TRIBES, TYPE_NAMES

if TYPE_CHECKING:
    from envs.ethnos.rules import EthnosState


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
