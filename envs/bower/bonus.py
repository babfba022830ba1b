"""Bower's bonus step (spec §5): gem triggers, drawing, keeping, and each bonus tile's effect.

Helpers of ``BowerState`` (``rules.py``): each takes the state, changes it in place and, when
the kept tile needs no decision, hands the turn back to the state's hand check. The TARGET and
BRANCH ids a token decision allows are listed here too, for the legal mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    DISPLAY,
    PASS,
    PH_BONUS,
    PH_BRANCH,
    PH_COVER,
    PH_COVER_ASK,
    PH_DISCARD_ASK,
    PH_DOUBLE_ASK,
    PH_FORCE,
    PH_KEEP,
    PH_OPP_DISCARD,
    PH_SPY,
    PH_TOKEN,
    TARGET,
)
from tablezoo.envs.bower.components import (
    BONUS_KIND,
    BONUS_TILE,
    END_UNITS_LIST,
    IA1,
    IA2,
    IA3,
    IA4,
    SHELL,
    SHELL_PINK,
    SP1,
    SP2,
    TK1,
    TK5,
    TOK_BRANCH,
    TOK_SUPPLY,
    TOK_WFE,
    TOK_WFL,
    TOK_X,
    TURNS_PER_PLAYER,
)
from tablezoo.envs.bower.geometry import BRANCH_ENDS, NUM_CELLS, NUM_PLACEMENTS, cover_mask
from tablezoo.envs.bower.observation import (
    CH_FLAG,
    S_COVER,
    S_DISPLAY,
    S_DRAW,
    S_EGGS,
    S_FLAGS,
    S_HANDS,
    S_KEPT,
    S_NESTS,
)
from tablezoo.envs.bower.scoring import conditions_from_bits

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState


def token_targets(s: BowerState, tok: int) -> list[int]:
    """TARGET ids for TK1-TK4 (§5.3): visible cells holding the relevant units."""
    p = s.turn_player
    out = []
    seats = (p, 1 - p) if tok == TOK_X else (p,)
    for s_rel, seat in enumerate(seats):
        for cell, t in enumerate(s.top[seat]):
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


def branch_targets(s: BowerState) -> list[int]:
    p = s.turn_player
    top = s.top[p]
    return [
        BRANCH + 2 * cell + o
        for cell in range(NUM_CELLS)
        if top[cell] >= 0
        for o in (0, 1)
        if BRANCH_ENDS[2 * cell + o] is not None
    ]


def after_placement(s: BowerState) -> None:
    p = s.turn_player
    if not s.opts["bonus_tiles"]:
        s._enter_hand_check()
        return
    cols, cells = conditions_from_bits(
        s.matb[p],
        s.gem1[p],
        s.gem2[p],
        s._branch_code(p),
        s.col_flags[p],
        s.cell_flags[p],
    )
    if not (cols or cells):
        s._enter_hand_check()
        return
    s.conditions = (cols, cells)
    if s.opts["flag_all_triggers"]:
        flag_conditions(s, p, cols, cells)
    if not (s.bonus_deck or s.bonus_discard):
        s._enter_hand_check()  # nothing can be drawn: no decision
    elif s.opts["bonus_optional"]:
        s.phase = PH_BONUS
    else:
        draw_bonus(s)


def flag_conditions(s: BowerState, p: int, cols: int, cells: int) -> None:
    s.col_flags[p] |= cols
    s.cell_flags[p] |= cells
    s._touch(S_FLAGS | S_NESTS)
    plane = s.planes[p, CH_FLAG]
    flags = s.cell_flags[p]
    for i in range(NUM_CELLS):
        plane[i] = flags >> i & 1


def draw_bonus(s: BowerState) -> None:
    """§5.2: draw up to 3, reshuffling the discard pile into the deck when it runs out."""
    drawn = []
    for _ in range(3):
        if not s.bonus_deck:
            if not s.bonus_discard:
                break
            s.log("reshuffle", -1, len(s.bonus_discard))
            order = s.rng.permutation(len(s.bonus_discard))
            s.bonus_deck = [s.bonus_discard[i] for i in order]
            s.bonus_discard = []
            s.discard_by = []
        drawn.append(s.bonus_deck.pop())
    s.log("draw", s.turn_player, len(drawn), *drawn)
    s.drawn = drawn
    s._touch(S_DRAW | S_KEPT)
    s.phase = PH_KEEP


def keep_bonus(s: BowerState, j: int) -> None:
    p = s.turn_player
    b = s.drawn[j]
    s.log("keep", p, b)
    for k, other in enumerate(s.drawn):
        if k != j:
            s.bonus_discard.append(other)
            s.discard_by.append(p)
    s.drawn = []
    s._touch(S_DRAW | S_KEPT)
    if not s.opts["flag_all_triggers"]:
        flag_conditions(s, p, *s.conditions)
    s.kept[p].append(b)
    resolve_bonus(s, b)


def resolve_bonus(s: BowerState, b: int) -> None:
    """§5.3: apply the kept tile, asking a decision only when it can have an effect."""
    p = s.turn_player
    s.effect = b
    if BONUS_KIND[b] == "nest":
        s._touch(S_HANDS)
        s.hands[p].append(BONUS_TILE[b])
        s.limits[p] += 1
    elif b == SP2:
        s._touch(S_EGGS)
        s.spied_removed[p] = True
        s.log("spy_removed", p, *sorted(s.eggs[6:]))
    phase = effect_phase(s, b)
    if phase >= 0:
        s.phase = phase
    else:
        s._enter_hand_check()


def effect_phase(s: BowerState, b: int) -> int:
    """The decision the kept tile ``b`` asks for, or -1 if none (automatic or no effect)."""
    p = s.turn_player
    o = 1 - p
    if b == SP1:
        return PH_SPY
    if BONUS_KIND[b] == "token":
        tok = b - TK1
        if s.tok_status[tok] != TOK_SUPPLY:
            return -1
        if b == TK5:
            return PH_BRANCH if branch_targets(s) else -1
        return PH_TOKEN if token_targets(s, tok) else -1
    if b == IA1:
        return PH_COVER_ASK if s.stack and cover_mask(s.occ[p]).any() else -1
    if b == IA2:
        ok = s.turns[o] < TURNS_PER_PLAYER and any(t >= 0 for t in s.display)
        return PH_FORCE if ok else -1
    if b == IA3:
        return PH_DOUBLE_ASK if s.turns[o] < TURNS_PER_PLAYER - 1 else -1
    if b == IA4:
        return PH_DISCARD_ASK if s.hands[o] or s.limits[o] > 0 else -1
    return -1


# ---------------------------------------------------------------------- effect decisions
EFFECT_PHASES = (
    PH_SPY, PH_TOKEN, PH_BRANCH, PH_COVER_ASK, PH_COVER, PH_FORCE, PH_DOUBLE_ASK, PH_DISCARD_ASK,
)  # fmt: skip


def effect_mask(s: BowerState, ph: int, m: np.ndarray) -> None:
    """Set in ``m`` the ids a bonus tile's decision allows (force, spy, token, branch, cover)."""
    p = s.turn_player
    if ph == PH_FORCE:
        for d in range(3):
            if s.display[d] >= 0:
                m[DISPLAY + d] = True
        m[PASS] = True
    elif ph == PH_SPY:
        for c in range(6):
            if s.col_owner[c] != p:
                m[COLUMN + c] = True
    elif ph == PH_TOKEN:
        for a in token_targets(s, s.effect - TK1):
            m[a] = True
        m[PASS] = True
    elif ph == PH_BRANCH:
        for a in branch_targets(s):
            m[a] = True
        m[PASS] = True
    elif ph == PH_COVER:
        m[COVER : COVER + NUM_PLACEMENTS] = cover_mask(s.occ[p])


def answer_effect(s: BowerState, ph: int, a: int) -> None:
    """Apply the answer ``a`` to the bonus tile decision ``ph`` (one of ``EFFECT_PHASES``)."""
    p = s.turn_player
    o = 1 - p
    if ph == PH_SPY:
        s._touch(S_EGGS)
        s.log("spy", p, a - COLUMN, s.eggs[a - COLUMN])
        s.spied_cols[p] |= 1 << (a - COLUMN)
        s._enter_hand_check()
    elif ph == PH_TOKEN:
        tok = s.effect - TK1
        if a == PASS:
            s.log("token", p, tok)
        else:
            s.log("token", p, tok, *divmod(a - TARGET, NUM_CELLS))
        if a != PASS:
            s_rel, cell = divmod(a - TARGET, NUM_CELLS)
            s._put_token(s.effect - TK1, p if s_rel == 0 else o, cell)
        s._enter_hand_check()
    elif ph == PH_BRANCH:
        s.log("branch", p, *(() if a == PASS else divmod(a - BRANCH, 2)))
        if a != PASS:
            cell, orient = divmod(a - BRANCH, 2)
            s.branch_orient = orient
            s._put_token(TOK_BRANCH, p, cell)
        s._enter_hand_check()
    elif ph == PH_COVER_ASK:
        s.log("cover_ask", p, int(a == ACCEPT))
        if a == ACCEPT:
            s._touch(S_COVER)
            s.cover_tile = s.stack.pop()
            s.phase = PH_COVER
        else:
            s._enter_hand_check()
    elif ph == PH_COVER:
        tile, s.cover_tile = s.cover_tile, -1
        s.log("cover", p, tile, a - COVER)
        s._touch(S_COVER)
        s._place(p, tile, a - COVER, cover=True)
        s._enter_hand_check()
    elif ph == PH_FORCE:
        if a == PASS:
            s.log("force", p)
        if a != PASS:
            s._touch(S_DISPLAY | S_HANDS)
            tile = s._take_display(a)
            s.log("force", p, a, tile, s.refill_seen(s.display[a]))
            s.hands[o].append(tile)
            s.forced[o] = tile
        s._enter_hand_check()
    elif ph == PH_DOUBLE_ASK:
        s.log("double", p, int(a == ACCEPT))
        if a == ACCEPT:
            s.extra[o] = True
            if s.opts["double_turn_mode"] == "swap":
                s.owed[p] = True
        s._enter_hand_check()
    elif ph == PH_DISCARD_ASK:
        s.log("discard_ask", p, int(a == ACCEPT))
        if a == ACCEPT:
            s.limits[o] = max(0, s.limits[o] - 1)
            if s.hands[o]:
                s.phase = PH_OPP_DISCARD
                s.actor = o
                return
        s._enter_hand_check()


__all__ = [
    "EFFECT_PHASES",
    "after_placement",
    "answer_effect",
    "branch_targets",
    "draw_bonus",
    "effect_mask",
    "effect_phase",
    "flag_conditions",
    "keep_bonus",
    "resolve_bonus",
    "token_targets",
]
