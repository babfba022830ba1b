"""Saving and loading Bower positions: ``to_dict`` and ``state_from_dict`` with its validation.

A loaded dict is checked field by field (clear ``StateFormatError`` naming the field and the
allowed values) and for conservation of every nest and bonus tile, so hand-built positions
(``positions.build_state``) are validated like saved games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from envs.bower.actions import (
    PH_BRANCH,
    PH_COVER,
    PH_DRAFT,
    PH_KEEP,
    PH_OPP_DISCARD,
    PH_OVER,
    PH_TOKEN,
    PHASES,
)
from envs.bower.components import (
    BONUS_IDS,
    BONUS_INDEX,
    EGG_IDS,
    MAX_HAND,
    NB_FIRST,
    NUM_BONUS,
    NUM_NEST_TILES,
    NUM_TILES,
    TILE_IDS,
    TILE_INDEX,
    TK1,
    TK5,
    TOK_BRANCH,
    TOK_PLACED,
    TOKEN_NAMES,
    TOKEN_STATUS,
    TURNS_PER_PLAYER,
)
from envs.bower.geometry import BRANCH_ENDS, FP_BITS, NUM_CELLS, NUM_PLACEMENTS, legal_footprint
from envs.bower.observation import S_ALL, repaint_all
from envs.bower.scoring import compute_final
from envs.core.errors import StateFormatError
from envs.core.game import require, rng_from_dict, rng_to_dict

if TYPE_CHECKING:
    from envs.bower.rules import BowerGame, BowerState


def to_dict(s: BowerState) -> dict[str, Any]:
    """The JSON-safe dict of a position (``BowerState.to_dict``)."""

    def tiles(xs: list[int]) -> list[str]:
        return [TILE_IDS[t] for t in xs]

    def opt_tile(t: int) -> str | None:
        return TILE_IDS[t] if t >= 0 else None

    return {
        "game": "bower",
        "version": 1,
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
    }


def state_from_dict(
    game: BowerGame, data: Mapping[str, Any], state_class: type[BowerState]
) -> BowerState:
    """Load and validate a dict of ``to_dict`` (``BowerGame.state_from_dict``); ``state_class``
    builds the blank state (passed in, so this module need not import ``rules``)."""
    try:
        return _parse(game, data, state_class)
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


def _parse(game: BowerGame, d: Mapping[str, Any], state_class: type[BowerState]) -> BowerState:
    require(isinstance(d, Mapping), f"bower: state must be a dict, got {type(d).__name__}")
    require(d.get("game") == "bower", f"bower: 'game' must be 'bower', got {d.get('game')!r}")
    require(d.get("version") == 1, f"bower: unsupported version {d.get('version')!r}; allowed 1")
    s = state_class(game)
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
    repaint_all(s)
    s._dirty = [S_ALL, S_ALL]
    if s.phase == PH_OVER:
        s._final = compute_final(s)
    else:
        require(
            bool(s.legal_mask(s.actor).any()),
            f"bower: no legal action for player_{s.actor} in phase {d['phase']}",
        )
    return s


__all__ = ["state_from_dict", "to_dict"]
