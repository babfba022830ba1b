"""Bower engine: setup, turn flow, placement, gem triggers, bonus tiles and scoring.

Binding rules: ``shared/rules/bower.md``. The state is a small decision machine: ``phase`` names
the decision asked now and ``actor`` the seat that answers it (the turn player, or the opponent
for the IA4 discard). Automatic steps (refills, bonus draws, skipped plays, effects that need no
choice, scoring) run inside ``apply`` until the next decision with at least one legal action.

Seats are absolute here (0 = ``player_0``); only ``observe`` and the TARGET action are relative.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envs.bower import encoding as E
from envs.bower.components import (
    BONUS_IDS,
    BONUS_INDEX,
    BONUS_KIND,
    BONUS_TILE,
    CODES,
    EB_FIRST,
    EGG_CODES,
    EGG_IDS,
    END_GEMS,
    END_MAT_LIST,
    END_UNITS_LIST,
    IA1,
    IA2,
    IA3,
    IA4,
    MATERIALS,
    NB_FIRST,
    NUM_BONUS,
    NUM_EGGS,
    NUM_NEST_TILES,
    NUM_TILES,
    SHELL,
    SHELL_PINK,
    SP1,
    SP2,
    TILE_IDS,
    TILE_INDEX,
    TK1,
    TK5,
)
from envs.bower.encoding import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    DISPLAY,
    HAND,
    KEEP,
    NUM_ACTIONS,
    OBS_SPEC,
    PASS,
    PHASES,
    PLAY,
    TARGET,
)
from envs.bower.geometry import (
    BRANCH_ENDS,
    FP_BITS,
    NUM_CELLS,
    NUM_PLACEMENTS,
    PLACEMENT_CELLS,
    cover_mask,
    has_placement,
    legal_footprint,
    placement_mask,
)
from envs.bower.observation import (
    CELL_BASE,
    S_ALL,
    S_COVER,
    S_DISCARDS,
    S_DISPLAY,
    S_DRAW,
    S_EGGS,
    S_FLAGS,
    S_HANDS,
    S_KEPT,
    S_NESTS,
    S_TOKENS,
    encode_sections,
    encode_tail,
)
from envs.bower.scoring import conditions_from_bits, empty_breakdown, final_scores, nest_stats
from envs.core.errors import IllegalActionError, StateFormatError
from envs.core.game import (
    Game,
    State,
    margin_rewards,
    require,
    rng_from,
    rng_from_dict,
    rng_to_dict,
)
from envs.core.obs_spec import OBS_DTYPE
from envs.core.options import Option

TURNS_PER_PLAYER = 12
MAX_HAND = 6

# Phases (indices into encoding.PHASES).
(
    PH_DRAFT, PH_TAKE, PH_PLAY, PH_BONUS, PH_KEEP, PH_SPY, PH_TOKEN, PH_BRANCH, PH_COVER_ASK,
    PH_COVER, PH_FORCE, PH_DOUBLE_ASK, PH_DISCARD_ASK, PH_OPP_DISCARD, PH_HAND, PH_OVER,
) = range(len(PHASES))  # fmt: skip

# Tokens: X, white feather, white flower, shell, branch (bonus TK1..TK5).
TOK_X, TOK_WFE, TOK_WFL, TOK_SHELL, TOK_BRANCH = range(5)
TOKEN_NAMES = ("x", "white_feather", "white_flower", "shell", "branch")
TOK_SUPPLY, TOK_PLACED, TOK_REMOVED = 0, 1, 2
TOKEN_STATUS = ("supply", "placed", "removed")

FEATHER_MASK = np.zeros(len(CODES), bool)
FEATHER_MASK[0:5] = True
FLOWER_MASK = np.zeros(len(CODES), bool)
FLOWER_MASK[5:10] = True


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
    """Bower for 2 players (spec ``shared/rules/bower.md``)."""

    name = "bower"
    OPTIONS = OPTIONS

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.num_players = 2
        self.num_actions = NUM_ACTIONS
        self.obs_spec = OBS_SPEC
        # 2 draft picks + 24 turns x (take, play, accept, keep, <= 2 effect steps, <= 6 discards).
        self.max_decisions = 2 + 24 * 12

    def action_name(self, action: int) -> str:
        return E.action_name(int(action))

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
        return _state_from_dict(self, data)


class BowerState(State):
    """One Bower position. Fields are plain lists/ints so ``clone`` is a handful of copies."""

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
        self.planes = np.zeros((2, E.NEST_CHANNELS, NUM_CELLS), OBS_DTYPE)
        self._obs = [np.zeros(OBS_SPEC.size, OBS_DTYPE), np.zeros(OBS_SPEC.size, OBS_DTYPE)]
        self._dirty = [S_ALL, S_ALL]
        self._mask: np.ndarray | None = None
        self._final: tuple[list[dict[str, float]], int] | None = None

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
                if len(_PLAY_MASKS) >= 1 << 16:
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
        if ph == PH_FORCE:
            for d in range(3):
                if self.display[d] >= 0:
                    m[DISPLAY + d] = True
            m[PASS] = True
        elif ph == PH_SPY:
            for c in range(6):
                if self.col_owner[c] != p:
                    m[COLUMN + c] = True
        elif ph == PH_TOKEN:
            for a in self._token_targets(self.effect - TK1):
                m[a] = True
            m[PASS] = True
        elif ph == PH_BRANCH:
            for a in self._branch_targets():
                m[a] = True
            m[PASS] = True
        elif ph == PH_COVER:
            m[COVER : COVER + NUM_PLACEMENTS] = cover_mask(self.occ[p])
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

    def _token_targets(self, tok: int) -> list[int]:
        """TARGET ids for TK1-TK4 (§5.3): visible cells holding the relevant units."""
        p = self.turn_player
        out = []
        seats = (p, 1 - p) if tok == TOK_X else (p,)
        for s_rel, seat in enumerate(seats):
            for cell, t in enumerate(self.top[seat]):
                if t < 0:
                    continue
                u = END_UNITS_LIST[t]
                if tok == TOK_X:
                    ok = any(u[0:10])
                elif tok == TOK_WFE:
                    ok = any(u[0:5])
                elif tok == TOK_WFL:
                    ok = any(u[5:10])
                else:
                    ok = u[SHELL] + u[SHELL_PINK] > 0
                if ok:
                    out.append(TARGET + NUM_CELLS * s_rel + cell)
        return out

    def _branch_targets(self) -> list[int]:
        p = self.turn_player
        top = self.top[p]
        return [
            BRANCH + 2 * cell + o
            for cell in range(NUM_CELLS)
            if top[cell] >= 0
            for o in (0, 1)
            if BRANCH_ENDS[2 * cell + o] is not None
        ]

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
            self.hands[p].append(self._take_display(a))
            self._enter_play()
        elif ph == PH_PLAY:
            h, pl = divmod(a - PLAY, NUM_PLACEMENTS)
            tile = self.hands[p].pop(h)
            self._touch(S_HANDS)
            if tile == self.forced[p]:
                self.forced[p] = -1
            self._place(p, tile, pl, cover=False)
            self._after_placement()
        elif ph == PH_BONUS:
            if a == ACCEPT:
                self._draw_bonus()
            else:
                self._enter_hand_check()
        elif ph == PH_KEEP:
            self._keep(a - KEEP)
        elif ph == PH_SPY:
            self._touch(S_EGGS)
            self.spied_cols[p] |= 1 << (a - COLUMN)
            self._enter_hand_check()
        elif ph == PH_TOKEN:
            if a != PASS:
                s_rel, cell = divmod(a - TARGET, NUM_CELLS)
                self._put_token(self.effect - TK1, p if s_rel == 0 else o, cell)
            self._enter_hand_check()
        elif ph == PH_BRANCH:
            if a != PASS:
                cell, orient = divmod(a - BRANCH, 2)
                self.branch_orient = orient
                self._put_token(TOK_BRANCH, p, cell)
            self._enter_hand_check()
        elif ph == PH_COVER_ASK:
            if a == ACCEPT:
                self._touch(S_COVER)
                self.cover_tile = self.stack.pop()
                self.phase = PH_COVER
            else:
                self._enter_hand_check()
        elif ph == PH_COVER:
            tile, self.cover_tile = self.cover_tile, -1
            self._touch(S_COVER)
            self._place(p, tile, a - COVER, cover=True)
            self._enter_hand_check()
        elif ph == PH_FORCE:
            if a != PASS:
                self._touch(S_DISPLAY | S_HANDS)
                tile = self._take_display(a)
                self.hands[o].append(tile)
                self.forced[o] = tile
            self._enter_hand_check()
        elif ph == PH_DOUBLE_ASK:
            if a == ACCEPT:
                self.extra[o] = True
                if self.opts["double_turn_mode"] == "swap":
                    self.owed[p] = True
            self._enter_hand_check()
        elif ph == PH_DISCARD_ASK:
            if a == ACCEPT:
                self.limits[o] = max(0, self.limits[o] - 1)
                if self.hands[o]:
                    self.phase = PH_OPP_DISCARD
                    self.actor = o
                    return
            self._enter_hand_check()
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

    def _after_placement(self) -> None:
        p = self.turn_player
        if not self.opts["bonus_tiles"]:
            self._enter_hand_check()
            return
        cols, cells = conditions_from_bits(
            self.matb[p],
            self.gem1[p],
            self.gem2[p],
            self._branch_code(p),
            self.col_flags[p],
            self.cell_flags[p],
        )
        if not (cols or cells):
            self._enter_hand_check()
            return
        self.conditions = (cols, cells)
        if self.opts["flag_all_triggers"]:
            self._flag(p, cols, cells)
        if not (self.bonus_deck or self.bonus_discard):
            self._enter_hand_check()  # nothing can be drawn: no decision
        elif self.opts["bonus_optional"]:
            self.phase = PH_BONUS
        else:
            self._draw_bonus()

    def _flag(self, p: int, cols: int, cells: int) -> None:
        self.col_flags[p] |= cols
        self.cell_flags[p] |= cells
        self._touch(S_FLAGS | S_NESTS)
        plane = self.planes[p, E.CH_FLAG]
        flags = self.cell_flags[p]
        for i in range(NUM_CELLS):
            plane[i] = flags >> i & 1

    def _draw_bonus(self) -> None:
        """§5.2: draw up to 3, reshuffling the discard pile into the deck when it runs out."""
        drawn = []
        for _ in range(3):
            if not self.bonus_deck:
                if not self.bonus_discard:
                    break
                order = self.rng.permutation(len(self.bonus_discard))
                self.bonus_deck = [self.bonus_discard[i] for i in order]
                self.bonus_discard = []
                self.discard_by = []
            drawn.append(self.bonus_deck.pop())
        self.drawn = drawn
        self._touch(S_DRAW | S_KEPT)
        self.phase = PH_KEEP

    def _keep(self, j: int) -> None:
        p = self.turn_player
        b = self.drawn[j]
        for k, other in enumerate(self.drawn):
            if k != j:
                self.bonus_discard.append(other)
                self.discard_by.append(p)
        self.drawn = []
        self._touch(S_DRAW | S_KEPT)
        if not self.opts["flag_all_triggers"]:
            self._flag(p, *self.conditions)
        self.kept[p].append(b)
        self._resolve(b)

    def _resolve(self, b: int) -> None:
        """§5.3: apply the kept tile, asking a decision only when it can have an effect."""
        p = self.turn_player
        self.effect = b
        if BONUS_KIND[b] == "nest":
            self._touch(S_HANDS)
            self.hands[p].append(BONUS_TILE[b])
            self.limits[p] += 1
        elif b == SP2:
            self._touch(S_EGGS)
            self.spied_removed[p] = True
        phase = self._effect_phase(b)
        if phase >= 0:
            self.phase = phase
        else:
            self._enter_hand_check()

    def _effect_phase(self, b: int) -> int:
        """The decision the kept tile ``b`` asks for, or -1 if none (automatic or no effect)."""
        p = self.turn_player
        o = 1 - p
        if b == SP1:
            return PH_SPY
        if BONUS_KIND[b] == "token":
            tok = b - TK1
            if self.tok_status[tok] != TOK_SUPPLY:
                return -1
            if b == TK5:
                return PH_BRANCH if self._branch_targets() else -1
            return PH_TOKEN if self._token_targets(tok) else -1
        if b == IA1:
            return PH_COVER_ASK if self.stack and cover_mask(self.occ[p]).any() else -1
        if b == IA2:
            ok = self.turns[o] < TURNS_PER_PLAYER and any(t >= 0 for t in self.display)
            return PH_FORCE if ok else -1
        if b == IA3:
            return PH_DOUBLE_ASK if self.turns[o] < TURNS_PER_PLAYER - 1 else -1
        if b == IA4:
            return PH_DISCARD_ASK if self.hands[o] or self.limits[o] > 0 else -1
        return -1

    def _discard_from_hand(self, seat: int, h: int) -> None:
        tile = self.hands[seat].pop(h)
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
        self._paint_cell(p, a)
        self._paint_cell(p, b)

    def _put_token(self, tok: int, seat: int, cell: int) -> None:
        self.tok_status[tok] = TOK_PLACED
        self.tok_seat[tok] = seat
        self.tok_cell[tok] = cell
        self._touch(S_TOKENS)
        self._paint_cell(seat, cell)

    def _remove_token(self, tok: int) -> None:
        seat, cell = self.tok_seat[tok], self.tok_cell[tok]
        self.tok_status[tok] = TOK_REMOVED
        self._paint_cell(seat, cell)

    def _branch_code(self, seat: int) -> int:
        if self.tok_status[TOK_BRANCH] == TOK_PLACED and self.tok_seat[TOK_BRANCH] == seat:
            return 2 * self.tok_cell[TOK_BRANCH] + self.branch_orient
        return -1

    def _token_cell(self, tok: int, seat: int) -> int:
        if self.tok_status[tok] == TOK_PLACED and self.tok_seat[tok] == seat:
            return self.tok_cell[tok]
        return -1

    def _paint_cell(self, seat: int, cell: int) -> None:
        """Rewrite one cell's channels of the public nest planes (kept for fast observe)."""
        self._touch(S_NESTS)
        t = self.top[seat][cell]
        col = self.planes[seat, :, cell]
        col[:] = CELL_BASE[t]  # row -1 is the empty cell
        if self.depth[seat][cell]:
            col[E.CH_COVERED] = 1.0
        if TOK_PLACED in self.tok_status:
            for tok in range(4):
                if self._token_cell(tok, seat) == cell:
                    col[E.CH_TOKEN + tok] = 1.0
            if self._token_cell(TOK_BRANCH, seat) == cell:
                col[E.CH_BRANCH + self.branch_orient] = 1.0
        if self.cell_flags[seat] >> cell & 1:
            col[E.CH_FLAG] = 1.0

    def _repaint_all(self) -> None:
        for seat in range(2):
            for cell in range(NUM_CELLS):
                self._paint_cell(seat, cell)

    # ------------------------------------------------------------------ outcome
    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def _compute_final(self) -> tuple[list[dict[str, float]], int]:
        opts = self.opts
        stats = []
        for q in range(2):
            stats.append(
                nest_stats(
                    self.top[q],
                    branch=self._branch_code(q),
                    x_cell=self._token_cell(TOK_X, q),
                    white_feather_cell=self._token_cell(TOK_WFE, q),
                    white_flower_cell=self._token_cell(TOK_WFL, q),
                    shell_cell=self._token_cell(TOK_SHELL, q),
                    x_cancels=opts["x_cancels"],
                )
            )
        codes = [EGG_CODES[self.eggs[c]] for c in range(6)]
        egg_tiles = [[b - EB_FIRST for b in self.kept[q] if BONUS_KIND[b] == "egg"] for q in (0, 1)]
        return final_scores(stats, codes, egg_tiles, opts)

    def score_breakdown(self) -> list[dict[str, float]]:
        if self._final is None:
            return [empty_breakdown(), empty_breakdown()]
        return [dict(d) for d in self._final[0]]

    def scores(self) -> list[float]:
        """Egg tokens; 0 for both until the end (Bower awards everything at the end)."""
        if self._final is None:
            return [0.0, 0.0]
        return [float(sum(d.values())) for d in self._final[0]]

    def pink_seat(self) -> int:
        """The seat showing the pink shell at the end (-1 if none or not over)."""
        return -1 if self._final is None else self._final[1]

    def winner(self) -> int:
        """§6 step 5: the winning seat, -1 for a draw or before the end."""
        if self._final is None:
            return -1
        a, b = self.scores()
        if a != b:
            return 0 if a > b else 1
        return self._final[1]

    def returns(self) -> list[float]:
        if self._final is None:
            return [0.0, 0.0]
        if self.opts["reward"] == "egg_diff":
            return margin_rewards(self.scores())
        w = self.winner()
        if w < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    # ------------------------------------------------------------------ information
    def knows_egg(self, player: int, pos: int) -> bool:
        """Whether ``player`` knows the egg at position ``pos`` (0-5 columns, 6-7 removed)."""
        if self.phase == PH_OVER:
            return True
        if pos >= 6:
            return self.spied_removed[player]
        return self.col_owner[pos] == player or bool(self.spied_cols[player] >> pos & 1)

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        buf = self._obs[player]
        dirty = self._dirty[player]
        if dirty:
            encode_sections(self, player, buf, dirty)
            self._dirty[player] = 0
        encode_tail(self, player, buf)
        if out is None:
            return buf.copy()
        out[:] = buf
        return out

    def _touch(self, sections: int) -> None:
        """Mark observation sections as changed for both seats (see ``observation.py``)."""
        d = self._dirty
        d[0] |= sections
        d[1] |= sections

    def determinize(self, player: int, rng: np.random.Generator) -> BowerState:
        """Re-sample what ``player`` cannot see: unknown eggs, the stack order (with the
        opponent's hand tiles when ``hands_public=False``), the bonus deck order, the opponent's
        bonus discards and a bonus draw held by the opponent."""
        s = self.clone()
        s.rng = np.random.default_rng(int(rng.integers(1 << 62)))
        if self.phase != PH_OVER:
            hidden = [pos for pos in range(NUM_EGGS) if not self.knows_egg(player, pos)]
            perm = rng.permutation(len(hidden))
            values = [self.eggs[pos] for pos in hidden]
            for pos, k in zip(hidden, perm):
                s.eggs[pos] = values[k]
        # Nest tiles player cannot see: the stack and, with hands_public=False (§9: only hand
        # sizes are public), the opponent's hand tiles T01-T36 (NB tiles are known from the
        # public kept record; a forced slot stays forced with its new tile).
        o = 1 - player
        slots = []
        if not self.opts["hands_public"]:
            slots = [h for h, t in enumerate(s.hands[o]) if t < NUM_NEST_TILES]
        tiles = s.stack + [s.hands[o][h] for h in slots]
        tiles = [tiles[i] for i in rng.permutation(len(tiles))]
        n = len(s.stack)
        s.stack = tiles[:n]
        for h, t in zip(slots, tiles[n:]):
            if s.hands[o][h] == s.forced[o]:
                s.forced[o] = t
            s.hands[o][h] = t
        # Bonus tiles whose place player cannot know: deck, the opponent's discards, and a
        # draw in the opponent's hands.
        pool = list(s.bonus_deck)
        slots = [i for i, by in enumerate(s.discard_by) if by != player]
        pool += [s.bonus_discard[i] for i in slots]
        hidden_draw = bool(s.drawn) and s.turn_player != player
        if hidden_draw:
            pool += s.drawn
        pool = [pool[i] for i in rng.permutation(len(pool))]
        n = len(s.bonus_deck)
        s.bonus_deck = pool[:n]
        k = n
        for i in slots:
            s.bonus_discard[i] = pool[k]
            k += 1
        if hidden_draw:
            s.drawn = pool[k : k + len(s.drawn)]
        s._dirty = [S_ALL, S_ALL]
        return s

    # ------------------------------------------------------------------ copying and saving
    def clone(self) -> BowerState:
        s = BowerState.__new__(BowerState)
        d = self.__dict__.copy()
        s.__dict__ = d
        # Copy-on-use generator: both states share it until one of them touches ``rng``.
        self._rng_own = False
        s._rng_own = False
        s.eggs = self.eggs[:]
        s.col_owner = self.col_owner[:]
        s.stack = self.stack[:]
        s.display = self.display[:]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.forced = self.forced[:]
        s.limits = self.limits[:]
        s.turns = self.turns[:]
        s.extra = self.extra[:]
        s.owed = self.owed[:]
        s.top = [self.top[0][:], self.top[1][:]]
        s.depth = [self.depth[0][:], self.depth[1][:]]
        s.occ = self.occ[:]
        s.placed = [self.placed[0][:], self.placed[1][:]]
        s.col_flags = self.col_flags[:]
        s.cell_flags = self.cell_flags[:]
        s.bonus_deck = self.bonus_deck[:]
        s.bonus_discard = self.bonus_discard[:]
        s.discard_by = self.discard_by[:]
        s.kept = [self.kept[0][:], self.kept[1][:]]
        s.drawn = self.drawn[:]
        s.tok_status = self.tok_status[:]
        s.tok_seat = self.tok_seat[:]
        s.tok_cell = self.tok_cell[:]
        s.spied_cols = self.spied_cols[:]
        s.spied_removed = self.spied_removed[:]
        s.tile_discards = self.tile_discards[:]
        s.planes = self.planes.copy()
        s.matb = [self.matb[0][:], self.matb[1][:]]
        s.gem1 = self.gem1[:]
        s.gem2 = self.gem2[:]
        s._obs = [self._obs[0].copy(), self._obs[1].copy()]
        s._dirty = self._dirty[:]
        s._mask = None
        return s

    def to_dict(self) -> dict[str, Any]:
        def tiles(xs: list[int]) -> list[str]:
            return [TILE_IDS[t] for t in xs]

        def opt_tile(t: int) -> str | None:
            return TILE_IDS[t] if t >= 0 else None

        return {
            "game": "bower",
            "version": 1,
            "rng": rng_to_dict(self.rng),
            "start_player": self.start,
            "eggs": [EGG_IDS[e] for e in self.eggs],
            "egg_owner": self.col_owner[:],
            "stack": tiles(self.stack),
            "display": [opt_tile(t) for t in self.display],
            "hands": [tiles(h) for h in self.hands],
            "forced": [opt_tile(t) for t in self.forced],
            "hand_limits": self.limits[:],
            "turns": self.turns[:],
            "extra_turn": self.extra[:],
            "swap_owed": self.owed[:],
            "nests": [[[TILE_IDS[t], pl, cov] for t, pl, cov in self.placed[q]] for q in range(2)],
            "column_flags": self.col_flags[:],
            "cell_flags": self.cell_flags[:],
            "bonus_deck": [BONUS_IDS[b] for b in self.bonus_deck],
            "bonus_discard": [
                [BONUS_IDS[b], by] for b, by in zip(self.bonus_discard, self.discard_by)
            ],
            "bonus_kept": [[BONUS_IDS[b] for b in self.kept[q]] for q in range(2)],
            "bonus_drawn": [BONUS_IDS[b] for b in self.drawn],
            "conditions": list(self.conditions),
            "tokens": [
                {
                    "token": TOKEN_NAMES[k],
                    "status": TOKEN_STATUS[self.tok_status[k]],
                    "seat": self.tok_seat[k],
                    "cell": self.tok_cell[k],
                    **({"orient": self.branch_orient} if k == TOK_BRANCH else {}),
                }
                for k in range(5)
            ],
            "spied_columns": self.spied_cols[:],
            "spied_removed": self.spied_removed[:],
            "tile_discards": tiles(self.tile_discards),
            "cover_tile": opt_tile(self.cover_tile),
            "phase": PHASES[self.phase],
            "actor": self.actor,
            "turn_player": self.turn_player,
            "effect": BONUS_IDS[self.effect] if self.effect >= 0 else None,
            "decisions": self.decisions,
        }

    # ------------------------------------------------------------------ display
    def __str__(self) -> str:
        lines = [
            f"Bower  phase={PHASES[self.phase]}  turn player=player_{self.turn_player}  "
            f"actor={'-' if self.actor < 0 else f'player_{self.actor}'}  "
            f"turns={self.turns}  start=player_{self.start}",
            "eggs:   "
            + "  ".join(
                f"c{c}:{EGG_IDS[self.eggs[c]]}({CODES[EGG_CODES[self.eggs[c]]]})"
                f"@p{self.col_owner[c]}"
                for c in range(6)
            )
            + f"  removed:{EGG_IDS[self.eggs[6]]},{EGG_IDS[self.eggs[7]]}",
        ]
        for q in range(2):
            lines.append(
                f"player_{q} nest  hand={[TILE_IDS[t] for t in self.hands[q]]} "
                f"limit={self.limits[q]} forced={TILE_IDS[self.forced[q]] if self.forced[q] >= 0 else '-'} "  # noqa: E501
                f"kept={[BONUS_IDS[b] for b in self.kept[q]]} "
                f"col_flags={self.col_flags[q]:06b}"
            )
            for r in range(4):
                row = []
                for c in range(6):
                    i = 6 * r + c
                    row.append(_cell_text(self.top[q][i], self._cell_marks(q, i)))
                lines.append(f"  r{r} " + " | ".join(row))
        lines.append(
            f"display={[TILE_IDS[t] if t >= 0 else '-' for t in self.display]} "
            f"stack={len(self.stack)} bonus deck={len(self.bonus_deck)} "
            f"discard={len(self.bonus_discard)} drawn={[BONUS_IDS[b] for b in self.drawn]}"
        )
        if self.phase == PH_OVER:
            lines.append(f"scores={self.scores()} winner={self.winner()}")
        return "\n".join(lines)

    def _cell_marks(self, seat: int, cell: int) -> str:
        marks = ""
        for tok, ch in zip(range(5), "XFWSB"):
            if self._token_cell(tok, seat) == cell:
                marks += ch
        if self.cell_flags[seat] >> cell & 1:
            marks += "*"
        if self.depth[seat][cell]:
            marks += "^"
        return marks


_ITEM_SHORT = {
    "fe-red": "Fr", "fe-yellow": "Fy", "fe-blue": "Fb", "fe-purple": "Fp", "fe-white": "Fw",
    "fl-red": "Lr", "fl-yellow": "Ly", "fl-blue": "Lb", "fl-purple": "Lp", "fl-white": "Lw",
    "gem": "g", "shell": "s", "shell-pink": "P",
}  # fmt: skip


def _cell_text(t: int, marks: str) -> str:
    if t < 0:
        return " " * 12
    text = MATERIALS[END_MAT_LIST[t]][0].upper() + ":"
    for code, n in zip(CODES, END_UNITS_LIST[t]):
        text += _ITEM_SHORT[code] * n
    return (text + marks)[:12].ljust(12)


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
_OBS_VIEWS = {p.name: OBS_SPEC.slice(p.name) for p in OBS_SPEC.pieces}


# ---------------------------------------------------------------------- loading
def _state_from_dict(game: BowerGame, data: Mapping[str, Any]) -> BowerState:
    try:
        return _parse(game, data)
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise StateFormatError(f"bower: malformed state dict: {type(exc).__name__}: {exc}") from exc


def _seat(x: Any, what: str) -> int:
    require(type(x) is int and x in (0, 1), f"bower: {what} must be 0 or 1, got {x!r}")
    return x


def _tile(x: Any, what: str) -> int:
    require(x in TILE_INDEX, f"bower: {what}: unknown tile {x!r}; allowed T01-T36, NB1-NB4")
    return TILE_INDEX[x]


def _bonus(x: Any, what: str) -> int:
    require(x in BONUS_INDEX, f"bower: {what}: unknown bonus tile {x!r}; allowed {BONUS_IDS}")
    return BONUS_INDEX[x]


def _bool_pair(x: Any, what: str) -> list[bool]:
    require(
        isinstance(x, list) and len(x) == 2 and all(type(v) is bool for v in x),
        f"bower: {what} must be a list of 2 booleans, got {x!r}",
    )
    return list(x)


def _int_pair(x: Any, what: str, lo: int, hi: int) -> list[int]:
    require(
        isinstance(x, list) and len(x) == 2 and all(type(v) is int and lo <= v <= hi for v in x),
        f"bower: {what} must be a list of 2 ints in {lo}..{hi}, got {x!r}",
    )
    return list(x)


def _parse(game: BowerGame, d: Mapping[str, Any]) -> BowerState:
    require(isinstance(d, Mapping), f"bower: state must be a dict, got {type(d).__name__}")
    require(d.get("game") == "bower", f"bower: 'game' must be 'bower', got {d.get('game')!r}")
    require(d.get("version") == 1, f"bower: unsupported version {d.get('version')!r}; allowed 1")
    s = BowerState(game)
    s.rng = rng_from_dict(d["rng"])
    s.start = _seat(d["start_player"], "start_player")
    eggs = d["eggs"]
    require(
        isinstance(eggs, list) and sorted(eggs) == sorted(EGG_IDS),
        f"bower: eggs must be a permutation of {EGG_IDS}, got {eggs!r}",
    )
    s.eggs = [EGG_IDS.index(e) for e in eggs]
    owner = d["egg_owner"]
    require(
        isinstance(owner, list) and len(owner) == 6 and sorted(owner) == [0, 0, 0, 1, 1, 1],
        f"bower: egg_owner must list 6 seats, 3 columns each, got {owner!r}",
    )
    s.col_owner = [_seat(x, "egg_owner") for x in owner]
    s.stack = [_tile(t, "stack") for t in d["stack"]]
    disp = d["display"]
    require(isinstance(disp, list) and len(disp) == 3, "bower: display must have 3 slots")
    s.display = [-1 if t is None else _tile(t, "display") for t in disp]
    hands = d["hands"]
    require(isinstance(hands, list) and len(hands) == 2, "bower: hands must be 2 lists")
    s.hands = [[_tile(t, "hands") for t in h] for h in hands]
    for q in range(2):
        require(
            len(s.hands[q]) <= MAX_HAND,
            f"bower: hand of player_{q} holds {len(s.hands[q])} tiles; at most {MAX_HAND}",
        )
    forced = d["forced"]
    require(isinstance(forced, list) and len(forced) == 2, "bower: forced must have 2 entries")
    s.forced = [-1 if t is None else _tile(t, "forced") for t in forced]
    for q in range(2):
        require(
            s.forced[q] < 0 or s.forced[q] in s.hands[q],
            f"bower: forced tile of player_{q} is not in that hand",
        )
    s.limits = _int_pair(d["hand_limits"], "hand_limits", 0, 5)
    s.turns = _int_pair(d["turns"], "turns", 0, TURNS_PER_PLAYER)
    s.extra = _bool_pair(d["extra_turn"], "extra_turn")
    s.owed = _bool_pair(d["swap_owed"], "swap_owed")
    nests = d["nests"]
    require(isinstance(nests, list) and len(nests) == 2, "bower: nests must be 2 lists")
    for q in range(2):
        for entry in nests[q]:
            require(
                isinstance(entry, list) and len(entry) == 3,
                f"bower: nest entry must be [tile, placement, cover], got {entry!r}",
            )
            t = _tile(entry[0], f"nest of player_{q}")
            pl, cov = entry[1], entry[2]
            require(
                type(pl) is int and 0 <= pl < NUM_PLACEMENTS and type(cov) is bool,
                f"bower: bad placement {entry!r}; placement 0..75, cover true/false",
            )
            f = pl >> 1
            if cov:
                require(
                    s.occ[q] & FP_BITS[f] == FP_BITS[f],
                    f"bower: cover {entry!r} of player_{q} needs two occupied cells",
                )
            else:
                require(
                    legal_footprint(s.occ[q], f),
                    f"bower: placement {entry!r} of player_{q} is not legal in that order",
                )
            s._place(q, t, pl, cov)
    s.col_flags = _int_pair(d["column_flags"], "column_flags", 0, 63)
    s.cell_flags = _int_pair(d["cell_flags"], "cell_flags", 0, (1 << NUM_CELLS) - 1)
    s.bonus_deck = [_bonus(b, "bonus_deck") for b in d["bonus_deck"]]
    s.bonus_discard = []
    s.discard_by = []
    for entry in d["bonus_discard"]:
        require(
            isinstance(entry, list) and len(entry) == 2,
            f"bower: bonus_discard entries are [bonus, seat], got {entry!r}",
        )
        s.bonus_discard.append(_bonus(entry[0], "bonus_discard"))
        s.discard_by.append(_seat(entry[1], "bonus_discard seat"))
    s.kept = [[_bonus(b, "bonus_kept") for b in k] for k in d["bonus_kept"]]
    require(len(s.kept) == 2, "bower: bonus_kept must be 2 lists")
    s.drawn = [_bonus(b, "bonus_drawn") for b in d["bonus_drawn"]]
    require(len(s.drawn) <= 3, "bower: at most 3 drawn bonus tiles")
    cond = d["conditions"]
    require(
        isinstance(cond, list) and len(cond) == 2 and all(type(x) is int for x in cond),
        "bower: conditions must be [column bits, cell bits]",
    )
    s.conditions = (cond[0], cond[1])
    toks = d["tokens"]
    require(isinstance(toks, list) and len(toks) == 5, "bower: tokens must list 5 tokens")
    for k, tok in enumerate(toks):
        require(tok.get("token") == TOKEN_NAMES[k], f"bower: token {k} must be {TOKEN_NAMES[k]}")
        require(
            tok["status"] in TOKEN_STATUS,
            f"bower: token status {tok['status']!r}; allowed {TOKEN_STATUS}",
        )
        s.tok_status[k] = TOKEN_STATUS.index(tok["status"])
        require(
            type(tok["seat"]) is int and type(tok["cell"]) is int,
            f"bower: token {TOKEN_NAMES[k]} seat and cell must be ints (-1 when unused)",
        )
        s.tok_seat[k] = tok["seat"]
        s.tok_cell[k] = tok["cell"]
        if s.tok_status[k] == TOK_PLACED:
            seat = _seat(tok["seat"], f"token {TOKEN_NAMES[k]} seat")
            cell = tok["cell"]
            require(
                type(cell) is int and 0 <= cell < NUM_CELLS and s.top[seat][cell] >= 0,
                f"bower: token {TOKEN_NAMES[k]} must lie on an occupied cell, got {cell!r}",
            )
        if k == TOK_BRANCH:
            s.branch_orient = tok["orient"]
            if s.tok_status[k] == TOK_PLACED:
                require(
                    s.branch_orient in (0, 1)
                    and BRANCH_ENDS[2 * s.tok_cell[k] + s.branch_orient] is not None,
                    "bower: branch orientation must be 0/1 with both ends inside the grid",
                )
    s.spied_cols = _int_pair(d["spied_columns"], "spied_columns", 0, 63)
    s.spied_removed = _bool_pair(d["spied_removed"], "spied_removed")
    s.tile_discards = [_tile(t, "tile_discards") for t in d["tile_discards"]]
    s.cover_tile = -1 if d["cover_tile"] is None else _tile(d["cover_tile"], "cover_tile")
    require(d["phase"] in PHASES, f"bower: phase {d['phase']!r}; allowed {PHASES}")
    s.phase = PHASES.index(d["phase"])
    s.turn_player = _seat(d["turn_player"], "turn_player")
    s.actor = -1 if s.phase == PH_OVER else _seat(d["actor"], "actor")
    s.effect = -1 if d["effect"] is None else _bonus(d["effect"], "effect")
    require(type(d["decisions"]) is int and d["decisions"] >= 0, "bower: decisions >= 0")
    expected_actor = 1 - s.turn_player if s.phase == PH_OPP_DISCARD else s.turn_player
    require(
        s.phase in (PH_OVER, PH_DRAFT) or s.actor == expected_actor,
        f"bower: actor must be player_{expected_actor} in phase {d['phase']}",
    )
    if s.phase == PH_TOKEN:
        require(
            TK1 <= s.effect < TK5,
            f"bower: phase token needs effect TK1-TK4, got {d['effect']!r}",
        )
    if s.phase == PH_BRANCH:
        require(s.effect == TK5, f"bower: phase branch needs effect TK5, got {d['effect']!r}")
    require(
        (s.cover_tile >= 0) == (s.phase == PH_COVER),
        "bower: cover_tile is set exactly in phase cover",
    )
    require(
        bool(s.drawn) == (s.phase == PH_KEEP),
        "bower: bonus_drawn is non-empty exactly in phase keep",
    )
    s.decisions = d["decisions"]

    # Conservation: every nest tile exactly once; NB tiles at most once and only if kept.
    where = (
        s.stack
        + [t for t in s.display if t >= 0]
        + s.hands[0]
        + s.hands[1]
        + s.tile_discards
        + ([s.cover_tile] if s.cover_tile >= 0 else [])
    )
    placed_tiles = [t for q in range(2) for t, _pl, _cov in s.placed[q]]
    seen_count = [0] * NUM_TILES
    for t in where + placed_tiles:
        seen_count[t] += 1
    for t in range(NUM_NEST_TILES):
        require(
            seen_count[t] == 1,
            f"bower: nest tile {TILE_IDS[t]} appears {seen_count[t]} times; each exactly once",
        )
    kept_all = s.kept[0] + s.kept[1]
    for t in range(NB_FIRST, NUM_TILES):
        b = BONUS_INDEX[TILE_IDS[t]]
        require(
            seen_count[t] == (1 if b in kept_all else 0),
            f"bower: {TILE_IDS[t]} must be in play exactly when its bonus tile was kept",
        )
    bonus_all = sorted(s.bonus_deck + s.bonus_discard + s.drawn + kept_all)
    require(
        bonus_all == list(range(NUM_BONUS)),
        "bower: every bonus tile must be exactly once in deck, discard, drawn or kept",
    )
    s._repaint_all()
    s._dirty = [S_ALL, S_ALL]
    if s.phase == PH_OVER:
        s._final = s._compute_final()
    else:
        require(
            bool(s.legal_mask(s.actor).any()),
            f"bower: no legal action for player_{s.actor} in phase {d['phase']}",
        )
    return s


__all__ = ["OPTIONS", "BowerGame", "BowerState"]
