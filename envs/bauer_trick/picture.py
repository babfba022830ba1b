"""The picture of a ``bauer_trick`` position (SVG; ``state.to_svg(seat)``, ``render_mode=
"rgb_array"``): the four seats round the table, their hands, the calls, the trick on the table,
trump, the points still to lose and the tricks won, the last move in gold.

A seat's view (``seat`` given) sits that seat at the bottom and shows only what it may see: its
own hand; the other hands as card backs (their sizes), every call and played card. The trick
that a move completed is gone from the position, so ``remember`` keeps it (all of it was played
face up) for the highlight of the last move.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bauer_trick.actions import CALL_BASE
from tablezoo.envs.bauer_trick.components import (
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    PHASE_CALL,
    PHASE_OVER,
    SPOKE_PASS,
    STRENGTH,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_name,
    cards_of,
    rank_of,
    suit_of,
)
from tablezoo.envs.pictures.svg import (
    HIGHLIGHT,
    INK,
    MUTED,
    TABLE,
    TURN,
    Canvas,
    caption,
    card_back,
    card_face,
    label_box,
    seat_name,
)

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState
    from tablezoo.envs.pictures.moves import LastMove

W, H = 880, 690
CW, CH = 50, 72  # card size
RED = "#c92a2a"
# where each table position (0 bottom, 1 left, 2 top, 3 right) puts its label, hand and trick card
LABEL = ((330, 478), (24, 196), (330, 92), (620, 196))
HAND = ((240, 508), (24, 230), (240, 122), (620, 230))
TRICK = ((415, 328), (330, 282), (415, 236), (500, 282))


def suit_colour(card: int) -> str:
    return RED if suit_of(card) >= 2 else INK


def remember(before: BauerTrickState, actions: dict[int, int]) -> dict[str, Any]:
    """The trick a card completed (seats and cards, the winner) and, at a deal's last trick,
    the tricks each team took: the position after it has moved on."""
    (player, action), = actions.items()
    if not 0 <= action < NUM_CARDS or len(before.trick_cards) != NUM_SEATS - 1:
        return {}
    seats = [*before.trick_seats, player]
    cards = [*before.trick_cards, action]
    led = before.led_suit
    strength = STRENGTH[before.trump][led]
    winner = seats[max(range(NUM_SEATS), key=lambda i: strength[cards[i]])]
    facts: dict[str, Any] = {"trick": [[s, c] for s, c in zip(seats, cards)], "winner": winner,
                             "trick_no": before.trick_no}
    if before.trick_no == 7:
        tricks = list(before.tricks)
        tricks[winner % 2] += 1
        facts["deal_tricks"] = tricks
    return facts


def draw(state: BauerTrickState, seat: int | None, last: LastMove | None,
         choices: Collection[int] = ()) -> str:
    view = "all-seeing view" if seat is None else f"view of player_{seat}"
    c = Canvas(W, H, title=f"bauer_trick, {view}")
    base = 0 if seat is None else seat
    where = {p: (p - base) % NUM_SEATS for p in range(NUM_SEATS)}
    _header(c, state, seat)
    c.rect(14, 84, W - 28, 500, fill=TABLE, rx=28)
    last_card = _last_card(last, seat)
    for p in range(NUM_SEATS):
        _seat(c, state, p, where[p], seat, last, choices)
    shown = list(zip(state.trick_seats, state.trick_cards))
    title = f"trick {state.trick_no + 1}" if state.phase != PHASE_CALL else ""
    if not shown and last is not None and "trick" in last.facts:
        shown = [(s, k) for s, k in last.facts["trick"]]
        won = last.facts["winner"]
        title = (f"trick {last.facts['trick_no'] + 1} won by {seat_name(won, seat)} "
                 f"(team {won % 2})")
    if (title and state.phase != PHASE_OVER) or shown:
        c.text(W / 2, 226, title, size=12, fill="#ffffff", anchor="middle", weight="bold")
    for p, card in shown:
        x, y = TRICK[where[p]]
        card_face(c, x, y, CW, CH, corner=card_name(card), centre=SUIT_SYMBOLS[suit_of(card)],
                  colour=suit_colour(card), code=card_name(card), last=card == last_card)
    if state.phase == PHASE_OVER:
        _result(c, state, seat)
    if last is not None:
        lines = last.lines(state.game.player_name, seat)
        if "deal_tricks" in last.facts:
            t0, t1 = last.facts["deal_tricks"]
            lines.append(f"deal over: team 0 took {t0} tricks, team 1 took {t1}")
        caption(c, 14, 596, lines, width=W - 28)
    return str(c)


def _header(c: Canvas, state: BauerTrickState, seat: int | None) -> None:
    deal = state.deals_played + (state.phase != PHASE_OVER)
    view = "all-seeing view" if seat is None else f"view of player_{seat}"
    c.text(16, 24, f"bauer_trick · deal {deal} · {view}", size=16, weight="bold")
    x = 16.0
    for team in (0, 1):
        text = (f"team {team} (player_{team}, player_{team + 2}): {state.points[team]} "
                f"point{'s' * (state.points[team] != 1)} to lose")
        if state.phase != PHASE_CALL:
            text += f", {state.tricks[team]} trick{'s' * (state.tricks[team] != 1)}"
        x += label_box(c, x, 36, text, size=12) + 8
    if state.trump == NO_TRUMP:
        trump = "no trump"
    elif state.trump >= 0:
        trump = f"trump {SUIT_SYMBOLS[state.trump]} {SUIT_NAMES[state.trump]} (player_" \
                f"{state.caller})"
    else:
        trump = "trump call"
    colour = RED if 2 <= state.trump < 4 else INK
    label_box(c, 16, 60, trump, size=12, colour=colour, weight="bold")
    if state.undealt:
        c.text(W - 16, 74, f"{len(state.undealt)} cards still to deal", size=11, fill=MUTED,
               anchor="end")


def _seat(c: Canvas, state: BauerTrickState, p: int, pos: int, seat: int | None,
          last: LastMove | None, choices: Collection[int]) -> None:
    lx, ly = LABEL[pos]
    acting = state.phase != PHASE_OVER and state.to_act == p
    name = seat_name(p, seat) + f" · team {p % 2}"
    if state.dealer == p:
        name += " · dealer"
    spoken = state.calls[p]
    if spoken >= 0:
        name += " · " + ("pass" if spoken == SPOKE_PASS else f"calls {SUIT_SYMBOLS[spoken]}")
    called = last is not None and p in last.actions and last.actions[p] >= CALL_BASE
    width = label_box(c, lx, ly, name, size=12, fill="#fff4e6" if acting else "#ffffff",
                      border=TURN if acting else "#b8bcc4", weight="bold" if acting else None)
    if called:
        c.rect(lx - 3, ly - 3, width + 6, 26, stroke=HIGHLIGHT, width=3, rx=6)
    if acting:
        c.text(lx + width + 6, ly + 15, "◀ to act", size=12, fill="#ffd8a8", weight="bold")
    hx, hy = HAND[pos]
    hand = state.hands[p]
    if seat is not None and p != seat:
        count = hand.bit_count()
        for i in range(count):
            card_back(c, hx + 22 * i, hy, CW - 6, CH - 8)
        return
    step = 52 if pos in (0, 2) else 30
    for i, card in enumerate(sorted(cards_of(hand), key=_hand_order)):
        card_face(c, hx + step * i, hy, CW, CH, corner=card_name(card),
                  centre=SUIT_SYMBOLS[suit_of(card)], colour=suit_colour(card),
                  code=card_name(card), action=card if card in choices else None)


def _hand_order(card: int) -> tuple[int, int]:
    return suit_of(card), -rank_of(card)


def _last_card(last: LastMove | None, seat: int | None) -> int:
    if last is None:
        return -1
    (action,) = last.actions.values()
    return action if 0 <= action < NUM_CARDS else -1


def _result(c: Canvas, state: BauerTrickState, seat: int | None) -> None:
    returns = state.returns()
    if state.truncated:
        text = "game cut at max_deals"
    elif returns[0] > returns[1]:
        text = "team 0 (player_0, player_2) wins"
    elif returns[1] > returns[0]:
        text = "team 1 (player_1, player_3) wins"
    else:
        text = "nobody scored"
    c.rect(W / 2 - 190, 300, 380, 60, fill="#ffffff", stroke=HIGHLIGHT, width=3, rx=10)
    c.text(W / 2, 325, "game over: " + text, size=15, anchor="middle", weight="bold")
    c.text(W / 2, 347, "returns " + ", ".join(f"{r:+g}" for r in returns), size=12,
           anchor="middle", fill=MUTED)
