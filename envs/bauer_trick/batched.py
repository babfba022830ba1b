"""``bauer_trick_v0`` compiled: ``num_envs`` games in numpy arrays, stepped by the numba kernels of
``kernels``, behind the vector contract (``tablezoo.envs.vector.base``).

``make_vector(num_envs, seed=None, **options)`` builds one (``tablezoo.envs.make_vector`` calls it
where numba is installed); the options are ``bauer_trick_v0``'s, resolved by ``BauerTrickGame``
itself (an unknown one raises its ``InvalidOptionError``). Every rule and option of the Python
engine is played; ``tests/envs/bauer_trick/compiled/replay.py`` checks the two agree decision
by decision.

- ``reset()`` starts every slot's first game (from the construction's ``seed``); later
  ``reset()`` calls continue each slot's generator, ``reset(seed)`` reseeds. Call it first.
- ``step(actions)`` validates every action first (a wrong shape or dtype, or an illegal action in
  any slot, raises ``IllegalActionError`` naming the slot, seat, action and the legal ones, and
  changes nothing), plays them, restarts finished games and writes the next decisions. It
  returns fresh arrays; ``step(actions, copy=False)`` returns the engine's own buffers instead
  (no copy: about a third of a step's time at ``B=1024``), which the next ``step``, ``reset``
  or ``set_state`` overwrites: copy what you keep. ``observe()`` always returns fresh arrays.
- Seeding: slot ``i`` owns a PCG32 generator seeded from
  ``numpy.random.SeedSequence([seed, i]).generate_state(2, numpy.uint64)`` (state, stream), so
  slot ``i``'s games do not depend on ``num_envs``; it draws each game's dealer and every deal's
  shuffle (exactly uniform: ``kernels``). ``seed=None`` takes fresh entropy once.
- ``get_state(i)`` builds a ``BauerTrickState`` through the engine's ``state_from_dict`` (so its
  invariant checks vet the position); its generator is derived from the slot's (without
  advancing it), so the copy's later deals are its own. ``set_state(i, state)`` loads a position
  of this game and these options (a ``State`` or its ``to_dict()``; not a finished one); the
  slot keeps its own generator for the deals and games after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tablezoo.envs.bauer_trick import kernels as K
from tablezoo.envs.bauer_trick.components import PHASE_OVER, cards_of
from tablezoo.envs.bauer_trick.rules import BauerTrickGame, BauerTrickState
from tablezoo.envs.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    ResetNeededError,
    StateFormatError,
)
from tablezoo.envs.core.fields import check_saved_options, options_record
from tablezoo.envs.core.game import State, short
from tablezoo.envs.vector.base import Decisions, StepResult, VectorEnv
from tablezoo.envs.vector.kernels import seed_rngs, slot_seed_words

ENV_NAME = "bauer_trick_v0"
MAX_INT_OPTION = 2**53  # start_score and max_deals: exact as float64 (the observation divides)


def make_vector(num_envs: int, seed: int | None = None, **options: Any) -> BauerTrickVector:
    """``num_envs`` compiled games of ``bauer_trick_v0`` with ``options``; call ``reset()``."""
    return BauerTrickVector(num_envs, seed, **options)


def _seed(where: str, seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidOptionError(f"{where}: seed={short(seed)} is not allowed; allowed values: "
                                 "None or an int >= 0")
    return int(seed)


class BauerTrickVector(VectorEnv):
    """``num_envs`` games of ``bauer_trick_v0`` (with ``options``) in arrays: see the module."""

    env_name = ENV_NAME

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any):
        self.game = BauerTrickGame(**options)
        self.options = dict(self.game.options)
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidOptionError(f"{ENV_NAME}: num_envs={short(num_envs)} is not allowed; "
                                     "allowed values: an int >= 1")
        for name in ("start_score", "max_deals"):
            if self.options[name] > MAX_INT_OPTION:
                raise InvalidOptionError(
                    f"{ENV_NAME}: {name}={short(self.options[name])} is not allowed in the "
                    f"compiled engine; allowed values: 1..2**53 (the Python engine takes more)")
        seed = _seed(f"{ENV_NAME}: make_vector", seed)
        self._seed = int(np.random.SeedSequence().entropy) % 2**63 if seed is None else seed
        self.num_envs = n = num_envs
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
        self._rng = np.zeros((n, 2), np.uint64)  # PCG32 state and increment per slot
        self._obs = np.zeros((n, K.OBS_SIZE), np.float32)
        self._mask = np.zeros((n, self.game.num_actions), bool)
        self._seat = np.zeros(n, np.int64)
        self._rewards = np.zeros((n, 4), np.float32)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._started = False

    def __str__(self) -> str:
        return ENV_NAME

    # --- stepping ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> Decisions:
        seed = _seed(f"{self}: reset", seed)
        if seed is None and not self._started:
            seed = self._seed
        if seed is not None:
            seed_rngs(self._rng, slot_seed_words(seed, 0, self.num_envs))
        K.new_games(self._S, self._R, self._rng, self._opts, 0, self.num_envs)
        K.write_decisions(self._S, self._opts, self._obs, self._mask, self._seat, 0,
                          self.num_envs)
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._started = True
        return self.observe()

    def step(self, actions: Any, copy: bool = True) -> StepResult:
        """Play ``actions[i]`` for ``seat[i]`` in every game; ``copy=False``: see the module."""
        self._require_reset("step()")
        acts = self._checked_actions(actions)
        bad = K.step(self._S, self._R, self._rng, self._opts, acts, self._obs, self._mask,
                     self._seat, self._rewards, self._terminated, self._truncated)
        if bad >= 0:
            raise self._illegal(int(bad), np.asarray(actions)[bad])
        if not copy:
            return (self._obs, self._mask, self._seat, self._rewards, self._terminated,
                    self._truncated)
        return (self._obs.copy(), self._mask.copy(), self._seat.copy(), self._rewards.copy(),
                self._terminated.copy(), self._truncated.copy())

    def step_rows(self, actions: np.ndarray, rows: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        K.step_rows(self._S, self._R, self._rng, self._opts,
                    np.ascontiguousarray(actions, np.int64), np.ascontiguousarray(rows, np.int64),
                    self._obs, self._mask, self._seat, self._rewards, self._terminated,
                    self._truncated)
        return self._rewards, self._terminated, self._truncated

    def observe(self) -> Decisions:
        self._require_reset("observe()")
        return self._obs.copy(), self._mask.copy(), self._seat.copy()

    def state(self) -> np.ndarray:
        self._require_reset("state()")
        out = np.empty((self.num_envs, K.STATE_SIZE), np.float32)
        K.global_states(self._S, self._opts, out)
        return out

    # --- positions ---------------------------------------------------------------------------
    def get_state(self, i: int) -> BauerTrickState:
        self._require_reset("get_state()")
        i = self._checked_slot(i)
        row = self._S[i].tolist()
        game = self.game
        ntrick, leader = row[K.NTRICK], row[K.LEADER]
        words = [int(w) for w in self._rng[i]]
        rng = np.random.default_rng(np.random.SeedSequence(words))  # the slot's is not advanced
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
            "rng": rng.bit_generator.state,
        }
        if row[K.HIST_KNOWN]:  # the deal's record (``history``), for the information state
            data["history"] = {
                "first_four": [cards_of(row[K.FIRST_FOUR + s]) for s in range(4)],
                "tricks": [row[K.HISTORY + 5 * t:K.HISTORY + 5 * t + 5]
                           for t in range(row[K.TRICK_NO])],
            }
        return game.state_from_dict(data)

    def set_state(self, i: int, state: State | Mapping[str, Any]) -> None:
        self._require_reset("set_state()")
        i = self._checked_slot(i)
        where = f"{self}: set_state(slot {i})"
        game = self.game
        if isinstance(state, State):
            if state.game.name != game.name:
                raise StateFormatError(f"{where}: a position of game {state.game.name!r}; this "
                                       f"vector env plays {game.name!r} ({ENV_NAME})")
            check_saved_options(game, {"options": options_record(state.game.options)}, where)
            loaded = state
        elif isinstance(state, Mapping):
            name = state.get("game", game.name)
            if name != game.name:
                raise StateFormatError(f"{where}: a saved position of game {short(name)}; this "
                                       f"vector env plays {game.name!r} ({ENV_NAME})")
            check_saved_options(game, state, where)
            try:
                loaded = game.state_from_dict(state)
            except StateFormatError as exc:
                raise StateFormatError(f"{where}: {exc}") from None
        else:
            raise StateFormatError(f"{where}: expected a {game.name} State or its to_dict(), got "
                                   f"{type(state).__name__}")
        if loaded.phase == PHASE_OVER:
            raise StateFormatError(f"{where}: the position is over (no seat acts); a slot "
                                   "continues from a position with a decision to make")
        self._S[i] = self._row(loaded)
        self._R[i] = loaded.total_returns
        K.write_decisions(self._S, self._opts, self._obs, self._mask, self._seat, i, i + 1)

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

    # --- checks ------------------------------------------------------------------------------
    def _require_reset(self, what: str) -> None:
        if not self._started:
            raise ResetNeededError(f"{self}: {what} before the first reset(); call reset() "
                                   "first")

    def _checked_slot(self, i: Any) -> int:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) \
                or not 0 <= i < self.num_envs:
            raise InvalidOptionError(f"{self}: slot {short(i)} does not exist; slots: 0.."
                                     f"{self.num_envs - 1}")
        return int(i)

    def _checked_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as a C-contiguous int64 ``[B]`` (the kernel checks legality)."""
        n = self.num_envs
        if type(actions) is np.ndarray and actions.dtype == np.int64 and actions.shape == (n,) \
                and actions.flags.c_contiguous:
            return actions  # the kernels only read it
        try:
            acts = np.asarray(actions)
        except (ValueError, TypeError):
            acts = None
        if acts is None or acts.shape != (n,) or acts.dtype.kind not in "iu":
            got = ("something numpy cannot read as an array" if acts is None
                   else f"shape {acts.shape} of dtype {acts.dtype}")
            raise IllegalActionError(
                f"{self}: step() takes one integer action id per game, an int array (or list) "
                f"of shape ({n},); got {got}")
        if acts.dtype.kind == "u":  # a uint64 above int64's range stays out of range
            acts = np.where(acts > self.game.num_actions, self.game.num_actions, acts)
        return np.ascontiguousarray(acts, np.int64)

    def _illegal(self, i: int, action: Any) -> IllegalActionError:
        """The error for slot ``i``'s illegal ``action`` (the slot's legal ones recomputed)."""
        game = self.game
        mask = np.zeros((1, game.num_actions), bool)
        seat = np.zeros(1, np.int64)
        K.write_decisions(self._S[i:i + 1], self._opts, np.zeros((1, K.OBS_SIZE), np.float32),
                          mask, seat, 0, 1)
        a = int(action)
        shown = (f"{a} ({game.action_name(a)})" if 0 <= a < game.num_actions
                 else f"{a} (outside 0..{game.num_actions - 1})")
        names = ", ".join(f"{b} ({game.action_name(b)})" for b in np.flatnonzero(mask[0]))
        return IllegalActionError(
            f"{self}: slot {i}: action {shown} is illegal for {game.player_name(int(seat[0]))}; "
            f"legal actions: {names} (no slot was stepped)")
