"""``ethnos_v0`` compiled: ``num_envs`` games in numpy arrays, stepped by the numba kernels of
``kernels``, behind the vector contract (``tablezoo.envs.vector.base``).

``make_vector(num_envs, seed=None, **options)`` builds one (``tablezoo.envs.make_vector`` calls it
where numba is installed); the options are ``ethnos_v0``'s, resolved by ``EthnosGame`` itself (an
unknown one raises its ``InvalidOptionError``). Every rule, tribe power, option and player count
of the Python engine is played; ``tests/envs/ethnos/compiled/replay.py`` checks the two agree
decision by decision. Reset, stepping (``copy=False`` too), per-slot seeding and positions
behave as in every compiled engine (``tablezoo.envs.vector.compiled``). A slot's generator draws
each game's tribes, glory tokens and first player and every Age's shuffles. ``get_state(i)``
saves no Age events (``history``): the copy's information state starts unknown, as for any
save without them; the default observation does not need them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tablezoo.envs.ethnos.compiled.kernels as K
import tablezoo.envs.ethnos.compiled.layout as L
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.fields import options_record
from tablezoo.envs.core.game import State
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import NUM_TYPES, TRIBES
from tablezoo.envs.ethnos.rules import EthnosGame, EthnosState
from tablezoo.envs.ethnos.saving import FORMAT_VERSION
from tablezoo.envs.vector.compiled import CompiledVector

ENV_NAME = "ethnos_v0"


def make_vector(num_envs: int, seed: int | None = None, **options: Any) -> EthnosVector:
    """``num_envs`` compiled games of ``ethnos_v0`` with ``options``; call ``reset()``."""
    return EthnosVector(num_envs, seed, **options)


def _line_aligned(rows: int, width: int) -> np.ndarray:
    """A zeroed C-contiguous int16 ``[rows, width]`` array whose first row starts on a 64-byte
    cache line (``width`` being whole lines, every row does)."""
    buf = np.zeros(rows * width + 32, np.int16)
    skip = (-buf.ctypes.data % 64) // 2
    return buf[skip:skip + rows * width].reshape(rows, width)


class EthnosVector(CompiledVector):
    """``num_envs`` games of ``ethnos_v0`` (with ``options``) in arrays: see the module."""

    env_name = ENV_NAME
    _position_arrays = ("_S", "_R")

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any):
        super().__init__(EthnosGame(**options), num_envs, seed)
        self._opts = L.make_opts(self.game)
        if self.options["max_decisions"] > L.MAX_DECISIONS:
            raise InvalidOptionError(
                f"{ENV_NAME}: max_decisions={self.options['max_decisions']} is not allowed in "
                f"the compiled engine; allowed values: 1..{L.MAX_DECISIONS} (the Python engine "
                "takes more)")
        self._S = _line_aligned(self.num_envs, L.NCOL)  # the positions (layout's columns)
        self._R = np.zeros((self.num_envs, L.MAXP), np.float64)  # each seat's return so far

    # --- the kernels -------------------------------------------------------------------------
    def _new_games(self, lo: int, hi: int) -> None:
        K.new_games(self._S, self._R, self._rng, self._opts, lo, hi)
        self._write_decisions(lo, hi)

    def _step_all(self, actions: np.ndarray) -> int:
        return K.step(self._S, self._R, self._rng, self._opts, actions, self._obs, self._mask,
                      self._seat, self._rewards, self._terminated, self._truncated)

    def _step_some(self, actions: np.ndarray, rows: np.ndarray) -> None:
        K.step_rows(self._S, self._R, self._rng, self._opts, actions, rows, self._obs,
                    self._mask, self._seat, self._rewards, self._terminated, self._truncated)

    def _write_decisions(self, lo: int, hi: int) -> None:
        K.write_decisions(self._S, self._opts, self._obs, self._mask, self._seat, lo, hi)

    def _global_states(self, out: np.ndarray) -> None:
        K.global_states(self._S, self._opts, out)

    # --- positions ---------------------------------------------------------------------------
    def _saved(self, i: int) -> dict[str, Any]:
        row = self._S[i].tolist()
        game = self.game
        n = game.num_players

        def seat(p: int, col: int, width: int = 1) -> list[int]:
            at = L.SEAT + int(L.COL_AT[col]) + p * int(L.COL_W[col])
            return row[at:at + width]

        def rows(start: int, width: int) -> list[list[int]]:
            return [row[start + width * p:start + width * (p + 1)] for p in range(n)]

        bands: list[list[list[int]]] = [[] for _ in range(n)]
        for b in range(row[L.NBANDS]):
            at = L.BANDS + L.BAND_W * b
            bands[row[at]].append(row[at + 2:at + 2 + row[at + 1]])
        per = game.slots_per_kingdom
        terminal = bool(row[L.TERMINAL])
        return {
            "game": game.name,
            "version": FORMAT_VERSION,
            "options": options_record(game.options),
            "num_players": n,
            "tribes": [TRIBES[t] for t in range(12) if row[L.HAS + t]],
            "glory_tokens": [row[L.TOKENS + 3 * k:L.TOKENS + 3 * k + per] for k in range(6)],
            "age": row[L.AGE],
            "first_player": row[L.FIRST],
            "actor": row[L.ACTOR],
            "phase": "over" if terminal else act.PHASES[row[L.PHASE]],
            "decisions": row[L.DECISIONS + 1] * L.DEC_BASE + row[L.DECISIONS],
            "deck": row[L.DECK:L.DECK + row[L.NDECK]],
            "lower_left": row[L.LOWER_LEFT],
            "dragons": row[L.DRAGONS],
            "third_drawer": row[L.THIRD],
            "display": row[L.DISPLAY:L.DISPLAY + NUM_TYPES],
            "discard": row[L.DISCARD:L.DISCARD + NUM_TYPES],
            "hands": rows(L.HANDS, NUM_TYPES),
            "known": [seat(p, L.SC_KNOWN, NUM_TYPES) for p in range(n)],
            "bands": bands,
            "glory": [seat(p, L.SC_GLORY)[0] for p in range(n)],
            "breakdown": rows(L.BREAKDOWN, 6),
            "markers": [seat(p, L.SC_MARKERS, 6) for p in range(n)],
            "merfolk": [seat(p, L.SC_MERFOLK)[0] for p in range(n)],
            "horde": [seat(p, L.SC_HORDE, 6) for p in range(n)],
            "troll_owner": row[L.TROLL_OWNER:L.TROLL_OWNER + 6],
            "giant_seat": row[L.GSEAT],
            "giant_size": row[L.GSIZE],
            "giant_plays": [row[L.GPLAYS + 2 * k:L.GPLAYS + 2 * k + 2]
                            for k in range(row[L.NGPLAYS])],
            "building": {"leader": row[L.BLEAD],
                         "cards": row[L.BUILDING:L.BUILDING + NUM_TYPES],
                         "tribe_ok": bool(row[L.TRIBE_OK]), "colour_ok": bool(row[L.COLOUR_OK])},
            "band": {"leader": row[L.CUR_LEADER], "x": row[L.CUR_X],
                     "placed": bool(row[L.CUR_PLACED]), "merfolk_left": row[L.MLEFT],
                     "elf_kept": row[L.ELF_KEPT:L.ELF_KEPT + NUM_TYPES]},
            "orc_queue": row[L.ORCQ:L.ORCQ + row[L.NORC]],
            "rng": self._derived_rng(i),
        }

    def _load(self, i: int, state: State) -> None:
        self._S[i] = self._row(state)
        self._R[i, :state.n] = state.returns()

    @staticmethod
    def _row(st: EthnosState) -> np.ndarray:
        """``st`` as a row of the position matrix."""
        n = st.n
        row = np.zeros(L.NCOL, np.int64)
        row[L.AGE] = st.age
        row[L.FIRST] = st.first_player
        row[L.ACTOR] = st.actor
        row[L.PHASE] = st.phase
        row[L.TERMINAL] = st.terminal
        row[L.DECISIONS:L.DECISIONS + 2] = st.decisions % L.DEC_BASE, st.decisions // L.DEC_BASE
        row[L.DRAGONS] = st.dragons
        row[L.THIRD] = st.third_drawer
        row[L.LOWER_LEFT] = st.lower_left
        row[L.NDECK] = len(st.deck)
        row[L.DECK:L.DECK + len(st.deck)] = st.deck
        row[L.BLEAD] = st.building_leader
        row[L.BLEN] = st.building_len
        row[L.TRIBE_OK] = st.tribe_ok
        row[L.COLOUR_OK] = st.colour_ok
        row[L.CUR_LEADER] = st.cur_leader
        row[L.CUR_X] = st.cur_x
        row[L.CUR_PLACED] = st.cur_placed
        row[L.MLEFT] = st.merfolk_left
        row[L.ELF_N] = st.elf_n
        row[L.GSEAT] = st.giant_seat
        row[L.GSIZE] = st.giant_size
        row[L.NGPLAYS] = len(st.giant_plays)
        for k, (p, x) in enumerate(st.giant_plays):
            row[L.GPLAYS + 2 * k] = p
            row[L.GPLAYS + 2 * k + 1] = x
        row[L.NORC] = len(st.orc_queue)
        row[L.ORCQ:L.ORCQ + len(st.orc_queue)] = st.orc_queue
        row[L.HAS:L.HAS + 12] = st.has
        for k, tokens in enumerate(st.tokens):
            row[L.TOKENS + 3 * k:L.TOKENS + 3 * k + len(tokens)] = tokens
        row[L.DISPLAY:L.DISPLAY + NUM_TYPES] = st.display
        row[L.DISCARD:L.DISCARD + NUM_TYPES] = st.discard
        row[L.HANDS:L.HANDS + n * NUM_TYPES] = st.hands.reshape(-1)
        row[L.HAND_LEN:L.HAND_LEN + n] = st.hand_len
        row[L.BUILDING:L.BUILDING + NUM_TYPES] = st.building
        row[L.ELF_KEPT:L.ELF_KEPT + NUM_TYPES] = st.elf_kept
        row[L.TROLL_OWNER:L.TROLL_OWNER + 6] = st.troll_owner
        b = 0
        for p, mine in enumerate(st.bands):
            for band in mine:
                at = L.BANDS + L.BAND_W * b
                row[at] = p
                row[at + 1] = len(band)
                row[at + 2:at + 2 + len(band)] = band
                b += 1
        row[L.NBANDS] = b
        row[L.BREAKDOWN:L.BREAKDOWN + 6 * n] = np.asarray(st.breakdown, np.int64).reshape(-1)
        for j in range(L.NPIECES):  # the seat block piece by piece, seat by seat
            col, width = int(L.PIECE_COL[j]), int(L.PIECE_W[j])
            at = L.SEAT + int(L.PIECE_AT[j])
            row[at:at + n * width] = st.seat_f[:, col:col + width].reshape(-1)
        return row
