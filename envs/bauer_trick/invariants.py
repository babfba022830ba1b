"""The invariants of a ``bauer_trick`` position (``BauerTrickState.check``), the first broken
one named in a ``StateFormatError``: a loaded or built position must pass them, and random-play
tests run them at every decision.

- cards: each of the 32 cards exactly once across hands, current trick, earlier tricks and the
  undealt pile; hand, pile, trick and played sizes that fit the phase and the trick number;
- the call: who has spoken fits ``to_act`` (call phase) or the caller and trump (after it),
  ``forehand_on_four`` has one forced call and no pass; the first trick is led by the caller
  (without trump by the ``no_trump_leader``);
- the play: the trick's seats run clockwise from the leader and ``to_act`` is next, tricks won
  add up to the trick number; a void is only in a suit the seat no longer holds, was shown by a
  card of another suit, and every off-suit card of the current trick shows one;
- scores: points = ``start_score`` - tally, a team at 0 only at the end of a ``game`` episode,
  the end fits the last deal's result, truncation only after ``max_deals`` deals; returns are
  what the reward option gives (``reward="points"``: team-symmetric, zero-sum, whole numbers);
- decisions: 33 to 36 per finished deal (33 with ``forehand_on_four``) plus this deal's calls
  and cards, so never above ``max_decisions``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    NUM_SUITS,
    PHASE_CALL,
    PHASE_OVER,
    PHASE_PLAY,
    SPOKE_PASS,
    SUIT_BITS,
    SUIT_NAMES,
    card_name,
    cards_of,
)
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import short

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState

ALL_CARDS = (1 << NUM_CARDS) - 1
DEAL_DECISIONS = (33, 36)  # a deal: 1 to 4 calls and 32 cards


def shown(value: object) -> str:
    """``short(value)``, at most 200 characters even for wide nested input."""
    text = short(value)
    return text if len(text) <= 200 else text[:200] + "..."


def bad(what: str) -> None:
    raise StateFormatError(f"bauer_trick state: {what}")


def check_state(state: BauerTrickState) -> None:
    """Raise ``StateFormatError`` naming the first invariant of the rules ``state`` breaks."""
    if state.phase not in (PHASE_CALL, PHASE_PLAY, PHASE_OVER):
        bad(f"phase {shown(state.phase)} is not call, play or over")
    _check_cards(state)
    _check_calls(state)
    if state.phase != PHASE_CALL:
        _check_tricks(state)
        _check_voids(state)
    _check_scores(state)
    _check_returns(state)
    _check_decisions(state)


def _names(bits: int) -> str:
    return " ".join(card_name(c) for c in cards_of(bits))


def _check_cards(state: BauerTrickState) -> None:
    seen = twice = count = 0
    for bits in (*state.hands, *state.played):
        twice |= seen & bits
        seen |= bits
        count += bits.bit_count()
    for card in (*state.trick_cards, *state.undealt):
        twice |= seen & (1 << card)
        seen |= 1 << card
        count += 1
    if twice:
        bad(f"{_names(twice)} held in two places (hands, trick, played, undealt)")
    if seen != ALL_CARDS or count != NUM_CARDS:
        bad(f"{_names(ALL_CARDS & ~seen)} missing from hands, trick, played and undealt")
    hand_sizes = [h.bit_count() for h in state.hands]
    played = [b.bit_count() for b in state.played]
    if state.phase == PHASE_CALL:
        size = 4 if state.game.forehand_mode else 8
        if hand_sizes != [size] * NUM_SEATS or len(state.undealt) != NUM_CARDS - 4 * size:
            bad(f"during the call every hand holds {size} cards and {NUM_CARDS - 4 * size} "
                 f"are undealt, got hands of {hand_sizes} and {len(state.undealt)} undealt")
        if (state.trick_cards or any(state.played) or state.trick_no or any(state.tricks)
                or state.leader != -1 or any(state.voids)):
            bad("no card is played, no trick won, no void shown and no leader set during the "
                 "call")
        return
    if state.undealt:
        bad("no card is undealt after the call")
    if state.phase == PHASE_OVER:
        if (state.trick_no != 8 or any(state.hands) or state.trick_cards
                or played != [8] * NUM_SEATS):
            bad(f"when the game is over the last deal's 8 tricks are played (trick_no "
                 f"{state.trick_no}, hands {hand_sizes}, played {played})")
        return
    if state.trick_no >= 8 or len(state.trick_cards) >= NUM_SEATS:
        bad(f"trick {state.trick_no} with {len(state.trick_cards)} cards cannot be in play")
    expected = [8 - state.trick_no - (seat in state.trick_seats) for seat in range(NUM_SEATS)]
    if hand_sizes != expected or played != [state.trick_no] * NUM_SEATS:
        bad(f"hand sizes {hand_sizes} and played {played} do not fit trick {state.trick_no} "
             f"with {len(state.trick_cards)} cards on the table")


def _expected_calls(order: list[int], spoken: int) -> list[int]:
    """Calls when the first ``spoken`` seats of the speaking ``order`` passed, the rest silent."""
    calls = [-1] * NUM_SEATS
    for seat in order[:spoken]:
        calls[seat] = SPOKE_PASS
    return calls


def _check_calls(state: BauerTrickState) -> None:
    first = (state.dealer + 1) % NUM_SEATS
    order = [(first + i) % NUM_SEATS for i in range(NUM_SEATS)]
    forehand = state.game.forehand_mode
    if state.phase == PHASE_CALL:
        spoken = order.index(state.to_act)
        if forehand and spoken:
            bad("with forehand_on_four the player left of the dealer calls")
        if state.trump != -1 or state.caller != -1:
            bad("trump and caller are -1 during the call")
        if state.calls != _expected_calls(order, spoken):
            bad(f"during the call with seat {state.to_act} to speak, the seats before it "
                 f"passed and the others have not spoken; calls {state.calls}")
        return
    if state.trump < 0:
        bad("trump is set once the call is over")
    if state.trump == NO_TRUMP:
        if forehand:
            bad("forehand_on_four has no deal without trump")
        if state.caller != -1 or state.calls != [SPOKE_PASS] * NUM_SEATS:
            bad(f"a deal without trump has no caller and four passes; caller {state.caller}, "
                 f"calls {state.calls}")
        return
    if state.caller < 0:
        bad(f"trump {SUIT_NAMES[state.trump]} needs a caller")
    spoken = order.index(state.caller)
    if forehand and spoken:
        bad("with forehand_on_four the player left of the dealer calls")
    expected = _expected_calls(order, spoken)
    expected[state.caller] = state.trump
    if state.calls != expected:
        bad(f"seat {state.caller} named {SUIT_NAMES[state.trump]}, so the seats before it "
             f"passed and the later ones never spoke; calls {state.calls}")


def _first_leader(state: BauerTrickState) -> int:
    if state.trump != NO_TRUMP:
        return state.caller
    if state.game.options["no_trump_leader"] == "left_of_dealer":
        return (state.dealer + 1) % NUM_SEATS
    return state.dealer


def _check_tricks(state: BauerTrickState) -> None:
    if sum(state.tricks) != state.trick_no:
        bad(f"tricks won {state.tricks} must add up to the {state.trick_no} tricks played")
    if state.leader < 0:
        bad("a leader is set once the call is over")
    if state.phase == PHASE_OVER:
        if state.to_act != state.leader:
            bad("at the end to_act is the last trick's winner (leader)")
        return
    if state.trick_no == 0 and state.leader != _first_leader(state):
        bad(f"seat {_first_leader(state)} leads the first trick, not seat {state.leader}")
    seats = [(state.leader + i) % NUM_SEATS for i in range(len(state.trick_seats))]
    if state.trick_seats != seats:
        bad(f"the trick's seats {state.trick_seats} must run clockwise from the leader "
             f"{state.leader}")
    if state.to_act != (state.leader + len(seats)) % NUM_SEATS:
        bad("to_act must be the next seat after the trick's cards")
    led = EFFECTIVE_SUIT[state.trump][state.trick_cards[0]] if state.trick_cards else -1
    if state.led_suit != led:
        bad(f"led suit {state.led_suit} does not fit the trick's first card")


def _check_voids(state: BauerTrickState) -> None:
    """Voids are what the play showed: every off-suit card of the current trick marks one, a
    marked seat holds no card of that suit and played a card of another suit to show it."""
    trump = state.trump
    suit_of = EFFECTIVE_SUIT[trump]
    shown = [0] * NUM_SEATS
    last = dict(zip(state.trick_seats, state.trick_cards))
    if state.trick_cards:
        if (state.game.forehand_mode and state.trick_no == 0
                and suit_of[state.trick_cards[0]] != trump):
            shown[state.leader] |= 1 << trump
        for seat, card in zip(state.trick_seats[1:], state.trick_cards[1:]):
            if suit_of[card] != state.led_suit:
                shown[seat] |= 1 << state.led_suit
    for seat in range(NUM_SEATS):
        voids = state.voids[seat]
        if voids & shown[seat] != shown[seat]:
            lacks = SUIT_NAMES[(shown[seat] & ~voids).bit_length() - 1]
            bad(f"seat {seat}'s card in the current trick shows it lacks {lacks}, but "
                 f"voids[{seat}] = {voids} does not say so")
        if not voids:
            continue
        plays = state.played[seat] | (1 << last[seat] if seat in last else 0)
        if voids.bit_count() > plays.bit_count():
            bad(f"seat {seat} shows {voids.bit_count()} voids in {plays.bit_count()} cards "
                 "played")
        for suit in range(NUM_SUITS):
            if not voids >> suit & 1:
                continue
            bits = SUIT_BITS[trump][suit]
            if state.hands[seat] & bits:
                bad(f"seat {seat} is marked void in {SUIT_NAMES[suit]} but holds "
                     f"{_names(state.hands[seat] & bits)}")
            if not plays & ~bits:
                bad(f"seat {seat} is marked void in {SUIT_NAMES[suit]} but never played a "
                     "card of another suit")
            if seat in last and suit_of[last[seat]] == suit:
                bad(f"seat {seat} is marked void in {SUIT_NAMES[suit]} but its last card is "
                     "of that suit")


def _check_scores(state: BauerTrickState) -> None:
    game = state.game
    start = game.options["start_score"]
    max_deals = game.options["max_deals"]
    for team in (0, 1):
        tally = state.tally[team]
        if tuple(tally) != game.categories:
            bad(f"tally[{team}] keys must be {list(game.categories)}")
        if state.points[team] != start - sum(tally.values()):
            bad(f"team {team} has {state.points[team]} points, but its tally {tally} says "
                 f"{start} - {sum(tally.values())}")
        if game.forehand_mode and tally["no_trump_won"]:
            bad("forehand_on_four has no deal without trump to win")
    over = state.phase == PHASE_OVER
    if state.truncated and not (over and not game.deal_mode and state.deals_played == max_deals
                                and min(state.points) > 0):
        bad(f"truncated only at the end of a game episode after {max_deals} deals without a "
             "team at 0")
    if game.deal_mode:
        if state.deals_played != int(over):
            bad(f"a deal episode has played {int(over)} deals, not {state.deals_played}")
        expected = [dict.fromkeys(game.categories, 0) for _ in range(2)]
        scorer = state.deal_scorer() if over else None
        if scorer is not None:
            expected[scorer[0]][scorer[1]] = 1
        if state.tally != expected:
            bad(f"tally {state.tally} does not fit the deal's result "
                 f"({scorer if over else 'deal not finished'})")
        return
    if not over:
        if min(state.points) <= 0:
            bad(f"points {state.points}: a team at 0 has won the game")
        if state.deals_played >= max_deals:
            bad(f"{state.deals_played} deals played, but the game stops after {max_deals}")
        return
    if state.deals_played < 1:
        bad("the game is over before any deal")
    if not state.truncated:
        if min(state.points) != 0 or max(state.points) == 0:
            bad(f"a finished game has exactly one team at 0, got {state.points}")
        winner = state.points.index(0)
        scorer = state.deal_scorer()
        if scorer is None or scorer[0] != winner or not state.tally[winner][scorer[1]]:
            bad(f"team {winner} reached 0, but the last deal's result is {scorer}")


def _check_returns(state: BauerTrickState) -> None:
    game = state.game
    returns = state.total_returns
    subtracted = [sum(t.values()) for t in state.tally]
    if game.deal_mode:
        expected = [float(subtracted[s % 2] - subtracted[1 - s % 2]) for s in range(NUM_SEATS)]
    elif game.options["reward"] == "game":
        expected = [0.0] * NUM_SEATS
        if state.phase == PHASE_OVER and not state.truncated:
            winner = state.points.index(0)
            expected = [1.0 if s % 2 == winner else -1.0 for s in range(NUM_SEATS)]
    else:
        # reward="points": +-1 per point subtracted and +-1 at the end. Hand-built positions
        # start mid-game without that history, so only the returns' shape is checked.
        r = returns[0]
        if (returns != [r, -r, r, -r] or not math.isfinite(r) or r != int(r)
                or abs(r) > game.options["start_score"] + 1):
            bad(f"returns {shown(returns)} must be whole numbers, equal within a team and "
                 "opposite between teams")
        return
    if returns != expected:
        bad(f"returns {shown(returns)} do not fit the tally and the end of the game "
             f"(expected {expected})")


def _check_decisions(state: BauerTrickState) -> None:
    game = state.game
    spoken = sum(call != -1 for call in state.calls)
    if state.phase == PHASE_OVER:
        finished, current = state.deals_played - 1, spoken + NUM_CARDS
    else:
        cards = sum(b.bit_count() for b in state.played) + len(state.trick_cards)
        finished, current = state.deals_played, spoken + cards
    low = DEAL_DECISIONS[0] * finished + current
    high = low if game.forehand_mode else DEAL_DECISIONS[1] * finished + current
    if not low <= state.decisions <= min(high, game.max_decisions):
        bad(f"{state.decisions} decisions do not fit {finished} finished deals and {current} "
             f"decisions in this one (expected {low}..{min(high, game.max_decisions)})")
