"""The invariants of a Bower position (``BowerState.check``): every nest and bonus tile
conserved, the decision machine and the pieces consistent, and (unless the position was built by
hand) what the game's history implies; ``StateFormatError`` names the first broken one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bower.actions import (
    PH_BONUS,
    PH_BRANCH,
    PH_COVER,
    PH_COVER_ASK,
    PH_DISCARD_ASK,
    PH_DOUBLE_ASK,
    PH_DRAFT,
    PH_FORCE,
    PH_HAND,
    PH_KEEP,
    PH_OPP_DISCARD,
    PH_OVER,
    PH_PLAY,
    PH_SPY,
    PH_TAKE,
    PH_TOKEN,
    PHASES,
)
from tablezoo.envs.bower.components import (
    BONUS_IDS,
    BONUS_INDEX,
    BONUS_TILE,
    END_UNITS_LIST,
    IA1,
    IA2,
    IA3,
    IA4,
    NB_FIRST,
    NUM_BONUS,
    NUM_NEST_TILES,
    NUM_TILES,
    SHELL,
    SHELL_PINK,
    SP1,
    SP2,
    TILE_IDS,
    TK1,
    TK5,
    TOK_PLACED,
    TOK_SUPPLY,
    TOK_X,
    TOKEN_NAMES,
    TURNS_PER_PLAYER,
)
from tablezoo.envs.core.game import require

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState


def check_conservation(s: BowerState) -> None:
    """Every nest tile exactly once; NB tiles at most once and only if kept; every bonus tile
    exactly once (linear counts)."""
    seen_count = [0] * NUM_TILES
    for zone in (s.stack, s.display, s.hands[0], s.hands[1], s.tile_discards, [s.cover_tile]):
        for t in zone:
            if t >= 0:
                seen_count[t] += 1
    for q in range(2):
        for t, _pl, _cov in s.placed[q]:
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
    bonus_count = [0] * NUM_BONUS
    for b in s.bonus_deck + s.bonus_discard + s.drawn + kept_all:
        bonus_count[b] += 1
    require(
        bonus_count == [1] * NUM_BONUS,
        "bower: every bonus tile must be exactly once in deck, discard, drawn or kept",
    )


def check_state(s: BowerState) -> None:
    """The invariants the rules imply for any reachable position (``BowerState.check``).

    Raises ``StateFormatError`` naming the first broken one. Cheap (linear in the pieces), so
    the random-simulation tests run it after every decision. Positions built by hand
    (``s.hand_built``) skip the invariants only a game's history implies (hand limits from the
    kept tiles, counts per turn, the draft, effects tied to their bonus tile); the physical
    ones (conservation, geometry, phase structure) always hold."""
    check_conservation(s)
    _check_phase(s)
    if not s.hand_built:
        _check_history(s)


def _kept_by(s: BowerState) -> list[int]:
    kept_by = [-1] * NUM_BONUS
    for q in range(2):
        for b in s.kept[q]:
            kept_by[b] = q
    return kept_by


def _check_phase(s: BowerState) -> None:
    """Invariants of the decision machine and the pieces, whatever the history."""
    game = s.game
    opts = s.opts
    p = s.turn_player
    o = 1 - p
    ph = s.phase
    phase = PHASES[ph]
    kept_by = _kept_by(s)
    require(0 <= s.decisions <= game.max_decisions,
            f"bower: decisions {s.decisions} outside 0..{game.max_decisions}")
    if opts["egg_columns"] == "alternate":
        want = [s.start if c % 2 == 0 else 1 - s.start for c in range(6)]
        require(s.col_owner == want,
                f"bower: egg_columns='alternate' needs egg_owner {want}, got {s.col_owner}")
    if ph == PH_OVER:
        require(s.turns == [TURNS_PER_PLAYER] * 2,
                f"bower: the game ends after 12 turns each, got turns {s.turns}")
    elif ph != PH_DRAFT:
        require(s.turns[p] < TURNS_PER_PLAYER,
                f"bower: player_{p} has played all 12 turns but is the turn player")
    if ph not in (PH_DRAFT, PH_OVER):
        # The seat not taking its turn finished its last hand check: at most its limit (plus
        # a pending forced tile, plus the tile IA4 is about to take; one tile more after IA4
        # took a pending forced tile). Reachable play keeps it exactly there; positions built
        # by hand (``positions.build_state``) may hold fewer.
        slack = len(s.hands[o]) - s.limits[o] - (s.forced[o] >= 0) - (ph == PH_OPP_DISCARD)
        require(slack <= 0 or (slack == 1 and kept_by[IA4] == p),
                f"bower: player_{o} (not on turn) holds {len(s.hands[o])} tiles with hand "
                f"limit {s.limits[o]}")
    if ph == PH_TAKE:
        require(s.forced[p] < 0, "bower: a player holding a forced tile does not take")
    if ph == PH_HAND:
        require(len(s.hands[p]) > s.limits[p],
                f"bower: phase hand needs more than {s.limits[p]} tiles in player_{p}'s hand")
    for q in range(2):
        in_play = [t for t, _pl, _cov in s.placed[q]] + s.hands[q]
        for t in in_play:
            require(t < NB_FIRST or kept_by[BONUS_INDEX[TILE_IDS[t]]] == q,
                    f"bower: {TILE_IDS[t]} is with player_{q}, who did not keep it")
        require(s.cell_flags[q] & ~s.occ[q] == 0, f"bower: player_{q} has flagged empty cells")
    require(len(s.discard_by) == len(s.bonus_discard),
            "bower: every bonus discard needs the seat that discarded it")
    if not opts["bonus_tiles"]:
        require(not (s.kept[0] or s.kept[1] or s.drawn or s.bonus_discard),
                "bower: bonus_tiles=False: no bonus tile is ever drawn")
        require(s.col_flags == [0, 0] and s.cell_flags == [0, 0] and s.conditions == (0, 0),
                "bower: bonus_tiles=False: nothing is ever flagged")
    cols, cells = s.conditions
    if ph in (PH_DRAFT, PH_TAKE, PH_PLAY, PH_OVER):
        require(cols == 0 and cells == 0,
                f"bower: conditions are met only after a placement, not in phase {phase}")
    # The kept tile being resolved (§5.3) and its decision.
    want_effect = _EFFECT_OF_PHASE.get(ph)
    if want_effect is None:
        require(s.effect < 0, f"bower: no bonus effect is resolved in phase {phase}")
    else:
        require(s.effect in want_effect and bool(s.kept[p]) and s.kept[p][-1] == s.effect,
                f"bower: phase {phase} resolves the tile player_{p} kept last "
                f"({'/'.join(BONUS_IDS[b] for b in want_effect)})")
    if ph in (PH_TOKEN, PH_BRANCH):
        require(s.tok_status[s.effect - TK1] == TOK_SUPPLY,
                "bower: a token decision needs the token in the supply")
    if ph == PH_COVER_ASK:
        require(bool(s.stack), "bower: Cover needs a stack tile")
    # Tokens (§5.3 TK1-TK5): where they lie and what their cell holds.
    for k in range(5):
        status, seat, cell = s.tok_status[k], s.tok_seat[k], s.tok_cell[k]
        if status == TOK_PLACED:
            units = END_UNITS_LIST[s.top[seat][cell]]
            need = _TOKEN_NEEDS[k]
            require(need is None or sum(units[i] for i in need) > 0,
                    f"bower: token {TOKEN_NAMES[k]} lies on a cell without the units it targets")
        elif status != TOK_SUPPLY:
            require(s.depth[seat][cell] > 0,
                    f"bower: token {TOKEN_NAMES[k]} was removed but its cell was never covered")
    for q in range(2):
        bits = s.spied_cols[q]
        theirs = sum(1 << c for c in range(6) if s.col_owner[c] != q)
        require(bits & ~theirs == 0 and bits & (bits - 1) == 0,
                f"bower: player_{q} spied columns {bits:06b}; SP1 shows one opponent column")
        require(not s.owed[q] or opts["double_turn_mode"] == "swap",
                f"bower: player_{q} is owed a turn outside double_turn_mode='swap'")


def _check_history(s: BowerState) -> None:
    """Invariants a position reached by play has (hand-built test positions may break them)."""
    p = s.turn_player
    ph = s.phase
    phase = PHASES[ph]
    kept_by = _kept_by(s)
    done = s.turns[0] + s.turns[1]
    if ph == PH_DRAFT:
        require(s.decisions in (0, 1) and s.turns == [0, 0],
                f"bower: the draft has 0 or 1 decisions made and no turns, got decisions "
                f"{s.decisions}, turns {s.turns}")
        actor = s.start if s.decisions == 0 else 1 - s.start
        require(s.turn_player == s.start and s.actor == actor,
                "bower: the draft is answered by the start player, then the other one")
        want_hands = [0, 0]
        want_hands[s.start] = s.decisions
        require([len(h) for h in s.hands] == want_hands and s.display.count(-1) == s.decisions,
                f"bower: after {s.decisions} draft picks the hands hold {want_hands} tiles and "
                f"{s.decisions} display slot(s) are empty")
    else:
        require(-1 not in s.display,
                f"bower: the display is always full after the draft, got {s.display}")
        # §3.2: at most 12 decisions per turn (take, play, accept, keep, 2 effect, 6 discards).
        bound = 2 + 12 * (done + (ph != PH_OVER))
        require(s.decisions <= bound,
                f"bower: {s.decisions} decisions after {done} turns; at most {bound}")
    for q in range(2):
        nb = sum(1 for b in s.kept[q] if BONUS_TILE[b] >= 0)
        top = 1 + nb
        allowed = {top, max(0, top - 1)} if kept_by[IA4] == 1 - q else {top}
        require(s.limits[q] in allowed,
                f"bower: player_{q}'s hand limit {s.limits[q]} must be in {sorted(allowed)} "
                f"(1 + {nb} nest bonus tiles, -1 if the opponent kept IA4)")
        require(s.forced[q] < 0 or kept_by[IA2] == 1 - q,
                f"bower: player_{q} holds a forced tile but the opponent never kept IA2")
        turns_so_far = s.turns[q] + (1 if q == p and ph not in (PH_DRAFT, PH_OVER) else 0)
        require(len(s.kept[q]) <= turns_so_far,
                f"bower: player_{q} kept {len(s.kept[q])} bonus tiles in {turns_so_far} turns")
        require(not s.spied_cols[q] or kept_by[SP1] == q,
                f"bower: player_{q} spied a column without keeping SP1")
        require(s.spied_removed[q] == (kept_by[SP2] == q),
                f"bower: player_{q} saw the removed eggs exactly when keeping SP2")
        givers = (1 - q, q) if s.opts["double_turn_mode"] == "swap" else (1 - q,)
        require(not s.extra[q] or kept_by[IA3] in givers,
                f"bower: player_{q} has an extra turn but IA3 was not kept (by the opponent, "
                "or by this player in swap mode)")
        require(not s.owed[q] or kept_by[IA3] == q,
                f"bower: player_{q} is owed a turn without keeping IA3")
    covers = [q for q in range(2) for _t, _pl, cov in s.placed[q] if cov]
    if s.cover_tile >= 0:
        covers.append(p)
    require(len(covers) <= 1 and all(kept_by[IA1] == q for q in covers),
            f"bower: covers by {covers}; IA1 allows one, by its keeper")
    if ph != PH_DRAFT:
        # Nest tiles leave stack and display by the 2 draft picks, one take per turn (none on a
        # forced turn), the IA2 gift and the IA1 cover draw: so the stack size is fixed.
        out = sum(1 for zone in (s.hands[0], s.hands[1], s.tile_discards, [s.cover_tile])
                  for t in zone if 0 <= t < NB_FIRST)
        out += sum(1 for q in range(2) for t, _pl, _cov in s.placed[q] if t < NB_FIRST)
        took = done + (ph not in (PH_TAKE, PH_OVER))
        extra = out - 2 - len(covers) - took
        allowed = (0, 1) if kept_by[IA2] >= 0 else (0,)
        require(extra in allowed,
                f"bower: {out} nest tiles left stack and display after {took} takes and "
                f"{len(covers)} cover(s); the stack holds {len(s.stack)}")
    cols, cells = s.conditions
    if ph in (PH_BONUS, PH_KEEP):
        require(bool(cols or cells), f"bower: phase {phase} needs a condition met this turn")
    if s.opts["flag_all_triggers"]:
        require(cols & ~s.col_flags[p] == 0 and cells & ~s.cell_flags[p] == 0,
                "bower: every condition met this turn is flagged (flag_all_triggers)")
    for k in range(5):
        if s.tok_status[k] != TOK_SUPPLY:
            keeper = kept_by[TK1 + k]
            require(keeper >= 0 and (k == TOK_X or s.tok_seat[k] == keeper),
                    f"bower: token {TOKEN_NAMES[k]} lies in player_{s.tok_seat[k]}'s nest, but "
                    f"its tile was kept by {'nobody' if keeper < 0 else f'player_{keeper}'}")


_EFFECT_OF_PHASE: dict[int, tuple[int, ...]] = {
    PH_SPY: (SP1,), PH_TOKEN: (TK1, TK1 + 1, TK1 + 2, TK1 + 3), PH_BRANCH: (TK5,),
    PH_COVER_ASK: (IA1,), PH_COVER: (IA1,), PH_FORCE: (IA2,), PH_DOUBLE_ASK: (IA3,),
    PH_DISCARD_ASK: (IA4,), PH_OPP_DISCARD: (IA4,),
}
# Unit codes (components.CODES order) a placed token's cell must hold; None: no restriction.
_TOKEN_NEEDS: tuple[tuple[int, ...] | None, ...] = (
    tuple(range(10)), tuple(range(5)), tuple(range(5, 10)), (SHELL, SHELL_PINK), None,
)
