"""The picture of an Ethnos position (SVG; ``state.to_svg(seat)``, ``render_mode="rgb_array"``):
the six kingdoms with their glory tokens and every seat's markers, the Merfolk track, the
display, the deck and the Dragons, one row per seat with its glory, hand, bands in play, Troll
tokens, Giant token and Orc horde, the band or marker the last move made in gold.

A seat's view shows what ``render.render_seat`` tells that seat: its own hand (and the band it
is building); of the others the hand sizes and the cards everybody knows are there, as card
backs for the rest; another seat's band under construction (or Elf keeps) only as "building".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import (
    KINGDOMS,
    MERFOLK,
    NUM_KINGDOMS,
    ORCS,
    SINGULAR,
    SKELETON,
    TRIBES,
    TROLLS,
    TYPE_COLOUR,
    TYPE_NAMES,
    TYPE_TRIBE,
)
from tablezoo.envs.pictures.svg import (
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLOURS,
    TURN,
    Canvas,
    caption,
    card_back,
    card_face,
    clip,
    frame,
    label_box,
    seat_name,
)

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState
    from tablezoo.envs.pictures.moves import LastMove

W = 1120
CW, CH = 50, 68
KINGDOM_INK = ("#2b8a3e", "#7048e8", "#e8590c", "#5c636a", "#c92a2a", "#1971c2")
KINGDOM_FILL = ("#d3f9d8", "#e5dbff", "#ffe8cc", "#e9ecef", "#ffe3e3", "#d0ebff")
ROW = 136


def remember(before: EthnosState, actions: dict[int, int]) -> dict[str, Any]:
    """Where markers stood and how many bands each seat had before the move."""
    return {"markers": before.markers.astype(int).tolist(),
            "bands": [len(b) for b in before.bands], "age": before.age}


def draw(state: EthnosState, seat: int | None, last: LastMove | None,
         choices: Collection[int] = ()) -> str:
    s = state
    moved = last.lines(s.game.player_name, seat) if last is not None else []
    over = s.terminal
    top = 300 if s.has[MERFOLK] else 262
    height = top + ROW * s.n + (44 if over else 0) + (30 + 15 * len(moved) if moved else 0) + 8
    view = "all-seeing view" if seat is None else f"view of player_{seat}"
    c = Canvas(W, height, title=f"ethnos, {view}")
    c.text(16, 24, f"ethnos · {s.n} players · Age {'I' * (s.age + 1)} · {view}", size=16,
           weight="bold")
    if over:
        status = "game over"
    elif s.decisions >= s.game.max_decisions:
        status = "game cut at max_decisions"
    else:
        status = f"to act: player_{s.actor} ({act.PHASES[s.phase]})"
    x = 16 + label_box(c, 16, 34, status, size=12, fill="#fff4e6", border=TURN) + 8
    x += label_box(c, x, 34, f"deck {len(s.deck)} · Dragons {s.dragons} of 3", size=12)
    label_box(c, x + 8, 34, "tribes: " + ", ".join(TRIBES[t] for t in s.tribes), size=12)
    fresh = _fresh(s, last)
    _kingdoms(c, s, 66, fresh, choices, seat)
    y = 178
    if s.has[MERFOLK]:
        _merfolk(c, s, y)
        y += 38
    _display(c, s, y, choices)
    y = top
    for p in range(s.n):
        _row(c, s, p, y + ROW * p, seat, fresh, choices)
    y += ROW * s.n
    if over:
        _result(c, s, y)
        y += 44
    caption(c, 16, y, moved, width=W - 32)
    return str(c)


def _fresh(s: EthnosState, last: LastMove | None) -> dict[str, Any]:
    """The bands and markers the last move added (empty after an Age ended)."""
    if last is None or "markers" not in last.facts or last.facts["age"] != s.age:
        return {"bands": set(), "markers": set()}
    before = last.facts["markers"]
    markers = {(p, k) for p in range(s.n) for k in range(NUM_KINGDOMS)
               if int(s.markers[p, k]) != before[p][k]}
    bands = {(p, i) for p in range(s.n) for i in range(last.facts["bands"][p], len(s.bands[p]))}
    return {"bands": bands, "markers": markers}


def card(c: Canvas, x: float, y: float, t: int, *, w: float = CW, h: float = CH,
         action: int | None = None, last: bool = False, leader: bool = False) -> None:
    """Card type ``t``: its tribe on its kingdom's colour (the Skeleton in white)."""
    k = int(TYPE_COLOUR[t])
    fill = "#f8f9fa" if t == SKELETON else KINGDOM_FILL[k]
    ink = "#495057" if t == SKELETON else KINGDOM_INK[k]
    tribe = SINGULAR[int(TYPE_TRIBE[t])]
    small = w < 40
    corner = ("★" if leader else "") + (tribe[:3] if small else clip(tribe, 7))
    lines = () if small else ("Skeleton" if t == SKELETON else KINGDOMS[k],)
    card_face(c, x, y, w, h, corner=corner, colour=ink, fill=fill, code=TYPE_NAMES[t],
              lines=lines, action=action, last=last, border=ink,
              corner_size=9 if small else 10)


def _kingdoms(c: Canvas, s: EthnosState, y: float, fresh: dict[str, Any],
              choices: Collection[int], seat: int | None) -> None:
    bw = (W - 32 - 5 * 8) / NUM_KINGDOMS
    for k in range(NUM_KINGDOMS):
        x = 16 + k * (bw + 8)
        action = act.KINGDOM + k if act.KINGDOM + k in choices else None
        attrs: dict[str, Any] = {}
        if action is not None:
            attrs.update(data_action=action, class_="choice", cursor="pointer")
        with c.group(**attrs):
            c.rect(x, y, bw, 104, fill=KINGDOM_FILL[k], stroke=KINGDOM_INK[k], width=2, rx=8)
            c.text(x + 8, y + 18, KINGDOMS[k], size=13, fill=KINGDOM_INK[k], weight="bold")
            tokens = " ".join(str(v) for v in s.tokens[k])
            c.text(x + bw - 8, y + 18, f"glory {tokens}", size=11, fill=INK, anchor="end")
            row = 0
            for p in range(s.n):
                count = int(s.markers[p, k])
                horde = s.has[ORCS] and bool(s.horde[p, k])
                if not count and not horde:
                    continue
                mx, my = x + 8 + (row % 2) * (bw / 2), y + 34 + (row // 2) * 26
                c.circle(mx + 9, my + 9, 9, fill=SEAT_COLOURS[p], stroke="#ffffff", width=1.5)
                c.text(mx + 9, my + 13, str(p), size=10, fill="#ffffff", anchor="middle",
                       weight="bold")
                text = f"×{count}" + (" orc" if horde else "")
                c.text(mx + 22, my + 13, text, size=11)
                if (p, k) in fresh["markers"]:
                    frame(c, mx, my, 18, 18, last=True, rx=9)
                row += 1
        if action is not None:
            frame(c, x, y, bw, 104, choice=True, rx=8)


def _merfolk(c: Canvas, s: EthnosState, y: float) -> None:
    g = s.game
    end = g.merfolk_end
    c.text(16, y + 20, "Merfolk", size=12, weight="bold", fill="#0b7285")
    x0, step = 90.0, (W - 110) / (end + 1)
    for v in range(end + 1):
        special = v in g.merfolk_spaces
        c.rect(x0 + v * step, y + 4, step - 2, 24, fill="#c5f6fa" if special else "#f1f3f5",
               stroke="#99e9f2" if special else "#dee2e6", rx=3)
    for p in range(s.n):
        v = min(int(s.merfolk[p]), end)
        c.circle(x0 + v * step + 6 + 5 * p, y + 16, 5, fill=SEAT_COLOURS[p], stroke="#ffffff")


def _display(c: Canvas, s: EthnosState, y: float, choices: Collection[int]) -> None:
    c.text(16, y + 16, "display", size=12, weight="bold")
    x = 80.0
    for t in np.flatnonzero(s.display).tolist():
        for _ in range(int(s.display[t])):
            action = act.RECRUIT_DISPLAY + t if act.RECRUIT_DISPLAY + t in choices else None
            card(c, x, y, t, action=action)
            x += CW + 6
    if act.RECRUIT_DECK in choices:
        with c.group(data_action=act.RECRUIT_DECK, class_="choice", cursor="pointer"):
            card_back(c, x + 14, y, CW, CH, label=str(len(s.deck)))
        frame(c, x + 14, y, CW, CH, choice=True)
        c.text(x + 14 + CW / 2, y + CH + 12, "draw", size=10, fill=MUTED, anchor="middle")


def _row(c: Canvas, s: EthnosState, p: int, y: float, seat: int | None,
         fresh: dict[str, Any], choices: Collection[int]) -> None:
    me = seat is None or p == seat
    acting = not s.terminal and s.actor == p
    c.rect(8, y, W - 16, ROW - 8, fill="#fff4e6" if acting else "#ffffff",
           stroke=TURN if acting else "#d0d4da", width=2 if acting else 1, rx=8)
    c.circle(26, y + 20, 9, fill=SEAT_COLOURS[p])
    c.text(42, y + 25, seat_name(p, seat), size=14, weight="bold")
    c.text(18, y + 46, f"glory {int(s.glory[p])} · hand {int(s.hand_size[p])}", size=12)
    extras = []
    trolls = [v + 1 for v, o in enumerate(s.troll_owner) if o == p]
    if s.has[TROLLS] and trolls:
        extras.append("Troll " + ", ".join(map(str, trolls)))
    if s.giant_seat == p:
        extras.append(f"Giant token ({s.giant_size})")
    if s.has[MERFOLK]:
        extras.append(f"Merfolk {int(s.merfolk[p])}")
    for i, text in enumerate(extras):
        c.text(18, y + 64 + 15 * i, text, size=11, fill=MUTED)
    x = 190.0
    secret = not s.terminal and s.actor == p and s.actor != seat and seat is not None \
        and s.phase in (act.BUILD, act.ELF_PICK)
    if me:
        cards = [t for t in np.flatnonzero(s.hands[p]).tolist() for _ in range(int(s.hands[p][t]))]
        backs = 0
    else:
        known = s.known[p]
        cards = [t for t in np.flatnonzero(known).tolist() for _ in range(int(known[t]))]
        backs = max(0, int(s.hand_size[p]) - len(cards))
    room = 640 - x
    count = len(cards) + backs
    step = min(CW + 4, (room - CW) / max(1, count - 1)) if count > 1 else CW
    used: set[int] = set()
    for t in cards:
        action = _hand_action(t, choices, used) if p == seat else None
        card(c, x, y + 8, t, action=action)
        x += step
    for _ in range(backs):
        card_back(c, x, y + 8, CW, CH)
        x += step
    _building(c, s, p, seat, secret, y)
    bx, by = 190.0, y + 84
    for i, band in enumerate(s.bands[p]):
        width = 32 * len(band) - 2
        if bx + width > W - 20:
            c.text(bx, by + 24, f"+{len(s.bands[p]) - i} more", size=11, fill=MUTED)
            break
        lit = (p, i) in fresh["bands"]
        for j, t in enumerate(band):
            card(c, bx + 32 * j, by, t, w=30, h=40, leader=j == 0)
        if lit:
            frame(c, bx, by, width, 40, last=True, rx=5)
        bx += width + 12
    if not s.bands[p]:
        c.text(190, by + 24, "no bands in play", size=11, fill=MUTED)


def _building(c: Canvas, s: EthnosState, p: int, seat: int | None, secret: bool,
              y: float) -> None:
    """The band ``p`` is building (or its Elf keeps), right of the hand."""
    if s.terminal or s.actor != p or s.phase not in (act.BUILD, act.ELF_PICK):
        return
    x = 660.0
    c.rect(x - 8, y + 6, W - 20 - x, 72, fill="#fff9db", stroke=HIGHLIGHT, rx=6)
    if secret:
        what = "building a band" if s.phase == act.BUILD else "choosing cards to keep (Elf)"
        c.text(x, y + 46, f"player_{p} is {what}", size=12, fill=MUTED)
        return
    if s.phase == act.ELF_PICK:
        kept = s.elf_kept
        c.text(x, y + 22, "Elf keeps:", size=11, fill=MUTED)
        cards = [t for t in np.flatnonzero(kept).tolist() for _ in range(int(kept[t]))]
    else:
        c.text(x, y + 22, "band being built:", size=11, fill=MUTED)
        cards = list(s.building_cards)
    for j, t in enumerate(cards[:12]):
        card(c, x + 110 + 32 * j, y + 12, t, w=30, h=44, leader=j == 0 and s.phase == act.BUILD)


def _hand_action(t: int, choices: Collection[int], used: set[int]) -> int | None:
    """The move a click on a hand card of type ``t`` makes (once per type)."""
    if t in used:
        return None
    for base in (act.LEADER, act.ADD_CARD, act.ELF_KEEP):
        if base + t in choices:
            used.add(t)
            return base + t
    return None


def _result(c: Canvas, s: EthnosState, y: float) -> None:
    winners = s.winners()
    head = "game over: " + " and ".join(f"player_{p}" for p in winners) + \
        (" win" if len(winners) > 1 else " wins")
    rows = s.score_breakdown()
    parts = [f"player_{p} {sum(row.values()):g}" for p, row in enumerate(rows)]
    c.rect(16, y, W - 32, 36, fill="#ffffff", stroke=HIGHLIGHT, width=2, rx=6)
    c.text(26, y + 23, clip(head + " · glory " + ", ".join(parts), 150), size=12, weight="bold")
