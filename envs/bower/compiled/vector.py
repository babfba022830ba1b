"""``bower_v0`` compiled: ``num_envs`` games in numpy arrays, stepped by the numba kernels of
this folder (``kernels``: the rules; ``decisions``: masks and observations; ``outcome``: §6
scoring; ``layout``: the position's columns and the tables), behind the vector contract
(``tablezoo.envs.vector.base``).

``make_vector(num_envs, seed=None, **options)`` builds one (``tablezoo.envs.make_vector`` calls it
where numba is installed); the options are ``bower_v0``'s, resolved by ``BowerGame`` itself (an
unknown one raises its ``InvalidOptionError``). Every rule, bonus tile and option of the Python
engine is played; ``tests/envs/bower/compiled/replay.py`` checks the two agree decision by
decision. Reset, stepping (``copy=False`` too), per-slot seeding and positions behave as in every
compiled engine (``tablezoo.envs.vector.compiled``). ``get_state(i)`` leaves out the game's event
record (``history``: the information state's), which the slots do not keep; the position loads
with its events unknown, as a save without them does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tablezoo.envs.bower.compiled.layout as L
from tablezoo.envs.bower.actions import PHASES
from tablezoo.envs.bower.compiled.decisions import global_states, write_decisions
from tablezoo.envs.bower.compiled.kernels import new_games, step, step_rows
from tablezoo.envs.bower.components import (
    BONUS_IDS,
    EGG_IDS,
    TILE_IDS,
    TOKEN_NAMES,
    TOKEN_STATUS,
)
from tablezoo.envs.bower.rules import BowerGame, BowerState
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.fields import options_record
from tablezoo.envs.core.game import State
from tablezoo.envs.vector.compiled import CompiledVector

ENV_NAME = "bower_v0"


def make_vector(num_envs: int, seed: int | None = None, **options: Any) -> BowerVector:
    """``num_envs`` compiled games of ``bower_v0`` with ``options``; call ``reset()``."""
    return BowerVector(num_envs, seed, **options)


def _line_aligned(rows: int, width: int, dtype: type) -> np.ndarray:
    """A zeroed C-contiguous ``[rows, width]`` array whose first row starts on a 64-byte cache
    line (with ``width`` a whole number of lines, every row does)."""
    item = np.dtype(dtype).itemsize
    buf = np.zeros(rows * width + 64 // item, dtype)
    skip = (-buf.ctypes.data % 64) // item
    return buf[skip:skip + rows * width].reshape(rows, width)


def _tiles(xs: list[int]) -> list[str]:
    return [TILE_IDS[t] for t in xs]


def _tile_or_none(t: int) -> str | None:
    return TILE_IDS[t] if t >= 0 else None


class BowerVector(CompiledVector):
    """``num_envs`` games of ``bower_v0`` (with ``options``) in arrays: see the module."""

    env_name = ENV_NAME

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any):
        super().__init__(BowerGame(**options), num_envs, seed)
        o = self.options
        opts = np.zeros(L.NUM_OPTS, np.int64)
        opts[L.O_BONUS_TILES] = bool(o["bonus_tiles"])
        opts[L.O_ALTERNATE] = o["egg_columns"] == "alternate"
        opts[L.O_SWAP] = o["double_turn_mode"] == "swap"
        opts[L.O_FLAG_ALL] = bool(o["flag_all_triggers"])
        opts[L.O_X_ONE] = o["x_cancels"] == "one"
        opts[L.O_PINK_SCOPE] = ("tile", "cell", "all").index(o["pink_column_scope"])
        opts[L.O_PINK_IN_GROUP] = o["pink_moss_scope"] == "in_group"
        opts[L.O_ZERO_TIE] = o["column_zero_tie"] == "tiebreak"
        opts[L.O_MAT_SHELLS] = o["material_tie"] == "shells_in_group"
        opts[L.O_SINGLE] = bool(o["single_item_bonus"])
        opts[L.O_BONUS_OPTIONAL] = bool(o["bonus_optional"])
        opts[L.O_HANDS_PUBLIC] = bool(o["hands_public"])
        opts[L.O_EGG_DIFF] = o["reward"] == "egg_diff"
        # forced_fallback needs no switch: a play is asked only when some placement fits, and
        # then the forced tile fits too (legality never depends on the tile)
        self._opts = opts
        self._S = _line_aligned(self.num_envs, L.NCOL, L.POS_DTYPE)  # the positions

    # --- the kernels -------------------------------------------------------------------------
    def _new_games(self, lo: int, hi: int) -> None:
        new_games(self._S, self._rng, self._opts, lo, hi)
        self._write_decisions(lo, hi)

    def _step_all(self, actions: np.ndarray) -> int:
        return step(self._S, self._rng, self._opts, actions, self._obs, self._mask, self._seat,
                      self._rewards, self._terminated, self._truncated)

    def _step_some(self, actions: np.ndarray, rows: np.ndarray) -> None:
        step_rows(self._S, self._rng, self._opts, actions, rows, self._obs, self._mask,
                    self._seat, self._rewards, self._terminated, self._truncated)

    def _write_decisions(self, lo: int, hi: int) -> None:
        write_decisions(self._S, self._opts, self._obs, self._mask, self._seat, lo, hi)

    def _global_states(self, out: np.ndarray) -> None:
        global_states(self._S, self._opts, out)

    # --- positions ---------------------------------------------------------------------------
    def _saved(self, i: int) -> dict[str, Any]:
        r = self._S[i].tolist()

        def block(at: int, n: int) -> list[int]:
            return r[at:at + n]

        hands = [block(L.HANDS + L.HAND_STRIDE * q, r[L.NHAND + q]) for q in range(2)]
        nests = []
        for q in range(2):
            rows = block(L.PLACED + L.PLACED_STRIDE * q, 3 * r[L.NPLACED + q])
            nests.append([[TILE_IDS[rows[k]], rows[k + 1], bool(rows[k + 2])]
                          for k in range(0, len(rows), 3)])
        tokens = []
        for k in range(5):
            tok = {"token": TOKEN_NAMES[k], "status": TOKEN_STATUS[r[L.TOKST + k]],
                   "seat": r[L.TOKSEAT + k], "cell": r[L.TOKCELL + k]}
            if k == 4:
                tok["orient"] = r[L.BORIENT]
            tokens.append(tok)
        nd = r[L.NDISC]
        return {
            "game": "bower",
            "version": 1,
            "options": options_record(self.game.options),
            "rng": self._derived_rng(i),
            "start_player": r[L.START],
            "eggs": [EGG_IDS[e] for e in block(L.EGGS, 8)],
            "egg_owner": block(L.OWNER, 6),
            "stack": _tiles(block(L.STACK, r[L.NSTACK])),
            "display": [_tile_or_none(t) for t in block(L.DISPLAY, 3)],
            "hands": [_tiles(h) for h in hands],
            "forced": [_tile_or_none(t) for t in block(L.FORCED, 2)],
            "hand_limits": block(L.LIMITS, 2),
            "turns": block(L.TURNS, 2),
            "extra_turn": [bool(x) for x in block(L.EXTRA, 2)],
            "swap_owed": [bool(x) for x in block(L.OWED, 2)],
            "nests": nests,
            "column_flags": block(L.COLF, 2),
            "cell_flags": block(L.CELLF, 2),
            "bonus_deck": [BONUS_IDS[b] for b in block(L.DECK, r[L.NDECK])],
            "bonus_discard": [[BONUS_IDS[b], by] for b, by in zip(block(L.DISC, nd),
                                                                  block(L.DISC_BY, nd))],
            "bonus_kept": [[BONUS_IDS[b] for b in block(L.KEPT + 20 * q, r[L.NKEPT + q])]
                           for q in range(2)],
            "bonus_drawn": [BONUS_IDS[b] for b in block(L.DRAWN, r[L.NDRAWN])],
            "conditions": [r[L.COND_C], r[L.COND_X]],
            "tokens": tokens,
            "spied_columns": block(L.SPIEDC, 2),
            "spied_removed": [bool(x) for x in block(L.SPIEDR, 2)],
            "tile_discards": _tiles(block(L.TD, r[L.NTD])),
            "cover_tile": _tile_or_none(r[L.COVER_TILE]),
            "phase": PHASES[r[L.PHASE]],
            "actor": r[L.ACTOR],
            "turn_player": r[L.TP],
            "effect": BONUS_IDS[r[L.EFFECT]] if r[L.EFFECT] >= 0 else None,
            "decisions": r[L.DECISIONS],
        }

    def _load(self, i: int, state: State) -> None:
        self._S[i] = self._row(state)

    @staticmethod
    def _row(st: BowerState) -> np.ndarray:
        """``st`` as a row of the position matrix."""
        row = np.full(L.NCOL, -1, np.int64)

        def put(at: int, values: list[int], most: int, what: str) -> None:
            if len(values) > most:
                raise StateFormatError(f"bower_v0: set_state: {what} has {len(values)} entries; "
                                       f"the compiled engine holds at most {most}")
            row[at:at + len(values)] = values

        scalars = {L.PHASE: st.phase, L.ACTOR: st.actor, L.TP: st.turn_player,
                   L.START: st.start, L.EFFECT: st.effect, L.DECISIONS: st.decisions,
                   L.COVER_TILE: st.cover_tile, L.BORIENT: st.branch_orient,
                   L.NSTACK: len(st.stack), L.NDECK: len(st.bonus_deck),
                   L.NDISC: len(st.bonus_discard), L.NDRAWN: len(st.drawn),
                   L.NTD: len(st.tile_discards), L.COND_C: st.conditions[0],
                   L.COND_X: st.conditions[1]}
        for at, value in scalars.items():
            row[at] = value
        put(L.EGGS, st.eggs, 8, "eggs")
        put(L.OWNER, st.col_owner, 6, "egg_owner")
        put(L.STACK, st.stack, 36, "stack")
        put(L.DISPLAY, st.display, 3, "display")
        put(L.DECK, st.bonus_deck, 20, "bonus_deck")
        put(L.DISC, st.bonus_discard, 20, "bonus_discard")
        put(L.DISC_BY, st.discard_by, 20, "bonus_discard")
        put(L.DRAWN, st.drawn, 3, "bonus_drawn")
        put(L.TOKST, st.tok_status, 5, "tokens")
        put(L.TOKSEAT, st.tok_seat, 5, "tokens")
        put(L.TOKCELL, st.tok_cell, 5, "tokens")
        put(L.TD, st.tile_discards, 40, "tile_discards")
        for q in range(2):
            put(L.HANDS + L.HAND_STRIDE * q, st.hands[q], 6, f"hand of player_{q}")
            put(L.TOP + 24 * q, st.top[q], 24, "nest")
            put(L.DEPTH + 24 * q, st.depth[q], 24, "nest")
            placed = [x for t, pl, cov in st.placed[q] for x in (t, pl, int(cov))]
            put(L.PLACED + L.PLACED_STRIDE * q, placed, L.PLACED_STRIDE, f"nest of player_{q}")
            put(L.KEPT + 20 * q, st.kept[q], 20, "bonus_kept")
            put(L.MATB + 4 * q, st.matb[q], 4, "nest")
            row[L.NHAND + q] = len(st.hands[q])
            row[L.NPLACED + q] = len(st.placed[q])
            row[L.NKEPT + q] = len(st.kept[q])
            row[L.FORCED + q] = st.forced[q]
            row[L.LIMITS + q] = st.limits[q]
            row[L.TURNS + q] = st.turns[q]
            row[L.EXTRA + q] = st.extra[q]
            row[L.OWED + q] = st.owed[q]
            row[L.OCC + q] = st.occ[q]
            row[L.COLF + q] = st.col_flags[q]
            row[L.CELLF + q] = st.cell_flags[q]
            row[L.SPIEDC + q] = st.spied_cols[q]
            row[L.SPIEDR + q] = st.spied_removed[q]
            row[L.GEM1 + q] = st.gem1[q]
            row[L.GEM2 + q] = st.gem2[q]
        return row
