"""The layout of ethnos' compiled engine: the columns of a position row, the options vector,
the tables, and the small row helpers every kernel module uses.

Slot ``i``'s whole position is row ``i`` of one int16 matrix ``S`` (columns below). The public
per-seat numbers of the Python engine's ``seat_f`` block (``SC_*`` columns) live there, kept up
to date at the same points as there, stored piece by piece (``_seat_at``), so writing an
observation copies two contiguous runs per piece plus the public and private pieces. The matrix
is int16 (every number of a position fits; the decision count takes two columns): a quarter
of the memory an int64 row would take, which at a thousand slots decides the speed. Options
come as the int64 vector ``opts`` (``O_*``, built by ``make_opts``).
"""


from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import (
    GLORY_SETS,
    MERFOLK,
    SKELETON,
    TRIBE_COUNTS,
    TYPE_COLOUR,
    TYPE_TRIBE,
)  # fmt: skip
from tablezoo.envs.ethnos.observation import GLOBAL_PIECES, seat_pieces

MAXP = 6  # seats a row has room for
NT = 67  # card types
SK = SKELETON
DRAGON = 67  # a Dragon in the deck list
MAXB = 84  # bands one Age can hold (one card each, 84 cards at most)
BAND_W = 12  # a band: owner, X, then up to 10 cards (leader first, the rest by type)
DECK_MAX = 90

# --- the position matrix S [B, NCOL] (int16) ---------------------------------------------------
_next = [0]


def _take(width: int = 1) -> int:
    start = _next[0]
    _next[0] += width
    return start


AGE, FIRST, ACTOR, PHASE, TERMINAL = (_take() for _ in range(5))
DECISIONS = _take(2)  # the decision count: count % 2**15, then count // 2**15
DRAGONS, THIRD, LOWER_LEFT, NDECK = (_take() for _ in range(4))
BLEAD, BLEN, TRIBE_OK, COLOUR_OK = (_take() for _ in range(4))  # the band being built
CUR_LEADER, CUR_X, CUR_PLACED, MLEFT, ELF_N = (_take() for _ in range(5))  # being resolved
GSEAT, GSIZE, NGPLAYS, NORC, NBANDS = (_take() for _ in range(5))
HAND_LEN = _take(MAXP)  # with the above, the first cache line: what checking an action reads
TROLL_OWNER = _take(6)
HAS = _take(12)  # tribe in play, by tribe
TOKENS = _take(18)  # glory tokens, kingdom * 3 + slot (0 where unused)
DISPLAY = _take(NT)
HANDS = _take(MAXP * NT)
BUILDING = _take(NT)
ELF_KEPT = _take(NT)
DISCARD = _take(NT)
DECK = _take(DECK_MAX)  # the deck, top card last (as the Python engine's list)
GPLAYS = _take(2 * MAXB)  # Giant-led bands of the Age: seat, size
BANDS = _take(MAXB * BAND_W)  # the Age's bands in play order
BREAKDOWN = _take(MAXP * 6)
ORCQ = _take(MAXP)
NCOL_BEFORE_SEAT = _take(0)

# the seat block: the Python engine's seat_f layout, one run per seat
_widths = []
for _name, _shape, _doc, _high in seat_pieces(1.0):
    _w = 1
    for _s in _shape:
        _w *= _s
    _widths.append((_name, _w))
SEAT_WIDTH = sum(w for _, w in _widths)
SEAT = _take(MAXP * SEAT_WIDTH)
NCOL = -(-(_take(0) + 16) // 32) * 32  # whole 64-byte lines; 16 spare entries (``blocks``)
DEC_BASE = 2**15
MAX_DECISIONS = DEC_BASE * (2**15 - 1)  # what the two columns hold
_cols = {}
_c = 0
for _name, _w in _widths:
    _cols[_name] = _c
    _c += _w
SC_ACTING, SC_FIRST, SC_THIRD, SC_HAND_SIZE, SC_GLORY = (
    _cols["acting"], _cols["first_player"], _cols["third_dragon"], _cols["hand_size"],
    _cols["glory"])
SC_MARKERS, SC_MERFOLK, SC_HORDE, SC_TROLLS, SC_GIANT = (
    _cols["markers"], _cols["merfolk_track"], _cols["horde"], _cols["trolls_held"],
    _cols["giant_holder"])
SC_KNOWN, SC_BCARDS, SC_BLEADERS, SC_BTS, SC_BSCORED, SC_BGLORY = (
    _cols["known_hand"], _cols["band_cards"], _cols["band_leaders"], _cols["band_tribe_size"],
    _cols["band_scored_size"], _cols["band_glory"])
PIECE_COL = np.array([_cols[name] for name, _ in _widths], np.int64)
PIECE_W = np.array([w for _, w in _widths], np.int64)
NPIECES = len(_widths)
# the seat block is stored piece by piece, each piece seat by seat (room for MAXP seats), so an
# observer's seat-relative order of a piece is two contiguous runs
PIECE_AT = MAXP * PIECE_COL  # where piece j starts in the block
COL_AT = np.zeros(SEAT_WIDTH, np.int64)  # seat 0's place of seat_f column c in the block
COL_W = np.zeros(SEAT_WIDTH, np.int64)  # the width of column c's piece (the seat stride)
for _j in range(NPIECES):
    for _k in range(PIECE_W[_j]):
        COL_AT[PIECE_COL[_j] + _k] = PIECE_AT[_j] + _k
        COL_W[PIECE_COL[_j] + _k] = PIECE_W[_j]

# the public pieces' offsets in the observation (the same for every player count)
_g = {}
_c = 0
for _name, _shape, _doc, _high in GLOBAL_PIECES:
    _g[_name] = _c
    _c += int(np.prod(_shape)) if _shape else 1
GLOB_SIZE = _c
OB_DISPLAY, OB_TOKENS, OB_TRIBES, OB_AGE, OB_DRAGONS = (
    _g["display"], _g["glory_tokens"], _g["tribes_in_play"], _g["age"], _g["dragons_revealed"])
OB_DECK, OB_SAFE, OB_TROLLS, OB_GIANT, OB_PHASE = (
    _g["deck_size"], _g["deck_safe_top"], _g["troll_supply"], _g["giant_band_size"], _g["phase"])
OB_BAND_X, OB_BAND_LEADER, OB_MLEFT, OB_ELF = (
    _g["band_x"], _g["band_leader"], _g["merfolk_markers_left"], _g["elf_kept"])

# --- the options vector opts (int64) -----------------------------------------------------------
(O_N, O_AGES, O_NTRIBES, O_PER, O_NFIXED, O_GCLAIM, O_GTROLL, O_CENTAUR_MARKER, O_TROLL_RULEBOOK,
 O_TIE_IPLUS, O_2P_MERFOLK, O_LIMIT, O_ORC_AUTO, O_DRAW_TWO, O_AUTO, O_REWARD, O_MAX_DEC,
 O_PER_SPACE, O_MEND, O_NSPACES, O_NPOOL) = range(21)
O_FIXED = 21  # 6: the fixed tribes
O_BAND_GLORY = 27  # 6
O_ORC_GLORY = 33  # 6
O_MSLOTS = 39  # 3: Merfolk slot values by Age (for the player count)
O_GBONUS = 42  # 3: Giant bonus by Age (for the player count)
O_POOL = 45  # 18: the glory tokens in play, in the Python engine's pool order
O_SPACES = 63  # up to 100: the Merfolk marker spaces
NUM_OPTS = 163
REWARD_RANK, REWARD_SCORE, REWARD_MARGIN = 0, 1, 2

TURN, BUILD, WINGFOLK_PICK, MERFOLK_PICK, TROLL_PICK, CENTAUR_PICK, ELF_PICK, WIZARD_PICK, \
    ORC_PICK = range(9)
OVER = act.OVER
KINGDOM_CAT, MERFOLK_CAT, GIANT_CLAIM_CAT, GIANT_BONUS_CAT, ORC_CAT, BAND_CAT = range(6)

# chain stages of ``_resolve``
ST_MARKER, ST_ABILITY, ST_NEXT_MERFOLK, ST_AFTER_ABILITY, ST_DISCARD, ST_AFTER_DISCARD, \
    ST_END_TURN = range(7)

TTRIBE = TYPE_TRIBE.astype(np.int64)
TCOLOUR = TYPE_COLOUR.astype(np.int64)
TCOUNTS = TRIBE_COUNTS.astype(np.int64)

A_RECRUIT_DECK, A_LEADER, A_ADD, A_FINISH, A_KINGDOM, A_TROLL = (
    act.RECRUIT_DECK, act.LEADER, act.ADD_CARD, act.FINISH_BAND, act.KINGDOM, act.TROLL)
A_CSTOP, A_ELF_KEEP, A_ELF_DONE, A_WDRAW, A_WSKIP, A_OEMPTY, A_OKEEP, A_PASS = (
    act.CENTAUR_STOP, act.ELF_KEEP, act.ELF_DONE, act.WIZARD_DRAW, act.WIZARD_SKIP,
    act.ORC_EMPTY, act.ORC_KEEP, act.PASS)
NUM_ACTIONS = act.NUM_ACTIONS




def make_opts(game) -> np.ndarray:
    """The options vector of an ``EthnosGame`` (its options already checked)."""
    o = game.options
    n = game.num_players
    opts = np.zeros(NUM_OPTS, np.int64)
    opts[O_N] = n
    opts[O_AGES] = game.num_ages
    opts[O_NTRIBES] = game.num_tribes
    opts[O_PER] = game.slots_per_kingdom
    fixed = game.fixed_tribes or ()
    opts[O_NFIXED] = len(fixed)
    opts[O_FIXED:O_FIXED + len(fixed)] = fixed
    opts[O_GCLAIM] = o["giant_claim_glory"]
    opts[O_GTROLL] = o["giant_troll_tiebreak"]
    opts[O_CENTAUR_MARKER] = o["centaur_requires_marker"]
    opts[O_TROLL_RULEBOOK] = o["troll_tiebreak"] == "rulebook"
    opts[O_TIE_IPLUS] = o["two_player_tie"] == "i_plus_ii"
    opts[O_2P_MERFOLK] = o["two_player_rule_merfolk"]
    opts[O_LIMIT] = -1 if o["marker_limit"] is None else o["marker_limit"]
    opts[O_ORC_AUTO] = o["orc_auto_empty_final_age"]
    opts[O_DRAW_TWO] = o["empty_display_draw_two"]
    opts[O_AUTO] = o["auto_single_choice"]
    opts[O_REWARD] = ("rank", "score", "margin").index(o["reward"])
    opts[O_MAX_DEC] = o["max_decisions"]
    opts[O_PER_SPACE] = o["merfolk_marker_per_space"]
    opts[O_MEND] = game.merfolk_end
    opts[O_NSPACES] = len(game.merfolk_spaces)
    opts[O_SPACES:O_SPACES + len(game.merfolk_spaces)] = game.merfolk_spaces
    opts[O_BAND_GLORY:O_BAND_GLORY + 6] = game.band_glory
    opts[O_ORC_GLORY:O_ORC_GLORY + 6] = game.orc_glory
    opts[O_MSLOTS:O_MSLOTS + len(game.merfolk_slots)] = game.merfolk_slots
    opts[O_GBONUS:O_GBONUS + len(game.giant_bonus)] = game.giant_bonus
    tokens = GLORY_SETS[o["glory_tokens"]]
    pool = list(tokens["other"]) + (list(tokens["four_plus"]) if n >= 4 else [])
    opts[O_NPOOL] = len(pool)
    opts[O_POOL:O_POOL + len(pool)] = pool
    return opts


@njit(cache=True)
def _seat_at(p, col):
    """The column of seat ``p``'s number ``col`` (a ``seat_f`` column, ``SC_*``)."""
    return SEAT + COL_AT[col] + p * COL_W[col]


@njit(cache=True)
def _decisions(S, i):
    """The decision count of slot ``i`` (indexed in two dimensions: no row view, whose
    reference count costs two atomic operations)."""
    return np.int64(S[i, DECISIONS + 1]) * DEC_BASE + S[i, DECISIONS]


@njit(cache=True)
def _count_decision(S, i):
    low = S[i, DECISIONS] + 1
    if low == DEC_BASE:
        S[i, DECISIONS] = 0
        S[i, DECISIONS + 1] += 1
    else:
        S[i, DECISIONS] = low


@njit(cache=True)
def _gain(S, i, p, amount, cat):
    s = S[i]
    if amount != 0:
        s[_seat_at(p, SC_GLORY)] += amount
        s[BREAKDOWN + 6 * p + cat] += amount


@njit(cache=True)
def _markers_available(S, i, p, opts):
    s = S[i]
    limit = opts[O_LIMIT]
    if limit < 0:
        return True
    used = 1 + (1 if s[HAS + MERFOLK] else 0)
    for k in range(6):
        used += s[_seat_at(p, SC_MARKERS + k)] + s[_seat_at(p, SC_HORDE + k)]
    return used < limit


@njit(cache=True)
def _marker_test(S, i, p, k, e, n):
    s = S[i]
    if n == 2:
        return e > s[_seat_at(0, SC_MARKERS + k)] + s[_seat_at(1, SC_MARKERS + k)]
    return e > s[_seat_at(p, SC_MARKERS + k)]


@njit(cache=True)
def _band_value(opts, size):
    if size <= 0:
        return 0
    return opts[O_BAND_GLORY + min(size, 6) - 1]


@njit(cache=True)
def _clear_band_context(S, i):
    s = S[i]
    if s[CUR_LEADER] >= 0:
        s[CUR_LEADER] = -1
        s[CUR_X] = 0
    s[CUR_PLACED] = 0
    s[MLEFT] = 0
    if s[ELF_N] != 0:
        s[ELF_N] = 0
        for t in range(NT):
            s[ELF_KEPT + t] = 0


@njit(cache=True)
def _hand_to(s, p, pile):
    """Seat ``p``'s whole hand onto the pile at column ``pile`` (the display or the discard) of
    the slot row ``s``: its hand and known cards emptied."""
    h = np.uint64(HANDS + NT * p)  # unsigned: the loop vectorizes
    known_at = np.uint64(_seat_at(p, SC_KNOWN))
    to = np.uint64(pile)
    for t in range(np.uint64(NT)):
        s[to + t] += s[h + t]
        s[h + t] = 0
        s[known_at + t] = 0
    s[HAND_LEN + p] = 0
    s[_seat_at(p, SC_HAND_SIZE)] = 0


@njit(cache=True)
def _end_turn(S, i, n):
    s = S[i]
    _clear_band_context(S, i)
    s[ACTOR] = (s[ACTOR] + 1) % n
    s[PHASE] = TURN
