"""Pure engine of ``bauer_draft`` (no RL imports). Rules: ``envs/bauer_draft/README.md``.

One ``BauerDraftState`` walks through the rounds as a small state machine: a simultaneous select
decision (every seat), an optional Ville sub-step, then the reveal and the queue of on-play
effects, which pauses at every decision one player must take (Witch direction, Olle's pick, Daga,
copies, ...). Automatic steps run inside ``apply`` until the next decision, so ``acting_players``
always names the seats that must decide now.

Piles are Python lists with the top card at the end; ``piles[s]`` is the pile in front of seat
``s`` and ``pile_ids[s]`` its identity (the Witch moves piles, a passer remembers the identity).

The other concerns live in helper modules that take the state as an argument (this module
imports them, never the reverse): ``effects`` (the queue's character effects), ``scoring``,
``observation``, ``hidden`` (``determinize``), ``saving``, ``render``; the codes they share are in
``components`` (cards) and ``actions`` (action ids and decision kinds).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from itertools import chain
from typing import Any

import numpy as np

from tablezoo.envs.bauer_draft import information_state, invariants, render, saving
from tablezoo.envs.bauer_draft.actions import (
    COPY,
    COPY_CHOICE,
    COPY_DECLINE,
    COPY_LATER,
    COPY_OFFER,
    DAGA,
    DAGA_KEEP,
    DAGA_PLAY,
    DISCARD,
    MARTIN,
    NO_VILLE,
    NUM_ACTIONS,
    OLLE,
    OLLE_VILLE,
    OVER,
    PLAY,
    SELECT,
    SELECT_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
    WITCH_RIGHT,
    YULE,
    YULE_VILLE,
    action_name,
)
from tablezoo.envs.bauer_draft.components import COPIER_INDEX, DAGA_CARD, NIGHT, NUM_CARDS, VILLE
from tablezoo.envs.bauer_draft.effects import (
    BY_SELECT,
    COPY_DONE,
    COPY_NONE,
    COPY_WAIT,
    ELIGIBLE,
    EXTRA_BY,
    ON_PLAY,
    TASK_EFFECT,
    daga_discard,
    daga_swap,
    move_piles,
    offer_copy,
    resolve_extra,
    run_task,
    start_yule,
)
from tablezoo.envs.bauer_draft.hidden import TRACK_EXACT, TRACK_PILE, determinize
from tablezoo.envs.bauer_draft.observation import (
    Encoder,
    build_obs_spec,
    build_state_spec,
    global_state,
    observe,
    rebuild_views,
)
from tablezoo.envs.bauer_draft.scoring import (
    score_holdings,
    state_breakdown,
    state_holdings,
    state_returns,
)
from tablezoo.envs.core.errors import IllegalActionError
from tablezoo.envs.core.fields import CALL, ITEMS, RESET, SHARED, Field, Fields
from tablezoo.envs.core.fields import COPY as COPIED  # actions.COPY is a decision kind
from tablezoo.envs.core.game import Game, State, rng_from, rng_from_dict
from tablezoo.envs.core.obs_spec import EventLog
from tablezoo.envs.core.options import Option


class BauerDraftGame(Game):
    """Bauer – The Card Game: simultaneous drafting for 2–5 players (55 cards, 18 characters)."""

    name = "bauer_draft"
    OPTIONS = (
        Option("num_players", 4, "number of players", allowed=(2, 3, 4, 5)),
        Option("reward", "rank", "`rank`: zero-sum rank reward at the end (first +1, last -1, "
               "linear, ties averaged); `score`: raw final score; `margin`: own score minus the "
               "best other score", allowed=("rank", "score", "margin")),
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        n = self.options["num_players"]
        self.num_players = n
        self.num_rounds = 8 if n == 5 else 10
        self.pile_size = 10 if n == 5 else 12
        self.num_actions = NUM_ACTIONS
        self.obs_spec = build_obs_spec(n, self.num_rounds)
        # full information for centralised critics (observation.global_state)
        self.state_spec = build_state_spec(n, self.num_rounds, self.pile_size)
        # AEC steps: n selects + a Ville sub-step per round, at most 4 decisions per character
        # effect (Daga's re-copy included), one offer per copier and card, the Yule Goat.
        self.max_decisions = self.num_rounds * (n + 1) + 4 * 11 + 3 * NUM_CARDS + 4
        self.encoder = Encoder(self)
        # the perfect-recall information state: the observation, then the game's events
        self.event_table = information_state.event_table(self)
        self.information_state_spec = information_state.info_spec(self)

    def new_state(self, seed: int | np.random.Generator | None = None) -> BauerDraftState:
        state = BauerDraftState(self, rng_from(seed))
        state.setup()
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> BauerDraftState:
        return saving.state_from_dict(self, data, BauerDraftState)

    def action_name(self, action: int) -> str:
        return action_name(action)


def _rng_state_of(state: BauerDraftState) -> dict[str, Any] | None:
    """A clone's generator state: its generator is built on first use (building one is slow and
    clones rarely draw)."""
    return state.rng_state()


def _final_of(state: BauerDraftState) -> list[dict[str, int]] | None:
    """A clone's copy of the final breakdown (set once the game is over)."""
    final = state._final
    return None if final is None else [dict(row) for row in final]


class BauerDraftState(State):
    """One position. Fields are plain lists/ints plus a few small numpy arrays.

    Its fields are declared once in ``FIELDS`` (``envs.core.fields``): the slots, ``clone`` and
    ``to_dict`` (key order as saved) follow from it; the codec's encoders live in ``saving``.
    """

    FIELDS = Fields(
        Field("game", SHARED, None),
        Field("round", SHARED, "round"),
        Field("kind", SHARED, "kind", encode=saving.save_kind),
        Field("decider", SHARED, "decider"),
        Field("source", SHARED, "source", encode=saving.save_card("source")),
        Field("offer", SHARED, "offer", encode=saving.save_card("offer")),
        Field("first", SHARED, "first", encode=saving.save_first),
        Field("sel", ITEMS, "selected", encode=saving.save_selected),
        Field("hands", ITEMS, "hands", encode=saving.save_card_lists("hands")),
        Field("piles", ITEMS, "piles", encode=saving.save_card_lists("piles")),
        Field("pile_ids", COPIED, "pile_ids"),
        Field("central", COPIED, "central", encode=saving.save_cards("central")),
        Field("discards", COPIED, "discards", encode=saving.save_cards("discards")),
        Field("tableau", ITEMS, "tableau", encode=saving.save_tableau),
        Field("seq", COPIED, "tableau"),
        Field("played_round", COPIED, "tableau"),
        Field("played_by", COPIED, "tableau"),
        Field("next_seq", SHARED, "next_seq"),
        Field("copy_mode", COPIED, "copies", encode=saving.save_copies),
        Field("copy_target", COPIED, "copies"),
        Field("copy_since", COPIED, "copies"),
        Field("daga_used", SHARED, "daga_used"),
        Field("daga_ready", SHARED, "daga_ready"),
        Field("queue", COPIED, "queue", encode=saving.save_queue),
        Field("plays", COPIED, "plays"),
        Field("memory", ITEMS, "memory", encode=saving.save_memory),
        Field("tracked", ITEMS, "tracked", encode=saving.save_tracked),
        Field("_rng", RESET, "rng", encode=saving.save_rng, reset=None),
        Field("_rng_state", CALL, "rng", call=_rng_state_of),
        # every event of the game (``information_state.py``)
        Field("events", COPIED, "history", encode=saving.save_history, optional=True),
        # rebuilt on load: the seat count, the tableau owners, the encoder's views, caches
        Field("n", SHARED, None),
        Field("owner", COPIED, None),
        Field("tab_m", COPIED, None),
        Field("tab_day", COPIED, None),
        Field("disc_m", COPIED, None),
        Field("night_n", COPIED, None),
        Field("acting", SHARED, None),
        Field("_masks", COPIED, None),  # read-only masks, never written once handed out
        Field("_final", CALL, None, call=_final_of),
    )
    __slots__ = FIELDS.slots
    clone = FIELDS.clone_method()
    to_dict = FIELDS.to_dict_method()

    def __init__(self, game: BauerDraftGame, rng: np.random.Generator):
        n = game.num_players
        self.game = game
        self._rng: np.random.Generator | None = rng
        self._rng_state: dict[str, Any] | None = None  # a clone's generator, built on first use
        self.n = n
        self.round = 0
        self.kind = SELECT
        self.decider = -1                 # the single deciding seat outside the select step
        self.source = -1                  # the character whose effect is being decided
        self.offer = -1                   # the card offered to a copy-later copier
        self.first: tuple[int, bool] | None = None  # first pick of a Ville sub-step
        self.sel: list[list[tuple[int, bool]]] = [[] for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.pile_ids = list(range(n))
        self.central: list[int] = []
        self.discards: list[int] = []
        self.tableau: list[list[int]] = [[] for _ in range(n)]
        self.owner = [-1] * NUM_CARDS     # seat whose tableau holds the card
        self.seq = [-1] * NUM_CARDS       # play order of tableau cards
        self.played_round = [-1] * NUM_CARDS
        self.played_by = [-1] * NUM_CARDS  # how a tableau card was played (encoding.BY_*)
        self.next_seq = 0
        self.copy_mode = [COPY_NONE] * 3
        self.copy_target = [-1] * 3
        self.copy_since = [0] * 3
        self.daga_used = False
        self.daga_ready = False           # Daga is in a tableau and her on-play has resolved
        self.queue: deque[tuple[int, int, int]] = deque()
        self.plays = [0] * n              # cards each seat has played (entered its tableau)
        # memory[p][c]: id of the pile p knows card c was put on; tracked[p][c]: TRACK_EXACT or
        # TRACK_PILE for hidden cards whose place p knows (absent: TRACK_NONE).
        self.memory: list[dict[int, int]] = [{} for _ in range(n)]
        self.tracked: list[dict[int, int]] = [{} for _ in range(n)]
        # views kept in step with the lists for the observation encoder
        self.tab_m = np.zeros((n, NUM_CARDS), np.float32)  # card in seat's tableau
        self.tab_day = np.zeros((n, NUM_CARDS), np.float32)  # Day card in seat's tableau
        self.disc_m = np.zeros(NUM_CARDS, np.float32)       # card discarded
        self.night_n = [0] * n                              # Night cards in seat's tableau
        self.acting: tuple[int, ...] = tuple(range(n))
        self._masks: list[np.ndarray | None] = [None] * n
        self._final: list[dict[str, int]] | None = None
        self.events = EventLog(n)  # every event of the game (``information_state.py``)

    @property
    def rng(self) -> np.random.Generator:  # type: ignore[override]
        """The state's own generator (only Uggel-Guggel's shuffles draw from it in play)."""
        if self._rng is None:
            self._rng = rng_from_dict(self._rng_state)
            self._rng_state = None
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value
        self._rng_state = None

    def rng_state(self) -> dict[str, Any]:
        """The generator's exact position (without building a generator for a fresh clone)."""
        return self._rng.bit_generator.state if self._rng is not None else self._rng_state

    # --- setup -------------------------------------------------------------------------------
    def setup(self) -> None:
        g = self.game
        deck = [int(c) for c in self.rng.permutation(NUM_CARDS)]
        size = g.pile_size
        self.piles = [deck[s * size:(s + 1) * size] for s in range(self.n)]
        self.central = deck[self.n * size:]
        self._start_round()

    # --- protocol: who acts, what is legal ---------------------------------------------------
    def acting_players(self) -> tuple[int, ...]:
        return self.acting

    def legal_mask(self, player: int) -> np.ndarray:
        """Read-only and per seat: built once per decision, never written to once handed out."""
        mask = self._masks[player]
        if mask is None:
            mask = self._build_mask(player)
            mask.flags.writeable = False
            self._masks[player] = mask
        return mask

    def _build_mask(self, p: int) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, bool)
        if p not in self.acting:
            return m
        kind = self.kind
        daga = self.daga_available(p)
        if kind in (SELECT, MARTIN, OLLE, YULE):
            for c in self.hands[p]:
                m[PLAY + c] = True
                if daga:
                    m[DAGA_PLAY + c] = True
        elif kind in (SELECT_VILLE, OLLE_VILLE, YULE_VILLE):
            m[NO_VILLE] = True
            first, first_via = self.first_pick(p)
            for c in self.hands[p]:
                if c != first:
                    m[PLAY + c] = True
                    if daga and not first_via:
                        m[DAGA_PLAY + c] = True
        elif kind == WITCH:
            m[WITCH_LEFT] = m[WITCH_NONE] = True
            m[WITCH_RIGHT] = self.n > 2
        elif kind == DAGA:
            for c in self.tableau[p]:
                if c != DAGA_CARD:
                    m[DISCARD + c] = True
            m[DAGA_KEEP] = True
        elif kind == COPY_CHOICE:
            for c in self.copy_options(COPIER_INDEX[self.source], p):
                m[COPY + c] = True
            m[COPY_LATER] = True
        elif kind == COPY_OFFER:
            m[COPY + self.offer] = True
            m[COPY_DECLINE] = True
        return m

    def first_pick(self, p: int) -> tuple[int, bool]:
        """The first card of a Ville sub-step (select: the seat's pending selection)."""
        if self.kind == SELECT_VILLE:
            return self.sel[p][0]
        assert self.first is not None
        return self.first

    def daga_available(self, p: int) -> bool:
        """``p`` may use Daga's ability deferred now (Daga resolved in p's tableau, unused)."""
        return self.daga_ready and not self.daga_used and self.owner[DAGA_CARD] == p

    def ville_ready(self, p: int) -> bool:
        """``p`` has Ville in the tableau from an earlier round (the Yule stage counts as later)."""
        return self.owner[VILLE] == p and self.played_round[VILLE] < self.round

    def copy_options(self, k: int, p: int) -> list[int]:
        eligible = ELIGIBLE[k]
        return [c for c in self.tableau[p] if eligible[c]]

    # --- protocol: apply ---------------------------------------------------------------------
    def apply(self, actions: Mapping[int, int]) -> None:
        if self.kind == OVER:
            raise IllegalActionError(f"bauer_draft: the game is over; got actions {actions!r}")
        checked = self.check_actions(actions)
        kind = self.kind
        self._masks = [None] * self.n
        if kind == SELECT:
            for p in sorted(checked):
                information_state.decided(self, kind, p, checked[p], self.source, self.offer)
            self._apply_select(checked)
            return
        p = self.decider
        a = checked[p]
        information_state.decided(self, kind, p, a, self.source, self.offer)
        if kind == SELECT_VILLE:
            if a != NO_VILLE:
                self.sel[p].append((a % NUM_CARDS, a >= DAGA_PLAY))
            self._finish_select()
        elif kind == WITCH:
            move_piles(self, a)
            self._resume()
        elif kind in (MARTIN, OLLE, YULE):
            pick = (a % NUM_CARDS, a >= DAGA_PLAY)
            if kind != MARTIN and len(self.hands[p]) == 2 and self.ville_ready(p):
                self.first = pick
                self._decide(OLLE_VILLE if kind == OLLE else YULE_VILLE, p, self.source)
                return
            resolve_extra(self, p, [pick], ville_both=False, by=EXTRA_BY[kind])
        elif kind in (OLLE_VILLE, YULE_VILLE):
            assert self.first is not None
            picks = [self.first]
            if a != NO_VILLE:
                picks.append((a % NUM_CARDS, a >= DAGA_PLAY))
            self.first = None
            resolve_extra(self, p, picks, ville_both=a != NO_VILLE, by=EXTRA_BY[kind])
        elif kind == DAGA:
            self.daga_ready = True
            if a != DAGA_KEEP:
                daga_discard(self, p, a - DISCARD)
            self._resume()
        elif kind == COPY_CHOICE:
            k = COPIER_INDEX[self.source]
            if a == COPY_LATER:
                self.copy_mode[k] = COPY_WAIT
                self.copy_since[k] = self.next_seq
            else:
                self.copy_mode[k] = COPY_DONE
                self.copy_target[k] = a - COPY
            self._resume()
        elif kind == COPY_OFFER:
            k = COPIER_INDEX[self.source]
            if a == COPY_DECLINE:
                self.copy_since[k] = self.seq[self.offer] + 1
            else:
                self.copy_mode[k] = COPY_DONE
                self.copy_target[k] = self.offer
            self._resume()

    def _apply_select(self, actions: dict[int, int]) -> None:
        for p, a in actions.items():
            self.sel[p] = [(a % NUM_CARDS, a >= DAGA_PLAY)]
        v = self.owner[VILLE]
        if v >= 0 and self.ville_ready(v):
            self._decide(SELECT_VILLE, v, VILLE)
            return
        self._finish_select()

    # --- the round ---------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Draw: every seat takes the top 3 cards of the pile in front of it."""
        for known in self.tracked:  # a drawn-from pile: the place is unknown again
            for c in [c for c, level in known.items() if level == TRACK_PILE]:
                del known[c]
        memory = self.memory
        for s in range(self.n):
            pile = self.piles[s]
            drawn = pile[-3:][::-1]
            del pile[-3:]
            self.hands[s] = drawn
            for c in drawn:
                memory[s].pop(c, None)
        information_state.drawn(self)
        self.kind = SELECT
        self.decider = self.source = -1
        self.acting = tuple(range(self.n))

    def _finish_select(self) -> None:
        """Pass the unkept cards left, then reveal the selections and run the effect queue."""
        n = self.n
        sel, hands = self.sel, self.hands
        passes: list[list[int]] = []
        ville_user = -1
        for p in range(n):
            chosen = [c for c, _ in sel[p]]
            passed = [c for c in hands[p] if c not in chosen]
            if len(chosen) == 2:
                information_state.log(self, "ville_back", p)
                self._leave_tableau(VILLE)
                passed.append(VILLE)
                ville_user = p
            passes.append(passed)
        tracked, memory = self.tracked, self.memory
        holder = {c: q for q in range(n) for c in hands[q]}
        passed_on = set(chain(*passes))
        # seats that kept a card face down (a Night card played, not swapped via Daga)
        hid = [any(NIGHT[c] and not via for c, via in sel[q]) for q in range(n)]
        for known in tracked:
            if known:
                for c in [c for c in known if c in holder]:
                    # a known card the holder did not keep lies on the next pile: certain for a
                    # Day card (a kept one would show), and for a Night card when the holder
                    # kept nothing face down; otherwise its place is unknown
                    if c in passed_on and not (NIGHT[c] and hid[holder[c]]):
                        known[c] = TRACK_EXACT
                    else:
                        del known[c]
        for p in range(n):
            dest = (p + 1) % n
            pile_id = self.pile_ids[dest]
            self.piles[dest].extend(passes[p])
            for c in passes[p]:
                memory[p][c] = pile_id
                tracked[p][c] = TRACK_EXACT
        if ville_user >= 0:  # taking Ville back is public: everyone knows where he went
            dest = (ville_user + 1) % n
            for q in range(n):
                memory[q][VILLE] = self.pile_ids[dest]
                tracked[q][VILLE] = TRACK_EXACT
        self.hands = [[] for _ in range(n)]
        revealed: list[int] = []
        for p in range(n):
            start = len(self.events)
            for c, via_daga in sel[p]:
                if via_daga:
                    daga_swap(self, p, c, revealed)
                else:
                    self._play(p, c, revealed, BY_SELECT)
            self.canonical_events(start)  # which of two cards came first is not shown
        self.sel = [[] for _ in range(n)]
        revealed.sort()  # on-play effects of the reveal resolve in ascending card-id order
        self.queue.extend((TASK_EFFECT, c, self.owner[c]) for c in revealed)
        self._resume()

    def _resume(self) -> None:
        """Run queued effects and automatic steps until a decision is needed or the game ends."""
        self.first = None
        self.offer = -1
        queue = self.queue
        while True:
            while queue:
                if run_task(self, *queue.popleft()):
                    return
            if offer_copy(self):
                return
            last = self.game.num_rounds - 1
            if self.round < last:
                self.round += 1
                self._start_round()
                return
            if self.round == last:
                self.round += 1  # the Yule Goat stage after the final round
                if start_yule(self):
                    return
                continue
            self._finish()
            return

    def _decide(self, kind: int, player: int, source: int) -> None:
        self.kind = kind
        self.decider = player
        self.source = source
        self.acting = (player,)
        self._masks = [None] * self.n

    def _finish(self) -> None:
        self.kind = OVER
        self.decider = self.source = -1
        self.acting = ()
        self._final = self._compute_breakdown()

    # --- moving cards ------------------------------------------------------------------------
    def _play(self, p: int, c: int, collect: list[int] | None, by: int) -> None:
        """Card ``c`` enters p's tableau (played ``by`` the select or an effect, a public fact);
        a Day character's on-play effect is queued."""
        information_state.played(self, p, c, by)
        self.tableau[p].append(c)
        self.owner[c] = p
        self.seq[c] = self.next_seq
        self.next_seq += 1
        self.played_round[c] = self.round
        self.played_by[c] = by
        self.plays[p] += 1
        self.tab_m[p, c] = 1.0
        if NIGHT[c]:
            self.night_n[p] += 1
        else:
            self.tab_day[p, c] = 1.0
        if not NIGHT[c]:
            for mem in self.memory:
                mem.pop(c, None)
        if c == DAGA_CARD:
            self.daga_ready = False
        if ON_PLAY[c]:
            if collect is None:
                self.queue.append((TASK_EFFECT, c, p))
            else:
                collect.append(c)

    def _play_central(self, p: int, count: int, collect: list[int] | None, by: int) -> None:
        for _ in range(min(count, len(self.central))):
            self._play(p, self.central.pop(), collect, by)

    def _discard(self, c: int) -> None:
        information_state.log(self, "discard", -1, c)
        self.discards.append(c)
        self.disc_m[c] = 1.0
        for mem in self.memory:
            mem.pop(c, None)

    def _leave_tableau(self, c: int) -> list[int]:
        """Remove ``c`` from its tableau; return the copiers that lost their copy's source."""
        p = self.owner[c]
        self.tableau[p].remove(c)
        self.tab_m[p, c] = 0.0
        self.tab_day[p, c] = 0.0
        if NIGHT[c]:
            self.night_n[p] -= 1
        self.owner[c] = -1
        self.seq[c] = -1
        self.played_by[c] = -1
        if c in COPIER_INDEX:
            k = COPIER_INDEX[c]
            self.copy_mode[k] = COPY_NONE
            self.copy_target[k] = -1
        lost = []
        for k in range(3):
            if self.copy_mode[k] == COPY_DONE and self.copy_target[k] == c:
                self.copy_mode[k] = COPY_NONE
                self.copy_target[k] = -1
                lost.append(k)
        return lost

    # --- invariants --------------------------------------------------------------------------
    def check(self) -> None:
        """The rules' invariants (``invariants.check_state``), then the protocol's (base class)."""
        invariants.check_state(self)
        information_state.check(self)
        super().check()

    # --- outcome -----------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.kind == OVER

    def holdings(self) -> list[list[int]]:
        """Per seat: tableau cards plus one entry per copy made."""
        return state_holdings(self)

    def rebuild_views(self) -> None:
        """Recompute the encoder's views from the card lists (after a load or re-sampling)."""
        rebuild_views(self)

    def all_cards(self) -> list[int]:
        """Every card in a hand, pile, the central deck, the discards or a tableau."""
        return list(chain(*self.hands, *self.piles, self.central, self.discards, *self.tableau))

    def night_counts(self) -> list[int]:
        return [sum(NIGHT[c] for c in h) for h in self.holdings()]

    def _compute_breakdown(self) -> list[dict[str, int]]:
        return score_holdings(self.holdings())

    def score_breakdown(self) -> list[dict[str, float]]:
        return state_breakdown(self)

    def scores(self) -> list[float]:
        return [float(sum(d.values())) for d in self.score_breakdown()]

    def returns(self) -> list[float]:
        return state_returns(self)

    # --- information -------------------------------------------------------------------------
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observe(self, player, out)

    def information_state(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation, then every event of the game this seat saw
        (``information_state.py``)."""
        return information_state.information_state(self, player, out)

    def log(self, kind: str, seat: int, *fields: int) -> None:
        """Record an event of the game (``information_state.py``; the effects call this)."""
        information_state.log(self, kind, seat, *fields)

    def canonical_events(self, start: int) -> None:
        """The events since ``start`` happened at once for the seats who did not decide them:
        recorded in a canonical order (``information_state.canonical``)."""
        information_state.canonical(self, start)

    def global_state(self, out: np.ndarray | None = None) -> np.ndarray:
        return global_state(self, out)

    def determinize(self, player: int, rng: np.random.Generator) -> BauerDraftState:
        world = determinize(self, player, rng)
        information_state.redact(world, player)  # the other seats' private history: unknown
        return world

    # --- text (``clone`` and ``to_dict`` come from ``FIELDS``) --------------------------------
    def __str__(self) -> str:
        return render.render_state(self)
