"""Bower's observation: the pieces (``OBS_SPEC``) and the fast incremental encoder.

Observation: seat-relative ("me" first) float32 pieces declared once in ``OBS_SPEC``;
``tablezoo.envs.bower.rules.BowerState.observe`` writes them with the encoder below.

The state keeps one flat buffer per seat and a bitmask of *dirty* sections per seat. Mutations
mark the sections they touch (``BowerState._touch``); ``observe`` re-encodes only those, rewrites
the small always-changing tail (phase and scalars) and copies the buffer out. A state rebuilt
from scratch (``state_from_dict``, ``determinize``) marks everything dirty, and the tests compare
incremental buffers against full re-encodes at every step of many games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bower.actions import NUM_PHASES, PHASES
from tablezoo.envs.bower.components import (
    CODES,
    END_MAT_LIST,
    END_UNITS,
    MATERIALS,
    NUM_BONUS,
    NUM_EGGS,
    NUM_TILES,
    PINK_TILE,
    TOK_BRANCH,
    TOK_PLACED,
)
from tablezoo.envs.bower.geometry import NUM_CELLS, PLACEMENT_CELLS
from tablezoo.envs.core.obs_spec import OBS_DTYPE, ObsPiece, ObsSpec

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState

# --- observation ----------------------------------------------------------------------------
# Per-cell channels of the nest planes.
CH_MAT = 0  # 4 one-hot materials (straw, moss, gravel, earth)
CH_UNITS = 4  # 13 item-code unit counts (order of components.CODES)
CH_TOKEN = 17  # X, white feather, white flower, shell tokens on this cell
CH_BRANCH = 21  # branch base here: horizontal, vertical
CH_FLAG = 23  # cell flagged by a group trigger
CH_COVERED = 24  # a covered tile lies under the visible one
CH_PINK_TILE = 25  # the visible cell belongs to NB4 (pink-shell tile)
NEST_CHANNELS = 26

TILE_FEATURES = 2 * (len(MATERIALS) + len(CODES))  # both ends: material one-hot + unit counts

SCALARS: tuple[str, ...] = (
    "my_turns/12", "opp_turns/12", "my_hand_limit/5", "opp_hand_limit/5", "stack_size/36",
    "bonus_deck/20", "bonus_discard/20", "my_extra_turn", "opp_extra_turn", "my_swap_owed",
    "opp_swap_owed", "i_started", "my_turn", "i_act", "game_over", "conditions_met",
)  # fmt: skip

OBS_SPEC = ObsSpec(
    [
        ObsPiece(
            "nests",
            (2, NEST_CHANNELS, 4, 6),
            "visible nest cells, [me, opponent] x channel x row x column; channels: 0-3 "
            "material one-hot (straw, moss, gravel, earth), 4-16 unit counts of fe-red, "
            "fe-yellow, fe-blue, fe-purple, fe-white, fl-red, fl-yellow, fl-blue, fl-purple, "
            "fl-white, gem, shell, shell-pink, 17-20 X / white-feather / white-flower / shell "
            "token, 21-22 branch base horizontal / vertical, 23 cell flagged, 24 covered tile "
            "below, 25 cell of NB4",
            high=3.0,
        ),
        ObsPiece("column_flags", (2, 6), "column flagged by a gem trigger, [me, opponent]"),
        ObsPiece("egg_owner", (2, 6), "column's request egg belongs to [me, opponent] (public)"),
        ObsPiece(
            "column_eggs",
            (6, NUM_EGGS),
            "one-hot E1-E8 of each column's egg when I know it (mine, spied, or game over)",
        ),
        ObsPiece(
            "removed_eggs", (NUM_EGGS,), "multi-hot of the 2 removed eggs when I know them (SP2)"
        ),
        ObsPiece("spied_columns", (2, 6), "columns looked at with SP1 by [me, opponent]"),
        ObsPiece(
            "display",
            (3, 1 + TILE_FEATURES),
            "display slots: present, then per end (cells[0], cells[1]) 4 material one-hot + "
            "13 unit counts",
            high=3.0,
        ),
        ObsPiece(
            "hands",
            (2, 6, 2 + TILE_FEATURES),
            "hand slots of [me, opponent]: present, forced, tile features as in display "
            "(opponent's features zero when hands_public=False)",
            high=3.0,
        ),
        ObsPiece(
            "cover_tile",
            (1 + TILE_FEATURES,),
            "the revealed stack tile awaiting a COVER placement: present + tile features",
            high=3.0,
        ),
        ObsPiece(
            "bonus_draw",
            (3, NUM_BONUS),
            "one-hot bonus ids of the tiles I drew and must KEEP one of (empty for the opponent)",
        ),
        ObsPiece("bonus_kept", (2, NUM_BONUS), "bonus tiles kept by [me, opponent] (public)"),
        ObsPiece(
            "bonus_my_discards",
            (NUM_BONUS,),
            "bonus tiles I put face down on the discard pile (still there)",
        ),
        ObsPiece(
            "token_supply", (5,), "X, white feather, white flower, shell, branch token unused"
        ),
        ObsPiece(
            "discarded_tiles",
            (NUM_TILES,),
            "nest tiles discarded face up (T01-T36, NB1-NB4)",
        ),
        ObsPiece(
            "covered_tiles",
            (NUM_TILES,),
            "nest tiles (T01-T36, NB1-NB4) with a cell hidden under a Cover tile, either nest",
        ),
        ObsPiece(
            "effect",
            (NUM_BONUS,),
            "one-hot id of the kept bonus tile whose effect is being decided now (public)",
        ),
        ObsPiece("phase", (NUM_PHASES,), "current decision: " + ", ".join(PHASES)),
        ObsPiece("scalars", (len(SCALARS),), "; ".join(SCALARS)),
    ]
)
OBS_SIZE = OBS_SPEC.size


# Sections (bits of the dirty mask).
S_NESTS = 1  # nests planes (materials, units, tokens, branch, flags, covered, NB4)
S_FLAGS = 2  # column flags
S_EGGS = 4  # egg owners, known eggs, removed eggs, spied columns
S_DISPLAY = 8
S_HANDS = 16
S_COVER = 32
S_DRAW = 64
S_KEPT = 128  # kept bonus tiles, my bonus discards
S_TOKENS = 256  # token supply
S_DISCARDS = 512  # nest tiles discarded face up
S_ALL = 1023


def _tile_features() -> np.ndarray:
    """Per placeable tile: both ends' material one-hot (4) + unit counts (13)."""
    feats = np.zeros((NUM_TILES, TILE_FEATURES), OBS_DTYPE)
    half = TILE_FEATURES // 2
    for t in range(NUM_TILES):
        for end in range(2):
            base = end * half
            feats[t, base + END_MAT_LIST[2 * t + end]] = 1.0
            feats[t, base + 4 : base + half] = END_UNITS[2 * t + end]
    return feats


TILE_FEATURE_ROWS = _tile_features()


def _cell_base() -> np.ndarray:
    """Nest-plane channels of a visible tile end (row ``2 * tile + end``); the last row (index
    -1) is an empty cell. Covered, token, branch and flag channels are added by the state."""
    base = np.zeros((2 * NUM_TILES + 1, NEST_CHANNELS), OBS_DTYPE)
    for t in range(2 * NUM_TILES):
        base[t, CH_MAT + END_MAT_LIST[t]] = 1.0
        base[t, CH_UNITS : CH_UNITS + len(CODES)] = END_UNITS[t]
        base[t, CH_PINK_TILE] = 1.0 if t >> 1 == PINK_TILE else 0.0
    return base


CELL_BASE = _cell_base()
# Display / hand rows: present (+ forced placeholder) then the tile features.
DISPLAY_ROWS = np.concatenate([np.ones((NUM_TILES, 1), OBS_DTYPE), TILE_FEATURE_ROWS], axis=1)
HAND_ROWS = np.concatenate(
    [np.ones((NUM_TILES, 1), OBS_DTYPE), np.zeros((NUM_TILES, 1), OBS_DTYPE), TILE_FEATURE_ROWS],
    axis=1,
)
HIDDEN_HAND_ROW = np.zeros(2 + TILE_FEATURES, OBS_DTYPE)
HIDDEN_HAND_ROW[0] = 1.0
BITS6 = np.array([[(b >> i) & 1 for i in range(6)] for b in range(64)], OBS_DTYPE)

_SPEC = OBS_SPEC


def _span(name: str) -> tuple[int, int]:
    sl = _SPEC.slice(name)
    return sl.start, sl.stop


NESTS = _span("nests")
NEST_SIZE = NEST_CHANNELS * NUM_CELLS
COL_FLAGS = _span("column_flags")
EGG_OWNER = _span("egg_owner")
COLUMN_EGGS = _span("column_eggs")
REMOVED = _span("removed_eggs")
SPIED = _span("spied_columns")
DISPLAY = _span("display")
DISPLAY_ROW = 1 + TILE_FEATURES
HANDS = _span("hands")
HAND_ROW = 2 + TILE_FEATURES
COVER = _span("cover_tile")
DRAW = _span("bonus_draw")
KEPT = _span("bonus_kept")
MY_DISCARDS = _span("bonus_my_discards")
TOKENS = _span("token_supply")
DISCARDED = _span("discarded_tiles")
COVERED = _span("covered_tiles")
EFFECT = _span("effect")
PHASE = _span("phase")
SCALARS_SPAN = _span("scalars")
PHASE_ROWS = np.eye(len(PHASES), dtype=OBS_DTYPE)
TAIL = EFFECT[0]  # effect, phase and scalars are the last pieces: rewritten on every observe
assert SCALARS_SPAN[1] == _SPEC.size and PHASE[1] == SCALARS_SPAN[0] and EFFECT[1] == PHASE[0]


_display_cache: dict[tuple[int, ...], np.ndarray] = {}
_hand_cache: dict[tuple[tuple[int, ...], int, bool], np.ndarray] = {}
_CACHE_LIMIT = 1 << 12  # bounded: RSS must plateau in long runs (tablezoo soak)


def _display_block(display: tuple[int, ...]) -> np.ndarray:
    """The encoded display rows for a display content (cached: displays recur)."""
    block = _display_cache.get(display)
    if block is None:
        block = np.zeros((3, DISPLAY_ROW), OBS_DTYPE)
        for d, t in enumerate(display):
            if t >= 0:
                block[d] = DISPLAY_ROWS[t]
        block = block.reshape(-1)
        if len(_display_cache) >= _CACHE_LIMIT:
            _display_cache.clear()
        _display_cache[display] = block
    return block


def _hand_block(hand: tuple[int, ...], forced: int, visible: bool) -> np.ndarray:
    """The 6 encoded hand slots of one seat (cached by content, forced tile and visibility)."""
    key = (hand, forced, visible)
    block = _hand_cache.get(key)
    if block is None:
        block = np.zeros((6, HAND_ROW), OBS_DTYPE)
        for h, t in enumerate(hand):
            block[h] = HAND_ROWS[t] if visible else HIDDEN_HAND_ROW
            if t == forced:
                block[h, 1] = 1.0
        block = block.reshape(-1)
        if len(_hand_cache) >= _CACHE_LIMIT:
            _hand_cache.clear()
        _hand_cache[key] = block
    return block


def encode_sections(s: BowerState, me: int, buf: np.ndarray, dirty: int) -> None:
    """Re-encode the ``dirty`` sections of seat ``me``'s buffer from the state."""
    op = 1 - me
    if dirty & S_NESTS:
        a = NESTS[0]
        buf[a : a + NEST_SIZE] = s.planes[me].reshape(-1)
        buf[a + NEST_SIZE : a + 2 * NEST_SIZE] = s.planes[op].reshape(-1)
        a, b = COVERED
        buf[a:b] = 0.0
        for q in (0, 1):
            if any(s.depth[q]):  # only a Cover hides cells
                top = s.top[q]
                for tile, pl, _cover in s.placed[q]:
                    c0, c1 = PLACEMENT_CELLS[pl]
                    if top[c0] != 2 * tile or top[c1] != 2 * tile + 1:
                        buf[a + tile] = 1.0
    if dirty & S_FLAGS:
        a = COL_FLAGS[0]
        buf[a : a + 6] = BITS6[s.col_flags[me]]
        buf[a + 6 : a + 12] = BITS6[s.col_flags[op]]
    if dirty & S_EGGS:
        buf[EGG_OWNER[0] : REMOVED[1]] = 0.0
        owner = EGG_OWNER[0]
        eggs = COLUMN_EGGS[0]
        for c in range(6):
            buf[owner + (c if s.col_owner[c] == me else 6 + c)] = 1.0
            if s.knows_egg(me, c):
                buf[eggs + NUM_EGGS * c + s.eggs[c]] = 1.0
        if s.knows_egg(me, 6):
            buf[REMOVED[0] + s.eggs[6]] = 1.0
            buf[REMOVED[0] + s.eggs[7]] = 1.0
        a = SPIED[0]
        buf[a : a + 6] = BITS6[s.spied_cols[me]]
        buf[a + 6 : a + 12] = BITS6[s.spied_cols[op]]
    if dirty & S_DISPLAY:
        buf[DISPLAY[0] : DISPLAY[1]] = _display_block(tuple(s.display))
    if dirty & S_HANDS:
        public = s.opts["hands_public"]
        a = HANDS[0]
        mid = a + 6 * HAND_ROW
        buf[a:mid] = _hand_block(tuple(s.hands[me]), s.forced[me], True)
        buf[mid : HANDS[1]] = _hand_block(tuple(s.hands[op]), s.forced[op], public)
    if dirty & S_COVER:
        a, b = COVER
        if s.cover_tile >= 0:
            buf[a] = 1.0
            buf[a + 1 : b] = TILE_FEATURE_ROWS[s.cover_tile]
        else:
            buf[a:b] = 0.0
    if dirty & S_DRAW:
        a, b = DRAW
        buf[a:b] = 0.0
        if s.drawn and s.turn_player == me:
            for j, bonus in enumerate(s.drawn):
                buf[a + NUM_BONUS * j + bonus] = 1.0
    if dirty & S_KEPT:
        a = KEPT[0]
        buf[a : MY_DISCARDS[1]] = 0.0
        for bonus in s.kept[me]:
            buf[a + bonus] = 1.0
        for bonus in s.kept[op]:
            buf[a + NUM_BONUS + bonus] = 1.0
        for bonus, by in zip(s.bonus_discard, s.discard_by):
            if by == me:
                buf[MY_DISCARDS[0] + bonus] = 1.0
    if dirty & S_TOKENS:
        a = TOKENS[0]
        for tok in range(5):
            buf[a + tok] = 1.0 if s.tok_status[tok] == 0 else 0.0
    if dirty & S_DISCARDS:
        a, b = DISCARDED
        buf[a:b] = 0.0
        for t in s.tile_discards:
            buf[a + t] = 1.0


def encode_tail(s: BowerState, me: int, buf: np.ndarray) -> None:
    """Phase one-hot and scalars: they change with nearly every decision."""
    op = 1 - me
    over = s.phase == len(PHASES) - 1
    buf[EFFECT[0] : EFFECT[1]] = 0.0
    if s.effect >= 0:
        buf[EFFECT[0] + s.effect] = 1.0
    buf[PHASE[0] : PHASE[1]] = PHASE_ROWS[s.phase]
    buf[SCALARS_SPAN[0] : SCALARS_SPAN[1]] = (
        s.turns[me] / 12.0,
        s.turns[op] / 12.0,
        s.limits[me] / 5.0,
        s.limits[op] / 5.0,
        len(s.stack) / 36.0,
        len(s.bonus_deck) / 20.0,
        len(s.bonus_discard) / 20.0,
        s.extra[me],
        s.extra[op],
        s.owed[me],
        s.owed[op],
        s.start == me,
        s.turn_player == me and not over,
        s.actor == me,
        over,
        bool(s.conditions[0] or s.conditions[1]),
    )


# ---------------------------------------------------------------------- nest planes
def observe(s: BowerState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """``player``'s observation: the sections changed since its last one are re-encoded into its
    buffer, the tail every time; a copy (or ``out``) is handed out."""
    buf = s._obs[player]
    dirty = s._dirty[player]
    if dirty:
        encode_sections(s, player, buf, dirty)
        s._dirty[player] = 0
    encode_tail(s, player, buf)
    if out is None:
        return buf.copy()
    out[:] = buf
    return out


def paint_cell(s: BowerState, seat: int, cell: int) -> None:
    """Rewrite one cell's channels of the public nest planes (kept for fast observe)."""
    s._touch(S_NESTS)
    t = s.top[seat][cell]
    col = s.planes[seat, :, cell]
    col[:] = CELL_BASE[t]  # row -1 is the empty cell
    if s.depth[seat][cell]:
        col[CH_COVERED] = 1.0
    if TOK_PLACED in s.tok_status:
        for tok in range(4):
            if s._token_cell(tok, seat) == cell:
                col[CH_TOKEN + tok] = 1.0
        if s._token_cell(TOK_BRANCH, seat) == cell:
            col[CH_BRANCH + s.branch_orient] = 1.0
    if s.cell_flags[seat] >> cell & 1:
        col[CH_FLAG] = 1.0


def repaint_all(s: BowerState) -> None:
    """Repaint every cell of both nests (a state built from scratch)."""
    for seat in range(2):
        for cell in range(NUM_CELLS):
            paint_cell(s, seat, cell)


# ---------------------------------------------------------------------- global state
# The full-information global state for centralised critics (``env.state()``): player_0's
# observation (so "me" = player_0, "opponent" = player_1: absolute seats), then everything no
# observation shows: both hands' tiles, every egg, the drawn and discarded bonus tiles by seat,
# and the composition and top of both face-down piles.
HIDDEN_PIECES: tuple[ObsPiece, ...] = (
    ObsPiece("all_hands", (2, 6, 2 + TILE_FEATURES),
             "hand slots of [player_0, player_1] with their tiles' features (present, forced, "
             "features as in display), whatever hands_public says", high=3.0),
    ObsPiece("all_eggs", (NUM_EGGS, NUM_EGGS),
             "one-hot E1-E8 at positions 0-5 (columns) and 6-7 (removed eggs)"),
    ObsPiece("all_bonus_draw", (3, NUM_BONUS), "one-hot bonus ids of the tiles being kept from"),
    ObsPiece("all_bonus_discards", (2, NUM_BONUS),
             "bonus discard pile by the seat that discarded each tile [player_0, player_1]"),
    ObsPiece("stack_tiles", (NUM_TILES,), "nest tiles in the face-down stack (composition)"),
    ObsPiece("stack_top", (NUM_TILES,), "one-hot of the stack's top tile (the next revealed)"),
    ObsPiece("bonus_deck_tiles", (NUM_BONUS,), "bonus tiles in the face-down bonus deck"),
    ObsPiece("bonus_deck_top", (NUM_BONUS,), "one-hot of the bonus deck's top tile"),
)
STATE_SPEC = ObsSpec(
    [ObsPiece(f"player_0.{p.name}", p.shape, f"player_0's `{p.name}`: {p.doc}", p.high, p.low)
     for p in OBS_SPEC.pieces] + list(HIDDEN_PIECES)
)
_HIDDEN_START = OBS_SIZE


def global_state(s: BowerState, out: np.ndarray | None = None) -> np.ndarray:
    """The global state of ``s`` (layout ``STATE_SPEC``), written into ``out`` when given."""
    if out is None:
        out = STATE_SPEC.zeros()
    s.observe(0, out=out[:OBS_SIZE])
    out[_HIDDEN_START:] = 0.0
    hands = STATE_SPEC.view(out, "all_hands")
    for q in (0, 1):
        hands[q] = _hand_block(tuple(s.hands[q]), s.forced[q], True).reshape(6, HAND_ROW)
    eggs = STATE_SPEC.view(out, "all_eggs")
    for pos, egg in enumerate(s.eggs):
        eggs[pos, egg] = 1.0
    drawn = STATE_SPEC.view(out, "all_bonus_draw")
    for j, bonus in enumerate(s.drawn):
        drawn[j, bonus] = 1.0
    discards = STATE_SPEC.view(out, "all_bonus_discards")
    for bonus, by in zip(s.bonus_discard, s.discard_by):
        discards[by, bonus] = 1.0
    STATE_SPEC.view(out, "stack_tiles")[s.stack] = 1.0
    STATE_SPEC.view(out, "bonus_deck_tiles")[s.bonus_deck] = 1.0
    if s.stack:
        STATE_SPEC.view(out, "stack_top")[s.stack[-1]] = 1.0
    if s.bonus_deck:
        STATE_SPEC.view(out, "bonus_deck_top")[s.bonus_deck[-1]] = 1.0
    return out
