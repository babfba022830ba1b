"""The picture of a Bower position (SVG; ``state.to_svg(seat)``, ``render_mode="rgb_array"``):
both nests as 6 x 4 grids of coloured cells (straw, moss, gravel, earth) with their items
(feathers, flowers, gems, shells) and tokens, the request eggs above the columns that own them,
the hands, the display, the piles, the kept bonus tiles, scores at the end and the last tile
placed in gold.

A seat's view shows what ``render.render_seat`` tells that seat: the eggs it owns or spied
(``?`` for the others), both nests, its own hand and bonus draw; the opponent's hand only with
``hands_public`` (else card backs, except the public bonus nest tiles NB1-NB4).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bower.actions import COVER, DISPLAY, HAND, KEEP, PASS, PH_OVER, PHASES, PLAY
from tablezoo.envs.bower.components import (
    BONUS_IDS,
    CODES,
    EGG_CODES,
    EGG_IDS,
    END_MAT_LIST,
    END_UNITS_LIST,
    MATERIALS,
    NB_FIRST,
    TILE_IDS,
)
from tablezoo.envs.bower.geometry import COLS, PLACEMENT_CELLS, ROWS
from tablezoo.envs.pictures.svg import (
    CHOICE,
    HIGHLIGHT,
    INK,
    MUTED,
    TURN,
    Canvas,
    caption,
    card_back,
    frame,
    label_box,
    seat_name,
)

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState
    from tablezoo.envs.pictures.moves import LastMove

W = 1040
CELL = 52
MAT_FILL = {"straw": "#f3dc8f", "moss": "#9cc97a", "gravel": "#c3c4bd", "earth": "#b08356"}
ITEM_COLOUR = {"red": "#e03131", "yellow": "#f5c400", "blue": "#1c7ed6", "purple": "#9c36b5",
               "white": "#ffffff"}
TOKEN_LETTERS = "XFWSB"  # X cancel, white Feather, White flower, Shell, Branch


def remember(before: BowerState, actions: dict[int, int]) -> dict[str, Any]:
    """Which tile of the nest the move laid (its index in the seat's ``placed`` list)."""
    (player, action), = actions.items()
    if PLAY <= action < PASS or COVER <= action < HAND:
        seat = before.turn_player
        return {"placed": [seat, len(before.placed[seat])]}
    return {}


def draw(state: BowerState, seat: int | None, last: LastMove | None,
         choices: Collection[int] = ()) -> str:
    s = state
    moved = last.lines(s.game.player_name, seat) if last is not None else []
    over = s.phase == PH_OVER
    height = 560 + (40 if over else 0) + (30 + 15 * len(moved) if moved else 0)
    view = "all-seeing view" if seat is None else f"view of player_{seat}"
    c = Canvas(W, height, title=f"bower, {view}")
    c.text(16, 24, f"bower · {view}", size=16, weight="bold")
    acting = "nobody" if s.actor < 0 or over else f"player_{s.actor}"
    text = "game over" if over else f"decision: {PHASES[s.phase]} · to act: {acting}"
    label_box(c, 16, 34, text + f" · turns played {s.turns[0]} + {s.turns[1]}", size=12,
              border=TURN if not over else "#b8bcc4", fill="#fff4e6" if not over else "#fff")
    fresh = _fresh(s, last)
    order = (0, 1) if seat is None else (seat, 1 - seat)
    for i, q in enumerate(order):
        _player(c, s, q, 16 + 516 * i, 66, seat, fresh, choices)
    y = _table(c, s, seat, 470, choices)
    if over:
        y = _result(c, s, y)
    caption(c, 16, y + 6, moved, width=W - 32)
    return str(c)


def _fresh(s: BowerState, last: LastMove | None) -> tuple[int, set[int]]:
    """The seat and cells of the tile the last move laid."""
    if last is None or "placed" not in last.facts:
        return -1, set()
    q, index = last.facts["placed"]
    if index >= len(s.placed[q]):
        return -1, set()
    _tile, placement, _cover = s.placed[q][index]
    return q, set(PLACEMENT_CELLS[placement])


def _player(c: Canvas, s: BowerState, q: int, x: float, y: float, seat: int | None,
            fresh: tuple[int, set[int]], choices: Collection[int]) -> None:
    acting = s.actor == q and s.phase != PH_OVER
    c.rect(x - 6, y - 4, 508, 396, fill="#fff4e6" if acting else "#ffffff",
           stroke=TURN if acting else "#d0d4da", width=2 if acting else 1, rx=8)
    info = f"{seat_name(q, seat)}{' · starts' if s.start == q else ''}"
    c.text(x + 4, y + 16, info, size=14, weight="bold")
    kept = " ".join(BONUS_IDS[b] for b in s.kept[q]) or "none"
    c.text(x + 4, y + 34, f"hand limit {s.limits[q]} · kept bonus tiles: {kept}", size=11,
           fill=MUTED)
    nx, ny = x + 4, y + 96
    for col in range(COLS):  # the eggs of this nest's columns, above row 0
        if s.col_owner[col] == q:
            _egg(c, nx + col * (CELL + 4) + CELL / 2, ny - 26, s, seat, col)
    for cell in range(ROWS * COLS):
        r, col = divmod(cell, COLS)
        _cell(c, s, q, cell, nx + col * (CELL + 4), ny + r * (CELL + 4),
              lit=fresh[0] == q and cell in fresh[1])
    _bridges(c, s, q, nx, ny)
    hy = ny + ROWS * (CELL + 4) + 10
    public = seat is None or q == seat or s.opts["hands_public"]
    c.text(x + 4, hy + 12, "hand", size=11, fill=MUTED)
    hx = x + 40
    playable = {(a - PLAY) // 76 for a in choices if PLAY <= a < PASS} if q == seat else set()
    for h, t in enumerate(s.hands[q]):
        shown = public or t >= NB_FIRST
        forced = s.forced[q] == t
        action = HAND + h if q == seat and HAND + h in choices else None
        if shown:
            _tile(c, hx, hy, t, action=action, group=f"h{h}" if h in playable else None,
                  note="forced" if forced else "")
        else:
            card_back(c, hx, hy, 2 * 30 + 2, 30, label="?")
            if forced:
                c.text(hx + 31, hy + 42, "forced", size=9, fill=TURN, anchor="middle")
        hx += 74


def _egg(c: Canvas, x: float, y: float, s: BowerState, seat: int | None, pos: int) -> None:
    """Request egg ``pos`` (0-5 a column, 6-7 removed): its item, or ``?`` when unseen."""
    known = seat is None or s.knows_egg(seat, pos)
    c.ellipse(x, y, 15, 19, fill="#fffdf5", stroke="#8a8f98", width=1.2)
    if not known:
        c.text(x, y + 6, "?", size=16, fill=MUTED, anchor="middle", weight="bold")
        return
    egg = s.eggs[pos]
    with c.group(data_card=EGG_IDS[egg]):
        _item(c, x - 6, y - 8, CODES[EGG_CODES[egg]], 12)
        c.text(x, y + 16, EGG_IDS[egg], size=8, fill=MUTED, anchor="middle")


def _item(c: Canvas, x: float, y: float, code: str, size: float) -> None:
    """One item icon in a ``size`` square at ``x, y``."""
    cx, cy, r = x + size / 2, y + size / 2, size / 2
    if code.startswith("fe-"):  # a feather: a slanted leaf with a quill
        colour = ITEM_COLOUR[code[3:]]
        c.polygon([(cx - r, cy + r), (cx - r * 0.2, cy - r * 0.2), (cx + r, cy - r),
                   (cx + r * 0.2, cy + r * 0.2)], fill=colour, stroke="#333333", width=0.6)
        c.line(cx - r, cy + r, cx + r * 0.6, cy - r * 0.6, stroke="#333333", width=0.6)
    elif code.startswith("fl-"):  # a flower: five petals round a yellow heart
        colour = ITEM_COLOUR[code[3:]]
        for dx, dy in ((0, -0.55), (0.52, -0.17), (0.32, 0.45), (-0.32, 0.45), (-0.52, -0.17)):
            c.circle(cx + dx * r, cy + dy * r, r * 0.42, fill=colour, stroke="#333333",
                     width=0.4)
        c.circle(cx, cy, r * 0.25, fill="#ffd43b")
    elif code == "gem":
        c.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)],
                  fill="#22b8cf", stroke="#0b7285", width=0.8)
    else:  # a shell (the pink shell in pink)
        fill = "#f783ac" if code == "shell-pink" else "#f8f0e3"
        c.element("path", d=f"M{cx - r:.1f},{cy + r * 0.6:.1f} A{r:.1f},{r:.1f} 0 0 1 "
                            f"{cx + r:.1f},{cy + r * 0.6:.1f} Z", fill=fill, stroke="#7a5c3e",
                  stroke_width=0.8)
        for dx in (-0.45, 0, 0.45):
            c.line(cx, cy + r * 0.6, cx + dx * r, cy - r * 0.3, stroke="#7a5c3e", width=0.5)


def _items(c: Canvas, x: float, y: float, end: int, size: float, room: float) -> None:
    """The items of tile end ``end`` in rows inside a ``room`` square."""
    codes = [code for code, k in zip(CODES, END_UNITS_LIST[end]) for _ in range(k)]
    per_row = max(1, int(room // (size + 2)))
    for i, code in enumerate(codes):
        r, col = divmod(i, per_row)
        _item(c, x + col * (size + 2), y + r * (size + 2), code, size)


def _cell(c: Canvas, s: BowerState, q: int, cell: int, x: float, y: float, lit: bool) -> None:
    end = s.top[q][cell]
    if end < 0:
        c.rect(x, y, CELL, CELL, fill="#f1f3f5", stroke="#dee2e6", rx=4)
        return
    c.rect(x, y, CELL, CELL, fill=MAT_FILL[MATERIALS[END_MAT_LIST[end]]], stroke="#6c5b3b",
           width=1, rx=4)
    _items(c, x + 4, y + 14, end, 14, CELL - 6)
    marks = [ch for tok, ch in enumerate(TOKEN_LETTERS) if s._token_cell(tok, q) == cell]
    for i, ch in enumerate(marks):
        c.circle(x + CELL - 8 - 13 * i, y + 8, 6, fill="#343a40")
        c.text(x + CELL - 8 - 13 * i, y + 11.5, ch, size=9, fill="#ffffff", anchor="middle")
    if s.cell_flags[q] >> cell & 1:
        c.text(x + 3, y + 11, "★", size=10, fill="#e8590c")
    if s.depth[q][cell]:
        c.polygon([(x, y + CELL), (x + 10, y + CELL), (x, y + CELL - 10)], fill="#495057")
    if lit:
        frame(c, x, y, CELL, CELL, last=True, rx=4)


def _bridges(c: Canvas, s: BowerState, q: int, nx: float, ny: float) -> None:
    """Join the two cells of each tile lying on top (the gap between them filled)."""
    top = s.top[q]
    for cell in range(ROWS * COLS):
        end = top[cell]
        if end < 0:
            continue
        r, col = divmod(cell, COLS)
        fill = MAT_FILL[MATERIALS[END_MAT_LIST[end]]]
        x, y = nx + col * (CELL + 4), ny + r * (CELL + 4)
        if col + 1 < COLS and top[cell + 1] >= 0 and top[cell + 1] // 2 == end // 2:
            c.rect(x + CELL - 1, y + 8, 6, CELL - 16, fill=fill)
        if r + 1 < ROWS and top[cell + COLS] >= 0 and top[cell + COLS] // 2 == end // 2:
            c.rect(x + 8, y + CELL - 1, CELL - 16, 6, fill=fill)


def _tile(c: Canvas, x: float, y: float, t: int, *, action: int | None = None,
          group: str | None = None, note: str = "") -> None:
    """A tile as a small domino of its two cells; ``data-card`` names it."""
    attrs: dict[str, Any] = {"data_card": TILE_IDS[t]}
    if action is not None:
        attrs.update(data_action=action, class_="choice", cursor="pointer")
    elif group is not None:
        attrs.update(data_group=group, class_="choice", cursor="pointer")
    with c.group(**attrs):
        for end in (0, 1):
            e = 2 * t + end
            c.rect(x + 32 * end, y, 30, 30, fill=MAT_FILL[MATERIALS[END_MAT_LIST[e]]],
                   stroke="#6c5b3b", width=1, rx=3)
            _items(c, x + 32 * end + 2, y + 2, e, 8, 28)
        c.text(x + 31, y + 42, TILE_IDS[t] + (f" {note}" if note else ""), size=9, fill=INK,
               anchor="middle")
        if action is not None or group is not None:  # one target for the pointer, gap included
            c.rect(x, y, 62, 30, fill="#ffffff", fill_opacity=0)
    if action is not None or group is not None:
        c.rect(x - 2, y - 2, 66, 34, stroke=CHOICE, width=2, rx=4, stroke_dasharray="4 2")


def _table(c: Canvas, s: BowerState, seat: int | None, y: float,
           choices: Collection[int]) -> float:
    """The display, the piles, the removed eggs and the bonus draw, below the nests."""
    c.text(16, y + 12, "display", size=11, fill=MUTED)
    x = 70.0
    for slot, t in enumerate(s.display):
        if t >= 0:
            action = DISPLAY + slot if DISPLAY + slot in choices else None
            _tile(c, x, y, t, action=action)
        x += 74
    c.text(x + 6, y + 12, f"stack {len(s.stack)} · bonus deck {len(s.bonus_deck)} · bonus "
                          f"discards {len(s.bonus_discard)}", size=11, fill=MUTED)
    c.text(x + 6, y + 44, "removed eggs", size=11, fill=MUTED)
    for i, pos in enumerate((6, 7)):
        _egg(c, x + 110 + 36 * i, y + 38, s, seat, pos)
    if s.drawn:
        dx = x + 200
        if seat is None or s.turn_player == seat:
            c.text(dx, y + 12, "bonus draw", size=11, fill=MUTED)
            for i, b in enumerate(s.drawn):
                action = KEEP + i if KEEP + i in choices else None
                attrs: dict[str, Any] = {"data_card": BONUS_IDS[b]}
                if action is not None:
                    attrs.update(data_action=action, class_="choice", cursor="pointer")
                with c.group(**attrs):
                    label_box(c, dx + 74 + 46 * i, y, BONUS_IDS[b], size=12,
                              border=CHOICE if action is not None else HIGHLIGHT)
        else:
            c.text(dx, y + 12, f"bonus draw: {len(s.drawn)} hidden", size=11, fill=MUTED)
    return y + 62


def _result(c: Canvas, s: BowerState, y: float) -> float:
    scores = s.scores()
    winner = s.winner()
    head = f"game over: player_{winner} wins" if winner >= 0 else "game over: a draw"
    parts = []
    for q, row in enumerate(s.score_breakdown()):
        items = ", ".join(f"{k} {v:g}" for k, v in row.items() if v) or "nothing"
        parts.append(f"player_{q} {scores[q]:g} ({items})")
    c.rect(16, y, W - 32, 34, fill="#ffffff", stroke=HIGHLIGHT, width=2, rx=6)
    c.text(26, y + 22, head + " · " + " · ".join(parts), size=12, weight="bold")
    return y + 40
