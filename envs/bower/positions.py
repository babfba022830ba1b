"""Build Bower positions by hand (tests, notebooks, puzzles) without listing all 36 tiles.

``build_state`` starts from a fresh seeded game (or a saved dict), overrides what you name, and
keeps the rest consistent: the tiles you put in nests, hands, the display or discards are taken
out of the stack; the stack keeps its other tiles (``stack_top`` lands on top); bonus tiles you
name as kept or drawn leave the deck; NB tiles in a nest or hand count as kept by that seat.
The result goes through ``state_from_dict``, so every position is validated like a saved game,
except for the invariants only a game's history implies (``invariants.check_state``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tablezoo.envs.bower.components import BONUS_IDS, EGG_IDS, TILE_IDS, TOKEN_NAMES
from tablezoo.envs.bower.geometry import FP_BITS, legal_footprint
from tablezoo.envs.bower.rules import BowerGame, BowerState
from tablezoo.envs.bower.saving import state_from_dict

NestSpec = Sequence[Sequence[Any]]  # (tile, placement) or (tile, placement, cover)


def _ordered(entries: NestSpec) -> list[list[Any]]:
    """Order normal placements so each one is legal when placed (covers keep their order)."""
    todo = [[e[0], e[1], bool(e[2]) if len(e) > 2 else False] for e in entries]
    normal = [e for e in todo if not e[2]]
    covers = [e for e in todo if e[2]]
    out: list[list[Any]] = []
    occ = 0
    while normal:
        for k, e in enumerate(normal):
            if legal_footprint(occ, e[1] >> 1):
                occ |= FP_BITS[e[1] >> 1]
                out.append(e)
                del normal[k]
                break
        else:
            raise ValueError(f"bower: no legal order for the nest placements {normal}")
    return out + covers


def build_state(
    game: BowerGame,
    base: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    nests: Sequence[NestSpec] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    display: Sequence[str | None] | None = None,
    stack_top: Sequence[str] = (),
    eggs: Mapping[int, str] | Sequence[str] | None = None,
    egg_owner: Sequence[int] | None = None,
    bonus_kept: Sequence[Sequence[str]] | None = None,
    bonus_drawn: Sequence[str] = (),
    bonus_deck_top: Sequence[str] = (),
    bonus_discard: Sequence[Sequence[Any]] | None = None,
    tokens: Mapping[str, Sequence[int]] | None = None,
    **fields: Any,
) -> BowerState:
    """A validated position; see the module docstring. ``fields`` override top-level keys of
    ``BowerState.to_dict()`` (``phase``, ``turn_player``, ``actor``, ``turns``, ``hand_limits``,
    ``forced``, ``column_flags``, ``cell_flags``, ``conditions``, ``start_player``, ...).
    ``actor`` defaults to ``turn_player``. ``tokens`` maps a token name to ``(seat, cell)``
    (``(seat, cell, orient)`` for the branch)."""
    d = json.loads(json.dumps(base if base is not None else game.new_state(seed).to_dict()))
    if nests is not None:
        d["nests"] = [_ordered(n) for n in nests]
    if hands is not None:
        d["hands"] = [list(h) for h in hands]
    if display is not None:
        d["display"] = list(display)
    for key, value in fields.items():
        d[key] = value
    if "turn_player" in fields and "actor" not in fields:
        d["actor"] = fields["turn_player"]

    # Nest tiles: everything named somewhere leaves the stack; the rest stays in stack order.
    named = [e[0] for n in d["nests"] for e in n] + [t for h in d["hands"] for t in h]
    named += list(d["tile_discards"]) + list(stack_top)
    if d.get("cover_tile") is not None:
        named.append(d["cover_tile"])
    named_set = set(named)
    if display is None:
        d["display"] = [t if t is not None and t not in named_set else None for t in d["display"]]
    named_set |= {t for t in d["display"] if t is not None}
    old = [t for t in d["stack"] if t not in named_set]
    old += [t for t in TILE_IDS[:36] if t not in named_set and t not in old]
    if display is None:
        d["display"] = [t if t is not None else old.pop() for t in d["display"]]
    d["stack"] = old + list(stack_top)

    # Bonus tiles.
    kept = [list(k) for k in (bonus_kept if bonus_kept is not None else d["bonus_kept"])]
    for seat in range(2):
        in_play = [e[0] for e in d["nests"][seat]] + list(d["hands"][seat])
        for nb in ("NB1", "NB2", "NB3", "NB4"):
            if nb in in_play and nb not in kept[seat]:
                kept[seat].append(nb)
    d["bonus_kept"] = kept
    d["bonus_drawn"] = list(bonus_drawn) if bonus_drawn else d["bonus_drawn"]
    if bonus_discard is not None:
        d["bonus_discard"] = [list(x) for x in bonus_discard]
    used = set(kept[0] + kept[1] + d["bonus_drawn"] + [x[0] for x in d["bonus_discard"]])
    used |= set(bonus_deck_top)
    deck = [b for b in d["bonus_deck"] if b not in used]
    deck += [b for b in BONUS_IDS if b not in used and b not in deck]
    d["bonus_deck"] = deck + list(bonus_deck_top)

    if eggs is not None:
        if isinstance(eggs, Mapping):
            fixed = dict(eggs)
            rest = [e for e in d["eggs"] if e not in fixed.values()]
            d["eggs"] = [fixed[pos] if pos in fixed else rest.pop(0) for pos in range(8)]
        else:
            d["eggs"] = list(eggs)
        assert sorted(d["eggs"]) == sorted(EGG_IDS), d["eggs"]
    if egg_owner is not None:
        d["egg_owner"] = list(egg_owner)
    if tokens is not None:
        for k, name in enumerate(TOKEN_NAMES):
            entry = d["tokens"][k]
            if name in tokens:
                where = tokens[name]
                entry.update(status="placed", seat=where[0], cell=where[1])
                if name == "branch":
                    entry["orient"] = where[2]
    return state_from_dict(game, d, BowerState, hand_built=True)


def cells_of(entries: Iterable[Sequence[Any]]) -> list[str]:
    """Tile ids of nest entries (helper for tests)."""
    return [e[0] for e in entries]
