"""``bauer_trick_v0`` compiled: ``num_envs`` games in numpy arrays, stepped by the numba kernels of
``kernels``, behind the vector contract (``tablezoo.envs.vector.base``).

``make_vector(num_envs, seed=None, **options)`` builds one (``tablezoo.envs.make_vector`` calls it
where numba is installed); the options are ``bauer_trick_v0``'s, resolved by ``BauerTrickGame``
itself (an unknown one raises its ``InvalidOptionError``). Every rule and option of the Python
engine is played; ``tests/envs/bauer_trick/compiled/replay.py`` checks the two agree decision
by decision. Reset, stepping (``copy=False`` too), per-slot seeding and positions behave as in
every compiled engine (``tablezoo.envs.vector.compiled``). A slot's generator draws each
game's dealer and every deal's shuffle; ``get_state(i)`` keeps the deal's record (``history``)
where the slot has it, for the information state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tablezoo.envs.bauer_trick.compiled.kernels as K
from tablezoo.envs.bauer_trick.components import cards_of
from tablezoo.envs.bauer_trick.rules import BauerTrickGame, BauerTrickState
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.core.fields import options_record
from tablezoo.envs.core.game import State, short
from tablezoo.envs.vector.compiled import CompiledVector

ENV_NAME = "bauer_trick_v0"
MAX_INT_OPTION = 2**53  # start_score and max_deals: exact as float64 (the observation divides)


def make_vector(num_envs: int, seed: int | None = None, **options: Any) -> BauerTrickVector:
    """``num_envs`` compiled games of ``bauer_trick_v0`` with ``options``; call ``reset()``."""
    return BauerTrickVector(num_envs, seed, **options)


class BauerTrickVector(CompiledVector):
    """``num_envs`` games of ``bauer_trick_v0`` (with ``options``) in arrays: see the module."""

    env_name = ENV_NAME
    _position_arrays = ("_S", "_R")

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any):
        super().__init__(BauerTrickGame(**options), num_envs, seed)
        for name in ("start_score", "max_deals"):
            if self.options[name] > MAX_INT_OPTION:
                raise InvalidOptionError(
                    f"{ENV_NAME}: {name}={short(self.options[name])} is not allowed in the "
                    f"compiled engine; allowed values: 1..2**53 (the Python engine takes more)")
        n = self.num_envs
        o = self.options
        self._opts = np.zeros(K.NUM_OPTS, np.int64)
        self._opts[K.O_DEAL] = o["episode"] == "deal"
        self._opts[K.O_FOREHAND] = o["trump_selection"] == "forehand_on_four"
        self._opts[K.O_START] = o["start_score"]
        self._opts[K.O_MAX_DEALS] = o["max_deals"]
        self._opts[K.O_LEFT] = o["no_trump_leader"] == "left_of_dealer"
        self._opts[K.O_DEFENDERS] = bool(o["defenders_score_on_fail"])
        self._opts[K.O_POINTS] = o["reward"] == "points"
        self._S = np.zeros((n, K.NCOL), np.int64)  # the positions (kernels' columns)
        self._R = np.zeros((n, 4), np.float64)  # each seat's return so far

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
        ntrick, leader = row[K.NTRICK], row[K.LEADER]
        data = {
            "game": game.name,
            "options": options_record(game.options),
            "phase": ("call", "play", "over")[row[K.PHASE]],
            "dealer": row[K.DEALER],
            "to_act": row[K.TO_ACT],
            "hands": [cards_of(row[K.HANDS + s]) for s in range(4)],
            "undealt": row[K.UNDEALT:K.UNDEALT + row[K.NUNDEALT]],
            "calls": row[K.CALLS:K.CALLS + 4],
            "trump": row[K.TRUMP],
            "caller": row[K.CALLER],
            "leader": leader,
            "trick": [[(leader + k) % 4, row[K.TRICK + k]] for k in range(ntrick)],
            "trick_no": row[K.TRICK_NO],
            "tricks": row[K.TRICKS:K.TRICKS + 2],
            "played": [cards_of(row[K.PLAYED + s]) for s in range(4)],
            "voids": row[K.VOIDS:K.VOIDS + 4],
            "points": row[K.POINTS:K.POINTS + 2],
            "tally": [{cat: row[K.TALLY + 3 * t + k] for k, cat in enumerate(game.categories)}
                      for t in range(2)],
            "deals_played": row[K.DEALS],
            "truncated": bool(row[K.TRUNC]),
            "returns": self._R[i].tolist(),
            "decisions": row[K.DECISIONS],
            "rng": self._derived_rng(i),
        }
        if row[K.HIST_KNOWN]:  # the deal's record (``history``), for the information state
            data["history"] = {
                "first_four": [cards_of(row[K.FIRST_FOUR + s]) for s in range(4)],
                "tricks": [row[K.HISTORY + 5 * t:K.HISTORY + 5 * t + 5]
                           for t in range(row[K.TRICK_NO])],
            }
        return data

    def _load(self, i: int, state: State) -> None:
        self._S[i] = self._row(state)
        self._R[i] = state.total_returns

    @staticmethod
    def _row(st: BauerTrickState) -> np.ndarray:
        """``st`` as a row of the position matrix."""
        row = np.full(K.NCOL, -1, np.int64)
        row[K.PHASE] = st.phase
        row[K.DEALER] = st.dealer
        row[K.TO_ACT] = st.to_act
        row[K.TRUMP] = st.trump
        row[K.CALLER] = st.caller
        row[K.LEADER] = st.leader
        row[K.LED] = st.led_suit
        row[K.TRICK_NO] = st.trick_no
        row[K.NTRICK] = len(st.trick_cards)
        row[K.DEALS] = st.deals_played
        row[K.TRUNC] = st.truncated
        row[K.DECISIONS] = st.decisions
        row[K.NUNDEALT] = len(st.undealt)
        row[K.TRICKS:K.TRICKS + 2] = st.tricks
        row[K.POINTS:K.POINTS + 2] = st.points
        row[K.TALLY:K.TALLY + 6] = 0
        for t in range(2):
            for k, count in enumerate(st.tally[t].values()):
                row[K.TALLY + 3 * t + k] = count
        row[K.HANDS:K.HANDS + 4] = st.hands
        row[K.PLAYED:K.PLAYED + 4] = st.played
        row[K.VOIDS:K.VOIDS + 4] = st.voids
        row[K.CALLS:K.CALLS + 4] = st.calls
        row[K.TRICK:K.TRICK + len(st.trick_cards)] = st.trick_cards
        row[K.UNDEALT:K.UNDEALT + len(st.undealt)] = st.undealt
        row[K.HIST_KNOWN] = st.history_known
        if st.history_known:
            row[K.FIRST_FOUR:K.FIRST_FOUR + 4] = st.first_four
            for t, trick in enumerate(st.trick_history):
                row[K.HISTORY + 5 * t:K.HISTORY + 5 * t + 5] = trick
        return row
