"""Bower engine: ``BowerGame`` and ``BowerState``: setup, turn flow, legal masks, ``apply``.

Binding rules: ``envs/bower/README.md``. The state is a small decision machine: ``phase`` names
the decision asked now and ``actor`` the seat that answers it (the turn player, or the opponent
for the IA4 discard). Automatic steps (refills, bonus draws, skipped plays, effects that need no
choice, scoring) run inside ``apply`` until the next decision with at least one legal action.

Seats are absolute here (0 = ``player_0``); only ``observe`` and the TARGET action are relative.
The helpers take the state as an argument and never import this module: ``bonus`` (§5 bonus
step), ``scoring`` (§6), ``observation`` (encoder), ``hidden`` (determinize), ``saving`` (the
codec), ``invariants``, ``information_state`` and ``render``; ``OPTIONS`` lists the variants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.bower import information_state, invariants, render, saving
from tablezoo.envs.bower.actions import (
    ACCEPT,
    DISPLAY,
    HAND,
    KEEP,
    NUM_ACTIONS,
    PASS,
    PH_BONUS,
    PH_COVER_ASK,
    PH_DISCARD_ASK,
    PH_DOUBLE_ASK,
    PH_DRAFT,
    PH_HAND,
    PH_KEEP,
    PH_OPP_DISCARD,
    PH_OVER,
    PH_PLAY,
    PH_TAKE,
    PHASES,
    PLAY,
    action_name,
)
from tablezoo.envs.bower.bonus import (
    EFFECT_PHASES,
    after_placement,
    answer_effect,
    draw_bonus,
    effect_mask,
    keep_bonus,
)
from tablezoo.envs.bower.components import (
    CODES,
    END_GEMS,
    END_MAT_LIST,
    MAX_HAND,
    NUM_BONUS,
    NUM_EGGS,
    NUM_NEST_TILES,
    TOK_BRANCH,
    TOK_PLACED,
    TOK_REMOVED,
    TOK_SUPPLY,
    TURNS_PER_PLAYER,
)
from tablezoo.envs.bower.geometry import (
    FP_BITS,
    NUM_CELLS,
    NUM_PLACEMENTS,
    PLACEMENT_CELLS,
    has_placement,
    placement_mask,
)
from tablezoo.envs.bower.hidden import determinize
from tablezoo.envs.bower.observation import (
    NEST_CHANNELS,
    OBS_SPEC,
    S_ALL,
    S_DISCARDS,
    S_DISPLAY,
    S_EGGS,
    S_HANDS,
    S_TOKENS,
    STATE_SPEC,
    global_state,
    observe,
    paint_cell,
)
from tablezoo.envs.bower.saving import state_from_dict
from tablezoo.envs.bower.scoring import (
    compute_final,
    state_breakdown,
    state_pink_seat,
    state_returns,
    state_scores,
    state_winner,
)
from tablezoo.envs.core.errors import IllegalActionError
from tablezoo.envs.core.fields import CALL, COPY, ITEMS, RESET, SHARED, Field, Fields
from tablezoo.envs.core.game import Game, State, rng_from
from tablezoo.envs.core.obs_spec import OBS_DTYPE, EventLog
from tablezoo.envs.core.options import Option

FEATHER_MASK = np.zeros(len(CODES), bool)
FEATHER_MASK[0:5] = True
FLOWER_MASK = np.zeros(len(CODES), bool)
FLOWER_MASK[5:10] = True


# Bower's options: each assumed-rule variant (README.md beside this), its default and values.
def _on(opt: str, default: Any, doc: str, allowed: tuple) -> Option:
    return Option(opt, default, doc, allowed=allowed)


OPTIONS: tuple[Option, ...] = (
    _on("bonus_tiles", True, "gem triggers and bonus tiles; False: gems do nothing and there "
        "is no bonus step (assumed variant)", (True, False)),
    _on("egg_columns", "random", "which columns hold whose request eggs: a random 3 each, or "
        "'alternate' (the start player owns columns 0, 2, 4)", ("random", "alternate")),
    _on("double_turn_mode", "shift", "IA3: 'shift' = the opponent plays two turns in a row, "
        "then plain alternation; 'swap' = after those two turns the giver also plays two",
        ("shift", "swap")),
    _on("forced_fallback", "any_tile", "an unplaceable forced tile lets the player play another "
        "tile ('any_tile') or nothing ('none'); equivalent in practice, since legality never "
        "depends on the tile", ("any_tile", "none")),
    _on("flag_all_triggers", True, "every met gem condition is flagged even when the bonus is "
        "declined; False: flagged only when a bonus tile is kept", (True, False)),
    _on("x_cancels", "cell", "the X token cancels all feather/flower units of its cell; 'one': "
        "a single unit (one half of a pair)", ("cell", "one")),
    _on("pink_column_scope", "tile", "columns where the pink shell wins ties: those of NB4's "
        "visible cells ('tile'), the pink cell's only ('cell'), or 'tile' plus every tie left "
        "after shells ('all')", ("tile", "cell", "all")),
    _on("pink_moss_scope", "any", "the pink shell wins a tied moss group wherever it lies "
        "('any') or only inside its owner's largest moss group ('in_group')",
        ("any", "in_group")),
    _on("column_zero_tie", "nobody", "a 0-0 column goes to nobody; 'tiebreak': it also goes "
        "through the pink and shell tie-breaks", ("nobody", "tiebreak")),
    _on("material_tie", "nobody", "a tied material (except the pink moss rule) goes to nobody; "
        "'shells_in_group': to the player with more shells in that largest group",
        ("nobody", "shells_in_group")),
    _on("single_item_bonus", False, "True: a column won 1-0 pays 1 extra egg", (True, False)),
    _on("bonus_optional", True, "the bonus may be declined (ACCEPT/PASS); False: always taken",
        (True, False)),
    _on("hands_public", True, "both hands are seen; False: only the opponent's hand size (and "
        "forced mark)", (True, False)),
    _on("reward", "win_loss", "'win_loss': +1/-1/0 at the end (the pink shell breaks egg "
        "ties); 'egg_diff': own eggs minus the opponent's", ("win_loss", "egg_diff")),
)  # fmt: skip


class BowerGame(Game):
    """Bower for 2 players (rules in ``envs/bower/README.md``)."""

    name = "bower"
    OPTIONS = OPTIONS

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.num_players = 2
        self.num_actions = NUM_ACTIONS
        self.obs_spec = OBS_SPEC
        self.state_spec = STATE_SPEC  # full-information global state (``observation.py``)
        # the perfect-recall information state: the observation, then the game's events
        self.event_table = information_state.event_table(self)
        self.information_state_spec = information_state.info_spec(self)
        # 2 draft picks + 24 turns x (take, play, accept, keep, <= 2 effect steps, <= 6 discards).
        self.max_decisions = 2 + 24 * 12

    def action_name(self, action: int) -> str:
        return action_name(int(action))

    def new_state(self, seed: int | np.random.Generator | None = None) -> BowerState:
        rng = rng_from(seed)
        s = BowerState(self)
        s.rng = rng
        s.start = int(rng.integers(2))
        s.eggs = [int(x) for x in rng.permutation(NUM_EGGS)]
        if self.options["egg_columns"] == "alternate":
            mine = {0, 2, 4}
            s.col_owner = [s.start if c in mine else 1 - s.start for c in range(6)]
        else:
            cols0 = {int(c) for c in rng.choice(6, 3, replace=False)}
            s.col_owner = [0 if c in cols0 else 1 for c in range(6)]
        s.stack = [int(x) for x in rng.permutation(NUM_NEST_TILES)]
        s.display = [s.stack.pop() for _ in range(3)]
        s.bonus_deck = [int(x) for x in rng.permutation(NUM_BONUS)]
        s.phase = PH_DRAFT
        s.actor = s.turn_player = s.start
        return s

    def state_from_dict(self, data: Mapping[str, Any]) -> BowerState:
        return state_from_dict(self, data, BowerState)


def _share_rng(state: BowerState) -> np.random.Generator | None:
    """Copy-on-use generator: shared with a clone until either touches ``rng`` (then copied)."""
    state._rng_own = False
    return state._rng


def _final_of(state: BowerState) -> tuple[list[dict[str, float]], int] | None:
    """A clone's copy of the final scores (set once the game is over)."""
    final = state._final
    return None if final is None else ([dict(row) for row in final[0]], final[1])


class BowerState(State):
    """One Bower position. Fields are plain lists/ints so ``clone`` is a handful of copies.

    Its fields are declared once in ``FIELDS`` (``envs.core.fields``): the slots, ``clone`` and
    ``to_dict`` (key order as saved) follow from it; the codec's encoders live in ``saving``.
    """

    FIELDS = Fields(
        Field("game", SHARED, None),
        Field("opts", SHARED, None),  # the game's options
        Field("_rng", CALL, "rng", encode=saving.save_rng, call=_share_rng),
        Field("_rng_own", RESET, None, reset=False),  # False: the generator may be shared
        Field("start", SHARED, "start_player"),
        Field("eggs", COPY, "eggs", encode=saving.save_eggs),
        Field("col_owner", COPY, "egg_owner"),
        Field("stack", COPY, "stack", encode=saving.save_tiles("stack")),
        Field("display", COPY, "display", encode=saving.save_opt_tiles("display")),
        Field("hands", ITEMS, "hands", encode=saving.save_hands),
        Field("forced", COPY, "forced", encode=saving.save_opt_tiles("forced")),
        Field("limits", COPY, "hand_limits"),
        Field("turns", COPY, "turns"),
        Field("extra", COPY, "extra_turn"),
        Field("owed", COPY, "swap_owed"),
        Field("placed", ITEMS, "nests", encode=saving.save_nests),
        Field("col_flags", COPY, "column_flags"),
        Field("cell_flags", COPY, "cell_flags"),
        Field("bonus_deck", COPY, "bonus_deck", encode=saving.save_bonus_deck),
        Field("bonus_discard", COPY, "bonus_discard", encode=saving.save_bonus_discard),
        Field("discard_by", COPY, "bonus_discard"),
        Field("kept", ITEMS, "bonus_kept", encode=saving.save_bonus_kept),
        Field("drawn", COPY, "bonus_drawn", encode=saving.save_bonus_drawn),
        Field("conditions", SHARED, "conditions", encode=saving.save_conditions),
        Field("tok_status", COPY, "tokens", encode=saving.save_tokens),
        Field("tok_seat", COPY, "tokens"),
        Field("tok_cell", COPY, "tokens"),
        Field("branch_orient", SHARED, "tokens"),
        Field("spied_cols", COPY, "spied_columns"),
        Field("spied_removed", COPY, "spied_removed"),
        Field("tile_discards", COPY, "tile_discards", encode=saving.save_tiles("tile_discards")),
        Field("cover_tile", SHARED, "cover_tile", encode=saving.save_cover_tile),
        Field("phase", SHARED, "phase", encode=saving.save_phase),
        Field("actor", SHARED, "actor"),
        Field("turn_player", SHARED, "turn_player"),
        Field("effect", SHARED, "effect", encode=saving.save_effect),
        Field("decisions", SHARED, "decisions"),
        # every event of the game (``information_state.py``)
        Field("events", COPY, "history", encode=saving.save_history, optional=True),
        # rebuilt on load: the nests' cells, the encoder's planes and buffers, caches
        Field("top", ITEMS, None),
        Field("depth", ITEMS, None),
        Field("occ", COPY, None),
        Field("matb", ITEMS, None),
        Field("gem1", COPY, None),
        Field("gem2", COPY, None),
        Field("planes", COPY, None),
        Field("_obs", ITEMS, None),
        Field("_dirty", COPY, None),
        Field("_mask", RESET, None, reset=None),
        Field("_final", CALL, None, call=_final_of),
        Field("hand_built", SHARED, None),  # set by ``positions.build_state``, never saved
        header=saving.save_header,
        header_keys=saving.HEADER_KEYS,
    )
    __slots__ = FIELDS.slots
    clone = FIELDS.clone_method()
    to_dict = FIELDS.to_dict_method()

    def __init__(self, game: BowerGame):
        self.game = game
        self.opts = game.options
        self._rng: np.random.Generator | None = None
        self._rng_own = True  # False: the generator may be shared with a clone
        self.start = 0
        self.eggs: list[int] = list(range(NUM_EGGS))  # positions 0-5 columns, 6-7 removed
        self.col_owner: list[int] = [0, 0, 0, 1, 1, 1]
        self.stack: list[int] = []  # top = last
        self.display: list[int] = [-1, -1, -1]
        self.hands: list[list[int]] = [[], []]
        self.forced: list[int] = [-1, -1]  # forced tile id per seat (IA2)
        self.limits: list[int] = [1, 1]
        self.turns: list[int] = [0, 0]
        self.extra: list[bool] = [False, False]
        self.owed: list[bool] = [False, False]  # swap mode: extra turn owed after O's extra
        self.top: list[list[int]] = [[-1] * NUM_CELLS, [-1] * NUM_CELLS]
        self.depth: list[list[int]] = [[0] * NUM_CELLS, [0] * NUM_CELLS]
        self.occ: list[int] = [0, 0]
        self.placed: list[list[tuple[int, int, bool]]] = [[], []]  # (tile, placement, cover)
        self.col_flags: list[int] = [0, 0]
        self.cell_flags: list[int] = [0, 0]
        self.bonus_deck: list[int] = []  # top = last
        self.bonus_discard: list[int] = []
        self.discard_by: list[int] = []  # seat that discarded each bonus_discard entry
        self.kept: list[list[int]] = [[], []]
        self.drawn: list[int] = []
        self.conditions: tuple[int, int] = (0, 0)  # (column bits, cell bits) met this turn
        self.tok_status: list[int] = [TOK_SUPPLY] * 5
        self.tok_seat: list[int] = [-1] * 5
        self.tok_cell: list[int] = [-1] * 5
        self.branch_orient = -1
        self.spied_cols: list[int] = [0, 0]  # SP1 column bits per spy
        self.spied_removed: list[bool] = [False, False]
        self.tile_discards: list[int] = []  # nest tiles (incl. NB) discarded face up
        self.cover_tile = -1
        self.phase = PH_DRAFT
        self.actor = 0
        self.turn_player = 0
        self.effect = -1  # bonus tile being resolved (token phases)
        self.decisions = 0
        self.matb: list[list[int]] = [[0, 0, 0, 0], [0, 0, 0, 0]]  # visible cells per material
        self.gem1: list[int] = [0, 0]  # visible cells with >= 1 gem
        self.gem2: list[int] = [0, 0]  # visible cells with 2 gems
        self.planes = np.zeros((2, NEST_CHANNELS, NUM_CELLS), OBS_DTYPE)
        self._obs = [np.zeros(OBS_SPEC.size, OBS_DTYPE), np.zeros(OBS_SPEC.size, OBS_DTYPE)]
        self._dirty = [S_ALL, S_ALL]
        self._mask: np.ndarray | None = None
        self._final: tuple[list[dict[str, float]], int] | None = None
        # Built by ``positions.build_state``: history invariants are not checked (not saved).
        self.hand_built = False
        self.events = EventLog(2)  # every event of the game (``information_state.py``)

    @property
    def rng(self) -> np.random.Generator:
        """The state's own generator (copied on first use after a ``clone``)."""
        if not self._rng_own:
            bg = self._rng.bit_generator
            fresh = np.random.PCG64()
            fresh.state = bg.state
            self._rng = np.random.Generator(fresh)
            self._rng_own = True
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value
        self._rng_own = True

    # ------------------------------------------------------------------ protocol: decisions
    def acting_players(self) -> tuple[int, ...]:
        return () if self.phase == PH_OVER else (self.actor,)

    def legal_mask(self, player: int) -> np.ndarray:
        """Read-only (shared, cached) bool array; stays valid after asking for another seat."""
        if player != self.actor or self.phase == PH_OVER:
            return _NO_ACTIONS
        m = self._mask
        if m is None:
            m = self._mask = self._build_mask()
        return m

    def _build_mask(self) -> np.ndarray:
        """The current decision's mask. The frequent kinds (take, play, ask, keep, hand) come
        from shared read-only caches keyed by what they depend on."""
        ph = self.phase
        p = self.turn_player
        if ph == PH_PLAY:
            slots = self._playable_slots()
            key = (self.occ[p], slots[0], len(slots))
            m = _PLAY_MASKS.get(key)
            if m is None:
                m = np.zeros(NUM_ACTIONS, bool)
                pm = placement_mask(self.occ[p])
                for h in slots:
                    base = PLAY + NUM_PLACEMENTS * h
                    m[base : base + NUM_PLACEMENTS] = pm
                m.flags.writeable = False
                if len(_PLAY_MASKS) >= _PLAY_CACHE_LIMIT:
                    _PLAY_MASKS.clear()
                _PLAY_MASKS[key] = m
            return m
        if ph in (PH_DRAFT, PH_TAKE):
            return _DISPLAY_MASKS[
                (self.display[0] >= 0) | (self.display[1] >= 0) << 1 | (self.display[2] >= 0) << 2
            ]
        if ph in (PH_BONUS, PH_COVER_ASK, PH_DOUBLE_ASK, PH_DISCARD_ASK):
            return _ASK_MASK
        if ph == PH_KEEP:
            return _KEEP_MASKS[len(self.drawn)]
        if ph in (PH_OPP_DISCARD, PH_HAND):
            return _HAND_MASKS[len(self.hands[self.actor])]
        m = np.zeros(NUM_ACTIONS, bool)
        effect_mask(self, ph, m)
        m.flags.writeable = False  # cached in ``_mask``: callers must not be able to corrupt it
        return m

    def _playable_slots(self) -> list[int]:
        """§3.2 step 2: the forced tile must be played when it fits; else any hand tile."""
        p = self.turn_player
        hand = self.hands[p]
        if self.forced[p] >= 0:
            fits = has_placement(self.occ[p])  # legality never depends on the tile
            if fits:
                return [hand.index(self.forced[p])]
            if self.opts["forced_fallback"] == "none":
                return []
        return list(range(len(hand)))

    # ------------------------------------------------------------------ protocol: apply
    def apply(self, actions: Mapping[int, int]) -> None:
        if self.phase == PH_OVER:
            raise IllegalActionError(f"bower: the game is over; got actions {dict(actions)}")
        actor = self.actor
        if len(actions) != 1 or actor not in actions:
            raise IllegalActionError(
                f"bower: expected one action for the acting player [{actor}], "
                f"got actions for {sorted(actions)}"
            )
        a = actions[actor]
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise self.illegal(actor, a, "not an integer action id")
        a = int(a)
        if not 0 <= a < NUM_ACTIONS or not self.legal_mask(actor)[a]:
            raise self.illegal(actor, a, f"decision is {PHASES[self.phase]}")
        self._mask = None
        self.decisions += 1
        self._dispatch(a)

    def _dispatch(self, a: int) -> None:
        ph = self.phase
        p = self.turn_player
        o = 1 - p
        if ph == PH_DRAFT:
            self._touch(S_DISPLAY | S_HANDS)
            information_state.log(self, "draft", self.actor, a, self.display[a])
            self.hands[self.actor].append(self.display[a])
            self.display[a] = -1
            if self.actor == self.start:
                self.actor = 1 - self.start
            else:
                for d in range(3):
                    if self.display[d] < 0 and self.stack:
                        self.display[d] = self.stack.pop()
                self._start_turn(self.start)
        elif ph == PH_TAKE:
            self._touch(S_DISPLAY | S_HANDS)
            tile = self._take_display(a)
            information_state.log(self, "take", p, a, tile, self.display[a])
            self.hands[p].append(tile)
            self._enter_play()
        elif ph == PH_PLAY:
            h, pl = divmod(a - PLAY, NUM_PLACEMENTS)
            tile = self.hands[p].pop(h)
            information_state.log(self, "play", p, h, pl, tile)
            self._touch(S_HANDS)
            if tile == self.forced[p]:
                self.forced[p] = -1
            self._place(p, tile, pl, cover=False)
            after_placement(self)
        elif ph == PH_BONUS:
            information_state.log(self, "bonus", p, int(a == ACCEPT))
            if a == ACCEPT:
                draw_bonus(self)
            else:
                self._enter_hand_check()
        elif ph == PH_KEEP:
            keep_bonus(self, a - KEEP)
        elif ph in EFFECT_PHASES:
            answer_effect(self, ph, a)
        elif ph == PH_OPP_DISCARD:
            self._discard_from_hand(o, a - HAND)
            self._enter_hand_check()
        elif ph == PH_HAND:
            self._discard_from_hand(p, a - HAND)
            self._enter_hand_check()
        else:  # pragma: no cover - guarded by the mask
            raise AssertionError(f"bower: no handler for phase {ph}")

    # ------------------------------------------------------------------ turn flow
    def _take_display(self, d: int) -> int:
        tile = self.display[d]
        self.display[d] = self.stack.pop() if self.stack else -1
        return tile

    def _start_turn(self, p: int) -> None:
        self.turn_player = self.actor = p
        self.conditions = (0, 0)
        if self.forced[p] < 0 and any(t >= 0 for t in self.display):
            self.phase = PH_TAKE
        else:
            self._enter_play()

    def _enter_play(self) -> None:
        p = self.turn_player
        self.actor = p
        if self.hands[p] and has_placement(self.occ[p]) and self._playable_slots():
            self.phase = PH_PLAY
        else:
            self._enter_hand_check()  # nothing fits: no placement, no trigger, no bonus

    def _discard_from_hand(self, seat: int, h: int) -> None:
        tile = self.hands[seat].pop(h)
        information_state.log(self, "discard", seat, h, tile)
        self._touch(S_HANDS | S_DISCARDS)
        if tile == self.forced[seat]:
            self.forced[seat] = -1  # the obligation ends with the tile
        self.tile_discards.append(tile)

    def _enter_hand_check(self) -> None:
        p = self.turn_player
        self.actor = p
        self.effect = -1
        if len(self.hands[p]) > self.limits[p]:
            self.phase = PH_HAND
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """§3.1: count the turn and pick the next turn player."""
        p = self.turn_player
        o = 1 - p
        self.turns[p] += 1
        if self.forced[p] >= 0:  # after the forced turn an unplayed forced tile is ordinary
            self.forced[p] = -1
            self._touch(S_HANDS)
        self.conditions = (0, 0)
        if self.extra[p]:
            self.extra[p] = False
            if self.owed[o]:  # swap mode: the giver plays twice after these two turns
                self.owed[o] = False
                self.extra[o] = True
            if self.turns[p] < TURNS_PER_PLAYER:
                self._start_turn(p)
                return
        if self.turns[o] < TURNS_PER_PLAYER:
            self._start_turn(o)
        elif self.turns[p] < TURNS_PER_PLAYER:
            self._start_turn(p)
        else:
            self.phase = PH_OVER
            self.actor = -1
            self._touch(S_EGGS)
            self._final = self._compute_final()

    # ------------------------------------------------------------------ nest changes
    def _place(self, p: int, tile: int, pl: int, cover: bool) -> None:
        a, b = PLACEMENT_CELLS[pl]
        top = self.top[p]
        top[a] = 2 * tile
        top[b] = 2 * tile + 1
        if cover:
            self.depth[p][a] += 1
            self.depth[p][b] += 1
            for tok in range(5):
                if (
                    self.tok_status[tok] == TOK_PLACED
                    and self.tok_seat[tok] == p
                    and self.tok_cell[tok] in (a, b)
                ):
                    self._remove_token(tok)
        self.occ[p] |= FP_BITS[pl >> 1]
        self.placed[p].append((tile, pl, cover))
        matb = self.matb[p]
        for cell, end in ((a, 2 * tile), (b, 2 * tile + 1)):
            bit = 1 << cell
            keep = ~bit
            matb[0] &= keep
            matb[1] &= keep
            matb[2] &= keep
            matb[3] &= keep
            matb[END_MAT_LIST[end]] |= bit
            gems = END_GEMS[end]
            self.gem1[p] = self.gem1[p] | bit if gems >= 1 else self.gem1[p] & keep
            self.gem2[p] = self.gem2[p] | bit if gems >= 2 else self.gem2[p] & keep
        paint_cell(self, p, a)
        paint_cell(self, p, b)

    def _put_token(self, tok: int, seat: int, cell: int) -> None:
        self.tok_status[tok] = TOK_PLACED
        self.tok_seat[tok] = seat
        self.tok_cell[tok] = cell
        self._touch(S_TOKENS)
        paint_cell(self, seat, cell)

    def _remove_token(self, tok: int) -> None:
        seat, cell = self.tok_seat[tok], self.tok_cell[tok]
        self.tok_status[tok] = TOK_REMOVED
        paint_cell(self, seat, cell)

    def _branch_code(self, seat: int) -> int:
        if self.tok_status[TOK_BRANCH] == TOK_PLACED and self.tok_seat[TOK_BRANCH] == seat:
            return 2 * self.tok_cell[TOK_BRANCH] + self.branch_orient
        return -1

    def _token_cell(self, tok: int, seat: int) -> int:
        if self.tok_status[tok] == TOK_PLACED and self.tok_seat[tok] == seat:
            return self.tok_cell[tok]
        return -1

    # ------------------------------------------------------------------ outcome
    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def _compute_final(self) -> tuple[list[dict[str, float]], int]:
        return compute_final(self)

    def score_breakdown(self) -> list[dict[str, float]]:
        return state_breakdown(self)

    def scores(self) -> list[float]:
        """Egg tokens; 0 for both until the end (Bower awards everything at the end)."""
        return state_scores(self)

    def pink_seat(self) -> int:
        """The seat showing the pink shell at the end (-1 if none or not over)."""
        return state_pink_seat(self)

    def winner(self) -> int:
        """§6 step 5: the winning seat, -1 for a draw or before the end."""
        return state_winner(self)

    def returns(self) -> list[float]:
        return state_returns(self)

    # ------------------------------------------------------------------ information
    def knows_egg(self, player: int, pos: int) -> bool:
        """Whether ``player`` knows the egg at position ``pos`` (0-5 columns, 6-7 removed)."""
        if self.phase == PH_OVER:
            return True
        if pos >= 6:
            return self.spied_removed[player]
        return self.col_owner[pos] == player or bool(self.spied_cols[player] >> pos & 1)

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observe(self, player, out)

    def information_state(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation, then every event of the game this seat saw
        (``information_state.py``)."""
        return information_state.information_state(self, player, out)

    def global_state(self, out: np.ndarray | None = None) -> np.ndarray:
        """Full-information state for centralised critics (``observation.global_state``)."""
        return global_state(self, out)

    def log(self, kind: str, seat: int, *fields: int) -> None:
        """Record an event of the game (``information_state.py``; the helpers call this)."""
        information_state.log(self, kind, seat, *fields)

    def refill_seen(self, tile: int) -> int:
        """A take's refill as its row records it: the tile itself (the display is public)."""
        return tile

    def _touch(self, sections: int) -> None:
        """Mark observation sections as changed for both seats (see ``observation.py``)."""
        d = self._dirty
        d[0] |= sections
        d[1] |= sections

    def determinize(self, player: int, rng: np.random.Generator) -> BowerState:
        """Re-sample what ``player`` cannot see (``hidden.determinize``); the opponent's own
        private history is marked unknown (``information_state.redact``)."""
        world = determinize(self, player, rng)
        information_state.redact(world, player)
        return world

    # ------------------------------------------------------------------ checking
    def check(self) -> None:
        """Bower's invariants (``invariants.check_state``), then the shared ones."""
        invariants.check_state(self)
        information_state.check(self)
        super().check()

    def __str__(self) -> str:
        return render.render(self)


def _frozen_mask(ids: list[int]) -> np.ndarray:
    m = np.zeros(NUM_ACTIONS, bool)
    m[ids] = True
    m.flags.writeable = False
    return m


_NO_ACTIONS = _frozen_mask([])
_ASK_MASK = _frozen_mask([PASS, ACCEPT])
_DISPLAY_MASKS = [
    _frozen_mask([DISPLAY + d for d in range(3) if bits >> d & 1]) for bits in range(8)
]
_KEEP_MASKS = [_frozen_mask(list(range(KEEP, KEEP + n))) for n in range(4)]
_HAND_MASKS = [_frozen_mask(list(range(HAND, HAND + n))) for n in range(MAX_HAND + 1)]
_PLAY_MASKS: dict[tuple[int, int, int], np.ndarray] = {}
# Bounded (cleared when full) so that RSS plateaus in long runs (measured by
# tablezoo soak).
_PLAY_CACHE_LIMIT = 1 << 12
_OBS_VIEWS = {p.name: OBS_SPEC.slice(p.name) for p in OBS_SPEC.pieces}

__all__ = ["OPTIONS", "BowerGame", "BowerState"]
