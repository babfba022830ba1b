"""Bower's text views: the all-seeing table (``render``: ``str(state)``, ``render_mode="ansi"``)
and one seat's view (``render_seat``: what ``tablezoo play`` shows a person).

``render`` shows both hands whatever ``hands_public`` says: the view of an onlooker who sees
everything, for logs, tests and debugging. ``LEGEND``, ``explain``, ``public_move`` and
``menu_groups`` serve the terminal player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    HAND,
    KEEP,
    NUM_ACTIONS,
    PASS,
    PH_BONUS,
    PH_BRANCH,
    PH_COVER_ASK,
    PH_DISCARD_ASK,
    PH_DOUBLE_ASK,
    PH_FORCE,
    PH_HAND,
    PH_OPP_DISCARD,
    PH_OVER,
    PH_TOKEN,
    PHASES,
    PLAY,
    TARGET,
    action_name,
)
from tablezoo.envs.bower.components import (
    BONUS,
    BONUS_IDS,
    BONUS_TILE,
    CODES,
    EGG_CODES,
    EGG_IDS,
    END_MAT_LIST,
    END_UNITS_LIST,
    MATERIALS,
    NB_FIRST,
    TILE_IDS,
    TILE_INDEX,
    TK1,
)
from tablezoo.envs.bower.geometry import NUM_CELLS, NUM_PLACEMENTS, PLACEMENT_CELLS, cell_name

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState


def render(s: BowerState) -> str:
    """The all-seeing text view (``str(state)``): eggs, both nests, hands and the piles."""
    lines = [
        f"Bower  phase={PHASES[s.phase]}  turn player=player_{s.turn_player}  "
        f"actor={'-' if s.actor < 0 else f'player_{s.actor}'}  "
        f"turns={s.turns}  start=player_{s.start}",
        "eggs:   "
        + "  ".join(
            f"c{c}:{EGG_IDS[s.eggs[c]]}({CODES[EGG_CODES[s.eggs[c]]]})@p{s.col_owner[c]}"
            for c in range(6)
        )
        + f"  removed:{EGG_IDS[s.eggs[6]]},{EGG_IDS[s.eggs[7]]}",
    ]
    for q in range(2):
        lines.append(
            f"player_{q} nest  hand={[TILE_IDS[t] for t in s.hands[q]]} "
            f"limit={s.limits[q]} forced={TILE_IDS[s.forced[q]] if s.forced[q] >= 0 else '-'} "
            f"kept={[BONUS_IDS[b] for b in s.kept[q]]} "
            f"col_flags={s.col_flags[q]:06b}"
        )
        for r in range(4):
            row = []
            for c in range(6):
                i = 6 * r + c
                row.append(_cell_text(s.top[q][i], _cell_marks(s, q, i)))
            lines.append(f"  r{r} " + " | ".join(row))
    lines.append(
        f"display={[TILE_IDS[t] if t >= 0 else '-' for t in s.display]} "
        f"stack={len(s.stack)} bonus deck={len(s.bonus_deck)} "
        f"discard={len(s.bonus_discard)} drawn={[BONUS_IDS[b] for b in s.drawn]}"
    )
    if s.phase == PH_OVER:
        lines.append(f"scores={s.scores()} winner={s.winner()}")
    return "\n".join(lines)


def _cell_marks(s: BowerState, seat: int, cell: int) -> str:
    marks = ""
    for tok, ch in zip(range(5), "XFWSB"):
        if s._token_cell(tok, seat) == cell:
            marks += ch
    if s.cell_flags[seat] >> cell & 1:
        marks += "*"
    if s.depth[seat][cell]:
        marks += "^"
    return marks


_ITEM_SHORT = {
    "fe-red": "Fr", "fe-yellow": "Fy", "fe-blue": "Fb", "fe-purple": "Fp", "fe-white": "Fw",
    "fl-red": "Lr", "fl-yellow": "Ly", "fl-blue": "Lb", "fl-purple": "Lp", "fl-white": "Lw",
    "gem": "g", "shell": "s", "shell-pink": "P",
}  # fmt: skip


def _cell_text(t: int, marks: str) -> str:
    if t < 0:
        return " " * 12
    text = MATERIALS[END_MAT_LIST[t]][0].upper() + ":"
    for code, n in zip(CODES, END_UNITS_LIST[t]):
        text += _ITEM_SHORT[code] * n
    return (text + marks)[:12].ljust(12)


__all__ = ["LEGEND", "explain", "menu_groups", "public_move", "render", "render_seat"]


def render_seat(s: BowerState, seat: int, colour: bool = False) -> str:
    """What ``seat`` may see: the eggs it owns or spied (``?`` for the others), both nests, its
    own hand and bonus draw; the opponent's hand only when ``hands_public`` (else its size and
    the bonus nest tiles NB1-NB4, which are public), the piles as sizes."""
    o = 1 - seat
    acting = "-" if s.actor < 0 else f"player_{s.actor}"
    lines = [
        f"Bower  you are player_{seat}  phase {PHASES[s.phase]}  to act {acting}  "
        f"turns played {s.turns}  start player_{s.start}",
        "eggs:   " + "  ".join(
            f"c{c}:{_egg_text(s, seat, c)}@p{s.col_owner[c]}" for c in range(6))
        + f"  removed: {_egg_text(s, seat, 6)},{_egg_text(s, seat, 7)}",
    ]
    for q in (seat, o):
        public = q == seat or s.opts["hands_public"]  # hidden hands stay hidden at the end
        hand = [TILE_IDS[t] if public or t >= NB_FIRST else "??" for t in s.hands[q]]
        forced = "-"
        if s.forced[q] >= 0:
            forced = TILE_IDS[s.forced[q]] if public or s.forced[q] >= NB_FIRST else "yes"
        lines.append(f"player_{q}{' (you)' if q == seat else ''} nest  hand {hand}  "
                     f"limit {s.limits[q]}  forced {forced}  "
                     f"kept {[BONUS_IDS[b] for b in s.kept[q]]}")
        lines.append("      " + "  ".join(f"c{c}".ljust(12) for c in range(6)))
        for r in range(4):
            cells = [_cell_text(s.top[q][6 * r + c], _cell_marks(s, q, 6 * r + c))
                     for c in range(6)]
            lines.append(f"  r{r}  " + "  ".join(cells))
    drawn = ""
    if s.drawn:
        drawn = (f"  drawn {[BONUS_IDS[b] for b in s.drawn]}" if s.turn_player == seat
                 else f"  drawn {len(s.drawn)} (hidden)")
    lines.append(f"display {[TILE_IDS[t] if t >= 0 else '-' for t in s.display]}  "
                 f"stack {len(s.stack)}  bonus deck {len(s.bonus_deck)}  "
                 f"bonus discards {len(s.bonus_discard)}" + drawn)
    if s.phase == PH_OVER:
        lines.append(f"scores {s.scores()}  winner {s.winner()}")
    return "\n".join(line.rstrip() for line in lines)


def _egg_text(s: BowerState, seat: int, pos: int) -> str:
    if not s.knows_egg(seat, pos):
        return "?"
    egg = s.eggs[pos]
    return f"{EGG_IDS[egg]}({CODES[EGG_CODES[egg]]})"


def tile_text(t: int) -> str:
    """A nest tile's two cells in the board's short code, e.g. ``S:Frg|M:s``."""
    return "|".join(_cell_text(2 * t + end, "").strip() for end in (0, 1))


LEGEND = """\
Cells: material S straw, M moss, G gravel, E earth, then items: F feather / L flower with colour
r red, y yellow, b blue, p purple, w white (wild); g gem, s shell, P pink shell.
Marks after a cell: X/F/W/S/B tokens (X cancel, white Feather, White flower, Shell, Branch),
* a bonus was triggered here, ^ a covered tile lies below. Rows r0 (next to the bird) to r3.
Placements: 'place T15: S:Fr at (0,1), M:s at (0,2)' names the cell (row,column) each half
of the tile goes to (rows 0-3 from the bird, columns 0-5). Eggs c0-c5 request an item for
each column (@pN: owned by player N); ? = unseen.
Play: pick a tile from your hand (its h id), then one of its placements; 'help T15' shows a tile,
'help NB2' / 'help IA1' a bonus tile."""

_BONUS_TEXT = {
    "nest": "a nest tile into your hand (hand limit +1)",
    "one_opponent_egg": "spy: look at one opponent egg",
    "removed_eggs": "spy: look at the 2 removed eggs",
    "x": "token X: cancels a cell's feathers and flowers (either nest)",
    "white_feather": "token: one of your cells' feathers becomes wild",
    "white_flower": "token: one of your cells' flowers becomes wild",
    "shell": "token: doubles one of your cells' shells",
    "branch": "token: links the two neighbours of a cell",
    "cover": "cover two of your cells with the top stack tile",
    "force": "the opponent must take a display tile you choose next turn",
    "double_turn": "the opponent plays two turns in a row",
    "discard": "the opponent discards a hand tile and lowers the hand limit",
}


def explain(token: str) -> str | None:
    """``help T15`` / ``help NB2`` / ``help IA1``: a tile's full text."""
    key = token.strip().upper()
    if key in TILE_INDEX:
        t = TILE_INDEX[key]
        return f"{key}: " + "  |  ".join(
            f"cell {end + 1}: {MATERIALS[END_MAT_LIST[2 * t + end]]} "
            + (", ".join(_unit_names(END_UNITS_LIST[2 * t + end])) or "nothing")
            for end in (0, 1))
    if key in BONUS_IDS:
        b = BONUS[BONUS_IDS.index(key)]
        what = b.get("effect") or b.get("token") or b["kind"]
        if b["kind"] == "egg":
            return f"{key}: egg tile, an egg for the {b['colour']} majority at the end"
        return f"{key}: {_BONUS_TEXT.get(what, what)}"
    return None


def _unit_names(units: tuple[int, ...]) -> list[str]:
    return [f"{n}x {code}" if n > 1 else code for code, n in zip(CODES, units) if n]


def public_move(s: BowerState, player: int, action: int) -> str:
    """Another seat's decision as everybody sees it: which bonus tile was kept and a hidden hand
    slot stay secret; a placement shows the tile it put down."""
    if KEEP <= action < COLUMN or HAND <= action < NUM_ACTIONS:
        return f"decides ({PHASES[s.phase]})"
    if PLAY <= action < PASS:
        h, p = divmod(action - PLAY, NUM_PLACEMENTS)
        return "places " + placement_text(s.hands[player][h], p)
    if action < PLAY and s.display[action] >= 0:
        return _display_text(s, action).replace("take ", "takes ", 1).replace(
            "force ", "forces ", 1)
    return menu_label(s, action)


def placement_text(tile: int, placement: int) -> str:
    """``T15: S:Fr at (0,1), M:s at (0,2)``: where each half of the tile goes."""
    cells = PLACEMENT_CELLS[placement]
    halves = tile_text(tile).split("|")
    return (f"{TILE_IDS[tile]}: " if tile >= 0 else "") + ", ".join(
        f"{half} at {cell_name(cell)}" for half, cell in zip(halves, cells))


def menu_groups(s: BowerState, seat: int, legal: list[int]) -> list[tuple[str, str, list[int]]]:
    """The play decision as two steps: ``h0``..``h5`` choose a hand tile, then its placement."""
    groups: dict[int, list[int]] = {}
    for a in legal:
        if PLAY <= a < PASS:
            groups.setdefault((a - PLAY) // NUM_PLACEMENTS, []).append(a)
    return [(f"h{h}", f"{TILE_IDS[s.hands[seat][h]]} {tile_text(s.hands[seat][h])}  "
             f"({len(acts)} placement{'s' * (len(acts) != 1)})", acts)
            for h, acts in sorted(groups.items())]


_TOKEN_TEXT = ("X token (cancels feathers and flowers)", "white feather token",
               "white flower token", "shell token")
_ASKS = {  # (phase, ACCEPT or PASS) -> the answer in words
    (PH_BONUS, ACCEPT): "draw bonus tiles (keep one)", (PH_BONUS, PASS): "take no bonus",
    (PH_COVER_ASK, ACCEPT): "cover two of your cells with the top stack tile",
    (PH_COVER_ASK, PASS): "cover nothing",
    (PH_DOUBLE_ASK, ACCEPT): "make the opponent play two turns in a row",
    (PH_DOUBLE_ASK, PASS): "no double turn",
    (PH_DISCARD_ASK, ACCEPT): "make the opponent discard a hand tile (hand limit -1)",
    (PH_DISCARD_ASK, PASS): "no discard",
    (PH_FORCE, PASS): "force no tile", (PH_TOKEN, PASS): "place no token",
    (PH_BRANCH, PASS): "place no branch",
}


def _display_text(s: BowerState, slot: int) -> str:
    t = s.display[slot]
    verb = "force the opponent to take" if s.phase == PH_FORCE else "take"
    return f"{verb} {TILE_IDS[t]} {tile_text(t)} (display slot {slot})"


def menu_label(s: BowerState, action: int) -> str:
    """A menu line in words: the tile or bonus tile it means and, for a placement, the cell
    (row,column) each half of the tile goes to."""
    seat = s.actor
    if action < PLAY and s.display[action] >= 0:
        return _display_text(s, action)
    if PLAY <= action < PASS and seat >= 0:
        h, p = divmod(action - PLAY, NUM_PLACEMENTS)
        if h < len(s.hands[seat]):
            return "place " + placement_text(s.hands[seat][h], p)
    if (s.phase, action) in _ASKS:
        return _ASKS[s.phase, action]
    if KEEP <= action < COLUMN and action - KEEP < len(s.drawn):
        b = s.drawn[action - KEEP]
        if BONUS_TILE[b] >= 0:
            return (f"keep {BONUS_IDS[b]} {tile_text(BONUS_TILE[b])} (a nest tile into your "
                    "hand, hand limit +1)")
        text = explain(BONUS_IDS[b]) or BONUS_IDS[b]
        return f"keep {text.replace(': ', ' (', 1)})" if ": " in text else f"keep {text}"
    if COLUMN <= action < TARGET:
        return f"look at the egg of column {action - COLUMN}"
    if TARGET <= action < BRANCH:
        rel, cell = divmod(action - TARGET, NUM_CELLS)
        where = "your" if rel == 0 else "the opponent's"
        token = _TOKEN_TEXT[s.effect - TK1] if 0 <= s.effect - TK1 < 4 else "token"
        return f"put the {token} on {where} cell {cell_name(cell)}"
    if BRANCH <= action < COVER:
        cell, o = divmod(action - BRANCH, 2)
        link = "to its left and right" if o == 0 else "above and below it"
        return f"branch on {cell_name(cell)}, linking the cells {link}"
    if COVER <= action < HAND:
        return "cover with " + placement_text(s.cover_tile, action - COVER)
    if HAND <= action < NUM_ACTIONS and seat >= 0 and action - HAND < len(s.hands[seat]):
        t = s.hands[seat][action - HAND]
        why = {PH_HAND: " (over your hand limit)", PH_OPP_DISCARD: " (the opponent's bonus)"}
        return f"discard {TILE_IDS[t]} {tile_text(t)}" + why.get(s.phase, "")
    return action_name(action)
