"""Saving and loading Bower positions: ``to_dict`` and ``state_from_dict`` with its validation.

A loaded dict is checked field by field (clear ``StateFormatError`` naming the field and the
allowed values) and for conservation of every nest and bonus tile, so hand-built positions
(``positions.build_state``) are validated like saved games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bower import history
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
    EGG_IDS,
    END_UNITS_LIST,
    IA1,
    IA2,
    IA3,
    IA4,
    MAX_HAND,
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
    TOK_BRANCH,
    TOK_PLACED,
    TOK_SUPPLY,
    TOK_X,
    TOKEN_NAMES,
    TOKEN_STATUS,
    TURNS_PER_PLAYER,
)
from tablezoo.envs.bower.geometry import (
    BRANCH_ENDS,
    FP_BITS,
    NUM_CELLS,
    NUM_PLACEMENTS,
    legal_footprint,
)
from tablezoo.envs.bower.observation import S_ALL, repaint_all
from tablezoo.envs.bower.scoring import compute_final
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import require, rng_from_dict, rng_to_dict, short
from tablezoo.envs.core.saved_options import check_saved_options, options_record

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerGame, BowerState


def to_dict(s: BowerState) -> dict[str, Any]:
    """The JSON-safe dict of a position (``BowerState.to_dict``)."""

    def tiles(xs: list[int]) -> list[str]:
        return [TILE_IDS[t] for t in xs]

    def opt_tile(t: int) -> str | None:
        return TILE_IDS[t] if t >= 0 else None

    return {
        "game": "bower",
        "version": 1,
        "options": options_record(s.game.options),
        "rng": rng_to_dict(s.rng),
        "start_player": s.start,
        "eggs": [EGG_IDS[e] for e in s.eggs],
        "egg_owner": s.col_owner[:],
        "stack": tiles(s.stack),
        "display": [opt_tile(t) for t in s.display],
        "hands": [tiles(h) for h in s.hands],
        "forced": [opt_tile(t) for t in s.forced],
        "hand_limits": s.limits[:],
        "turns": s.turns[:],
        "extra_turn": s.extra[:],
        "swap_owed": s.owed[:],
        "nests": [[[TILE_IDS[t], pl, cov] for t, pl, cov in s.placed[q]] for q in range(2)],
        "column_flags": s.col_flags[:],
        "cell_flags": s.cell_flags[:],
        "bonus_deck": [BONUS_IDS[b] for b in s.bonus_deck],
        "bonus_discard": [[BONUS_IDS[b], by] for b, by in zip(s.bonus_discard, s.discard_by)],
        "bonus_kept": [[BONUS_IDS[b] for b in s.kept[q]] for q in range(2)],
        "bonus_drawn": [BONUS_IDS[b] for b in s.drawn],
        "conditions": list(s.conditions),
        "tokens": [
            {
                "token": TOKEN_NAMES[k],
                "status": TOKEN_STATUS[s.tok_status[k]],
                "seat": s.tok_seat[k],
                "cell": s.tok_cell[k],
                **({"orient": s.branch_orient} if k == TOK_BRANCH else {}),
            }
            for k in range(5)
        ],
        "spied_columns": s.spied_cols[:],
        "spied_removed": s.spied_removed[:],
        "tile_discards": tiles(s.tile_discards),
        "cover_tile": opt_tile(s.cover_tile),
        "phase": PHASES[s.phase],
        "actor": s.actor,
        "turn_player": s.turn_player,
        "effect": BONUS_IDS[s.effect] if s.effect >= 0 else None,
        "decisions": s.decisions,
        # every event of the game (history.py), for the information state; absent when unknown
        **({"history": history_rows} if (history_rows := history.to_list(s)) is not None
           else {}),
    }


def state_from_dict(
    game: BowerGame, data: Mapping[str, Any], state_class: type[BowerState],
    *, hand_built: bool = False,
) -> BowerState:
    """Load and validate a dict of ``to_dict`` (``BowerGame.state_from_dict``); ``state_class``
    builds the blank state (passed in, so this module need not import ``rules``).

    Every field is type-checked and size-capped before it is used, so any input either loads a
    state that passes ``check_state`` or raises ``StateFormatError`` with a bounded message.
    ``hand_built`` (``positions.build_state`` only; never part of a saved dict) skips the
    invariants that follow from the game's history (see ``check_state``)."""
    try:
        s = _parse(game, data, state_class)
        s.hand_built = hand_built
        history.from_list(s, data.get("history", history.NOT_SAVED), hand_built)
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            RecursionError) as exc:  # a safety net: the parser checks types before use
        raise StateFormatError(
            f"bower: malformed state dict: {type(exc).__name__}: {short(str(exc))}"
        ) from exc
    s.check()
    return s


def _field(d: Mapping[str, Any], key: str) -> Any:
    require(key in d, f"bower: missing key {key!r} (KeyError)")
    return d[key]


def _list(x: Any, what: str, most: int) -> list:
    """``x`` as a list of at most ``most`` entries (checked before anything iterates it)."""
    require(isinstance(x, list), f"bower: {what} must be a list, got {short(x)}")
    require(len(x) <= most, f"bower: {what} has {len(x)} entries; at most {most}")
    return x


def _seat(x: Any, what: str) -> int:
    require(type(x) is int and x in (0, 1), f"bower: {what} must be 0 or 1, got {short(x)}")
    return x


def _tile(x: Any, what: str) -> int:
    require(isinstance(x, str) and x in TILE_INDEX,
            f"bower: {what}: unknown tile {short(x)}; allowed T01-T36, NB1-NB4")
    return TILE_INDEX[x]


def _tiles(x: Any, what: str, most: int) -> list[int]:
    return [_tile(t, what) for t in _list(x, what, most)]


def _bonus(x: Any, what: str) -> int:
    require(isinstance(x, str) and x in BONUS_INDEX,
            f"bower: {what}: unknown bonus tile {short(x)}; allowed {BONUS_IDS}")
    return BONUS_INDEX[x]


def _bonuses(x: Any, what: str) -> list[int]:
    return [_bonus(b, what) for b in _list(x, what, NUM_BONUS)]


def _bool_pair(x: Any, what: str) -> list[bool]:
    require(
        isinstance(x, list) and len(x) == 2 and all(type(v) is bool for v in x),
        f"bower: {what} must be a list of 2 booleans, got {short(x)}",
    )
    return list(x)


def _int_pair(x: Any, what: str, lo: int, hi: int) -> list[int]:
    require(
        isinstance(x, list) and len(x) == 2 and all(type(v) is int and lo <= v <= hi for v in x),
        f"bower: {what} must be a list of 2 ints in {lo}..{hi}, got {short(x)}",
    )
    return list(x)


# the keys of a saved state, in ``to_dict``'s order; any other key is refused, as in
# bauer_trick and bauer_draft (a misspelt key must not load as a state without it)
KEYS = ("game", "version", "options", "rng", "start_player", "eggs", "egg_owner", "stack",
        "display", "hands", "forced", "hand_limits", "turns", "extra_turn", "swap_owed",
        "nests", "column_flags", "cell_flags", "bonus_deck", "bonus_discard", "bonus_kept",
        "bonus_drawn", "conditions", "tokens", "spied_columns", "spied_removed",
        "tile_discards", "cover_tile", "phase", "actor", "turn_player", "effect",
        "decisions", "history")


def _parse(game: BowerGame, d: Mapping[str, Any], state_class: type[BowerState]) -> BowerState:
    require(isinstance(d, Mapping), f"bower: state must be a dict, got {type(d).__name__}")
    unknown = [k for k in d if k not in KEYS]
    require(not unknown, f"bower: unknown keys {short(unknown)}; allowed: {', '.join(KEYS)}")
    require(d.get("game") == "bower", f"bower: 'game' must be 'bower', got {short(d.get('game'))}")
    require(d.get("version") == 1 and type(d.get("version")) is int,
            f"bower: unsupported version {short(d.get('version'))}; allowed 1")
    check_saved_options(game, d, "bower")
    s = state_class(game)
    s.rng = rng_from_dict(_field(d, "rng"))
    s.start = _seat(_field(d, "start_player"), "start_player")
    eggs = _field(d, "eggs")
    require(
        isinstance(eggs, list) and len(eggs) == NUM_EGGS and all(isinstance(e, str) for e in eggs)
        and sorted(eggs) == sorted(EGG_IDS),
        f"bower: eggs must be a permutation of {EGG_IDS}, got {short(eggs)}",
    )
    s.eggs = [EGG_IDS.index(e) for e in eggs]
    owner = _field(d, "egg_owner")
    require(
        isinstance(owner, list) and len(owner) == 6 and all(type(x) is int for x in owner)
        and sorted(owner) == [0, 0, 0, 1, 1, 1],
        f"bower: egg_owner must list 6 seats, 3 columns each, got {short(owner)}",
    )
    s.col_owner = [_seat(x, "egg_owner") for x in owner]
    s.stack = _tiles(_field(d, "stack"), "stack", NUM_NEST_TILES)
    disp = _field(d, "display")
    require(isinstance(disp, list) and len(disp) == 3, "bower: display must have 3 slots")
    s.display = [-1 if t is None else _tile(t, "display") for t in disp]
    hands = _field(d, "hands")
    require(isinstance(hands, list) and len(hands) == 2, "bower: hands must be 2 lists")
    s.hands = [_tiles(h, f"hand of player_{q}", MAX_HAND) for q, h in enumerate(hands)]
    forced = _field(d, "forced")
    require(isinstance(forced, list) and len(forced) == 2, "bower: forced must have 2 entries")
    s.forced = [-1 if t is None else _tile(t, "forced") for t in forced]
    for q in range(2):
        require(
            s.forced[q] < 0 or s.forced[q] in s.hands[q],
            f"bower: forced tile of player_{q} is not in that hand",
        )
    s.limits = _int_pair(_field(d, "hand_limits"), "hand_limits", 0, 5)
    s.turns = _int_pair(_field(d, "turns"), "turns", 0, TURNS_PER_PLAYER)
    s.extra = _bool_pair(_field(d, "extra_turn"), "extra_turn")
    s.owed = _bool_pair(_field(d, "swap_owed"), "swap_owed")
    nests = _field(d, "nests")
    require(isinstance(nests, list) and len(nests) == 2, "bower: nests must be 2 lists")
    for q in range(2):
        for entry in _list(nests[q], f"nest of player_{q}", NUM_TILES):
            require(
                isinstance(entry, list) and len(entry) == 3,
                f"bower: nest entry must be [tile, placement, cover], got {short(entry)}",
            )
            t = _tile(entry[0], f"nest of player_{q}")
            pl, cov = entry[1], entry[2]
            require(
                type(pl) is int and 0 <= pl < NUM_PLACEMENTS and type(cov) is bool,
                f"bower: bad placement {short(entry)}; placement 0..75, cover true/false",
            )
            f = pl >> 1
            if cov:
                require(
                    s.occ[q] & FP_BITS[f] == FP_BITS[f],
                    f"bower: cover {short(entry)} of player_{q} needs two occupied cells",
                )
            else:
                require(
                    legal_footprint(s.occ[q], f),
                    f"bower: placement {short(entry)} of player_{q} is not legal in that order",
                )
            s._place(q, t, pl, cov)
    s.col_flags = _int_pair(_field(d, "column_flags"), "column_flags", 0, 63)
    s.cell_flags = _int_pair(_field(d, "cell_flags"), "cell_flags", 0, (1 << NUM_CELLS) - 1)
    s.bonus_deck = _bonuses(_field(d, "bonus_deck"), "bonus_deck")
    s.bonus_discard = []
    s.discard_by = []
    for entry in _list(_field(d, "bonus_discard"), "bonus_discard", NUM_BONUS):
        require(
            isinstance(entry, list) and len(entry) == 2,
            f"bower: bonus_discard entries are [bonus, seat], got {short(entry)}",
        )
        s.bonus_discard.append(_bonus(entry[0], "bonus_discard"))
        s.discard_by.append(_seat(entry[1], "bonus_discard seat"))
    kept = _field(d, "bonus_kept")
    require(isinstance(kept, list) and len(kept) == 2, "bower: bonus_kept must be 2 lists")
    s.kept = [_bonuses(k, "bonus_kept") for k in kept]
    s.drawn = _bonuses(_field(d, "bonus_drawn"), "bonus_drawn")
    require(len(s.drawn) <= 3, "bower: at most 3 drawn bonus tiles")
    cond = _field(d, "conditions")
    require(
        isinstance(cond, list) and len(cond) == 2 and all(type(x) is int for x in cond)
        and 0 <= cond[0] < 1 << 6 and 0 <= cond[1] < 1 << NUM_CELLS,
        f"bower: conditions must be [column bits 0..63, cell bits 0..2**24-1], got {short(cond)}",
    )
    s.conditions = (cond[0], cond[1])
    _parse_tokens(s, _field(d, "tokens"))
    s.spied_cols = _int_pair(_field(d, "spied_columns"), "spied_columns", 0, 63)
    s.spied_removed = _bool_pair(_field(d, "spied_removed"), "spied_removed")
    s.tile_discards = _tiles(_field(d, "tile_discards"), "tile_discards", NUM_TILES)
    cover = _field(d, "cover_tile")
    s.cover_tile = -1 if cover is None else _tile(cover, "cover_tile")
    phase = _field(d, "phase")
    require(isinstance(phase, str) and phase in PHASES,
            f"bower: phase {short(phase)}; allowed {PHASES}")
    s.phase = PHASES.index(phase)
    s.turn_player = _seat(_field(d, "turn_player"), "turn_player")
    actor = _field(d, "actor")
    if s.phase == PH_OVER:
        require(type(actor) is int and actor in (-1, 0, 1),
                f"bower: actor must be -1 (or a seat, ignored) in phase over, got {short(actor)}")
        s.actor = -1
    else:
        s.actor = _seat(actor, "actor")
    effect = _field(d, "effect")
    s.effect = -1 if effect is None else _bonus(effect, "effect")
    decisions = _field(d, "decisions")
    require(type(decisions) is int and 0 <= decisions <= game.max_decisions,
            f"bower: decisions must be an int in 0..{game.max_decisions}, got {short(decisions)}")
    expected_actor = 1 - s.turn_player if s.phase == PH_OPP_DISCARD else s.turn_player
    require(
        s.phase in (PH_OVER, PH_DRAFT) or s.actor == expected_actor,
        f"bower: actor must be player_{expected_actor} in phase {phase}",
    )
    if s.phase == PH_TOKEN:
        require(
            TK1 <= s.effect < TK5,
            f"bower: phase token needs effect TK1-TK4, got {short(effect)}",
        )
    if s.phase == PH_BRANCH:
        require(s.effect == TK5, f"bower: phase branch needs effect TK5, got {short(effect)}")
    require(
        (s.cover_tile >= 0) == (s.phase == PH_COVER),
        "bower: cover_tile is set exactly in phase cover",
    )
    require(
        bool(s.drawn) == (s.phase == PH_KEEP),
        "bower: bonus_drawn is non-empty exactly in phase keep",
    )
    s.decisions = decisions
    _check_conservation(s)
    repaint_all(s)
    s._dirty = [S_ALL, S_ALL]
    if s.phase == PH_OVER:
        s._final = compute_final(s)
    return s


def _parse_tokens(s: BowerState, toks: Any) -> None:
    """The 5 tokens: status, and seat/cell (-1 unless placed or removed), branch orientation."""
    require(isinstance(toks, list) and len(toks) == 5, "bower: tokens must list 5 tokens")
    for k, tok in enumerate(toks):
        name = TOKEN_NAMES[k]
        keys = {"token", "status", "seat", "cell"} | ({"orient"} if k == TOK_BRANCH else set())
        require(isinstance(tok, Mapping) and set(tok) == keys,
                f"bower: token {k} must be a dict with keys {sorted(keys)}, got {short(tok)}")
        require(tok["token"] == name, f"bower: token {k} must be {name}")
        status = tok["status"]
        require(isinstance(status, str) and status in TOKEN_STATUS,
                f"bower: token status {short(status)}; allowed {TOKEN_STATUS}")
        s.tok_status[k] = TOKEN_STATUS.index(status)
        seat, cell = tok["seat"], tok["cell"]
        if s.tok_status[k] == TOK_SUPPLY:
            require(seat == -1 and cell == -1 and type(seat) is int and type(cell) is int,
                    f"bower: token {name} in the supply needs seat -1 and cell -1, "
                    f"got {short(seat)}, {short(cell)}")
        else:
            _seat(seat, f"token {name} seat")
            require(type(cell) is int and 0 <= cell < NUM_CELLS,
                    f"bower: token {name} cell must be 0..{NUM_CELLS - 1}, got {short(cell)}")
        s.tok_seat[k] = seat
        s.tok_cell[k] = cell
        if s.tok_status[k] == TOK_PLACED:
            require(s.top[seat][cell] >= 0,
                    f"bower: token {name} must lie on an occupied cell, got {short(cell)}")
        if k == TOK_BRANCH:
            orient = tok["orient"]
            if s.tok_status[k] == TOK_SUPPLY:
                require(orient == -1 and type(orient) is int,
                        f"bower: the branch in the supply needs orient -1, got {short(orient)}")
            else:
                require(
                    type(orient) is int and orient in (0, 1)
                    and BRANCH_ENDS[2 * cell + orient] is not None,
                    "bower: branch orientation must be 0/1 with both ends inside the grid",
                )
            s.branch_orient = orient


def _check_conservation(s: BowerState) -> None:
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
    _check_conservation(s)
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


__all__ = ["check_state", "state_from_dict", "to_dict"]
