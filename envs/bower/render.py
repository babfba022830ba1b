"""Bower's text view: the all-seeing table of a position (``str(state)``, ``render_mode="ansi"``).

Both hands are shown whatever ``hands_public`` says; this is the view of an onlooker who sees
everything, for logs, tests and debugging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.bower.actions import PH_OVER, PHASES
from envs.bower.components import (
    BONUS_IDS,
    CODES,
    EGG_CODES,
    EGG_IDS,
    END_MAT_LIST,
    END_UNITS_LIST,
    MATERIALS,
    TILE_IDS,
)

if TYPE_CHECKING:
    from envs.bower.rules import BowerState


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


__all__ = ["render"]
