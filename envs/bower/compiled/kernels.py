"""The numba kernels of ``bower``'s batched engine (``vector`` holds the Python class).

The rules are ``rules``' and ``bonus``' own, written again over arrays: slot ``i``'s whole
position is row ``i`` of one int64 matrix ``S`` (columns below: lists are a fixed-size block plus
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
def _hand_push(S, i, q, tile):
    S[i, HANDS + HAND_STRIDE * q + S[i, NHAND + q]] = tile
    S[i, NHAND + q] += 1


@njit(cache=True, inline="always")
def _hand_pop(S, i, q, h):
    base = HANDS + HAND_STRIDE * q
    n = S[i, NHAND + q]
    tile = S[i, base + h]
    for k in range(h, n - 1):
        S[i, base + k] = S[i, base + k + 1]
    S[i, base + n - 1] = -1
    S[i, NHAND + q] = n - 1
    return tile


@njit(cache=True, inline="always")
def _stack_pop(S, i):
    n = S[i, NSTACK] - 1
    tile = S[i, STACK + n]
    S[i, STACK + n] = -1
    S[i, NSTACK] = n
    return tile


@njit(cache=True, inline="always")
def _take_display(S, i, d):
    tile = S[i, DISPLAY + d]
    S[i, DISPLAY + d] = _stack_pop(S, i) if S[i, NSTACK] > 0 else -1
    return tile


@njit(cache=True, inline="always")
def _any_display(S, i):
    return S[i, DISPLAY] >= 0 or S[i, DISPLAY + 1] >= 0 or S[i, DISPLAY + 2] >= 0


@njit(cache=True)
def _place(S, i, p, tile, pl, cover):
    """``rules._place``: tile ``tile`` on placement ``pl`` of seat ``p``'s nest."""
    a = PLCELLS[pl, 0]
    b = PLCELLS[pl, 1]
    top = TOP + 24 * p
    S[i, top + a] = 2 * tile
    S[i, top + b] = 2 * tile + 1
    if cover:
        S[i, DEPTH + 24 * p + a] += 1
        S[i, DEPTH + 24 * p + b] += 1
        for tok in range(5):
            if S[i, TOKST + tok] == PLACED_TOK and S[i, TOKSEAT + tok] == p \
                    and (S[i, TOKCELL + tok] == a or S[i, TOKCELL + tok] == b):
                S[i, TOKST + tok] = REMOVED
    S[i, OCC + p] |= FPB[pl >> 1]
    k = PLACED + PLACED_STRIDE * p + 3 * S[i, NPLACED + p]
    S[i, k] = tile
    S[i, k + 1] = pl
    S[i, k + 2] = 1 if cover else 0
    S[i, NPLACED + p] += 1
    for cell, end in ((a, 2 * tile), (b, 2 * tile + 1)):
        bit = 1 << cell
        keep = ~bit
        for m in range(4):
            S[i, MATB + 4 * p + m] &= keep
        S[i, MATB + 4 * p + EMAT[end]] |= bit
        gems = EGEMS[end]
        S[i, GEM1 + p] = S[i, GEM1 + p] | bit if gems >= 1 else S[i, GEM1 + p] & keep
        S[i, GEM2 + p] = S[i, GEM2 + p] | bit if gems >= 2 else S[i, GEM2 + p] & keep


@njit(cache=True)
def _conditions(S, i, p, comps):
    """§5.1 (``scoring.conditions_from_bits``): new (column bits, cell bits) of seat ``p``."""
    g1 = S[i, GEM1 + p]
    g2 = S[i, GEM2 + p]
    col_flags = S[i, COLF + p]
    cell_flags = S[i, CELLF + p]
    new_cols = 0
    for c in range(6):
        if not (col_flags >> c) & 1:
            cb = COLUMN_BITS[c]
            if popcount(g1 & cb) + popcount(g2 & cb) >= 3:
                new_cols |= 1 << c
    new_cells = 0
    if popcount(g1) + popcount(g2) >= 3:
        branch = branch_code(S, i, p)
        for m in range(3):
            mb = S[i, MATB + 4 * p + m]
            if popcount(g1 & mb) + popcount(g2 & mb) < 3:
                continue
            n = components(mb, branch, comps)
            for k in range(n):
                comp = comps[k]
                if (comp & cell_flags) == 0 and popcount(g1 & comp) + popcount(g2 & comp) >= 3:
                    new_cells |= comp
    return new_cols, new_cells



@njit(cache=True)
def _any_token_target(S, i, tok):
    p = S[i, TP]
    for s_rel in range(2 if tok == 0 else 1):
        seat = p if s_rel == 0 else 1 - p
        for cell in range(24):
            if token_target_ok(S, i, tok, seat, cell):
                return True
    return False


@njit(cache=True)
def _any_branch_target(S, i):
    p = S[i, TP]
    for cell in range(24):
        if S[i, TOP + 24 * p + cell] >= 0 and (BENDS[2 * cell, 0] >= 0
                                               or BENDS[2 * cell + 1, 0] >= 0):
            return True
    return False


@njit(cache=True)
def _effect_phase(S, i, b):
    """``bonus.effect_phase``: the decision kept tile ``b`` asks for, or -1."""
    p = S[i, TP]
    o = 1 - p
    if b == SP1:
        return SPY
    if BKIND[b] == TOKEN_KIND:
        tok = b - TK1
        if S[i, TOKST + tok] != SUPPLY:
            return -1
        if b == TK5:
            return BRANCHP if _any_branch_target(S, i) else -1
        return TOKEN if _any_token_target(S, i, tok) else -1
    if b == IA1:
        return COVER_ASK if S[i, NSTACK] > 0 and has_cover(S[i, OCC + p]) else -1
    if b == IA2:
        ok = S[i, TURNS + o] < TURNS_PER_PLAYER and _any_display(S, i)
        return FORCE if ok else -1
    if b == IA3:
        return DOUBLE_ASK if S[i, TURNS + o] < TURNS_PER_PLAYER - 1 else -1
    if b == IA4:
        return DISCARD_ASK if S[i, NHAND + o] > 0 or S[i, LIMITS + o] > 0 else -1
    return -1


@njit(cache=True, inline="always")
def _flag(S, i, p, cols, cells):
    S[i, COLF + p] |= cols
    S[i, CELLF + p] |= cells


@njit(cache=True)
def _draw_bonus(S, rng, i):
    """§5.2: draw up to 3, the discard pile shuffled into the deck when it runs out."""
    n = 0
    for _ in range(3):
        if S[i, NDECK] == 0:
            nd = S[i, NDISC]
            if nd == 0:
                break
            for k in range(nd):
                S[i, DECK + k] = S[i, DISC + k]
                S[i, DISC + k] = -1
                S[i, DISC_BY + k] = -1
            rng[i, 0] = shuffle(rng[i, 0], rng[i, 1], S[i, DECK:DECK + nd], nd)
            S[i, NDECK] = nd
            S[i, NDISC] = 0
        k = S[i, NDECK] - 1
        S[i, DRAWN + n] = S[i, DECK + k]
        S[i, DECK + k] = -1
        S[i, NDECK] = k
        n += 1
    S[i, NDRAWN] = n
    S[i, PHASE] = KEEPP


# --- the rules: one decision -------------------------------------------------------------------
@njit(cache=True)
def _apply(S, rng, opts, i, a, comps):
    """Play legal action ``a`` in slot ``i``; what ``_flow`` does next."""
    ph = S[i, PHASE]
    p = S[i, TP]
    o = 1 - p
    S[i, DECISIONS] += 1
    if ph == DRAFT:
        actor = S[i, ACTOR]
        _hand_push(S, i, actor, S[i, DISPLAY + a])
        S[i, DISPLAY + a] = -1
        if actor == S[i, START]:
            S[i, ACTOR] = 1 - actor
            return DONE
        for d in range(3):
            if S[i, DISPLAY + d] < 0 and S[i, NSTACK] > 0:
                S[i, DISPLAY + d] = _stack_pop(S, i)
        S[i, TP] = S[i, START]
        return START_TURN
    if ph == TAKE:
        _hand_push(S, i, p, _take_display(S, i, a))
        return ENTER_PLAY
    if ph == PLAYP:
        h = (a - PLAY) // 76
        pl = (a - PLAY) % 76
        tile = _hand_pop(S, i, p, h)
        if tile == S[i, FORCED + p]:
            S[i, FORCED + p] = -1
        _place(S, i, p, tile, pl, False)
        if opts[O_BONUS_TILES] == 0:
            return HAND_CHECK
        cols, cells = _conditions(S, i, p, comps)
        if cols == 0 and cells == 0:
            return HAND_CHECK
        S[i, COND_C] = cols
        S[i, COND_X] = cells
        if opts[O_FLAG_ALL]:
            _flag(S, i, p, cols, cells)
        if S[i, NDECK] == 0 and S[i, NDISC] == 0:
            return HAND_CHECK
        if opts[O_BONUS_OPTIONAL]:
            S[i, PHASE] = BONUS
        else:
            _draw_bonus(S, rng, i)
        return DONE
    if ph == BONUS:
        if a == ACCEPT:
            _draw_bonus(S, rng, i)
            return DONE
        return HAND_CHECK
    if ph == KEEPP:
        j = a - KEEP
        b = S[i, DRAWN + j]
        for k in range(S[i, NDRAWN]):
            if k != j:
                S[i, DISC + S[i, NDISC]] = S[i, DRAWN + k]
                S[i, DISC_BY + S[i, NDISC]] = p
                S[i, NDISC] += 1
            S[i, DRAWN + k] = -1
        S[i, NDRAWN] = 0
        if opts[O_FLAG_ALL] == 0:
            _flag(S, i, p, S[i, COND_C], S[i, COND_X])
        S[i, KEPT + 20 * p + S[i, NKEPT + p]] = b
        S[i, NKEPT + p] += 1
        S[i, EFFECT] = b
        if BKIND[b] == NEST_KIND:
            _hand_push(S, i, p, BTILE[b])
            S[i, LIMITS + p] += 1
        elif b == SP2:
            S[i, SPIEDR + p] = 1
        nxt = _effect_phase(S, i, b)
        if nxt >= 0:
            S[i, PHASE] = nxt
            return DONE
        return HAND_CHECK
    if ph == SPY:
        S[i, SPIEDC + p] |= 1 << (a - COLUMN)
        return HAND_CHECK
    if ph == TOKEN:
        if a != PASS:
            tok = S[i, EFFECT] - TK1
            s_rel = (a - TARGET) // 24
            S[i, TOKST + tok] = PLACED_TOK
            S[i, TOKSEAT + tok] = p if s_rel == 0 else o
            S[i, TOKCELL + tok] = (a - TARGET) % 24
        return HAND_CHECK
    if ph == BRANCHP:
        if a != PASS:
            S[i, BORIENT] = (a - BRANCH) % 2
            S[i, TOKST + 4] = PLACED_TOK
            S[i, TOKSEAT + 4] = p
            S[i, TOKCELL + 4] = (a - BRANCH) // 2
        return HAND_CHECK
    if ph == COVER_ASK:
        if a == ACCEPT:
            S[i, COVER_TILE] = _stack_pop(S, i)
            S[i, PHASE] = COVERP
            return DONE
        return HAND_CHECK
    if ph == COVERP:
        tile = S[i, COVER_TILE]
        S[i, COVER_TILE] = -1
        _place(S, i, p, tile, a - COVER, True)
        return HAND_CHECK
    if ph == FORCE:
        if a != PASS:
            tile = _take_display(S, i, a)
            _hand_push(S, i, o, tile)
            S[i, FORCED + o] = tile
        return HAND_CHECK
    if ph == DOUBLE_ASK:
        if a == ACCEPT:
            S[i, EXTRA + o] = 1
            if opts[O_SWAP]:
                S[i, OWED + p] = 1
        return HAND_CHECK
    if ph == DISCARD_ASK:
        if a == ACCEPT:
            S[i, LIMITS + o] = max(0, S[i, LIMITS + o] - 1)
            if S[i, NHAND + o] > 0:
                S[i, PHASE] = OPP_DISCARD
                S[i, ACTOR] = o
                return DONE
        return HAND_CHECK
    # OPP_DISCARD or HAND: a hand tile discarded face up
    seat = o if ph == OPP_DISCARD else p
    tile = _hand_pop(S, i, seat, a - HAND)
    if tile == S[i, FORCED + seat]:
        S[i, FORCED + seat] = -1
    S[i, TD + S[i, NTD]] = tile
    S[i, NTD] += 1
    return HAND_CHECK


@njit(cache=True)
def _flow(S, i, todo):
    """The automatic steps after a decision (``rules``' ``_enter_play``, ``_enter_hand_check``,
    ``_end_turn``, ``_start_turn``) until the next decision or the end (phase over)."""
    while todo != DONE:
        p = S[i, TP]
        if todo == ENTER_PLAY:
            S[i, ACTOR] = p
            if S[i, NHAND + p] > 0 and has_placement(S[i, OCC + p]):
                S[i, PHASE] = PLAYP
                return
            todo = HAND_CHECK
        elif todo == HAND_CHECK:
            S[i, ACTOR] = p
            S[i, EFFECT] = -1
            if S[i, NHAND + p] > S[i, LIMITS + p]:
                S[i, PHASE] = HANDP
                return
            # §3.1: count the turn, choose the next turn player
            o = 1 - p
            S[i, TURNS + p] += 1
            S[i, FORCED + p] = -1
            S[i, COND_C] = 0
            S[i, COND_X] = 0
            if S[i, EXTRA + p]:
                S[i, EXTRA + p] = 0
                if S[i, OWED + o]:
                    S[i, OWED + o] = 0
                    S[i, EXTRA + o] = 1
                if S[i, TURNS + p] < TURNS_PER_PLAYER:
                    todo = START_TURN
                    continue
            if S[i, TURNS + o] < TURNS_PER_PLAYER:
                S[i, TP] = o
            elif S[i, TURNS + p] < TURNS_PER_PLAYER:
                S[i, TP] = p
            else:
                S[i, PHASE] = OVER
                S[i, ACTOR] = -1
                return
            todo = START_TURN
        else:  # START_TURN
            S[i, ACTOR] = p
            S[i, COND_C] = 0
            S[i, COND_X] = 0
            if S[i, FORCED + p] < 0 and _any_display(S, i):
                S[i, PHASE] = TAKE
                return
            todo = ENTER_PLAY



# --- new games ---------------------------------------------------------------------------------
@njit(cache=True)
def _new_game(S, rng, opts, i):
    """``BowerGame.new_state`` in slot ``i``, from its generator."""
    st = rng[i, 0]
    inc = rng[i, 1]
    for k in range(NCOL):
        S[i, k] = -1
    st, start = bounded(st, inc, 2)
    S[i, START] = start
    for k in range(8):
        S[i, EGGS + k] = k
    st = shuffle(st, inc, S[i, EGGS:EGGS + 8], 8)
    if opts[O_ALTERNATE]:
        for c in range(6):
            S[i, OWNER + c] = start if c % 2 == 0 else 1 - start
    else:
        cols = np.arange(6)
        st = shuffle(st, inc, cols, 6)
        for c in range(6):
            S[i, OWNER + c] = 1
        for k in range(3):
            S[i, OWNER + cols[k]] = 0
    for k in range(NUM_NEST_TILES):
        S[i, STACK + k] = k
    st = shuffle(st, inc, S[i, STACK:STACK + NUM_NEST_TILES], NUM_NEST_TILES)
    S[i, NSTACK] = NUM_NEST_TILES
    for d in range(3):
        S[i, DISPLAY + d] = _stack_pop(S, i)
    for k in range(NUM_BONUS):
        S[i, DECK + k] = k
    st = shuffle(st, inc, S[i, DECK:DECK + NUM_BONUS], NUM_BONUS)
    rng[i, 0] = st
    S[i, NDECK] = NUM_BONUS
    for name in (DECISIONS, BORIENT, NDISC, NDRAWN, NTD, COND_C, COND_X):
        S[i, name] = 0
    S[i, BORIENT] = -1
    for q in range(2):
        for name in (NHAND, TURNS, EXTRA, OWED, OCC, NPLACED, COLF, CELLF, NKEPT, SPIEDC,
                     SPIEDR, GEM1, GEM2):
            S[i, name + q] = 0
        S[i, LIMITS + q] = 1
        for m in range(4):
            S[i, MATB + 4 * q + m] = 0
        for c in range(24):
            S[i, DEPTH + 24 * q + c] = 0
    for tok in range(5):
        S[i, TOKST + tok] = SUPPLY
    S[i, PHASE] = DRAFT
    S[i, ACTOR] = start
    S[i, TP] = start


@njit(cache=True)
def new_games(S, rng, opts, lo, hi):
    """A new game in slots ``lo..hi-1``."""
    for i in range(lo, hi):
        _new_game(S, rng, opts, i)



@njit(cache=True)
def _step_slot(S, rng, opts, i, a, rewards, terminated, comps, scores):
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminated[i] = False
    _flow(S, i, _apply(S, rng, opts, i, a, comps))
    if S[i, PHASE] != OVER:
        return
    pink = final_scores(S, i, opts, scores)
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
    _new_game(S, rng, opts, i)


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


