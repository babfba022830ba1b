"""``bauer_draft_v0`` compiled: ``num_envs`` games in numpy arrays, stepped by the numba kernels of
this folder, behind the vector contract (``tablezoo.envs.vector.base``).

``make_vector(num_envs, seed=None, **options)`` builds one (``tablezoo.envs.make_vector`` calls it
where numba is installed); the options are ``bauer_draft_v0``'s, resolved by ``BauerDraftGame``
itself (an unknown one raises its ``InvalidOptionError``). Every rule, character and option of the
Python engine is played; ``tests/envs/bauer_draft/compiled/replay.py`` checks the two agree
decision by decision. Reset, stepping (``copy=False`` too), per-slot seeding and positions behave
as in every compiled engine (``tablezoo.envs.vector.compiled``).

The select is simultaneous: the seats are asked one after another, lowest first, each seeing the
position before any choice of the select, and the choices are applied together after the last
(as the Python engines' loop does). A slot's generator draws each game's deal and Uggel-Guggel's
shuffles. ``get_state(i)`` leaves out the game's event record (``history``): the copy's
information state is rebuilt at a game's first select and unknown later (the default observation
is always there); the answers already given in a select wait in the slot and are not part of
the position (``set_state`` drops them, as the loop does).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tablezoo.envs.bauer_draft.compiled.encoding as encoding
import tablezoo.envs.bauer_draft.compiled.kernels as kernels
import tablezoo.envs.bauer_draft.compiled.layout as K
from tablezoo.envs.bauer_draft.actions import KINDS
from tablezoo.envs.bauer_draft.components import CARDS, COPIER_CARDS, NIGHT, NUM_CARDS
from tablezoo.envs.bauer_draft.effects import PLAYED_BY, TASK_NAMES
from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState
from tablezoo.envs.bauer_draft.saving import COPY_MODES, TRACK_NAMES
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.fields import options_record
from tablezoo.envs.core.game import State
from tablezoo.envs.vector.compiled import CompiledVector

ENV_NAME = "bauer_draft_v0"
CODES = CARDS.codes


def make_vector(num_envs: int, seed: int | None = None, **options: Any) -> BauerDraftVector:
    """``num_envs`` compiled games of ``bauer_draft_v0`` with ``options``; call ``reset()``."""
    return BauerDraftVector(num_envs, seed, **options)


class BauerDraftVector(CompiledVector):
    """``num_envs`` games of ``bauer_draft_v0`` (with ``options``) in arrays: see the module."""

    env_name = ENV_NAME

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any):
        super().__init__(BauerDraftGame(**options), num_envs, seed)
        self._opts = K.options_vector(self.game)
        self._S = np.zeros((self.num_envs, K.NCOL), np.int64)  # the positions (kernels' columns)

    # --- the kernels -------------------------------------------------------------------------
    def _new_games(self, lo: int, hi: int) -> None:
        kernels.new_games(self._S, self._rng, self._opts, lo, hi)
        self._write_decisions(lo, hi)

    def _step_all(self, actions: np.ndarray) -> int:
        return kernels.step(self._S, self._rng, self._opts, actions, self._obs, self._mask,
                      self._seat, self._rewards, self._terminated, self._truncated)

    def _step_some(self, actions: np.ndarray, rows: np.ndarray) -> None:
        kernels.step_rows(self._S, self._rng, self._opts, actions, rows, self._obs, self._mask,
                    self._seat, self._rewards, self._terminated, self._truncated)

    def _write_decisions(self, lo: int, hi: int) -> None:
        encoding.write_decisions(self._S, self._opts, self._obs, self._mask, self._seat, lo, hi)

    def _global_states(self, out: np.ndarray) -> None:
        encoding.global_states(self._S, self._opts, out)

    # --- positions ---------------------------------------------------------------------------
    def _saved(self, i: int) -> dict[str, Any]:
        row = self._S[i].tolist()
        n = self.game.num_players

        def cards(at: int, count: int) -> list[str]:
            return [CODES[c] for c in row[at:at + count]]

        def card(c: int) -> str | None:
            return CODES[c] if c >= 0 else None

        tableau = []
        for s in range(n):
            mine = sorted((row[K.SEQ + c], c) for c in range(NUM_CARDS) if row[K.OWNER + c] == s)
            tableau.append([{"card": CODES[c], "seq": seq, "round": row[K.PROUND + c],
                             "by": PLAYED_BY[row[K.PBY + c]]} for seq, c in mine])
        queue = []
        for k in range(row[K.QLEN]):
            entry = row[K.QUEUE + (row[K.QHEAD] + k) % K.QCAP]
            queue.append([TASK_NAMES[entry // 512], card((entry // 8) % 64 - 1), entry % 8])
        memory, tracked = [], []
        for s in range(n):
            bits = row[K.MEMB + s]
            memory.append({CODES[c]: self._remembered(row, s, c) for c in range(NUM_CARDS)
                           if (bits >> c) & 1})
            exact, pile = row[K.TRK_E + s], row[K.TRK_P + s]
            tracked.append({CODES[c]: TRACK_NAMES[1 if (exact >> c) & 1 else 2]
                            for c in range(NUM_CARDS) if ((exact | pile) >> c) & 1})
        kind = row[K.KIND]
        return {
            "game": self.game.name,
            "options": options_record(self.game.options),
            "round": row[K.ROUND],
            "kind": KINDS[kind],
            "decider": row[K.DECIDER],
            "source": card(row[K.SOURCE]),
            "offer": card(row[K.OFFER]),
            "first": ([CODES[row[K.FIRST_C]], bool(row[K.FIRST_V])] if row[K.FIRST_C] >= 0
                      else None),
            "selected": [[[CODES[row[K.SEL_C + 2 * s + k]], bool(row[K.SEL_V + 2 * s + k])]
                          for k in range(row[K.SEL_N + s])] for s in range(n)],
            "hands": [cards(K.HAND + s * K.HAND_CAP, row[K.HAND_N + s]) for s in range(n)],
            "piles": [cards(K.PILE + s * K.PILE_CAP, row[K.PILE_N + s]) for s in range(n)],
            "pile_ids": row[K.PILE_IDS:K.PILE_IDS + n],
            "central": cards(K.CENTRAL, row[K.NCENTRAL]),
            "discards": cards(K.DISC, row[K.NDISC]),
            "tableau": tableau,
            "next_seq": row[K.NEXT_SEQ],
            "copies": [{"copier": CODES[copier], "mode": COPY_MODES[row[K.COPY_MODE + k]],
                        "target": card(row[K.COPY_TARGET + k]), "since": row[K.COPY_SINCE + k]}
                       for k, copier in enumerate(COPIER_CARDS)],
            "daga_used": bool(row[K.DAGA_USED]),
            "daga_ready": bool(row[K.DAGA_READY]),
            "queue": queue,
            "plays": row[K.PLAYS:K.PLAYS + n],
            "memory": memory,
            "tracked": tracked,
            "rng": self._derived_rng(i),
        }

    @staticmethod
    def _remembered(row: list[int], s: int, c: int) -> int:
        """The pile seat ``s`` remembers putting card ``c`` on (``layout.MEMP``)."""
        word = row[K.MEMP + s * 3 + c // K.MEM_PER_WORD]
        return (word >> (3 * (c % K.MEM_PER_WORD))) & 7

    def _load(self, i: int, state: State) -> None:
        st: BauerDraftState = state  # type: ignore[assignment]
        if len(st.queue) > K.QCAP:
            raise StateFormatError(
                f"{self}: set_state(slot {i}): {len(st.queue)} queued effects; the compiled "
                f"engine holds at most {K.QCAP} (a game never queues more than 12)")
        n = self.game.num_players
        row = np.full(K.NCOL, 0, np.int64)
        row[K.ROUND] = st.round
        row[K.KIND] = st.kind
        row[K.DECIDER] = st.decider
        row[K.SOURCE] = st.source
        row[K.OFFER] = st.offer
        row[K.FIRST_C] = -1 if st.first is None else st.first[0]
        row[K.FIRST_V] = st.first is not None and st.first[1]
        row[K.NEXT_SEQ] = st.next_seq
        row[K.DAGA_USED] = st.daga_used
        row[K.DAGA_READY] = st.daga_ready
        row[K.PILE_IDS:K.PILE_IDS + n] = st.pile_ids
        row[K.PLAYS:K.PLAYS + n] = st.plays
        row[K.COPY_MODE:K.COPY_MODE + 3] = st.copy_mode
        row[K.COPY_TARGET:K.COPY_TARGET + 3] = st.copy_target
        row[K.COPY_SINCE:K.COPY_SINCE + 3] = st.copy_since
        for s in range(n):
            hand, pile = st.hands[s], st.piles[s]
            row[K.HAND_N + s] = len(hand)
            row[K.HAND + s * K.HAND_CAP:K.HAND + s * K.HAND_CAP + len(hand)] = hand
            row[K.PILE_N + s] = len(pile)
            row[K.PILE + s * K.PILE_CAP:K.PILE + s * K.PILE_CAP + len(pile)] = pile
            row[K.SEL_N + s] = len(st.sel[s])
            for k, (c, via) in enumerate(st.sel[s]):
                row[K.SEL_C + 2 * s + k] = c
                row[K.SEL_V + 2 * s + k] = via
            row[K.TAB + s] = sum(1 << c for c in st.tableau[s])
            row[K.NIGHT_N + s] = sum(NIGHT[c] for c in st.tableau[s])
            for c, pile_id in st.memory[s].items():
                row[K.MEMB + s] |= 1 << c
                word = K.MEMP + s * 3 + c // K.MEM_PER_WORD
                row[word] |= pile_id << (3 * (c % K.MEM_PER_WORD))
            for c in st.tableau[s]:
                if NIGHT[c]:
                    row[K.NIGHT_BY + s] += 1 << (8 * st.played_by[c])
            row[K.TRK_E + s] = sum(1 << c for c, level in st.tracked[s].items() if level == 1)
            row[K.TRK_P + s] = sum(1 << c for c, level in st.tracked[s].items() if level == 2)
        row[K.NCENTRAL] = len(st.central)
        row[K.CENTRAL:K.CENTRAL + len(st.central)] = st.central
        row[K.NDISC] = len(st.discards)
        row[K.DISC:K.DISC + len(st.discards)] = st.discards
        row[K.DISCB] = sum(1 << c for c in st.discards)
        row[K.OWNER:K.OWNER + NUM_CARDS] = st.owner
        row[K.SEQ:K.SEQ + NUM_CARDS] = st.seq
        row[K.PROUND:K.PROUND + NUM_CARDS] = st.played_round
        row[K.PBY:K.PBY + NUM_CARDS] = st.played_by
        row[K.QLEN] = len(st.queue)
        for k, (task, c, p) in enumerate(st.queue):
            row[K.QUEUE + k] = (task * 64 + c + 1) * 8 + p
        self._S[i] = row
