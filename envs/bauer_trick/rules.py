"""Pure engine of ``bauer_trick`` (no RL imports). Rules: ``envs/bauer_trick/README.md``.

Hands are integer bit masks (bit ``card`` set) so legality and trick resolution are a few integer
operations; the observation lives in one absolute float32 buffer updated in place as the deal
goes on (see ``observation``) and rebuilt from scratch only at the start of a deal or a load.
The concerns around the play live in their own modules, which this one imports: ``components``
(the pack), ``actions``, ``scoring``, ``observation``, ``hidden`` (``determinize``), ``saving``
and ``render``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.bauer_trick import (
    hidden,
    information_state,
    invariants,
    observation,
    render,
    saving,
    scoring,
)
from tablezoo.envs.bauer_trick.actions import CALL_BASE, NUM_ACTIONS, PASS, action_name
from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    PHASE_CALL,
    PHASE_OVER,
    PHASE_PLAY,
    SPOKE_PASS,
    STRENGTH,
    SUIT_BITS,
    bits_of,
)
from tablezoo.envs.bauer_trick.observation import ABS, ABS_SIZE, OBS_SPEC, STATE_SPEC
from tablezoo.envs.bauer_trick.scoring import CATEGORIES
from tablezoo.envs.bauer_trick.symmetry import suit_symmetries
from tablezoo.envs.core.fields import COPY, ITEMS, RESET, RNG, SHARED, Field, Fields
from tablezoo.envs.core.game import Game, State, rng_from
from tablezoo.envs.core.options import Option, int_range
from tablezoo.envs.core.symmetry import Symmetries

_ACTING = tuple((p,) for p in range(NUM_SEATS))
_MASK_BYTES = (NUM_ACTIONS + 7) // 8


def _read_only(mask: np.ndarray) -> np.ndarray:
    mask.flags.writeable = False
    return mask


# The masks that do not depend on the cards, shared by every state (read-only, never rewritten).
_NO_ACTION = _read_only(np.zeros(NUM_ACTIONS, bool))
_CALL_OR_PASS = _read_only(np.arange(NUM_ACTIONS) >= CALL_BASE)
_CALL_ONLY = _read_only((np.arange(NUM_ACTIONS) >= CALL_BASE) & (np.arange(NUM_ACTIONS) < PASS))


class BauerTrickGame(Game):
    """Bauer, the Saarland partnership trick-taking game: 4 players, teams {0, 2} and {1, 3}."""

    name = "bauer_trick"
    OPTIONS = (
        Option("episode", "game", "`game`: play deals until a team reaches 0 points; `deal`: one "
               "deal per episode", allowed=("game", "deal")),
        Option("start_score", 8, "points each team starts with", check=int_range(1)),
        Option("max_deals", 100, "deals after which a `game` episode is truncated",
               check=int_range(1)),
        Option("no_trump_leader", "dealer", "who leads a deal without trump",
               allowed=("dealer", "left_of_dealer")),
        Option("defenders_score_on_fail", False, "when the calling team fails (4-4 included) "
               "the other team subtracts 1", allowed=(False, True)),
        Option("trump_selection", "call_or_pass", "`call_or_pass`: each player once names a suit "
               "or passes; `forehand_on_four`: 4 cards each, the player left of the dealer must "
               "name trump, 4 more cards each, that player leads a trump if able",
               allowed=("call_or_pass", "forehand_on_four")),
        Option("reward", "game", "`game`: +1/-1 to the winning/losing team at the end; "
               "`points`: also +1/-1 each time a team subtracts a point",
               allowed=("game", "points")),
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.num_players = NUM_SEATS
        self.teams = ((0, 2), (1, 3))
        self.num_actions = NUM_ACTIONS
        self.obs_spec = OBS_SPEC
        self.state_spec = STATE_SPEC  # full information (observation.global_state)
        self.information_state_spec = information_state.INFO_SPEC  # perfect recall of the deal
        self.deal_mode = self.options["episode"] == "deal"
        self.forehand_mode = self.options["trump_selection"] == "forehand_on_four"
        self.max_decisions = 36 if self.deal_mode else 36 * self.options["max_deals"]
        self.categories = CATEGORIES if self.options["defenders_score_on_fail"] else CATEGORIES[:2]

    def new_state(self, seed: int | np.random.Generator | None = None) -> BauerTrickState:
        state = BauerTrickState(self, rng_from(seed))
        state.dealer = int(state.rng.integers(NUM_SEATS))
        state.deal()
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> BauerTrickState:
        return saving.state_from_dict(self, data, BauerTrickState)

    def action_name(self, action: int) -> str:
        return action_name(action)

    def symmetries(self) -> Symmetries:
        """The 8 colour-preserving suit renamings (``envs/bauer_trick/symmetry.py``)."""
        return suit_symmetries()


class BauerTrickState(State):
    """One position: a deal in its call or play phase, or the finished game.

    Its fields are declared once in ``FIELDS`` (``envs.core.fields``): the slots, ``clone`` and
    ``to_dict`` (key order as saved) follow from it; the codec's encoders live in ``saving``.
    """

    FIELDS = Fields(
        Field("game", SHARED, None),
        Field("phase", SHARED, "phase", encode=saving.save_phase),
        Field("dealer", SHARED, "dealer"),
        Field("to_act", SHARED, "to_act"),
        Field("hands", COPY, "hands", encode=saving.save_hands),  # bit masks
        Field("undealt", COPY, "undealt"),
        Field("calls", COPY, "calls"),
        Field("trump", SHARED, "trump"),
        Field("caller", SHARED, "caller"),
        Field("leader", SHARED, "leader"),
        Field("trick_seats", COPY, "trick", encode=saving.save_trick),
        Field("trick_cards", COPY, "trick"),
        Field("trick_no", SHARED, "trick_no"),
        Field("tricks", COPY, "tricks"),
        Field("played", COPY, "played", encode=saving.save_played),  # bit masks
        Field("voids", COPY, "voids"),
        Field("points", COPY, "points"),
        Field("tally", ITEMS, "tally"),
        Field("deals_played", SHARED, "deals_played"),
        Field("truncated", SHARED, "truncated"),
        Field("total_returns", COPY, "returns"),
        Field("decisions", SHARED, "decisions"),
        Field("rng", RNG, "rng", encode=saving.save_rng),
        # the deal's record for the information state (``information_state.py``)
        Field("trick_history", ITEMS, "history", encode=saving.save_history, optional=True),
        Field("first_four", COPY, "history"),
        Field("history_known", SHARED, "history"),
        # rebuilt on load (``encode``, the first trick card) or caches
        Field("led_suit", SHARED, None),
        Field("buf", COPY, None),
        Field("hbuf", COPY, None),
        Field("_mask", RESET, None, reset=_NO_ACTION),
        Field("_mask_for", RESET, None, reset=-1),
    )
    __slots__ = FIELDS.slots
    clone = FIELDS.clone_method()
    to_dict = FIELDS.to_dict_method()

    def __init__(self, game: BauerTrickGame, rng: np.random.Generator):
        self.game = game
        self.rng = rng
        self.points = [game.options["start_score"]] * 2
        self.tally = [dict.fromkeys(game.categories, 0) for _ in range(2)]
        self.total_returns = [0.0] * NUM_SEATS
        self.deals_played = 0
        self.truncated = False
        self.dealer = 0
        self.buf = np.zeros(ABS_SIZE, np.float32)
        self.hbuf = np.zeros(information_state.H_SIZE, np.float32)  # the deal's history
        self._mask = _NO_ACTION  # the play-phase mask of the current decision, once asked for
        self._mask_for = -1  # decisions * NUM_SEATS + seat the cached mask belongs to
        self.decisions = 0
        self._reset_deal_fields()

    def _reset_deal_fields(self) -> None:
        self.phase = PHASE_CALL
        self.hands = [0] * NUM_SEATS
        self.undealt: list[int] = []
        self.calls = [-1] * NUM_SEATS
        self.trump = -1
        self.caller = -1
        self.to_act = (self.dealer + 1) % NUM_SEATS
        self.leader = -1
        self.led_suit = -1
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.trick_no = 0
        self.tricks = [0, 0]
        self.played = [0] * NUM_SEATS
        self.voids = [0] * NUM_SEATS
        self.trick_history: list[list[int]] = []  # completed tricks: [leader, cards in order]
        self.first_four = [0] * NUM_SEATS  # forehand_on_four: each seat's cards before the call
        self.history_known = True  # False: loaded from a save without its history

    # --- dealing -----------------------------------------------------------------------------
    def deal(self) -> None:
        """Shuffle and deal a new deal (the dealer is already set)."""
        self._reset_deal_fields()
        order = self.rng.permutation(NUM_CARDS).tolist()
        first = (self.dealer + 1) % NUM_SEATS
        per_round = 4 if self.game.forehand_mode else 8
        for i in range(NUM_SEATS):
            seat = (first + i) % NUM_SEATS
            self.hands[seat] = bits_of(order[i * per_round : (i + 1) * per_round])
        self.undealt = order[NUM_SEATS * per_round :]
        information_state.dealt(self)
        self.encode()

    def _deal_rest(self) -> None:
        """``forehand_on_four``: after the call, 4 more cards each, in the same seat order."""
        first = (self.dealer + 1) % NUM_SEATS
        for i in range(NUM_SEATS):
            seat = (first + i) % NUM_SEATS
            self.hands[seat] |= bits_of(self.undealt[i * 4 : (i + 1) * 4])
        self.undealt = []

    # --- protocol: decisions -----------------------------------------------------------------
    def acting_players(self) -> tuple[int, ...]:
        return () if self.phase == PHASE_OVER else _ACTING[self.to_act]

    def legal_play_bits(self) -> int:
        """Cards the acting player may play, as a bit mask."""
        hand = self.hands[self.to_act]
        if self.led_suit >= 0:
            follow = hand & SUIT_BITS[self.trump][self.led_suit]
            return follow or hand
        if self.game.forehand_mode and self.trick_no == 0:
            trumps = hand & SUIT_BITS[self.trump][self.trump]
            return trumps or hand
        return hand

    def legal_mask(self, player: int) -> np.ndarray:
        """A read-only mask: shared constants for the call and for seats not acting, a new array
        per decision in the play (cached for that decision), never written to once handed out."""
        key = self.decisions * NUM_SEATS + player
        if self._mask_for == key:
            return self._mask
        if self.phase == PHASE_OVER or player != self.to_act:
            return _NO_ACTION
        if self.phase == PHASE_CALL:
            return _CALL_ONLY if self.game.forehand_mode else _CALL_OR_PASS
        # the legal cards' bit mask expanded to one bool per action id (ids 32.. are not cards)
        raw = self.legal_play_bits().to_bytes(_MASK_BYTES, "little")
        mask = np.unpackbits(np.frombuffer(raw, np.uint8), count=NUM_ACTIONS,
                             bitorder="little").view(bool)
        mask.flags.writeable = False
        self._mask = mask
        self._mask_for = key
        return mask

    def _is_legal(self, action: int) -> bool:
        if self.phase == PHASE_CALL:
            return CALL_BASE <= action < PASS or (action == PASS and not self.game.forehand_mode)
        return 0 <= action < NUM_CARDS and bool((self.legal_play_bits() >> action) & 1)

    def apply(self, actions: Mapping[int, int]) -> None:
        p = self.to_act
        if self.phase == PHASE_OVER or len(actions) != 1 or p not in actions:
            self.check_actions(actions)  # raises the standard, detailed error
        action = actions[p]
        if type(action) is not int:
            action = self.check_actions(actions)[p]
        if not self._is_legal(action):
            raise self.illegal(p, action)
        self.decisions += 1
        if self.phase == PHASE_CALL:
            self._call(p, action)
        else:
            self._play(p, action)

    # --- the trump call ------------------------------------------------------------------------
    def _call(self, p: int, action: int) -> None:
        buf = self.buf
        if action == PASS:
            self.calls[p] = SPOKE_PASS
            buf[ABS["calls"] + p * 5 + SPOKE_PASS] = 1.0
            nxt = (p + 1) % NUM_SEATS
            if nxt != (self.dealer + 1) % NUM_SEATS:
                self.to_act = nxt
                return
            self.trump = NO_TRUMP
            left = self.game.options["no_trump_leader"] == "left_of_dealer"
            self._start_play((self.dealer + 1) % NUM_SEATS if left else self.dealer)
            return
        suit = action - CALL_BASE
        self.calls[p] = suit
        self.trump = suit
        self.caller = p
        if self.game.forehand_mode:
            self._deal_rest()
        self._start_play(p)

    def _start_play(self, leader: int) -> None:
        self.phase = PHASE_PLAY
        self.leader = self.to_act = leader
        self.encode()
        information_state.led(self, leader)

    # --- trick play --------------------------------------------------------------------------
    def _play(self, p: int, card: int) -> None:
        buf = self.buf
        self.hands[p] &= ~(1 << card)
        buf[ABS["hand"] + p * NUM_CARDS + card] = 0.0
        buf[ABS["trick"] + p * NUM_CARDS + card] = 1.0
        information_state.played(self, p, card)
        suit = EFFECTIVE_SUIT[self.trump][card]
        if self.led_suit < 0:
            self.led_suit = suit
            if self.game.forehand_mode and self.trick_no == 0 and suit != self.trump:
                # Leading a non-trump here shows the leader holds no trump.
                self._mark_void(p, self.trump)
        elif suit != self.led_suit:
            self._mark_void(p, self.led_suit)
        self.trick_seats.append(p)
        self.trick_cards.append(card)
        if len(self.trick_cards) == NUM_SEATS:
            self._finish_trick()
        else:
            self.to_act = (p + 1) % NUM_SEATS

    def _mark_void(self, seat: int, suit: int) -> None:
        if suit < 4:
            self.voids[seat] |= 1 << suit
            self.buf[ABS["void"] + seat * 4 + suit] = 1.0

    def _finish_trick(self) -> None:
        strength = STRENGTH[self.trump][self.led_suit]
        best = max(range(NUM_SEATS), key=lambda i: strength[self.trick_cards[i]])
        winner = self.trick_seats[best]
        team = winner % 2
        buf = self.buf
        buf[ABS["tricks_won"] + team * 9 + self.tricks[team]] = 0.0
        self.tricks[team] += 1
        buf[ABS["tricks_won"] + team * 9 + self.tricks[team]] = 1.0
        for seat, card in zip(self.trick_seats, self.trick_cards):
            self.played[seat] |= 1 << card
            buf[ABS["trick"] + seat * NUM_CARDS + card] = 0.0
            buf[ABS["played"] + seat * NUM_CARDS + card] = 1.0
        buf[ABS["leader"] + self.leader] = 0.0
        buf[ABS["leader"] + winner] = 1.0
        buf[ABS["trick_number"] + self.trick_no] = 0.0
        information_state.trick_done(self)
        self.trick_seats = []
        self.trick_cards = []
        self.led_suit = -1
        self.trick_no += 1
        self.leader = self.to_act = winner
        if self.trick_no == 8:
            self._finish_deal()
        else:
            buf[ABS["trick_number"] + self.trick_no] = 1.0
            information_state.led(self, winner)

    def deal_scorer(self) -> tuple[int, str] | None:
        """The team that subtracts a point for this finished deal and why, or ``None``."""
        return scoring.deal_scorer(self)

    def _finish_deal(self) -> None:
        game = self.game
        self.deals_played += 1
        scorer = scoring.score_deal(self)
        if scorer is not None and self.points[scorer[0]] == 0 and not game.deal_mode:
            scoring.reward_team(self, scorer[0], 1.0)
            self.phase = PHASE_OVER
        elif game.deal_mode:
            self.phase = PHASE_OVER
        elif self.deals_played >= game.options["max_deals"]:
            self.phase = PHASE_OVER
            self.truncated = True
        else:
            self.dealer = (self.dealer + 1) % NUM_SEATS
            self.deal()
            return
        self.encode()

    # --- invariants --------------------------------------------------------------------------
    def check(self) -> None:
        """The rules' invariants (``invariants.check_state``), then the protocol's (base class)."""
        invariants.check_state(self)
        information_state.check(self)
        super().check()

    # --- protocol: outcome -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER and not self.truncated

    def is_truncated(self) -> bool:
        return self.truncated

    def returns(self) -> list[float]:
        return list(self.total_returns)  # a copy: scoring adds to the list in place

    def scores(self) -> list[float]:
        return scoring.scores(self)

    def score_breakdown(self) -> list[dict[str, float]]:
        return scoring.score_breakdown(self)

    # --- protocol: information ---------------------------------------------------------------
    def encode(self) -> None:
        """Rebuild the absolute observation and history buffers from the compact state."""
        observation.encode(self)
        information_state.encode(self)

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self, player, out)

    def information_state(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The default observation and this deal's history (``information_state.py``)."""
        return information_state.information_state(self, player, out)

    def global_state(self, out: np.ndarray | None = None) -> np.ndarray:
        return observation.global_state(self, out)

    def determinize(self, player: int, rng: np.random.Generator) -> BauerTrickState:
        world = hidden.determinize(self, player, rng)
        information_state.resample(world, player)  # the others' first four cards (forehand_on_four)
        return world

    # --- text ---------------------------------------------------------------
    def render_text(self, viewer: int | None = None) -> str:
        return render.render_state(self, viewer)

    def __str__(self) -> str:
        return render.render_state(self, None)
