"""Text views of a ``bauer_trick`` position: all-seeing (``str(state)``, ``render_mode="ansi"``)
and per seat (``render_seat``, what ``tablezoo play`` shows a person).

Plain text by default; ``colour=True`` paints the red suits with ANSI codes (the terminal player
asks for it only when its output is a terminal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bauer_trick.components import (
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    PHASE_CALL,
    PHASE_OVER,
    STRENGTH,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_name,
    cards_of,
    parse_card,
    rank_of,
    suit_of,
)
from tablezoo.envs.core.views import no_menu_groups

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState

RED = "\x1b[31m"
RESET = "\x1b[0m"


def coloured(card: int, colour: bool = True) -> str:
    text = card_name(card)
    return f"{RED}{text}{RESET}" if colour and suit_of(card) >= 2 else text


def _cards_text(bits: int, colour: bool) -> str:
    return " ".join(coloured(c, colour) for c in cards_of(bits)) or "-"


def render_state(state: BauerTrickState, viewer: int | None, colour: bool = False) -> str:
    """The position as seen by ``viewer`` (``None``: everything, for debugging and logs)."""
    lines = [
        f"bauer_trick · deal {state.deals_played + (state.phase != PHASE_OVER)} · "
        f"points to lose: team 0 (player_0, player_2) {state.points[0]} · "
        f"team 1 (player_1, player_3) {state.points[1]}",
        f"dealer player_{state.dealer}",
    ]
    calls = []
    for seat in range(NUM_SEATS):
        spoken = state.calls[seat]
        if spoken >= 0:
            calls.append(f"player_{seat} " + ("pass" if spoken == 4 else SUIT_NAMES[spoken]))
    if calls:
        lines.append("calls: " + ", ".join(calls))
    if state.trump == NO_TRUMP:
        lines.append("no trump")
    elif state.trump >= 0:
        lines.append(f"trump {SUIT_SYMBOLS[state.trump]} {SUIT_NAMES[state.trump]}, "
                     f"called by player_{state.caller}")
    if state.phase != PHASE_CALL:
        lines.append(f"tricks won: team 0 {state.tricks[0]} · team 1 {state.tricks[1]}")
    if state.trick_cards:
        shown = ", ".join(f"player_{s} {coloured(c, colour)}"
                          for s, c in zip(state.trick_seats, state.trick_cards))
        lines.append(f"trick {state.trick_no + 1}: {shown}")
    for seat in range(NUM_SEATS):
        if viewer is None or viewer == seat:
            lines.append(f"  player_{seat} hand: {_cards_text(state.hands[seat], colour)}")
        else:
            count = state.hands[seat].bit_count()
            lines.append(f"  player_{seat} hand: {count} card{'s' * (count != 1)}")
    if state.phase == PHASE_OVER:
        if viewer is None:  # a seat's view: the terminal player's summary says it once
            outcome = "truncated" if state.truncated else "over"
            lines.append(f"game {outcome}; returns {state.total_returns}")
    else:
        lines.append(f"to act: player_{state.to_act}")
    return "\n".join(lines)


def render_seat(state: BauerTrickState, seat: int, colour: bool = False) -> str:
    """What ``seat`` may see: its own hand, the other hands as card counts, everything public."""
    return render_state(state, seat, colour)


LEGEND = """\
Cards: rank 7 8 9 10 J Q K A, suit ♣ clubs ♠ spades ♥ hearts ♦ diamonds. Play a card by typing
e.g. 'Jh' or its menu id; the trump call's moves by their menu ids.
Teams: player_0 + player_2 against player_1 + player_3.
Trump order: right Bauer (J of trump), left Bauer (J of the same colour), then A K Q 10 9 8 7;
other suits A K Q J 10 9 8 7. Follow the led suit if you can (the left Bauer belongs to trump).
8 tricks a deal. With trump, the calling team subtracts 1 from its 'points to lose' if it takes
5 or more tricks (4-4 scores nothing); without trump, the team that takes 5 or more does.
The first team down to 0 points wins."""


def explain(token: str) -> str | None:
    """Full text of a card (``Jh``, ``J♥``) for ``help ID`` in the terminal player."""
    try:
        card = parse_card(token)
    except (KeyError, ValueError, IndexError):
        return None
    return f"{card_name(card)}: {RANK_WORDS[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}"


RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


def public_move(state: BauerTrickState, player: int, action: int) -> str:
    """Every call and card play is public: its menu line."""
    return menu_label(state, action)


def menu_label(state: BauerTrickState, action: int) -> str:
    """The action's name (``play J♥``); the card that completes a trick also names who takes
    it, and the deal's last trick the tricks each team took."""
    name = state.game.action_name(action)
    if not 0 <= action < NUM_CARDS or len(state.trick_cards) != NUM_SEATS - 1:
        return name
    seats = [*state.trick_seats, state.to_act]
    cards = [*state.trick_cards, action]
    strength = STRENGTH[state.trump][state.led_suit]
    taker = seats[max(range(NUM_SEATS), key=lambda i: strength[cards[i]])]
    told = f"player_{taker} takes trick {state.trick_no + 1}"
    if state.trick_no == 7:
        tricks = list(state.tricks)
        tricks[taker % 2] += 1
        told += f"; the deal: team 0 {tricks[0]} tricks, team 1 {tricks[1]}"
    return f"{name}  ({told})"


menu_groups = no_menu_groups
