"""Readable text (with ANSI colours for red suits) of a ``bauer_trick`` position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.bauer_trick.components import (
    NO_TRUMP,
    NUM_SEATS,
    PHASE_CALL,
    PHASE_OVER,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_name,
    cards_of,
    suit_of,
)

if TYPE_CHECKING:
    from envs.bauer_trick.rules import BauerTrickState

RED = "\x1b[31m"
RESET = "\x1b[0m"


def coloured(card: int) -> str:
    text = card_name(card)
    return f"{RED}{text}{RESET}" if suit_of(card) >= 2 else text


def _cards_text(bits: int) -> str:
    return " ".join(coloured(c) for c in cards_of(bits)) or "-"


def render_state(state: BauerTrickState, viewer: int | None) -> str:
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
        shown = ", ".join(f"player_{s} {coloured(c)}"
                          for s, c in zip(state.trick_seats, state.trick_cards))
        lines.append(f"trick {state.trick_no + 1}: {shown}")
    for seat in range(NUM_SEATS):
        if viewer is None or viewer == seat:
            lines.append(f"  player_{seat} hand: {_cards_text(state.hands[seat])}")
        else:
            lines.append(f"  player_{seat} hand: {state.hands[seat].bit_count()} cards")
    if state.phase == PHASE_OVER:
        outcome = "truncated" if state.truncated else "over"
        lines.append(f"game {outcome}; returns {state.total_returns}")
    else:
        lines.append(f"to act: player_{state.to_act}")
    return "\n".join(lines)
