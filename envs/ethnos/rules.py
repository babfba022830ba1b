"""The Ethnos rules engine (spec §2-§8, decisions of §10): ``EthnosGame`` and ``EthnosState``.

``EthnosGame`` holds the options (table in ``tablezoo.envs.ethnos.options``), the per-player-count
tables and the precomputed masks; ``EthnosState`` is the mutable position: setup, whose turn,
drawing, legal masks and ``apply``. The other concerns live in helpers that take the state as an
argument and that this module imports (never the other way round): ``ages`` (dealing and ending an
Age), ``bands`` (resolving a played band), ``scoring``, ``observation`` (the incremental encoder:
the public numbers of the position live in the observation's float blocks, read and written through
the named views it binds), ``hidden`` (``determinize``), ``saving`` and ``render``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.fields import AFTER, COPY, ITEMS, NESTED, RESET, RNG, SHARED, Field, Fields
from tablezoo.envs.core.game import Game, State, rng_from
from tablezoo.envs.core.obs_spec import EventLog
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos import (
    ages,
    bands,
    hidden,
    information_state,
    invariants,
    observation,
    render,
    saving,
    scoring,
)
from tablezoo.envs.ethnos.components import (
    DRAGON,
    GLORY_SETS,
    MERFOLK,
    NUM_KINGDOMS,
    NUM_TRIBES,
    NUM_TYPES,
    SKELETON,
    SKELETONS,
    TRIBE_COUNTS,
    TRIBE_INDEX,
    TYPE_COLOUR,
    TYPE_TRIBE,
)  # fmt: skip
from tablezoo.envs.ethnos.options import OPTIONS
from tablezoo.envs.ethnos.scoring import CATEGORIES

_TYPE_TRIBE = TYPE_TRIBE.tolist()
_TYPE_COLOUR = TYPE_COLOUR.tolist()


class EthnosGame(Game):
    """Ethnos for 2-6 players; its rules and options are documented in ``tablezoo.envs.ethnos``."""

    name = "ethnos"
    OPTIONS = OPTIONS

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        n = o["num_players"]
        self.num_players = n
        self.num_actions = act.NUM_ACTIONS
        self.max_decisions = o["max_decisions"]
        self.auto_single_choice: bool = o["auto_single_choice"]
        self.marker_limit: int | None = o["marker_limit"]
        big = n >= 4
        self.num_ages = 3 if big else 2
        self.num_tribes = 6 if big or o["tribes_2_3p"] == 6 else 5
        self.slots_per_kingdom = 3 if big else 2
        self.merfolk_slots = tuple(o["merfolk_slots_4_6"] if big else o["merfolk_slots_2_3"])
        self.giant_bonus = tuple(o["giant_bonus_4_6"] if big else o["giant_bonus_2_3"])
        self.band_glory = tuple(o["band_glory"])
        self.orc_glory = tuple(o["orc_glory"])
        self.merfolk_spaces = tuple(o["merfolk_spaces"])
        self.merfolk_end = o["merfolk_end"]
        if self.merfolk_spaces[-1] > self.merfolk_end:
            raise InvalidOptionError(
                f"ethnos: merfolk_spaces {list(self.merfolk_spaces)} go past "
                f"merfolk_end={self.merfolk_end}; every space must be <= merfolk_end"
            )
        self.fixed_tribes: tuple[int, ...] | None = None
        if o["tribes"] is not None:
            fixed = tuple(sorted(TRIBE_INDEX[t.lower()] for t in o["tribes"]))
            if len(fixed) != self.num_tribes:
                raise InvalidOptionError(
                    f"ethnos: option tribes={list(o['tribes'])!r} names {len(fixed)} tribes; "
                    f"with {n} players and tribes_2_3p={o['tribes_2_3p']} exactly "
                    f"{self.num_tribes} are needed"
                )
            self.fixed_tribes = fixed
        # Own markers in one kingdom: a test placement needs E > own markers (3-6p) or > all
        # markers there (2p) with E <= 11 (Minotaur, X = 10), plus one per Merfolk space.
        markers_high = 11.0 + len(self.merfolk_spaces)
        self.obs_spec, widths = observation.build_obs_spec(
            n, markers_high, float(self.merfolk_end), float(len(self.merfolk_spaces)))
        observation.build_layout(self, widths)
        self.state_spec = observation.build_state_spec(self)  # full-information global state
        # the perfect-recall information state: the observation, then the Age's events
        self.event_table = information_state.event_table(self)
        self.information_state_spec = information_state.info_spec(self)
        self._build_masks()

    # --- precomputation --------------------------------------------------------------------
    def _build_masks(self) -> None:
        """Per leader type: which card types may join its band by tribe / by colour."""
        t = np.arange(NUM_TYPES)
        self.same_tribe = np.zeros((NUM_TYPES, NUM_TYPES), bool)
        self.same_colour = np.zeros((NUM_TYPES, NUM_TYPES), bool)
        for lead in range(NUM_TYPES - 1):
            self.same_tribe[lead] = (TYPE_TRIBE[lead] == TYPE_TRIBE) & (t != SKELETON)
            self.same_colour[lead] = (TYPE_COLOUR[lead] == TYPE_COLOUR) & (t != SKELETON)
        self.skeleton_only = t == SKELETON

    # --- protocol --------------------------------------------------------------------------
    def composition(self, tribes: tuple[int, ...]) -> np.ndarray:
        """How many cards of each type the Ally deck of ``tribes`` holds."""
        return TRIBE_COUNTS[list(tribes)].sum(axis=0)

    def new_state(self, seed: int | np.random.Generator | None = None) -> EthnosState:
        return EthnosState.new(self, seed)

    def state_from_dict(self, data: Mapping[str, Any]) -> EthnosState:
        return saving.state_from_dict(self, data, EthnosState)

    def action_name(self, action: int) -> str:
        return act.action_name(action)


class EthnosState(State):
    """One Ethnos position. Build with ``game.new_state(seed)`` or ``game.state_from_dict``.

    Its fields are declared once in ``FIELDS`` (``envs.core.fields``): the slots, ``clone`` and
    ``to_dict`` (key order as saved) follow from it; the codec's encoders live in ``saving``. The
    ``AFTER`` fields are named views into ``seat_f`` and ``glob_f``, bound by
    ``observation.bind_views`` after building or copying.
    """

    FIELDS = Fields(
        Field("game", SHARED, None),
        Field("n", SHARED, None),  # in the header, as num_players
        Field("tribes", SHARED, "tribes", encode=saving.save_tribes),
        Field("tokens", ITEMS, "glory_tokens"),
        Field("age", SHARED, "age"),
        Field("first_player", SHARED, "first_player"),
        Field("actor", SHARED, "actor"),
        Field("phase", SHARED, "phase", encode=saving.save_phase),
        Field("terminal", SHARED, "phase"),
        Field("decisions", SHARED, "decisions"),
        Field("deck", COPY, "deck"),
        Field("lower_left", SHARED, "lower_left"),  # the bottom cards holding every Dragon
        Field("dragons", SHARED, "dragons"),
        Field("third_drawer", SHARED, "third_drawer"),
        Field("display", AFTER, "display", encode=saving.save_ints("display")),
        Field("discard", COPY, "discard", encode=saving.save_ints("discard")),
        Field("hands", COPY, "hands", encode=saving.save_rows("hands")),
        Field("known", AFTER, "known", encode=saving.save_rows("known")),
        Field("bands", NESTED, "bands"),
        Field("glory", AFTER, "glory", encode=saving.save_ints("glory")),
        Field("breakdown", ITEMS, "breakdown"),
        Field("markers", AFTER, "markers", encode=saving.save_rows("markers")),
        Field("merfolk", AFTER, "merfolk", encode=saving.save_ints("merfolk")),
        Field("horde", AFTER, "horde", encode=saving.save_rows("horde")),
        Field("troll_owner", COPY, "troll_owner"),
        Field("giant_seat", SHARED, "giant_seat"),
        Field("giant_size", SHARED, "giant_size"),
        Field("giant_plays", COPY, "giant_plays", encode=saving.save_giant_plays),
        Field("building_leader", SHARED, "building", encode=saving.save_building),
        Field("building", COPY, "building"),
        Field("tribe_ok", SHARED, "building"),
        Field("colour_ok", SHARED, "building"),
        Field("cur_leader", SHARED, "band", encode=saving.save_band),
        Field("cur_x", SHARED, "band"),
        Field("cur_placed", SHARED, "band"),
        Field("merfolk_left", SHARED, "band"),
        Field("elf_kept", COPY, "band"),
        Field("orc_queue", COPY, "orc_queue"),
        Field("rng", RNG, "rng", encode=saving.save_rng),
        # the current Age's events (``information_state.py``)
        Field("events", COPY, "history", encode=saving.save_history, optional=True),
        # rebuilt on load: the observation blocks and their views, tallies, the game's constants
        Field("seat_f", COPY, None),
        Field("glob_f", COPY, None),
        Field("hand_len", COPY, None),
        Field("building_len", SHARED, None),
        Field("building_cards", COPY, None),  # leader first, then cards in the order added
        Field("elf_n", SHARED, None),
        Field("full", SHARED, None),  # the deck's composition (read-only)
        Field("has", SHARED, None),  # tribe in play, by tribe (a tuple)
        Field("_mask", RESET, None, reset=None),
        Field("first_col", AFTER, None),
        Field("third_col", AFTER, None),
        Field("hand_size", AFTER, None),
        Field("trolls_held", AFTER, None),
        Field("giant_col", AFTER, None),
        Field("band_cards", AFTER, None),
        Field("band_leaders", AFTER, None),
        Field("band_tribe_size", AFTER, None),
        Field("band_scored", AFTER, None),
        Field("band_glory_col", AFTER, None),
        Field("seat_flat", AFTER, None),
        Field("tokens_view", AFTER, None),
        Field("tribes_view", AFTER, None),
        Field("age_view", AFTER, None),
        Field("dragons_view", AFTER, None),
        Field("troll_supply", AFTER, None),
        Field("giant_size_view", AFTER, None),
        Field("band_x_view", AFTER, None),
        Field("band_leader_view", AFTER, None),
        Field("merfolk_left_view", AFTER, None),
        Field("elf_kept_view", AFTER, None),
        header=saving.save_header,
        header_keys=saving.HEADER_KEYS,
    )
    __slots__ = FIELDS.slots
    clone = FIELDS.clone_method(after=lambda _, new: observation.bind_views(new))
    to_dict = FIELDS.to_dict_method()

    # ----------------------------------------------------------------------------------------
    # construction
    # ----------------------------------------------------------------------------------------
    def __init__(self, game, rng: np.random.Generator):
        """An empty shell (no cards dealt); ``new`` and ``state_from_dict`` fill it."""
        self.game = game
        self.rng = rng
        n = game.num_players
        self.n = n
        self.seat_f = np.zeros((n, game.seat_width), np.float32)
        self.glob_f = np.zeros(game.glob_size, np.float32)
        self.hands = np.zeros((n, NUM_TYPES), np.float32)
        self.building = np.zeros(NUM_TYPES, np.float32)
        self.elf_kept = np.zeros(NUM_TYPES, np.float32)
        self.discard = np.zeros(NUM_TYPES, np.float32)
        self.hand_len = [0] * n
        self.tribes: tuple[int, ...] = ()
        self.tokens: list[list[int]] = [[] for _ in range(NUM_KINGDOMS)]
        self.deck: list[int] = []
        self.lower_left = 0  # the bottom ``lower_left`` deck cards hold every unrevealed Dragon
        self.dragons = 0
        self.age = 0
        self.first_player = 0
        self.actor = 0
        self.phase = act.TURN
        self.bands: list[list[list[int]]] = [[] for _ in range(n)]
        self.troll_owner = [-1] * 6
        self.giant_seat = -1
        self.giant_size = 0
        self.giant_plays: list[tuple[int, int]] = []
        self.building_leader = -1
        self.building_len = 0
        self.building_cards: list[int] = []  # leader first, then cards in the order added
        self.tribe_ok = True
        self.colour_ok = True
        self.cur_leader = -1
        self.cur_x = 0
        self.cur_placed = False
        self.merfolk_left = 0
        self.elf_n = 0
        self.orc_queue: list[int] = []
        self.third_drawer = -1
        self.decisions = 0
        self.terminal = False
        self.breakdown = [[0] * len(CATEGORIES) for _ in range(n)]
        self._mask: np.ndarray | None = None
        self.events = EventLog(n, "Age")  # the current Age's events (``information_state.py``)
        observation.bind_views(self)

    @classmethod
    def new(cls, game, seed: int | np.random.Generator | None) -> EthnosState:
        """Setup (§2) and the start of Age I (§3)."""
        rng = rng_from(seed)
        s = cls(game, rng)
        n = s.n
        if game.fixed_tribes is not None:
            tribes = game.fixed_tribes
        else:
            tribes = tuple(sorted(int(t) for t in rng.choice(12, game.num_tribes, replace=False)))
        tokens_set = GLORY_SETS[game.options["glory_tokens"]]
        pool = list(tokens_set["other"])
        if n >= 4:
            pool += list(tokens_set["four_plus"])
        pool = [pool[i] for i in rng.permutation(len(pool))]
        per = game.slots_per_kingdom
        tokens = [sorted(pool[k * per:(k + 1) * per]) for k in range(NUM_KINGDOMS)]
        s._set_static(tribes, tokens)
        s.first_player = int(rng.integers(n))
        ages.start_age(s, 0)
        s._auto_advance()
        return s

    def _set_static(self, tribes: tuple[int, ...], tokens: list[list[int]]) -> None:
        """Tribes in play and glory tokens (fixed for the whole game)."""
        self.tribes = tuple(tribes)
        self.tokens = [list(t) for t in tokens]
        self.full = self.game.composition(self.tribes).astype(np.float32)
        self.full.flags.writeable = False
        self.tribes_view[:] = 0
        self.tribes_view[list(self.tribes)] = 1
        self.tokens_view[:] = 0
        for k, vals in enumerate(self.tokens):
            self.tokens_view[k, :len(vals)] = vals
        self.has = tuple(t in self.tribes for t in range(12))

    # ----------------------------------------------------------------------------------------
    # helpers
    # ----------------------------------------------------------------------------------------
    def next_first_player(self) -> int:
        """§3.5: the first player of the next Age (see ``ages.next_first_player``)."""
        return ages.next_first_player(self)

    def troll_keys(self) -> list[tuple[int, ...]]:
        return scoring.troll_keys(self)

    def giant_bonus_winner(self) -> int:
        """§6.3: the seat that gains the Giant bonus (see ``scoring.giant_bonus_winner``)."""
        return scoring.giant_bonus_winner(self)

    def markers_available(self, p: int) -> bool:
        """§1.5: with ``marker_limit`` a player may run out of markers."""
        limit = self.game.marker_limit
        if limit is None:
            return True
        used = 1 + (1 if self.has[MERFOLK] else 0)
        used += int(self.markers[p].sum()) + int(self.horde[p].sum())
        return used < limit

    def marker_test(self, p: int, k: int, e: int) -> bool:
        """§4.2 a: E > own markers in K (3-6 players) or > all markers in K (2 players)."""
        if self.n == 2:
            return e > int(self.markers[:, k].sum())
        return e > int(self.markers[p, k])

    def _draw(self, p: int) -> bool:
        """Deck draw procedure D (§4.1) into ``p``'s hand.

        Returns True if the third Dragon was drawn (the Age has then ended)."""
        deck = self.deck
        while True:
            c = deck.pop()
            if len(deck) < self.lower_left:
                self.lower_left = len(deck)
            information_state.log(self, "dragon" if c == DRAGON else "draw", p,
                        *(() if c == DRAGON else (c,)))
            if c == DRAGON:
                self.dragons += 1
                self.dragons_view[0] = self.dragons
                if self.dragons == 3:
                    self.third_drawer = p
                    self.third_col[p] = 1  # public (spec §11): decides first-player ties
                    ages.end_age(self)
                    return True
                continue
            self.hands[p, c] += 1
            self.hand_len[p] += 1
            self.hand_size[p] += 1
            return False

    def end_turn(self) -> None:
        """The next seat clockwise starts a turn (also the last step of a band, ``bands``)."""
        bands.clear_band_context(self)
        self.actor = (self.actor + 1) % self.n
        self.phase = act.TURN

    # ----------------------------------------------------------------------------------------
    # protocol: who acts, what is legal
    # ----------------------------------------------------------------------------------------
    def acting_players(self) -> tuple[int, ...]:
        if self.terminal or self.decisions >= self.game.max_decisions:
            return ()
        return (self.actor,)

    def legal_mask(self, player: int) -> np.ndarray:
        """The acting seat's mask is cached and read-only (no caller can corrupt it); any other
        seat gets a fresh all-False array. Either stays valid after asking for another seat."""
        if player != self.actor or self.terminal or self.decisions >= self.game.max_decisions:
            return np.zeros(act.NUM_ACTIONS, bool)
        if self._mask is None:
            m = self._compute_mask()
            m.flags.writeable = False
            self._mask = m
        return self._mask

    def _compute_mask(self) -> np.ndarray:
        g = self.game
        p = self.actor
        m = np.zeros(act.NUM_ACTIONS, bool)
        phase = self.phase
        hand = self.hands[p]
        if phase == act.TURN:
            if self.hand_len[p] < 10:
                np.greater(self.display, 0, out=m[act.RECRUIT_DISPLAY:act.RECRUIT_DECK])
                m[act.RECRUIT_DECK] = True
            np.greater(hand[:SKELETON], 0, out=m[act.LEADER:act.LEADER + SKELETON])
            if self.hand_len[p] >= 10 and hand[SKELETON] >= self.hand_len[p]:
                m[act.PASS] = True  # ten Skeletons: nothing else is legal
        elif phase == act.BUILD:
            lead = self.building_leader
            ok = g.skeleton_only.copy()
            if self.tribe_ok:
                ok |= g.same_tribe[lead]
            if self.colour_ok:
                ok |= g.same_colour[lead]
            np.logical_and(hand > 0, ok, out=m[act.ADD_CARD:act.FINISH_BAND])
            m[act.FINISH_BAND] = True
        elif phase == act.WINGFOLK_PICK:
            e = self.cur_x
            for k in range(NUM_KINGDOMS):
                m[act.KINGDOM + k] = self.marker_test(p, k, e)
        elif phase == act.MERFOLK_PICK:
            m[act.KINGDOM:act.KINGDOM + NUM_KINGDOMS] = True
        elif phase == act.TROLL_PICK:
            for v in range(1, min(6, self.cur_x) + 1):
                m[act.TROLL + v - 1] = self.troll_owner[v - 1] < 0
        elif phase == act.CENTAUR_PICK:
            np.greater(hand[:SKELETON], 0, out=m[act.LEADER:act.LEADER + SKELETON])
            m[act.CENTAUR_STOP] = True
        elif phase == act.ELF_PICK:
            np.greater(hand, 0, out=m[act.ELF_KEEP:act.ELF_DONE])
            m[act.ELF_DONE] = True
        elif phase == act.WIZARD_PICK:
            m[act.WIZARD_DRAW] = m[act.WIZARD_SKIP] = True
        elif phase == act.ORC_PICK:
            m[act.ORC_EMPTY] = m[act.ORC_KEEP] = True
        return m

    # ----------------------------------------------------------------------------------------
    # protocol: applying decisions
    # ----------------------------------------------------------------------------------------
    def apply(self, actions: Mapping[int, int]) -> None:
        p = self.actor
        a = actions.get(p) if len(actions) == 1 and not self.terminal else None
        if type(a) is not int or not (0 <= a < act.NUM_ACTIONS) or not self.legal_mask(p)[a]:
            a = self.check_actions(actions)[p]  # raises the standard error when illegal
        self._do(p, a)
        self.decisions += 1
        self._auto_advance()

    def _auto_advance(self) -> None:
        """Option ``auto_single_choice``: apply decisions that have exactly one legal action."""
        self._mask = None
        if not self.game.auto_single_choice:
            return
        while not self.terminal:
            legal = np.flatnonzero(self.legal_mask(self.actor))
            if len(legal) != 1:
                return
            self._do(self.actor, int(legal[0]))
            self._mask = None

    def _do(self, p: int, a: int) -> None:
        self._mask = None
        phase = self.phase
        if phase == act.TURN:
            if a < act.RECRUIT_DECK:
                information_state.log(self, "recruit", p, a)
                self.display[a] -= 1
                self.hands[p, a] += 1
                self.known[p, a] += 1
                self.hand_len[p] += 1
                self.hand_size[p] += 1
                self.end_turn()
            elif a == act.RECRUIT_DECK:
                self._recruit_deck(p)
            elif a == act.PASS:
                # PASS is legal only with ten Skeletons: everybody now knows the hand.
                information_state.log(self, "pass", p)
                self.known[p, SKELETON] = self.hands[p, SKELETON]
                self.end_turn()
            else:
                bands.start_band(self, p, a - act.LEADER)
        elif phase == act.BUILD:
            if a == act.FINISH_BAND:
                bands.finish_band(self, p)
            else:
                t = a - act.ADD_CARD
                information_state.log(self, "add", p, t)
                self.hands[p, t] -= 1
                self.hand_len[p] -= 1
                self.building[t] += 1
                self.building_len += 1
                self.building_cards.append(t)
                if t != SKELETON:
                    lead = self.building_leader
                    if _TYPE_TRIBE[t] != _TYPE_TRIBE[lead]:
                        self.tribe_ok = False
                    if _TYPE_COLOUR[t] != _TYPE_COLOUR[lead]:
                        self.colour_ok = False
        elif phase == act.WINGFOLK_PICK:
            information_state.log(self, "kingdom", p, a - act.KINGDOM)
            bands.place(self, p, a - act.KINGDOM)
            self.cur_placed = True
            bands.ability(self, p)
        elif phase == act.MERFOLK_PICK:
            information_state.log(self, "kingdom", p, a - act.KINGDOM)
            bands.place(self, p, a - act.KINGDOM)
            self.merfolk_left -= 1
            self.merfolk_left_view[0] = self.merfolk_left
            bands.next_merfolk(self, p)
        elif phase == act.TROLL_PICK:
            v = a - act.TROLL
            information_state.log(self, "troll", p, v + 1)
            self.troll_owner[v] = p
            self.trolls_held[p, v] = 1
            self.troll_supply[v] = 0
            bands.after_ability(self, p)
        elif phase == act.CENTAUR_PICK:
            information_state.log(self, "centaur", p, int(a != act.CENTAUR_STOP))
            if a == act.CENTAUR_STOP:
                bands.discard(self, p)
            else:
                bands.clear_band_context(self)
                bands.start_band(self, p, a - act.LEADER)
        elif phase == act.ELF_PICK:
            if a == act.ELF_DONE:
                bands.finish_elf(self, p)
            else:
                t = a - act.ELF_KEEP
                information_state.log(self, "elf_keep", p, t)
                self.hands[p, t] -= 1
                self.hand_len[p] -= 1
                self.elf_kept[t] += 1
                self.elf_n += 1
                self.elf_kept_view[0] = self.elf_n
                if self.elf_n >= self.cur_x or self.hand_len[p] == 0:
                    bands.finish_elf(self, p)
        elif phase == act.WIZARD_PICK:
            information_state.log(self, "wizard", p, int(a == act.WIZARD_DRAW))
            if a == act.WIZARD_DRAW:
                for _ in range(self.cur_x):
                    if self._draw(p):
                        return
            self.end_turn()
        elif phase == act.ORC_PICK:
            information_state.log(self, "orc", p, int(a == act.ORC_EMPTY))
            self.orc_queue.pop(0)
            if a == act.ORC_EMPTY:
                ages.empty_horde(self, p)
            ages.next_orc(self)

    # --- recruiting ---------------------------------------------------------------------------
    def _recruit_deck(self, p: int) -> None:
        draws = 1
        if self.game.options["empty_display_draw_two"] and not self.display.any():
            draws = min(2, 10 - self.hand_len[p])
        for _ in range(draws):
            if self._draw(p):
                return
        self.end_turn()

    # ----------------------------------------------------------------------------------------
    # protocol: outcome
    # ----------------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.terminal

    def is_truncated(self) -> bool:
        return not self.terminal and self.decisions >= self.game.max_decisions

    def scores(self) -> list[float]:
        return [float(v) for v in self.glory]

    def score_breakdown(self) -> list[dict[str, float]]:
        return scoring.score_breakdown(self)

    def returns(self) -> list[float]:
        return scoring.returns(self)

    def final_rank_values(self) -> list[float]:
        """Per seat, a number whose order is the §8 ranking (``scoring.final_rank_values``)."""
        return scoring.final_rank_values(self)

    def winners(self) -> list[int]:
        return scoring.winners(self)

    # ----------------------------------------------------------------------------------------
    # protocol: information
    # ----------------------------------------------------------------------------------------
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self, player, out)

    def information_state(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation, then the Age's events this seat saw (``information_state.py``)."""
        return information_state.information_state(self, player, out)

    def log(self, kind: str, seat: int, *fields: int) -> None:
        """Record an event of the Age (``information_state.py``; the helpers call this)."""
        information_state.log(self, kind, seat, *fields)

    def log_cards(self, kind: str, seat: int, counts: np.ndarray) -> None:
        information_state.log_cards(self, kind, seat, counts)

    def log_age(self) -> None:
        """A new Age: its history starts afresh with the dealt cards."""
        information_state.dealt(self)

    def global_state(self, out: np.ndarray | None = None) -> np.ndarray:
        """Full-information state for centralised critics (``observation.global_state``)."""
        return observation.global_state(self, out)

    def determinize(self, player: int, rng: np.random.Generator) -> EthnosState:
        """A state consistent with all ``player`` has seen (see ``tablezoo.envs.ethnos.hidden``);
        the other seats' private history is marked unknown (``information_state.redact``)."""
        world = hidden.determinize(self, player, rng)
        information_state.redact(world, player)
        return world

    # ----------------------------------------------------------------------------------------
    # protocol: checking (``clone`` and ``to_dict`` come from ``FIELDS``)
    # ----------------------------------------------------------------------------------------
    def check(self) -> None:
        """Ethnos' invariants (``invariants.check_state``), then the shared ones."""
        invariants.check_state(self)
        information_state.check(self)
        super().check()

    def __str__(self) -> str:
        return render.render_text(self)


__all__ = ["CATEGORIES", "NUM_TRIBES", "OPTIONS", "SKELETONS", "EthnosGame", "EthnosState"]
