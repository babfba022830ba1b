"""The numba kernels of ``bower``'s batched engine (``vector`` holds the Python class).

The rules are ``rules``' and ``bonus``' own, written again over arrays: slot ``i``'s whole
position is row ``i`` of one int32 matrix ``S`` (columns below: lists are a fixed-size block plus
a length, nests are each cell's visible tile end, occupancies and flags are bit masks as in the
Python engine), its generator row ``i`` of the uint64 ``rng`` (PCG32: state, increment). Options
come as the int64 vector ``opts``.

The turn flow (``_enter_play``, ``_enter_hand_check``, ``_end_turn``, ``_start_turn`` call each
other in the Python engine) is one loop here, ``_flow``, over the step to take next. ``step``
checks every action, applies them and writes every next decision; the observation (the
``bower_v0`` encoding, bit for bit) is written whole from the position at each decision, the
legal mask too (a tile placement's hundreds of ids come from the 38 footprints' legality).
Everything is ``cache=True``.

Randomness: each slot's generator and its exactly uniform draws and shuffles are the shared ones
of ``tablezoo.envs.vector.kernels``: a new game shuffles the eggs, the nest stack and the bonus
deck and draws the start player and (``egg_columns="random"``) 3 of the 6 columns; a bonus draw
from an empty deck shuffles the discard pile into it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    HAND,
    KEEP,
    PASS,
    PLAY,
    TARGET,
)
from tablezoo.envs.bower.compiled.decisions import (
    first_illegal,
    write_decisions,
)
from tablezoo.envs.bower.compiled.layout import (
    ACTOR,
    BENDS,
    BKIND,
    BONUS,
    BORIENT,
    BRANCHP,
    BTILE,
    CELLF,
    COLF,
    COLUMN_BITS,
    COND_C,
    COND_X,
    COVER_ASK,
    COVER_TILE,
    COVERP,
    DECISIONS,
    DECK,
    DEPTH,
    DISC,
    DISC_BY,
    DISCARD_ASK,
    DISPLAY,
    DONE,
    DOUBLE_ASK,
    DRAFT,
    DRAWN,
    EFFECT,
    EGEMS,
    EGGS,
    EMAT,
    ENTER_PLAY,
    EXTRA,
    FORCE,
    FORCED,
    FPB,
    GEM1,
    GEM2,
    HAND_CHECK,
    HAND_STRIDE,
    HANDP,
    HANDS,
    KEEPP,
    KEPT,
    LIMITS,
    MATB,
    NCOL,
    NDECK,
    NDISC,
    NDRAWN,
    NEST_KIND,
    NHAND,
    NKEPT,
    NPLACED,
    NSTACK,
    NTD,
    O_ALTERNATE,
    O_BONUS_OPTIONAL,
    O_BONUS_TILES,
    O_EGG_DIFF,
    O_FLAG_ALL,
    O_SWAP,
    OCC,
    OPP_DISCARD,
    OVER,
    OWED,
    OWNER,
    PHASE,
    PLACED,
    PLACED_STRIDE,
    PLACED_TOK,
    PLAYP,
    PLCELLS,
    REMOVED,
    SPIEDC,
    SPIEDR,
    SPY,
    STACK,
    START,
    START_TURN,
    SUPPLY,
    TAKE,
    TD,
    TOKCELL,
    TOKEN,
    TOKEN_KIND,
    TOKSEAT,
    TOKST,
    TOP,
    TP,
    TURNS,
    TURNS_PER_PLAYER,
    U,
    branch_code,
    components,
    has_cover,
    has_placement,
    popcount,
    token_target_ok,
)
from tablezoo.envs.bower.compiled.outcome import (
    final_scores,
)
from tablezoo.envs.bower.components import (
    IA1,
    IA2,
    IA3,
    IA4,
    NUM_BONUS,
    NUM_NEST_TILES,
    SP1,
    SP2,
    TK1,
    TK5,
)
from tablezoo.envs.vector.kernels import (
    bounded,
    shuffle,
)


@njit(cache=True, inline="always")
def _hand_push(s, q, tile):
    s[U(HANDS + HAND_STRIDE * q + s[U(NHAND + q)])] = tile
    s[U(NHAND + q)] += 1


@njit(cache=True, inline="always")
def _hand_pop(s, q, h):
    base = HANDS + HAND_STRIDE * q
    n = s[U(NHAND + q)]
    tile = s[U(base + h)]
    for k in range(h, n - 1):
        s[U(base + k)] = s[U(base + k + 1)]
    s[U(base + n - 1)] = -1
    s[U(NHAND + q)] = n - 1
    return tile


@njit(cache=True, inline="always")
def _stack_pop(s):
    n = s[NSTACK] - 1
    tile = s[U(STACK + n)]
    s[U(STACK + n)] = -1
    s[NSTACK] = n
    return tile


@njit(cache=True, inline="always")
def _take_display(s, d):
    tile = s[U(DISPLAY + d)]
    s[U(DISPLAY + d)] = _stack_pop(s) if s[NSTACK] > 0 else -1
    return tile


@njit(cache=True, inline="always")
def _any_display(s):
    return s[DISPLAY] >= 0 or s[U(DISPLAY + 1)] >= 0 or s[U(DISPLAY + 2)] >= 0


@njit(cache=True)
def _place(s, p, tile, pl, cover):
    """``rules._place``: tile ``tile`` on placement ``pl`` of seat ``p``'s nest."""
    a = PLCELLS[U(pl), 0]
    b = PLCELLS[U(pl), 1]
    top = TOP + 24 * p
    s[U(top + a)] = 2 * tile
    s[U(top + b)] = 2 * tile + 1
    if cover:
        s[U(DEPTH + 24 * p + a)] += 1
        s[U(DEPTH + 24 * p + b)] += 1
        for tok in range(5):
            if s[U(TOKST + tok)] == PLACED_TOK and s[U(TOKSEAT + tok)] == p \
                    and (s[U(TOKCELL + tok)] == a or s[U(TOKCELL + tok)] == b):
                s[U(TOKST + tok)] = REMOVED
    s[U(OCC + p)] |= FPB[pl >> 1]
    k = PLACED + PLACED_STRIDE * p + 3 * s[U(NPLACED + p)]
    s[U(k)] = tile
    s[U(k + 1)] = pl
    s[U(k + 2)] = 1 if cover else 0
    s[U(NPLACED + p)] += 1
    for cell, end in ((a, 2 * tile), (b, 2 * tile + 1)):
        bit = 1 << cell
        keep = ~bit
        for m in range(4):
            s[U(MATB + 4 * p + m)] &= keep
        s[U(MATB + 4 * p + EMAT[end])] |= bit
        gems = EGEMS[end]
        s[U(GEM1 + p)] = s[U(GEM1 + p)] | bit if gems >= 1 else s[U(GEM1 + p)] & keep
        s[U(GEM2 + p)] = s[U(GEM2 + p)] | bit if gems >= 2 else s[U(GEM2 + p)] & keep


@njit(cache=True)
def _conditions(s, p, comps):
    """§5.1 (``scoring.conditions_from_bits``): new (column bits, cell bits) of seat ``p``."""
    g1 = s[U(GEM1 + p)]
    g2 = s[U(GEM2 + p)]
    col_flags = s[U(COLF + p)]
    cell_flags = s[U(CELLF + p)]
    new_cols = 0
    for c in range(6):
        if not (col_flags >> c) & 1:
            cb = COLUMN_BITS[c]
            if popcount(g1 & cb) + popcount(g2 & cb) >= 3:
                new_cols |= 1 << c
    new_cells = 0
    if popcount(g1) + popcount(g2) >= 3:
        branch = branch_code(s, p)
        for m in range(3):
            mb = s[U(MATB + 4 * p + m)]
            if popcount(g1 & mb) + popcount(g2 & mb) < 3:
                continue
            n = components(mb, branch, comps)
            for k in range(n):
                comp = comps[k]
                if (comp & cell_flags) == 0 and popcount(g1 & comp) + popcount(g2 & comp) >= 3:
                    new_cells |= comp
    return new_cols, new_cells



@njit(cache=True)
def _any_token_target(s, tok):
    p = s[TP]
    for s_rel in range(2 if tok == 0 else 1):
        seat = p if s_rel == 0 else 1 - p
        for cell in range(24):
            if token_target_ok(s, tok, seat, cell):
                return True
    return False


@njit(cache=True)
def _any_branch_target(s):
    p = s[TP]
    for cell in range(24):
        if s[U(TOP + 24 * p + cell)] >= 0 and (BENDS[2 * cell, 0] >= 0
                                               or BENDS[2 * cell + 1, 0] >= 0):
            return True
    return False


@njit(cache=True)
def _effect_phase(s, b):
    """``bonus.effect_phase``: the decision kept tile ``b`` asks for, or -1."""
    p = s[TP]
    o = 1 - p
    if b == SP1:
        return SPY
    if BKIND[b] == TOKEN_KIND:
        tok = b - TK1
        if s[U(TOKST + tok)] != SUPPLY:
            return -1
        if b == TK5:
            return BRANCHP if _any_branch_target(s) else -1
        return TOKEN if _any_token_target(s, tok) else -1
    if b == IA1:
        return COVER_ASK if s[NSTACK] > 0 and has_cover(s[U(OCC + p)]) else -1
    if b == IA2:
        ok = s[U(TURNS + o)] < TURNS_PER_PLAYER and _any_display(s)
        return FORCE if ok else -1
    if b == IA3:
        return DOUBLE_ASK if s[U(TURNS + o)] < TURNS_PER_PLAYER - 1 else -1
    if b == IA4:
        return DISCARD_ASK if s[U(NHAND + o)] > 0 or s[U(LIMITS + o)] > 0 else -1
    return -1


@njit(cache=True, inline="always")
def _flag(s, p, cols, cells):
    s[U(COLF + p)] |= cols
    s[U(CELLF + p)] |= cells


@njit(cache=True)
def _draw_bonus(s, gen):
    """§5.2: draw up to 3, the discard pile shuffled into the deck when it runs out."""
    n = 0
    for _ in range(3):
        if s[NDECK] == 0:
            nd = s[NDISC]
            if nd == 0:
                break
            for k in range(nd):
                s[U(DECK + k)] = s[U(DISC + k)]
                s[U(DISC + k)] = -1
                s[U(DISC_BY + k)] = -1
            gen[0] = shuffle(gen[0], gen[1], s[DECK:DECK + nd], nd)
            s[NDECK] = nd
            s[NDISC] = 0
        k = s[NDECK] - 1
        s[U(DRAWN + n)] = s[U(DECK + k)]
        s[U(DECK + k)] = -1
        s[NDECK] = k
        n += 1
    s[NDRAWN] = n
    s[PHASE] = KEEPP


# --- the rules: one decision -------------------------------------------------------------------
@njit(cache=True)
def _apply(s, gen, opts, a, comps):
    """Play legal action ``a`` in the slot of row ``s`` (generator row ``gen``); what ``_flow``
    does next."""
    ph = s[PHASE]
    p = s[TP]
    o = 1 - p
    s[DECISIONS] += 1
    if ph == DRAFT:
        actor = s[ACTOR]
        _hand_push(s, actor, s[U(DISPLAY + a)])
        s[U(DISPLAY + a)] = -1
        if actor == s[START]:
            s[ACTOR] = 1 - actor
            return DONE
        for d in range(3):
            if s[U(DISPLAY + d)] < 0 and s[NSTACK] > 0:
                s[U(DISPLAY + d)] = _stack_pop(s)
        s[TP] = s[START]
        return START_TURN
    if ph == TAKE:
        _hand_push(s, p, _take_display(s, a))
        return ENTER_PLAY
    if ph == PLAYP:
        h = (a - PLAY) // 76
        pl = (a - PLAY) % 76
        tile = _hand_pop(s, p, h)
        if tile == s[U(FORCED + p)]:
            s[U(FORCED + p)] = -1
        _place(s, p, tile, pl, False)
        if opts[O_BONUS_TILES] == 0:
            return HAND_CHECK
        cols, cells = _conditions(s, p, comps)
        if cols == 0 and cells == 0:
            return HAND_CHECK
        s[COND_C] = cols
        s[COND_X] = cells
        if opts[O_FLAG_ALL]:
            _flag(s, p, cols, cells)
        if s[NDECK] == 0 and s[NDISC] == 0:
            return HAND_CHECK
        if opts[O_BONUS_OPTIONAL]:
            s[PHASE] = BONUS
        else:
            _draw_bonus(s, gen)
        return DONE
    if ph == BONUS:
        if a == ACCEPT:
            _draw_bonus(s, gen)
            return DONE
        return HAND_CHECK
    if ph == KEEPP:
        j = a - KEEP
        b = s[U(DRAWN + j)]
        for k in range(s[NDRAWN]):
            if k != j:
                s[U(DISC + s[NDISC])] = s[U(DRAWN + k)]
                s[U(DISC_BY + s[NDISC])] = p
                s[NDISC] += 1
            s[U(DRAWN + k)] = -1
        s[NDRAWN] = 0
        if opts[O_FLAG_ALL] == 0:
            _flag(s, p, s[COND_C], s[COND_X])
        s[U(KEPT + 20 * p + s[U(NKEPT + p)])] = b
        s[U(NKEPT + p)] += 1
        s[EFFECT] = b
        if BKIND[b] == NEST_KIND:
            _hand_push(s, p, BTILE[b])
            s[U(LIMITS + p)] += 1
        elif b == SP2:
            s[U(SPIEDR + p)] = 1
        nxt = _effect_phase(s, b)
        if nxt >= 0:
            s[PHASE] = nxt
            return DONE
        return HAND_CHECK
    if ph == SPY:
        s[U(SPIEDC + p)] |= 1 << (a - COLUMN)
        return HAND_CHECK
    if ph == TOKEN:
        if a != PASS:
            tok = s[EFFECT] - TK1
            s_rel = (a - TARGET) // 24
            s[U(TOKST + tok)] = PLACED_TOK
            s[U(TOKSEAT + tok)] = p if s_rel == 0 else o
            s[U(TOKCELL + tok)] = (a - TARGET) % 24
        return HAND_CHECK
    if ph == BRANCHP:
        if a != PASS:
            s[BORIENT] = (a - BRANCH) % 2
            s[U(TOKST + 4)] = PLACED_TOK
            s[U(TOKSEAT + 4)] = p
            s[U(TOKCELL + 4)] = (a - BRANCH) // 2
        return HAND_CHECK
    if ph == COVER_ASK:
        if a == ACCEPT:
            s[COVER_TILE] = _stack_pop(s)
            s[PHASE] = COVERP
            return DONE
        return HAND_CHECK
    if ph == COVERP:
        tile = s[COVER_TILE]
        s[COVER_TILE] = -1
        _place(s, p, tile, a - COVER, True)
        return HAND_CHECK
    if ph == FORCE:
        if a != PASS:
            tile = _take_display(s, a)
            _hand_push(s, o, tile)
            s[U(FORCED + o)] = tile
        return HAND_CHECK
    if ph == DOUBLE_ASK:
        if a == ACCEPT:
            s[U(EXTRA + o)] = 1
            if opts[O_SWAP]:
                s[U(OWED + p)] = 1
        return HAND_CHECK
    if ph == DISCARD_ASK:
        if a == ACCEPT:
            s[U(LIMITS + o)] = max(0, s[U(LIMITS + o)] - 1)
            if s[U(NHAND + o)] > 0:
                s[PHASE] = OPP_DISCARD
                s[ACTOR] = o
                return DONE
        return HAND_CHECK
    # OPP_DISCARD or HAND: a hand tile discarded face up
    seat = o if ph == OPP_DISCARD else p
    tile = _hand_pop(s, seat, a - HAND)
    if tile == s[U(FORCED + seat)]:
        s[U(FORCED + seat)] = -1
    s[U(TD + s[NTD])] = tile
    s[NTD] += 1
    return HAND_CHECK


@njit(cache=True)
def _flow(s, todo):
    """The automatic steps after a decision (``rules``' ``_enter_play``, ``_enter_hand_check``,
    ``_end_turn``, ``_start_turn``) until the next decision or the end (phase over)."""
    while todo != DONE:
        p = s[TP]
        if todo == ENTER_PLAY:
            s[ACTOR] = p
            if s[U(NHAND + p)] > 0 and has_placement(s[U(OCC + p)]):
                s[PHASE] = PLAYP
                return
            todo = HAND_CHECK
        elif todo == HAND_CHECK:
            s[ACTOR] = p
            s[EFFECT] = -1
            if s[U(NHAND + p)] > s[U(LIMITS + p)]:
                s[PHASE] = HANDP
                return
            # §3.1: count the turn, choose the next turn player
            o = 1 - p
            s[U(TURNS + p)] += 1
            s[U(FORCED + p)] = -1
            s[COND_C] = 0
            s[COND_X] = 0
            if s[U(EXTRA + p)]:
                s[U(EXTRA + p)] = 0
                if s[U(OWED + o)]:
                    s[U(OWED + o)] = 0
                    s[U(EXTRA + o)] = 1
                if s[U(TURNS + p)] < TURNS_PER_PLAYER:
                    todo = START_TURN
                    continue
            if s[U(TURNS + o)] < TURNS_PER_PLAYER:
                s[TP] = o
            elif s[U(TURNS + p)] < TURNS_PER_PLAYER:
                s[TP] = p
            else:
                s[PHASE] = OVER
                s[ACTOR] = -1
                return
            todo = START_TURN
        else:  # START_TURN
            s[ACTOR] = p
            s[COND_C] = 0
            s[COND_X] = 0
            if s[U(FORCED + p)] < 0 and _any_display(s):
                s[PHASE] = TAKE
                return
            todo = ENTER_PLAY



# --- new games ---------------------------------------------------------------------------------
@njit(cache=True)
def _new_game(s, gen, opts):
    """``BowerGame.new_state`` in the slot of row ``s``, from its generator row ``gen``."""
    st = gen[0]
    inc = gen[1]
    for k in range(NCOL):
        s[U(k)] = -1
    st, start = bounded(st, inc, 2)
    s[START] = start
    for k in range(8):
        s[U(EGGS + k)] = k
    st = shuffle(st, inc, s[EGGS:EGGS + 8], 8)
    if opts[O_ALTERNATE]:
        for c in range(6):
            s[U(OWNER + c)] = start if c % 2 == 0 else 1 - start
    else:
        cols = np.arange(6)
        st = shuffle(st, inc, cols, 6)
        for c in range(6):
            s[U(OWNER + c)] = 1
        for k in range(3):
            s[U(OWNER + cols[k])] = 0
    for k in range(NUM_NEST_TILES):
        s[U(STACK + k)] = k
    st = shuffle(st, inc, s[STACK:STACK + NUM_NEST_TILES], NUM_NEST_TILES)
    s[NSTACK] = NUM_NEST_TILES
    for d in range(3):
        s[U(DISPLAY + d)] = _stack_pop(s)
    for k in range(NUM_BONUS):
        s[U(DECK + k)] = k
    st = shuffle(st, inc, s[DECK:DECK + NUM_BONUS], NUM_BONUS)
    gen[0] = st
    s[NDECK] = NUM_BONUS
    for name in (DECISIONS, BORIENT, NDISC, NDRAWN, NTD, COND_C, COND_X):
        s[U(name)] = 0
    s[BORIENT] = -1
    for q in range(2):
        for name in (NHAND, TURNS, EXTRA, OWED, OCC, NPLACED, COLF, CELLF, NKEPT, SPIEDC,
                     SPIEDR, GEM1, GEM2):
            s[U(name + q)] = 0
        s[U(LIMITS + q)] = 1
        for m in range(4):
            s[U(MATB + 4 * q + m)] = 0
        for c in range(24):
            s[U(DEPTH + 24 * q + c)] = 0
    for tok in range(5):
        s[U(TOKST + tok)] = SUPPLY
    s[PHASE] = DRAFT
    s[ACTOR] = start
    s[TP] = start


@njit(cache=True)
def new_games(S, rng, opts, lo, hi):
    """A new game in slots ``lo..hi-1``."""
    for i in range(lo, hi):
        _new_game(S[i], rng[i], opts)



@njit(cache=True)
def _step_slot(S, rng, opts, i, a, rewards, terminated, comps, scores):
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminated[i] = False
    s = S[i]
    gen = rng[i]
    _flow(s, _apply(s, gen, opts, a, comps))
    if s[PHASE] != OVER:
        return
    pink = final_scores(s, opts, scores)
    if opts[O_EGG_DIFF]:
        rewards[i, 0] = scores[0] - scores[1]
        rewards[i, 1] = scores[1] - scores[0]
    else:
        w = pink
        if scores[0] != scores[1]:
            w = 0 if scores[0] > scores[1] else 1
        if w >= 0:
            rewards[i, w] = 1.0
            rewards[i, 1 - w] = -1.0
    terminated[i] = True
    _new_game(s, gen, opts)


@njit(cache=True)
def step(S, rng, opts, actions, obs, mask, seat, rewards, terminated, truncated):
    """Validate every action, then play them and write the next decisions: the slot of the
    first illegal action (nothing changed), or -1."""
    bad = first_illegal(S, actions)
    if bad >= 0:
        return bad
    comps = np.zeros(24, np.int64)
    scores = np.zeros(2, np.float64)
    for i in range(S.shape[0]):
        truncated[i] = False
        _step_slot(S, rng, opts, i, actions[i], rewards, terminated, comps, scores)
    write_decisions(S, opts, obs, mask, seat, 0, S.shape[0])
    return -1


@njit(cache=True)
def step_rows(S, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) in every row ``i`` of ``rows`` and write its
    next decision; every other row gets zero rewards and no ending."""
    rewards[:] = 0.0
    terminated[:] = False
    truncated[:] = False
    comps = np.zeros(24, np.int64)
    scores = np.zeros(2, np.float64)
    for k in range(rows.shape[0]):
        i = rows[k]
        _step_slot(S, rng, opts, i, actions[i], rewards, terminated, comps, scores)
        write_decisions(S, opts, obs, mask, seat, i, i + 1)


