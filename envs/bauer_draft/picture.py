"""The picture of a ``bauer_draft`` position (SVG; ``state.to_svg(seat)``, ``render_mode=
"rgb_array"``): one row per seat with its pile, hand, selection and tableau (Day cards face up,
Night cards face down until the end), the round and decision, the central deck and discards,
the copiers, the scores at the end, the cards the last move put into play in gold.

A seat's view shows what ``render.render_seat`` tells that seat, and nothing else: its own hand,
selection and Night cards; of the others the sizes of hands and piles, the cards it knows to be
there (the ones it passed), the Day cards and the number of face-down Night cards.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bauer_draft.actions import COPY, DAGA_PLAY, DISCARD, KINDS, OVER, PLAY
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    CHARACTER,
    COPIERS,
    DANGER,
    EVENT,
    JOURNEY,
    NUM_CARDS,
    THEMES,
)
from tablezoo.envs.pictures.svg import (
    INK,
    MUTED,
    TURN,
    Canvas,
    caption,
    card_back,
    card_face,
    clip,
    label_box,
    seat_name,
)

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftState
    from tablezoo.envs.pictures.moves import LastMove

W = 1120
CW, CH = 56, 80
ROW = 112
TOP = 92
DAY_FILL = {EVENT: "#e7f5ff", JOURNEY: "#ebfbee", DANGER: "#fff0f0", CHARACTER: "#fff9db"}
KIND_INK = {EVENT: "#1864ab", JOURNEY: "#2b8a3e", DANGER: "#c92a2a", CHARACTER: "#8f5b00"}
NIGHT_FILL = "#2b2d52"
_MODES = ("", "copies a later card", "copies")


def remember(before: BauerDraftState, actions: dict[int, int]) -> dict[str, Any]:
    """The play counter before the move: the cards played since are the move's."""
    return {"seq": before.next_seq}


def draw(state: BauerDraftState, seat: int | None, last: LastMove | None,
         choices: Collection[int] = ()) -> str:
    st = state
    n = st.n
    over = st.kind == OVER
    notes = _notes(st, seat) + (_breakdown(st) if over else [])
    moved = last.lines(st.game.player_name, seat) if last is not None else []
    height = TOP + ROW * n + 16 * len(notes) + (30 + 15 * len(moved) if moved else 0) + 12
    view = "all-seeing view" if seat is None else f"view of player_{seat}"
    c = Canvas(W, height, title=f"bauer_draft, {view}")
    g = st.game
    stage = ("Yule Goat stage" if st.round >= g.num_rounds
             else f"round {st.round + 1} of {g.num_rounds}")
    c.text(16, 24, f"bauer_draft · {n} players · {stage} · {view}", size=16, weight="bold")
    who = ", ".join(f"player_{p}" for p in st.acting) if st.acting else "nobody"
    decision = "game over" if over else f"decision: {KINDS[st.kind]} ({who})"
    if st.source >= 0 and (seat is None or not CARDS.night_list[st.source] or st.decider == seat):
        decision += f" · effect of {CARDS[st.source].name}"
    label_box(c, 16, 36, decision, size=12, fill="#fff4e6" if not over else "#ffffff",
              border=TURN if not over else "#b8bcc4")
    x = 16.0
    for text in (f"central deck {len(st.central)}", f"Daga {'used' if st.daga_used else 'unused'}",
                 "discards " + (" ".join(CARDS.codes[k] for k in st.discards) or "none")):
        x += label_box(c, x, 62, clip(text, 120), size=11) + 6
    fresh = _fresh(st, last)
    scores = st.scores() if over or seat is None else None
    for p in range(n):
        _row(c, st, p, TOP + ROW * p, seat, scores, fresh, choices)
    y = TOP + ROW * n - 4
    for line in notes:
        c.text(16, y + 12, line, size=12)
        y += 16
    caption(c, 16, y + 6, moved, width=W - 32)
    return str(c)


def _fresh(st: BauerDraftState, last: LastMove | None) -> set[int]:
    """Cards the last move put into a tableau (its reveal and the effects that followed)."""
    if last is None or "seq" not in last.facts:
        return set()
    since = last.facts["seq"]
    return {k for k in range(NUM_CARDS) if st.owner[k] >= 0 and st.seq[k] >= since}


def _card(c: Canvas, x: float, y: float, k: int, *, last: bool = False,
          action: int | None = None, tag: str = "") -> None:
    card = CARDS[k]
    facts = []
    if card.points:
        facts.append(f"{card.points}pt")
    if card.swords:
        facts.append("⚔" * card.swords)
    tags = "".join(t * m for t, m in zip(THEMES, card.tags))
    if tags:
        facts.append(tags)
    lines = (clip(card.name, 10), " ".join(facts) or ("Night" if card.night else "Day"))
    if tag:
        lines = (tag, *lines[1:])
    night = card.night
    card_face(c, x, y, CW, CH, corner=card.code, code=card.code, lines=lines, last=last,
              action=action, fill=NIGHT_FILL if night else DAY_FILL[card.kind],
              colour="#ffe066" if night else KIND_INK[card.kind],
              centre="☾" if night else "")


def _row(c: Canvas, st: BauerDraftState, p: int, y: float, seat: int | None,
         scores: list[float] | None, fresh: set[int], choices: Collection[int]) -> None:
    me = seat is None or p == seat
    over = st.kind == OVER
    acting = p in st.acting and not over
    c.rect(8, y - 4, W - 16, ROW - 8, fill="#ffffff" if not acting else "#fff4e6",
           stroke=TURN if acting else "#d0d4da", width=2 if acting else 1, rx=8)
    c.text(18, y + 16, seat_name(p, seat), size=14, weight="bold")
    known = st.tracked[seat] if seat is not None else None
    pile = f"pile {len(st.piles[p])}"
    pile_known = sorted(k for k in st.piles[p] if known is None or k in known)
    if known is not None and pile_known:
        pile += " (holds " + " ".join(CARDS.codes[k] for k in pile_known) + ")"
    elif known is None and pile_known:
        pile += ": " + " ".join(CARDS.codes[k] for k in st.piles[p])
    c.text(18, y + 34, clip(pile, 30), size=11, fill=MUTED)
    hand = sorted(st.hands[p])
    c.text(18, y + 50, f"hand {len(hand)}", size=11, fill=MUTED)
    if scores is not None:
        c.text(18, y + 70, f"score {scores[p]:g}", size=13, weight="bold",
               fill=INK if over else MUTED)
    x = 200.0
    shown = hand if me else sorted(k for k in hand if k in known)
    for k in shown:
        _card(c, x, y, k, action=_choice(k, choices) if p == seat else None)
        x += CW + 4
    for _ in range(len(hand) - len(shown)):
        card_back(c, x, y, CW, CH)
        x += CW + 4
    if me:
        for k, via_daga in st.sel[p]:
            _card(c, x, y, k, tag="via Daga" if via_daga else "selected")
            x += CW + 4
    x = max(x + 10, 390.0)
    c.line(x - 6, y, x - 6, y + CH, stroke="#d0d4da")
    tableau = list(st.tableau[p])
    faces = [k for k in tableau if me or over or not CARDS.night_list[k]]
    hidden = len(tableau) - len(faces)
    room = W - 20 - x - CW
    count = len(faces) + hidden
    step = min(CW + 4, room / max(1, count - 1)) if count > 1 else CW + 4
    for k in faces:
        _card(c, x, y, k, last=k in fresh, action=_choice(k, choices) if p == seat else None)
        x += step
    for _ in range(hidden):
        card_back(c, x, y, CW, CH, colour=NIGHT_FILL, label="☾")
        x += step


def _choice(k: int, choices: Collection[int]) -> int | None:
    """The action a click on card ``k`` takes, if one of the seat's legal moves names it."""
    for base in (PLAY, DAGA_PLAY, DISCARD, COPY):
        if base + k in choices:
            return base + k
    return None


def _notes(st: BauerDraftState, seat: int | None) -> list[str]:
    over = st.kind == OVER
    lines = []
    for k, name in enumerate(COPIERS):
        copier = CARDS.effect_card[name]
        owner = st.owner[copier]
        if owner < 0 or copier not in st.tableau[owner]:
            continue
        target = st.copy_target[k]
        seen = target >= 0 and (seat is None or owner == seat or over
                                or not CARDS.night_list[target])
        what = CARDS.codes[target] if seen else ("a face-down card" if target >= 0 else "")
        mode = _MODES[st.copy_mode[k]] if st.copy_mode[k] < len(_MODES) else ""
        lines.append(f"{CARDS[copier].name} (player_{owner}): {mode} {what}".rstrip())
    if st.offer >= 0 and (seat is None or st.decider == seat):
        lines.append(f"offered to copy: {CARDS.codes[st.offer]} {CARDS[st.offer].name}")
    return lines


def _breakdown(st: BauerDraftState) -> list[str]:
    """One line per seat: the final score and its non-zero categories."""
    return [f"player_{p} final score {sum(row.values()):g}: "
            + (", ".join(f"{k} {v:g}" for k, v in row.items() if v) or "nothing")
            for p, row in enumerate(st.score_breakdown())]
