"""Exact perfect-information ("double-dummy") solver for the trick play of ``bauer_trick``.

Given a world with every hand known (a determinization), it answers how the deal ends when all
four seats play perfectly: the deal's reward per seat (+1 to the team that subtracts a point,
-1 to the other, 0 when nobody does). The ISMCTS agent uses it as a leaf value (``evaluator=
"solver"``): sampling worlds from what the searcher has seen and solving each is perfect-
information Monte Carlo, the approach of the strong computer bridge and Skat players, and far
sharper than heuristic playouts once the trump is fixed.

How it stays fast in pure Python:
- The question is a yes/no one ("can team 0 still take ``need`` more tricks?", a null-window
  search), because only the 5-trick threshold scores; a no-trump deal needs at most two of them.
- Hands are bit masks. Of a seat's legal cards, those next to each other in the suit's order
  among the cards still out are equivalent; one of each run is searched.
- Move order: the leader's high cards first, a follower's cheapest winning card, else its
  cheapest card; a partner already winning the trick gets the cheapest card.
- A transposition table at trick starts keyed by the four hands and the leader keeps the
  bounds it proved on the tricks team 0 takes from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    NUM_SUITS,
    PHASE_PLAY,
    STRENGTH,
    SUIT_BITS,
    cards_of,
)
from tablezoo.envs.core.game import State

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState

TRICKS = 8
WIN = 5  # tricks a team needs to subtract a point


def _suit_orders() -> list[list[list[int]]]:
    """``ORDER[trump][suit]``: the cards of that effective suit, strongest first."""
    out = []
    for trump in range(5):
        per_suit = []
        for suit in range(NUM_SUITS):
            cards = [c for c in range(NUM_CARDS) if EFFECTIVE_SUIT[trump][c] == suit]
            per_suit.append(sorted(cards, key=lambda c, s=suit: -STRENGTH[trump][s][c]))
        out.append(per_suit)
    return out


ORDER = _suit_orders()


class TrickSolver:
    """Solves positions of one trump suit; its table lives as long as the object (one world)."""

    def __init__(self, trump: int):
        self.trump = trump
        self.order = ORDER[trump]
        self.suit_bits = SUIT_BITS[trump]
        self.suit_of = EFFECTIVE_SUIT[trump]
        self.strength = STRENGTH[trump]
        self.bounds: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0
        # (legal cards, alive cards) of one suit -> its runs' representatives (suits have
        # disjoint bits, so the suit is in the key)
        self.runs: dict[tuple[int, int], tuple[int, ...]] = {}
        self.codes: dict[tuple[int, int, int, int], int] = {}  # see ``_key``

    # ------------------------------------------------------------------ public
    def team0_tricks_at_least(self, hands: list[int], leader: int, trick: list[tuple[int, int]],
                              need: int) -> bool:
        """Whether team 0 (seats 0 and 2) takes at least ``need`` of the remaining tricks (the
        current one included) with perfect play, from a position inside a trick: ``trick`` holds
        the (seat, card) pairs played to it so far, ``leader`` led it."""
        left = TRICKS - (NUM_CARDS - sum(h.bit_count() for h in hands) - len(trick)) // 4
        if need <= 0:
            return True
        if need > left:
            return False
        hands = list(hands)
        if not trick:
            return self._at_trick_start(hands, leader, need)
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        led = self.suit_of[trick[0][1]]
        strength = self.strength[led]
        best_seat, best = trick[0]
        for seat, card in trick:
            alive |= 1 << card
            if strength[card] > strength[best]:
                best_seat, best = seat, card
        return self._in_trick(hands, alive, (leader + len(trick)) % NUM_SEATS, len(trick), led,
                              best_seat, strength[best], need)

    # ------------------------------------------------------------------ search
    def _at_trick_start(self, hands: list[int], leader: int, need: int) -> bool:
        if need <= 0:
            return True
        remaining = hands[0].bit_count()
        if need > remaining:
            return False
        key = self._key(hands, leader)
        low, high = self.bounds.get(key, (0, remaining))
        if low >= need:
            return True
        if high < need:
            return False
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        result = self._in_trick(hands, alive, leader, 0, -1, -1, -2, need)
        if result:
            low = need
        else:
            high = need - 1
        self.bounds[key] = (low, high)
        return result

    def _key(self, hands: list[int], leader: int) -> tuple[int, ...]:
        """The position up to card identity: per suit, who holds its alive cards in the suit's
        order. Cards played in earlier tricks can never matter again, so positions that agree
        here have the same value (relative ranks, as the bridge double-dummy solvers key)."""
        h0, h1, h2, h3 = hands
        key = [leader]
        codes = self.codes
        for bits in self.suit_bits:
            part = (h0 & bits, h1 & bits, h2 & bits, h3 & bits)
            code = codes.get(part)
            if code is None:
                code = 1  # a leading 1 keeps the length
                for card in self.order[self.suit_bits.index(bits)]:
                    bit = 1 << card
                    for owner in range(NUM_SEATS):
                        if part[owner] & bit:
                            code = code << 2 | owner
                            break
                codes[part] = code
            key.append(code)
        return tuple(key)

    def _in_trick(self, hands: list[int], alive: int, seat: int, count: int, led: int,
                  best_seat: int, best: int, need: int) -> bool:
        """``count`` cards are in the trick, ``led`` its suit (-1 before the lead), ``best`` the
        strength of the card ``best_seat`` holds it with; ``alive`` the cards not in earlier
        tricks (constant within a trick)."""
        self.nodes += 1
        maximise = seat % 2 == 0
        nxt = (seat + 1) % NUM_SEATS
        for card in self._moves(hands[seat], alive, seat, led, best_seat, best):
            bit = 1 << card
            hands[seat] ^= bit
            if count == 0:
                card_led = self.suit_of[card]
                ok = self._in_trick(hands, alive, nxt, 1, card_led, seat,
                                    self.strength[card_led][card], need)
            else:
                strength = self.strength[led][card]
                if strength > best:
                    top_seat, top = seat, strength
                else:
                    top_seat, top = best_seat, best
                if count == NUM_SEATS - 1:
                    ok = self._at_trick_start(hands, top_seat, need - (top_seat % 2 == 0))
                else:
                    ok = self._in_trick(hands, alive, nxt, count + 1, led, top_seat, top, need)
            hands[seat] ^= bit
            if ok == maximise:  # a cut-off: this seat found what it wanted
                return ok
        return not maximise

    def _runs(self, legal: int, alive: int, suit: int) -> list[int]:
        """One card per run of ``legal`` cards next to each other in ``suit``'s order among the
        ``alive`` cards, strongest first."""
        bits = self.suit_bits[suit]
        key = (legal & bits, alive & bits)
        cached = self.runs.get(key)
        if cached is not None:
            return list(cached)
        reps = []
        previous_mine = False
        for card in self.order[suit]:
            bit = 1 << card
            if alive & bit:
                mine = bool(legal & bit)
                if mine and not previous_mine:
                    reps.append(card)
                previous_mine = mine
        self.runs[key] = tuple(reps)
        return reps

    def _moves(self, hand: int, alive: int, seat: int, led: int, best_seat: int,
               best: int) -> list[int]:
        """One card per run of equivalent legal cards, in the search order: a lead's top card
        of each suit first; a follower's cheapest winning card, then its cheapest others; the
        cheapest first when the partner holds the trick."""
        suit_bits = self.suit_bits
        if led < 0:
            reps = []
            for suit in range(NUM_SUITS):
                if hand & suit_bits[suit]:
                    reps.extend(self._runs(hand, alive, suit))
            return reps
        partner_wins = best_seat % 2 == seat % 2
        strength = self.strength[led]
        follow = hand & suit_bits[led]
        if follow:
            reps = self._runs(follow, alive, led)
            reps.reverse()  # cheapest first
            if partner_wins:
                return reps
            winning = [c for c in reps if strength[c] > best]
            return winning + [c for c in reps if strength[c] <= best]
        trump = self.trump
        discards = []
        for suit in range(NUM_SUITS):
            if suit != trump and hand & suit_bits[suit]:
                runs = self._runs(hand, alive, suit)
                runs.reverse()
                discards.extend(runs)
        discards.sort(key=lambda c: c & 7)  # the lowest ranks first
        trumps = []
        if trump != NO_TRUMP and hand & suit_bits[trump]:
            trumps = self._runs(hand, alive, trump)
            trumps.reverse()
        if partner_wins:
            return discards + trumps
        winning = [c for c in trumps if strength[c] > best]
        return winning + discards + [c for c in trumps if strength[c] <= best]


def team0_tricks(solver: TrickSolver, hands: list[int], leader: int,
                 trick: list[tuple[int, int]], low: int, high: int) -> int:
    """The exact number of remaining tricks team 0 takes, known to lie in [low, high]."""
    while low < high:
        mid = (low + high + 1) // 2
        if solver.team0_tricks_at_least(hands, leader, trick, mid):
            low = mid
        else:
            high = mid - 1
    return low


def solve_deal(state: BauerTrickState, solver: TrickSolver | None = None) -> list[float]:
    """Each seat's reward for the deal under perfect play by everyone from here (a state in the
    play phase, every hand as dealt in it): +1 to the team that subtracts a point, -1 to the
    other, 0 when nobody does. ``solver`` (of the state's trump) brings its table of positions
    already proved."""
    if state.phase != PHASE_PLAY:
        raise ValueError(f"double-dummy solver: the state is in phase {state.phase}; it solves "
                         f"the trick play only (phase {PHASE_PLAY})")
    if solver is None:
        solver = TrickSolver(state.trump)
    elif solver.trump != state.trump:
        raise ValueError(f"double-dummy solver: a solver for trump {solver.trump} was given a "
                         f"deal with trump {state.trump}")
    have = state.tricks[0]

    def at_least(need: int) -> bool:
        return _team0_at_least(solver, state, need - have)

    # team 0 must reach WIN tricks in all; team 1 reaches WIN when team 0 stays at or below 3
    if state.trump == NO_TRUMP:
        if at_least(WIN):
            team = 0
        elif not at_least(TRICKS - WIN + 1):
            team = 1
        else:
            return [0.0] * NUM_SEATS
    else:
        calling = state.caller % 2
        made = at_least(WIN if calling == 0 else TRICKS - WIN + 1)
        made_by_caller = made if calling == 0 else not made
        if not made_by_caller:
            if state.game.options["defenders_score_on_fail"]:
                team = 1 - calling
            else:
                return [0.0] * NUM_SEATS
        else:
            team = calling
    return [1.0 if seat % 2 == team else -1.0 for seat in range(NUM_SEATS)]


def _team0_at_least(solver: TrickSolver, state: BauerTrickState, need: int) -> bool:
    """``team0_tricks_at_least`` from ``state``. ``forehand_on_four``'s first lead must be a
    trump when the leader holds one: that lead is tried here, card by card, so the search below
    (and its table, shared with other worlds) never carries the rule."""
    trick = list(zip(state.trick_seats, state.trick_cards))
    hands = list(state.hands)
    leader = state.leader
    if not (state.game.forehand_mode and state.trick_no == 0 and not trick):
        return solver.team0_tricks_at_least(hands, leader, trick, need)

    def after_lead(card: int) -> bool:
        rest = list(hands)
        rest[leader] ^= 1 << card
        return solver.team0_tricks_at_least(rest, leader, [(leader, card)], need)

    leads = (after_lead(card) for card in cards_of(state.legal_play_bits()))
    return any(leads) if leader % 2 == 0 else all(leads)


class DoubleDummyValue:
    """The deal's outcome under perfect play by all four seats of the sampled world (bauer_trick,
    play phase; ``None`` in the trump call). One transposition table per trump suit is kept
    across calls: its entries are exact positions (all four hands and the leader), true in every
    world, so later worlds, candidates and moves reuse what earlier ones proved. Cleared past
    ``max_entries``.

    In ``episode="deal"`` the value is the deal's reward itself. In a game episode the deal's
    point is valued as the rewards value it: with ``reward="points"`` +-1 per point plus the
    win's +-1 when it brings its team to 0; with ``reward="game"`` only the win pays, so a point
    is worth ``1 / points`` of the team that subtracts it (the full win when it reaches 0).
    """

    def __init__(self, max_entries: int = 400_000):
        self.make_solver, self.solve, self.play_phase = TrickSolver, solve_deal, PHASE_PLAY
        self.max_entries = max_entries
        self.solvers: dict[int, object] = {}

    def __call__(self, state: State, player: int) -> list[float] | None:
        if state.phase != self.play_phase:
            return None
        solver = self.solvers.get(state.trump)
        if solver is None or len(solver.bounds) > self.max_entries:
            solver = self.solvers[state.trump] = self.make_solver(state.trump)
        values = self.solve(state, solver)
        game = state.game
        scorer = next((seat % 2 for seat, v in enumerate(values) if v > 0), None)
        if game.deal_mode or scorer is None:
            return values
        wins = state.points[scorer] == 1
        if game.options["reward"] == "points":
            weight = 2.0 if wins else 1.0
        else:
            weight = 1.0 / max(1, state.points[scorer])
        return [v * weight for v in values]
