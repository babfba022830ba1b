"""The mutable Ethnos position and its rules engine (spec §2-§8, decisions of §10).

Layout for speed: every public per-seat number the observation shows lives in one float32 matrix
``seat_f`` (one row per seat, columns named by ``game.seat_cols``) and every public seat-free
number in one float32 vector ``glob_f``; the engine reads and writes them through named views
(``self.markers``, ``self.display``, ...). ``observe`` is then one slice copy, one gather with a
precomputed per-observer index (seat-relative order) and the private pieces.

Band resolution is a chain of small continuation methods (marker step -> ability -> Centaur
follow-up -> discard -> Wizard draw -> end of turn); each stops where a player must decide and
the matching action handler calls the next one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envs.core.game import State, margin_rewards, rank_rewards, rng_from
from envs.ethnos import encoding as enc
from envs.ethnos.components import (
    CENTAURS,
    DRAGON,
    DWARVES,
    ELVES,
    GIANTS,
    GLORY_SETS,
    HALFLINGS,
    MERFOLK,
    MINOTAURS,
    NUM_KINGDOMS,
    NUM_TYPES,
    ORCS,
    SKELETON,
    TROLLS,
    TYPE_COLOUR,
    TYPE_TRIBE,
    WINGFOLK,
    WIZARDS,
)  # fmt: skip
from envs.ethnos.scoring import (
    age_slots,
    band_value,
    rank_award,
    troll_key,
    two_player_age_two,
)  # fmt: skip

CATEGORIES: tuple[str, ...] = ("kingdoms", "merfolk", "giant_claims", "giant_bonus", "orcs",
                               "bands")
KINGDOM_CAT, MERFOLK_CAT, GIANT_CLAIM_CAT, GIANT_BONUS_CAT, ORC_CAT, BAND_CAT = range(6)
_TYPE_TRIBE = TYPE_TRIBE.tolist()
_TYPE_COLOUR = TYPE_COLOUR.tolist()


class EthnosState(State):
    """One Ethnos position. Build with ``game.new_state(seed)`` or ``game.state_from_dict``."""

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
        self.phase = enc.TURN
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
        self._bind_views()

    def _bind_views(self) -> None:
        cols = self.game.seat_cols
        sf = self.seat_f

        def col(name: str, width: int = 0) -> np.ndarray:
            c = cols[name]
            return sf[:, c] if width == 0 else sf[:, c:c + width]

        self.first_col = col("first_player")
        self.third_col = col("third_dragon")
        self.hand_size = col("hand_size")
        self.glory = col("glory")
        self.markers = col("markers", NUM_KINGDOMS)
        self.merfolk = col("merfolk_track")
        self.horde = col("horde", NUM_KINGDOMS)
        self.trolls_held = col("trolls_held", 6)
        self.giant_col = col("giant_holder")
        self.known = col("known_hand", NUM_TYPES)
        self.band_cards = col("band_cards", NUM_TYPES)
        self.band_leaders = col("band_leaders", NUM_TYPES)
        self.band_tribe_size = col("band_tribe_size", 110)
        self.band_scored = col("band_scored_size", 10)
        self.band_glory_col = col("band_glory")
        self.seat_flat = sf.reshape(-1)
        g = self.glob_f
        sl = self.game.glob_slices
        self.display = g[sl["display"]]
        self.tokens_view = g[sl["glory_tokens"]].reshape(NUM_KINGDOMS, 3)
        self.tribes_view = g[sl["tribes_in_play"]]
        self.age_view = g[sl["age"]]
        self.dragons_view = g[sl["dragons_revealed"]]
        self.troll_supply = g[sl["troll_supply"]]
        self.giant_size_view = g[sl["giant_band_size"]]
        self.band_x_view = g[sl["band_x"]]
        self.band_leader_view = g[sl["band_leader"]]
        self.merfolk_left_view = g[sl["merfolk_markers_left"]]
        self.elf_kept_view = g[sl["elf_kept"]]

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
        s._start_age(0)
        s._auto_advance()
        return s

    def _set_static(self, tribes: tuple[int, ...], tokens: list[list[int]]) -> None:
        """Tribes in play and glory tokens (fixed for the whole game)."""
        self.tribes = tuple(tribes)
        self.tokens = [list(t) for t in tokens]
        self.full = self.game.composition(self.tribes).astype(np.float32)
        self.tribes_view[:] = 0
        self.tribes_view[list(self.tribes)] = 1
        self.tokens_view[:] = 0
        for k, vals in enumerate(self.tokens):
            self.tokens_view[k, :len(vals)] = vals
        self.has = [t in self.tribes for t in range(12)]

    # ----------------------------------------------------------------------------------------
    # Ages
    # ----------------------------------------------------------------------------------------
    def _start_age(self, age: int) -> None:
        """§3: reshuffle every Ally, deal 1 card each and 2n to the display, insert Dragons."""
        n = self.n
        rng = self.rng
        self.age = age
        self.age_view[:] = 0
        self.age_view[age] = 1
        self.hands[:] = 0
        self.hand_len = [0] * n
        self.discard[:] = 0
        self.display[:] = 0
        self.bands = [[] for _ in range(n)]
        sf = self.seat_f
        cols, widths = self.game.seat_cols, self.game.seat_widths
        for name in ("known_hand", "band_cards", "band_leaders", "band_tribe_size",
                     "band_scored_size"):
            sf[:, cols[name]:cols[name] + widths[name]] = 0
        self.band_glory_col[:] = 0
        self.hand_size[:] = 0
        cards = np.repeat(np.arange(NUM_TYPES), self.full.astype(np.int64))
        deck = cards[rng.permutation(len(cards))].tolist()
        for p in range(n):
            c = deck.pop()
            self.hands[p, c] += 1
            self.hand_len[p] = 1
            self.hand_size[p] = 1
        for _ in range(2 * n):
            self.display[deck.pop()] += 1
        rest = len(deck)
        low = rest // 2
        lower = deck[:low] + [DRAGON] * 3
        lower = [lower[i] for i in rng.permutation(len(lower))]
        self.deck = lower + deck[low:]
        self.lower_left = low + 3
        self.dragons = 0
        self.dragons_view[0] = 0
        self.troll_owner = [-1] * 6
        self.trolls_held[:] = 0
        self.troll_supply[:] = 1 if self.has[TROLLS] else 0
        self.giant_seat = -1
        self.giant_size = 0
        self.giant_plays = []
        self.giant_col[:] = 0
        self.giant_size_view[0] = 0
        self.first_col[:] = 0
        self.first_col[self.first_player] = 1
        self.third_col[:] = 0
        self.actor = self.first_player
        self.phase = enc.TURN
        self._clear_band_context()

    def _end_age(self) -> None:
        """§6 steps 1-5 (the Orc decisions may pause it); ``_finish_age`` does the rest."""
        g = self.game
        n = self.n
        self._clear_band_context()
        self.discard += self.hands.sum(axis=0)
        self.hands[:] = 0
        self.hand_len = [0] * n
        self.hand_size[:] = 0
        self.known[:] = 0
        keys = self.troll_keys()
        age = self.age
        two_p_rule = n == 2 and age == 1
        markers = self.markers.astype(np.int64)
        for k in range(NUM_KINGDOMS):
            values = markers[:, k].tolist()
            toks = self.tokens[k]
            if two_p_rule:
                award = two_player_age_two(values, keys, toks[0], toks[1],
                                           g.options["two_player_tie"])
            else:
                award = rank_award(values, keys, age_slots(toks, age))
            self._gain_all(award, KINGDOM_CAT)
        if self.has[MERFOLK]:
            values = self.merfolk.astype(np.int64).tolist()
            slots = g.merfolk_slots
            if two_p_rule and g.options["two_player_rule_merfolk"]:
                award = two_player_age_two(values, keys, slots[0], slots[1],
                                           g.options["two_player_tie"])
            else:
                award = rank_award(values, keys, age_slots(slots, age))
            self._gain_all(award, MERFOLK_CAT)
        if self.giant_seat >= 0:
            self._gain(self.giant_bonus_winner(), g.giant_bonus[age], GIANT_BONUS_CAT)
        self.orc_queue = []
        if self.has[ORCS]:
            order = [(self.first_player + i) % n for i in range(n)]
            holders = [p for p in order if self.horde[p].sum() >= 1]
            if age == g.num_ages - 1 and g.options["orc_auto_empty_final_age"]:
                for p in holders:
                    self._empty_horde(p)
            else:
                self.orc_queue = holders
        self._next_orc()

    def _next_orc(self) -> None:
        if self.orc_queue:
            self.actor = self.orc_queue[0]
            self.phase = enc.ORC_PICK
            return
        self._finish_age()

    def _empty_horde(self, p: int) -> None:
        count = int(self.horde[p].sum())
        self._gain(p, self.game.orc_glory[count - 1], ORC_CAT)
        self.horde[p] = 0

    def _finish_age(self) -> None:
        """§6 steps 6-8, then the next Age (§3.5 first player) or the end of the game (§8)."""
        g = self.game
        n = self.n
        for p in range(n):
            total = 0
            for band in self.bands[p]:
                # Skeletons leave the band before scoring (they stay listed until the reshuffle).
                size = len(band) - band.count(SKELETON)
                size += 1 if _TYPE_TRIBE[band[0]] == DWARVES else 0
                total += band_value(g.band_glory, size)
            self._gain(p, total, BAND_CAT)
        self.troll_owner = [-1] * 6
        self.trolls_held[:] = 0
        self.troll_supply[:] = 1 if self.has[TROLLS] else 0
        self.giant_seat = -1
        self.giant_size = 0
        self.giant_col[:] = 0
        self.giant_size_view[0] = 0
        if self.age == g.num_ages - 1:
            self.terminal = True
            self.phase = enc.OVER
            self.actor = -1
            return
        self.first_player = self.next_first_player()
        self._start_age(self.age + 1)

    def next_first_player(self) -> int:
        """§3.5: least glory; ties clockwise from (and including) the third-Dragon drawer."""
        n = self.n
        least = min(self.glory.tolist())
        start = self.third_drawer if self.third_drawer >= 0 else 0
        for i in range(n):
            p = (start + i) % n
            if self.glory[p] == least:
                return p
        raise AssertionError("unreachable")

    # ----------------------------------------------------------------------------------------
    # helpers
    # ----------------------------------------------------------------------------------------
    def troll_keys(self) -> list[tuple[int, ...]]:
        mode = self.game.options["troll_tiebreak"]
        held: list[list[int]] = [[] for _ in range(self.n)]
        for v, owner in enumerate(self.troll_owner):
            if owner >= 0:
                held[owner].append(v + 1)
        return [troll_key(h, mode) for h in held]

    def giant_bonus_winner(self) -> int:
        """§6.3: among players with a Giant-led band of size M, the Troll keys, then the first to
        play size M (the holder, if he is among them)."""
        size = self.giant_size
        if not self.game.options["giant_troll_tiebreak"]:
            return self.giant_seat
        first_play: dict[int, int] = {}
        for i, (p, x) in enumerate(self.giant_plays):
            if x == size and p not in first_play:
                first_play[p] = i
        keys = self.troll_keys()
        return max(first_play, key=lambda p: (keys[p], -first_play[p]))

    def _gain(self, p: int, amount: int, category: int) -> None:
        if amount:
            self.glory[p] += amount
            self.breakdown[p][category] += amount

    def _gain_all(self, award: list[int], category: int) -> None:
        for p, amount in enumerate(award):
            self._gain(p, amount, category)

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

    def _clear_band_context(self) -> None:
        """Forget the band being resolved (only what is set: this runs on every turn)."""
        if self.cur_leader >= 0:
            self.band_leader_view[self.cur_leader] = 0
            self.cur_leader = -1
            self.cur_x = 0
            self.band_x_view[0] = 0
        self.cur_placed = False
        if self.merfolk_left:
            self.merfolk_left = 0
            self.merfolk_left_view[0] = 0
        if self.elf_n:
            self.elf_n = 0
            self.elf_kept[:] = 0
            self.elf_kept_view[0] = 0

    def _draw(self, p: int) -> bool:
        """Deck draw procedure D (§4.1) into ``p``'s hand.

        Returns True if the third Dragon was drawn (the Age has then ended)."""
        deck = self.deck
        while True:
            c = deck.pop()
            if len(deck) < self.lower_left:
                self.lower_left = len(deck)
            if c == DRAGON:
                self.dragons += 1
                self.dragons_view[0] = self.dragons
                if self.dragons == 3:
                    self.third_drawer = p
                    self.third_col[p] = 1  # public (spec §11): decides first-player ties
                    self._end_age()
                    return True
                continue
            self.hands[p, c] += 1
            self.hand_len[p] += 1
            self.hand_size[p] += 1
            return False

    def _end_turn(self) -> None:
        self._clear_band_context()
        self.actor = (self.actor + 1) % self.n
        self.phase = enc.TURN

    # ----------------------------------------------------------------------------------------
    # protocol: who acts, what is legal
    # ----------------------------------------------------------------------------------------
    def acting_players(self) -> tuple[int, ...]:
        if self.terminal or self.decisions >= self.game.max_decisions:
            return ()
        return (self.actor,)

    def legal_mask(self, player: int) -> np.ndarray:
        if player != self.actor or self.terminal or self.decisions >= self.game.max_decisions:
            return np.zeros(enc.NUM_ACTIONS, bool)
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask

    def _compute_mask(self) -> np.ndarray:
        g = self.game
        p = self.actor
        m = np.zeros(enc.NUM_ACTIONS, bool)
        phase = self.phase
        hand = self.hands[p]
        if phase == enc.TURN:
            if self.hand_len[p] < 10:
                np.greater(self.display, 0, out=m[enc.RECRUIT_DISPLAY:enc.RECRUIT_DECK])
                m[enc.RECRUIT_DECK] = True
            np.greater(hand[:SKELETON], 0, out=m[enc.LEADER:enc.LEADER + SKELETON])
            if self.hand_len[p] >= 10 and hand[SKELETON] >= self.hand_len[p]:
                m[enc.PASS] = True  # ten Skeletons: nothing else is legal
        elif phase == enc.BUILD:
            lead = self.building_leader
            ok = g.skeleton_only.copy()
            if self.tribe_ok:
                ok |= g.same_tribe[lead]
            if self.colour_ok:
                ok |= g.same_colour[lead]
            np.logical_and(hand > 0, ok, out=m[enc.ADD_CARD:enc.FINISH_BAND])
            m[enc.FINISH_BAND] = True
        elif phase == enc.WINGFOLK_PICK:
            e = self.cur_x
            for k in range(NUM_KINGDOMS):
                m[enc.KINGDOM + k] = self.marker_test(p, k, e)
        elif phase == enc.MERFOLK_PICK:
            m[enc.KINGDOM:enc.KINGDOM + NUM_KINGDOMS] = True
        elif phase == enc.TROLL_PICK:
            for v in range(1, min(6, self.cur_x) + 1):
                m[enc.TROLL + v - 1] = self.troll_owner[v - 1] < 0
        elif phase == enc.CENTAUR_PICK:
            np.greater(hand[:SKELETON], 0, out=m[enc.LEADER:enc.LEADER + SKELETON])
            m[enc.CENTAUR_STOP] = True
        elif phase == enc.ELF_PICK:
            np.greater(hand, 0, out=m[enc.ELF_KEEP:enc.ELF_DONE])
            m[enc.ELF_DONE] = True
        elif phase == enc.WIZARD_PICK:
            m[enc.WIZARD_DRAW] = m[enc.WIZARD_SKIP] = True
        elif phase == enc.ORC_PICK:
            m[enc.ORC_EMPTY] = m[enc.ORC_KEEP] = True
        return m

    # ----------------------------------------------------------------------------------------
    # protocol: applying decisions
    # ----------------------------------------------------------------------------------------
    def apply(self, actions: Mapping[int, int]) -> None:
        p = self.actor
        a = actions.get(p) if len(actions) == 1 and not self.terminal else None
        if type(a) is not int or not (0 <= a < enc.NUM_ACTIONS) or not self.legal_mask(p)[a]:
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
        if phase == enc.TURN:
            if a < enc.RECRUIT_DECK:
                self.display[a] -= 1
                self.hands[p, a] += 1
                self.known[p, a] += 1
                self.hand_len[p] += 1
                self.hand_size[p] += 1
                self._end_turn()
            elif a == enc.RECRUIT_DECK:
                self._recruit_deck(p)
            elif a == enc.PASS:
                # PASS is legal only with ten Skeletons: everybody now knows the hand.
                self.known[p, SKELETON] = self.hands[p, SKELETON]
                self._end_turn()
            else:
                self._start_band(p, a - enc.LEADER)
        elif phase == enc.BUILD:
            if a == enc.FINISH_BAND:
                self._finish_band(p)
            else:
                t = a - enc.ADD_CARD
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
        elif phase == enc.WINGFOLK_PICK:
            self._place(p, a - enc.KINGDOM)
            self.cur_placed = True
            self._ability(p)
        elif phase == enc.MERFOLK_PICK:
            self._place(p, a - enc.KINGDOM)
            self.merfolk_left -= 1
            self.merfolk_left_view[0] = self.merfolk_left
            self._next_merfolk(p)
        elif phase == enc.TROLL_PICK:
            v = a - enc.TROLL
            self.troll_owner[v] = p
            self.trolls_held[p, v] = 1
            self.troll_supply[v] = 0
            self._after_ability(p)
        elif phase == enc.CENTAUR_PICK:
            if a == enc.CENTAUR_STOP:
                self._discard(p)
            else:
                self._clear_band_context()
                self._start_band(p, a - enc.LEADER)
        elif phase == enc.ELF_PICK:
            if a == enc.ELF_DONE:
                self._finish_elf(p)
            else:
                t = a - enc.ELF_KEEP
                self.hands[p, t] -= 1
                self.hand_len[p] -= 1
                self.elf_kept[t] += 1
                self.elf_n += 1
                self.elf_kept_view[0] = self.elf_n
                if self.elf_n >= self.cur_x or self.hand_len[p] == 0:
                    self._finish_elf(p)
        elif phase == enc.WIZARD_PICK:
            if a == enc.WIZARD_DRAW:
                for _ in range(self.cur_x):
                    if self._draw(p):
                        return
            self._end_turn()
        elif phase == enc.ORC_PICK:
            self.orc_queue.pop(0)
            if a == enc.ORC_EMPTY:
                self._empty_horde(p)
            self._next_orc()

    # --- recruiting ---------------------------------------------------------------------------
    def _recruit_deck(self, p: int) -> None:
        draws = 1
        if self.game.options["empty_display_draw_two"] and not self.display.any():
            draws = min(2, 10 - self.hand_len[p])
        for _ in range(draws):
            if self._draw(p):
                return
        self._end_turn()

    # --- bands ------------------------------------------------------------------------------
    def _start_band(self, p: int, lead: int) -> None:
        self.hands[p, lead] -= 1
        self.hand_len[p] -= 1
        self.building[lead] += 1
        self.building_leader = lead
        self.building_len = 1
        self.building_cards = [lead]
        self.tribe_ok = True
        self.colour_ok = True
        self.phase = enc.BUILD

    def _finish_band(self, p: int) -> None:
        """FINISH_BAND: the band becomes public, then §4.2 steps a-e run."""
        lead = self.building_leader
        x = self.building_len
        bc = self.building_cards
        cards = [lead, *sorted(bc[1:])]  # canonical order: leader, then by type
        self.bands[p].append(cards)
        tribe = _TYPE_TRIBE[lead]
        skeletons = int(self.building[SKELETON])
        self.band_cards[p] += self.building
        self.band_leaders[p, lead] += 1
        self.band_tribe_size[p, tribe * 10 + x - 1] += 1
        scored = x - skeletons
        self.band_scored[p, scored - 1] += 1
        bonus = 1 if tribe == DWARVES else 0
        self.band_glory_col[p] += band_value(self.game.band_glory, scored + bonus)
        self.hand_size[p] -= x
        known = self.known[p]
        np.maximum(known - self.building, 0, out=known)
        self.building[:] = 0
        self.building_leader = -1
        self.building_len = 0
        self.cur_leader = lead
        self.cur_x = x
        self.cur_placed = False
        self.band_x_view[0] = x
        self.band_leader_view[lead] = 1
        self._marker_step(p)

    def _place(self, p: int, k: int) -> None:
        self.markers[p, k] += 1

    def _marker_step(self, p: int) -> None:
        lead = self.cur_leader
        tribe = _TYPE_TRIBE[lead]
        e = self.cur_x + (1 if tribe == MINOTAURS else 0)
        if tribe == HALFLINGS or not self.markers_available(p):
            pass
        elif tribe == WINGFOLK:
            if any(self.marker_test(p, k, e) for k in range(NUM_KINGDOMS)):
                self.phase = enc.WINGFOLK_PICK
                return
        else:
            k = _TYPE_COLOUR[lead]
            if self.marker_test(p, k, e):
                self._place(p, k)
                self.cur_placed = True
        self._ability(p)

    def _ability(self, p: int) -> None:
        lead = self.cur_leader
        tribe = _TYPE_TRIBE[lead]
        x = self.cur_x
        if tribe == GIANTS:
            self.giant_plays.append((p, x))
            if self.giant_seat < 0 or x > self.giant_size:
                if self.giant_seat >= 0:
                    self.giant_col[self.giant_seat] = 0
                self.giant_seat = p
                self.giant_size = x
                self.giant_col[p] = 1
                self.giant_size_view[0] = x
                self._gain(p, self.game.options["giant_claim_glory"], GIANT_CLAIM_CAT)
        elif tribe == ORCS:
            k = _TYPE_COLOUR[lead]
            if self.horde[p, k] == 0 and self.markers_available(p):
                self.horde[p, k] = 1
        elif tribe == MERFOLK:
            g = self.game
            old = int(self.merfolk[p])
            new = min(g.merfolk_end, old + x)
            passed = sum(1 for s in g.merfolk_spaces if old < s <= new)
            if not g.options["merfolk_marker_per_space"]:
                passed = min(passed, 1)
            self.merfolk[p] = new
            self.merfolk_left = passed
            self.merfolk_left_view[0] = passed
            self._next_merfolk(p)
            return
        elif tribe == TROLLS and any(self.troll_owner[v] < 0 for v in range(min(6, x))):
            self.phase = enc.TROLL_PICK
            return
        self._after_ability(p)

    def _next_merfolk(self, p: int) -> None:
        if self.merfolk_left > 0 and self.markers_available(p):
            self.phase = enc.MERFOLK_PICK
            return
        self.merfolk_left = 0
        self.merfolk_left_view[0] = 0
        self._after_ability(p)

    def _after_ability(self, p: int) -> None:
        """§4.2 c: a Centaur-led band may be followed by another band."""
        if _TYPE_TRIBE[self.cur_leader] == CENTAURS:
            can_follow = self.hand_len[p] - int(self.hands[p, SKELETON]) > 0
            if self.game.options["centaur_requires_marker"] and not self.cur_placed:
                can_follow = False
            if can_follow:
                self.phase = enc.CENTAUR_PICK
                return
        self._discard(p)

    def _discard(self, p: int) -> None:
        """§4.2 d: the hand goes to the display; an Elf-led last band keeps up to X cards."""
        if _TYPE_TRIBE[self.cur_leader] == ELVES and self.hand_len[p] > 0:
            self.phase = enc.ELF_PICK
            return
        self.display += self.hands[p]
        self.hands[p] = 0
        self.hand_len[p] = 0
        self.hand_size[p] = 0
        self.known[p] = 0
        self._after_discard(p)

    def _finish_elf(self, p: int) -> None:
        rest = self.hands[p]
        self.display += rest
        known = self.known[p]
        np.maximum(known - rest, 0, out=known)
        rest[:] = self.elf_kept
        self.hand_len[p] = self.elf_n
        self.hand_size[p] = self.elf_n
        self.elf_kept[:] = 0
        self._after_discard(p)

    def _after_discard(self, p: int) -> None:
        if _TYPE_TRIBE[self.cur_leader] == WIZARDS:
            self.phase = enc.WIZARD_PICK
            return
        self._end_turn()

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
        return [{c: float(v) for c, v in zip(CATEGORIES, row)} for row in self.breakdown]

    def returns(self) -> list[float]:
        mode = self.game.options["reward"]
        if mode == "score":
            return self.scores()
        if mode == "margin":
            return margin_rewards(self.scores())
        if not self.terminal:
            return [0.0] * self.n
        return rank_rewards(self.final_rank_values())

    def final_rank_values(self) -> list[float]:
        """Per seat, a number whose order is the §8 ranking: glory, then markers in kingdoms,
        then final-Age band sizes (after Skeleton removal) compared largest first."""
        keys = []
        for p in range(self.n):
            sizes = sorted((len(b) - b.count(SKELETON) for b in self.bands[p]), reverse=True)
            keys.append((float(self.glory[p]), int(self.markers[p].sum()), sizes))
        longest = max((len(k[2]) for k in keys), default=0)
        full = [(k[0], k[1], tuple(k[2] + [0] * (longest - len(k[2])))) for k in keys]
        distinct = sorted(set(full))
        return [float(distinct.index(k)) for k in full]

    def winners(self) -> list[int]:
        values = self.final_rank_values()
        best = max(values)
        return [p for p in range(self.n) if values[p] == best]

    # ----------------------------------------------------------------------------------------
    # protocol: information
    # ----------------------------------------------------------------------------------------
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        g = self.game
        if out is None:
            out = np.zeros(g.obs_spec.size, np.float32)
        gs = g.glob_size
        out[:gs] = self.glob_f
        # One gather writes every seat piece in seat-relative order (precomputed per observer).
        self.seat_flat.take(g.gather[player], out=out[gs:g.seat_end], mode="clip")
        out[g.deck_size_offset] = len(self.deck)
        out[g.safe_top_offset] = max(0, len(self.deck) - self.lower_left)
        if not self.terminal:
            out[g.phase_offset + self.phase] = 1
            out[g.acting_offset + (self.actor - player) % self.n] = 1
        out[g.hand_slice] = self.hands[player]
        if player == self.actor and (self.phase == enc.BUILD or self.phase == enc.ELF_PICK):
            out[g.building_slice] = self.building
            out[g.leader_slice] = 0
            if self.building_leader >= 0:
                out[g.leader_slice.start + self.building_leader] = 1
            out[g.elf_slice] = self.elf_kept
        else:
            out[g.private_rest] = 0
        return out

    def determinize(self, player: int, rng: np.random.Generator) -> EthnosState:
        """A state consistent with all ``player`` has seen (see ``envs.ethnos.sampling``)."""
        from envs.ethnos.sampling import determinize

        return determinize(self, player, rng)

    # ----------------------------------------------------------------------------------------
    # protocol: copying and saving
    # ----------------------------------------------------------------------------------------
    def clone(self) -> EthnosState:
        s = EthnosState.__new__(EthnosState)
        s.__dict__.update(self.__dict__)
        s.seat_f = self.seat_f.copy()
        s.glob_f = self.glob_f.copy()
        s.hands = self.hands.copy()
        s.building = self.building.copy()
        s.elf_kept = self.elf_kept.copy()
        s.discard = self.discard.copy()
        s.hand_len = self.hand_len[:]
        s.building_cards = self.building_cards[:]
        s.deck = self.deck[:]
        s.bands = [[b[:] for b in bands] for bands in self.bands]
        s.troll_owner = self.troll_owner[:]
        s.giant_plays = self.giant_plays[:]
        s.orc_queue = self.orc_queue[:]
        s.breakdown = [row[:] for row in self.breakdown]
        s.rng = np.random.Generator(np.random.PCG64())
        s.rng.bit_generator.state = self.rng.bit_generator.state
        s._mask = None
        s._bind_views()
        return s

    def to_dict(self) -> dict[str, Any]:
        from envs.ethnos.serialize import state_to_dict

        return state_to_dict(self)

    def __str__(self) -> str:
        from envs.ethnos.render import render_text

        return render_text(self)


__all__ = ["CATEGORIES", "EthnosState"]
