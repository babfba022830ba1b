"""Bower's components, loaded from ``components.json`` and checked against the spec's totals.

The JSON file is the single source of truth for the 36 nest tiles, the 4 nest bonus tiles, the 8
request eggs and the 20 bonus tiles (rules §1). This module turns it into flat
numeric tables the engine indexes directly (no per-step dict lookups):

- placeable tiles are numbered 0-35 (T01-T36) and 36-39 (NB1-NB4); a tile *end* is
  ``2 * tile + end`` (``end`` 0 is ``cells[0]``);
- ``END_MAT[end]`` is the material index (straw 0, moss 1, gravel 2, earth 3);
- ``END_UNITS[end]`` counts each of the 13 item codes of ``CODES`` on that end.

Loading fails loudly (``ValueError``) if the data disagrees with the spec's check totals, so an
edit to the JSON cannot silently change the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

MATERIALS: tuple[str, ...] = ("straw", "moss", "gravel", "earth")
STRAW, MOSS, GRAVEL, EARTH = range(4)
COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "purple")

# Item codes in a fixed order; the observation and the unit tables use it.
CODES: tuple[str, ...] = (
    "fe-red", "fe-yellow", "fe-blue", "fe-purple", "fe-white",
    "fl-red", "fl-yellow", "fl-blue", "fl-purple", "fl-white",
    "gem", "shell", "shell-pink",
)  # fmt: skip
CODE_INDEX = {c: i for i, c in enumerate(CODES)}
FEATHER_CODES = (0, 1, 2, 3, 4)  # coloured feathers 0-3, white feather 4
FLOWER_CODES = (5, 6, 7, 8, 9)  # coloured flowers 5-8, white flower 9
FE_WHITE, FL_WHITE, GEM, SHELL, SHELL_PINK = 4, 9, 10, 11, 12
NUM_CODES = len(CODES)

NUM_NEST_TILES = 36
NUM_TILES = 40  # 36 nest tiles + NB1-NB4
NB_FIRST = 36  # tile index of NB1
PINK_TILE = 39  # NB4 carries the pink shell
NUM_EGGS = 8
NUM_BONUS = 20

DATA_PATH = Path(__file__).with_name("components.json")


def load_raw() -> dict:
    with DATA_PATH.open(encoding="utf-8") as fh:
        return json.load(fh)


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(f"bower components.json: {msg}")


def _cell_units(cell: dict, where: str) -> tuple[int, np.ndarray]:
    _check(cell.get("mat") in MATERIALS, f"{where}: unknown material {cell.get('mat')!r}")
    units = np.zeros(NUM_CODES, np.int8)
    for item in cell["items"]:
        _check(item in CODE_INDEX, f"{where}: unknown item code {item!r}")
        units[CODE_INDEX[item]] += 1
    coloured = int(np.count_nonzero(units[:GEM]))
    _check(coloured <= 1, f"{where}: more than one feather/flower code in one cell")
    return MATERIALS.index(cell["mat"]), units


def _build(data: dict | None = None) -> dict:
    """Check ``data`` (default: the JSON file) against the spec totals; return the tables."""
    if data is None:
        data = load_raw()
    checks = data["checks"]
    tiles = data["nest_tiles"]
    bonus = data["bonus_tiles"]
    eggs = data["request_eggs"]
    _check(len(tiles) == checks["nest_tiles"] == NUM_NEST_TILES, "need 36 nest tiles")
    _check(len(bonus) == checks["bonus_tiles"] == NUM_BONUS, "need 20 bonus tiles")
    _check(len(eggs) == checks["request_eggs"] == NUM_EGGS, "need 8 request eggs")
    kinds: dict[str, int] = {}
    for b in bonus:
        kinds[b["kind"]] = kinds.get(b["kind"], 0) + 1
    _check(kinds == checks["bonus_kinds"], f"bonus kind counts {kinds} != {checks['bonus_kinds']}")
    nest_bonus = [b for b in bonus if b["kind"] == "nest"]
    _check([b["id"] for b in nest_bonus] == ["NB1", "NB2", "NB3", "NB4"], "NB1-NB4 order")

    end_mat = np.zeros(2 * NUM_TILES, np.int8)
    end_units = np.zeros((2 * NUM_TILES, NUM_CODES), np.int8)
    tile_ids: list[str] = []
    for t, tile in enumerate(tiles + nest_bonus):
        _check(len(tile["cells"]) == 2, f"{tile['id']}: a tile has exactly 2 cells")
        tile_ids.append(tile["id"])
        for end, cell in enumerate(tile["cells"]):
            mat, units = _cell_units(cell, f"{tile['id']} cell {end}")
            end_mat[2 * t + end] = mat
            end_units[2 * t + end] = units
    _check(len(set(tile_ids)) == NUM_TILES, "duplicate tile ids")

    # Spec §1.3 check totals over the 36 nest tiles only.
    nest_mat = end_mat[: 2 * NUM_NEST_TILES]
    nest_units = end_units[: 2 * NUM_NEST_TILES]
    for m, name in enumerate(MATERIALS[:3]):
        got = int(np.count_nonzero(nest_mat == m))
        _check(got == checks["cells_per_material"][name], f"{name} cells: {got}")
    _check(not np.any(nest_mat == EARTH), "earth appears only on NB3")
    for code, per_mat in checks["units_per_material"].items():
        ci = CODE_INDEX[code]
        got = [int(nest_units[nest_mat == m, ci].sum()) for m in range(3)]
        _check(got == per_mat, f"{code} units per material {got} != {per_mat}")
    singles = [0, 0, 0]
    pairs: dict[tuple[int, int], int] = {}
    for t in range(NUM_NEST_TILES):
        a, b = int(nest_mat[2 * t]), int(nest_mat[2 * t + 1])
        if a == b:
            singles[a] += 1
        else:
            key = (min(a, b), max(a, b))
            pairs[key] = pairs.get(key, 0) + 1
    per = checks["single_material_tiles_per_material"]
    _check(singles == [per] * 3, f"single-material tiles {singles}")
    _check(
        sorted(pairs.values()) == [checks["mixed_tiles_per_pair"]] * 3 and len(pairs) == 3,
        f"mixed tiles per pair {pairs}",
    )

    egg_codes = []
    for e in eggs:
        _check(e["code"] in CODE_INDEX and CODE_INDEX[e["code"]] < GEM, f"egg {e['id']} code")
        _check("white" not in e["code"], f"egg {e['id']} requests a white item")
        egg_codes.append(CODE_INDEX[e["code"]])
    _check(len(set(egg_codes)) == NUM_EGGS, "request eggs must all differ")

    return {
        "tile_ids": tuple(tile_ids),
        "end_mat": end_mat,
        "end_units": end_units,
        "egg_ids": tuple(e["id"] for e in eggs),
        "egg_codes": tuple(egg_codes),
        "bonus": tuple(bonus),
    }


build_tables = _build
_DATA = _build()
TILE_IDS: tuple[str, ...] = _DATA["tile_ids"]
END_MAT: np.ndarray = _DATA["end_mat"]
END_UNITS: np.ndarray = _DATA["end_units"]
EGG_IDS: tuple[str, ...] = _DATA["egg_ids"]
EGG_CODES: tuple[int, ...] = _DATA["egg_codes"]
BONUS: tuple[dict, ...] = _DATA["bonus"]
BONUS_IDS: tuple[str, ...] = tuple(b["id"] for b in BONUS)
BONUS_INDEX = {b: i for i, b in enumerate(BONUS_IDS)}
TILE_INDEX = {t: i for i, t in enumerate(TILE_IDS)}

# Plain-Python copies for the hot paths (list indexing beats numpy scalar indexing).
END_MAT_LIST: list[int] = [int(m) for m in END_MAT]
END_GEMS: list[int] = [int(u[GEM]) for u in END_UNITS]
END_UNITS_LIST: list[tuple[int, ...]] = [tuple(int(x) for x in u) for u in END_UNITS]

# Bonus tile indices by name, for the engine's effect dispatch.
NB1, NB2, NB3, NB4 = (BONUS_INDEX[f"NB{i}"] for i in range(1, 5))
EB_FIRST = BONUS_INDEX["EB1"]  # EB1-EB5 are consecutive
SP1, SP2 = BONUS_INDEX["SP1"], BONUS_INDEX["SP2"]
TK1, TK2, TK3, TK4, TK5 = (BONUS_INDEX[f"TK{i}"] for i in range(1, 6))
IA1, IA2, IA3, IA4 = (BONUS_INDEX[f"IA{i}"] for i in range(1, 5))
BONUS_KIND: tuple[str, ...] = tuple(b["kind"] for b in BONUS)
# Bonus index -> placeable tile index (NB1-NB4) or -1.
BONUS_TILE: tuple[int, ...] = tuple(
    NB_FIRST + ("NB1", "NB2", "NB3", "NB4").index(b["id"]) if b["kind"] == "nest" else -1
    for b in BONUS
)

# Tokens: X, white feather, white flower, shell, branch (bonus TK1..TK5).
TOK_X, TOK_WFE, TOK_WFL, TOK_SHELL, TOK_BRANCH = range(5)
TOKEN_NAMES = ("x", "white_feather", "white_flower", "shell", "branch")
TOK_SUPPLY, TOK_PLACED, TOK_REMOVED = 0, 1, 2
TOKEN_STATUS = ("supply", "placed", "removed")

# Counts the rules fix (§3): turns per player and the most tiles a hand can hold.
TURNS_PER_PLAYER = 12
MAX_HAND = 6
