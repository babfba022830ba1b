"""Saving and loading Bower positions: ``to_dict`` and ``state_from_dict`` with its validation.

A loaded dict is checked field by field (clear ``StateFormatError`` naming the field and the
allowed values) and for conservation of every nest and bonus tile, so hand-built positions
(``positions.build_state``) are validated like saved games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tablezoo.envs.bower import information_state
from tablezoo.envs.bower.actions import (
    PH_BRANCH,
    PH_COVER,
    PH_DRAFT,
    PH_KEEP,
    PH_OPP_DISCARD,
    PH_OVER,
    PH_TOKEN,
    PHASES,
)
from tablezoo.envs.bower.components import (
    BONUS_IDS,
    BONUS_INDEX,
    EGG_IDS,
    MAX_HAND,
    NUM_BONUS,
    NUM_EGGS,
    NUM_NEST_TILES,
    NUM_TILES,
    TILE_IDS,
    TILE_INDEX,
    TK1,
    TK5,
    TOK_BRANCH,
    TOK_PLACED,
    TOK_SUPPLY,
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
from tablezoo.envs.bower.invariants import check_conservation
from tablezoo.envs.bower.observation import S_ALL, repaint_all
from tablezoo.envs.bower.scoring import compute_final
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.fields import OMIT, check_saved_options, options_record
from tablezoo.envs.core.game import require, rng_from_dict, rng_to_dict, short

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerGame, BowerState


# --- to_dict's encoders (named by ``BowerState.FIELDS``) ---------------------------------------
HEADER_KEYS = ("game", "version", "options")


def save_header(s: BowerState) -> dict[str, Any]:
    """The first keys of a save: the game, the format version, the options."""
    return {"game": "bower", "version": 1, "options": options_record(s.game.options)}


def _tile_ids(xs: list[int]) -> list[str]:
    return [TILE_IDS[t] for t in xs]


def _tile_id(t: int) -> str | None:
    return TILE_IDS[t] if t >= 0 else None


def save_rng(s: BowerState) -> dict[str, Any]:
    return rng_to_dict(s.rng)


def save_eggs(s: BowerState) -> list[str]:
    return [EGG_IDS[e] for e in s.eggs]


def save_tiles(name: str) -> Callable[[BowerState], list[str]]:
    """The encoder of a nest tile list field ``name``."""
    return lambda s: _tile_ids(getattr(s, name))


def save_opt_tiles(name: str) -> Callable[[BowerState], list[str | None]]:
    """The encoder of a field ``name`` listing a nest tile or none (``-1``) per slot."""
    return lambda s: [_tile_id(t) for t in getattr(s, name)]


def save_hands(s: BowerState) -> list[list[str]]:
    return [_tile_ids(h) for h in s.hands]


def save_nests(s: BowerState) -> list[list[list[Any]]]:
    return [[[TILE_IDS[t], pl, cov] for t, pl, cov in s.placed[q]] for q in range(2)]


def save_bonus_deck(s: BowerState) -> list[str]:
    return [BONUS_IDS[b] for b in s.bonus_deck]


def save_bonus_discard(s: BowerState) -> list[list[Any]]:
    return [[BONUS_IDS[b], by] for b, by in zip(s.bonus_discard, s.discard_by)]


def save_bonus_kept(s: BowerState) -> list[list[str]]:
    return [[BONUS_IDS[b] for b in s.kept[q]] for q in range(2)]


def save_bonus_drawn(s: BowerState) -> list[str]:
    return [BONUS_IDS[b] for b in s.drawn]


def save_conditions(s: BowerState) -> list[int]:
    return list(s.conditions)


def save_tokens(s: BowerState) -> list[dict[str, Any]]:
    return [
        {
            "token": TOKEN_NAMES[k],
            "status": TOKEN_STATUS[s.tok_status[k]],
            "seat": s.tok_seat[k],
            "cell": s.tok_cell[k],
            **({"orient": s.branch_orient} if k == TOK_BRANCH else {}),
        }
        for k in range(5)
    ]


def save_cover_tile(s: BowerState) -> str | None:
    return _tile_id(s.cover_tile)


def save_phase(s: BowerState) -> str:
    return PHASES[s.phase]


def save_effect(s: BowerState) -> str | None:
    return BONUS_IDS[s.effect] if s.effect >= 0 else None


def save_history(s: BowerState) -> Any:
    """Every event of the game, for the information state; left out when unknown."""
    rows = information_state.to_list(s)
    return OMIT if rows is None else rows


def state_from_dict(
    game: BowerGame, data: Mapping[str, Any], state_class: type[BowerState],
    *, hand_built: bool = False,
) -> BowerState:
    """Load and validate a dict of ``to_dict`` (``BowerGame.state_from_dict``); ``state_class``
    builds the blank state (passed in, so this module need not import ``rules``).

    Every field is type-checked and size-capped before it is used, so any input either loads a
    state that passes ``invariants.check_state`` or raises ``StateFormatError`` with a bounded
    message.
    ``hand_built`` (``positions.build_state`` only; never part of a saved dict) skips the
    invariants that follow from the game's history (see ``invariants.check_state``)."""
    try:
        s = _parse(game, data, state_class)
        s.hand_built = hand_built
        information_state.from_list(s, data.get("history", information_state.NOT_SAVED), hand_built)
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            RecursionError) as exc:  # a safety net: the parser checks types before use
        raise StateFormatError(
            f"bower: malformed state dict: {type(exc).__name__}: {short(str(exc))}"
        ) from exc
    state_class.FIELDS.check_types(s, "bower")  # what each declared field holds
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
def _parse(game: BowerGame, d: Mapping[str, Any], state_class: type[BowerState]) -> BowerState:
    require(isinstance(d, Mapping), f"bower: state must be a dict, got {type(d).__name__}")
    keys = state_class.FIELDS.keys  # the declared fields' keys
    unknown = [k for k in d if k not in keys]
    require(not unknown, f"bower: unknown keys {short(unknown)}; allowed: {', '.join(keys)}")
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
    check_conservation(s)
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


__all__ = ["state_from_dict"]
