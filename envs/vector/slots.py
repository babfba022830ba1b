"""A run of slots ``lo..hi-1`` of a loop vector env: their engine states, stepped one by one.

``LoopVectorEnv`` holds one ``Slots`` for all its games, or each of its worker processes holds
one for its shard. A ``Slots`` writes every result into the arrays it is given (rows ``lo..hi-1``
of the env's buffers: private arrays in process, shared memory across processes) and checks
nothing: the vector env validated the actions against those buffers before calling ``step``.

Seeding (the documented rule the tests recompute): slot ``i`` owns
``numpy.random.default_rng(numpy.random.SeedSequence([seed, i]))``; each game of the slot is
``game.new_state(int(rng.integers(2**63 - 1)))``, the next draw of that generator.

A simultaneous phase (several acting seats) is asked one seat at a time, lowest first; the
choices wait in ``pending`` and are applied together after the last, so every seat's observation
is taken before anything of the phase is applied. One joint decision counts once toward the
env's ``max_decisions`` bound, as the AEC env counts it.
"""

from __future__ import annotations

import numpy as np

from tablezoo.envs.core.game import Game, State

SEED_BOUND = 2**63 - 1  # each new game's seed is drawn below it from the slot's generator


def slot_rng(seed: int, slot: int) -> np.random.Generator:
    """The generator of slot ``slot`` under vector seed ``seed``."""
    return np.random.default_rng(np.random.SeedSequence([seed, slot]))


class Slots:
    """Games ``lo..hi-1``; ``buffers`` are ``(obs, mask, seat, rewards, terminated,
    truncated)``, each with ``hi - lo`` rows (this run's rows of the env's arrays)."""

    def __init__(self, game: Game, lo: int, hi: int, buffers: tuple[np.ndarray, ...],
                 observation: str = "default"):
        self.game = game
        self.info_state = observation == "information_state"  # else the default observation
        self.lo = lo
        self.n = hi - lo
        self.obs, self.mask, self.seat, self.rewards, self.terminated, self.truncated = buffers
        self.states: list[State] = []
        self.rngs: list[np.random.Generator] = []
        self.pending: list[dict[int, int]] = []
        self.decisions: list[int] = []
        self.returns: list[list[float]] = []

    # --- whole runs --------------------------------------------------------------------------
    def reset(self, seed: int | None) -> None:
        """A new game in every slot, from its generator reseeded from ``seed`` (``None``: the
        generator goes on)."""
        if seed is not None:
            self.rngs = [slot_rng(seed, self.lo + k) for k in range(self.n)]
        self.states = [self._new_state(k) for k in range(self.n)]
        self.pending = [{} for _ in range(self.n)]
        self.decisions = [0] * self.n
        self.returns = [list(s.returns()) for s in self.states]
        for k in range(self.n):
            self._write(k)
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False

    def step(self, actions: np.ndarray) -> None:
        """Play ``actions[k]`` (validated) for slot ``k``'s asked seat; finished games restart."""
        rewards, terminated, truncated = self.rewards, self.terminated, self.truncated
        rewards.fill(0.0)
        terminated.fill(False)
        truncated.fill(False)
        seats = self.seat
        bound = self.game.max_decisions
        for k, action in enumerate(actions.tolist()):
            state = self.states[k]
            acting = state.acting_players()
            p = int(seats[k])
            if len(acting) == 1:
                state.apply({p: action})
                self.decisions[k] += 1
            else:
                pending = self.pending[k]
                pending[p] = action
                if len(pending) < len(acting):
                    self._write(k)  # the next seat of the phase; nothing applied yet
                    continue
                state.apply(pending)
                self.pending[k] = {}
                self.decisions[k] += 1
            returns = state.returns()
            old = self.returns[k]
            if returns != old:
                rewards[k] = [new - was for new, was in zip(returns, old)]
                self.returns[k] = list(returns)
            if state.is_terminal():
                terminated[k] = True
                self._restart(k)
            elif state.is_truncated() or self.decisions[k] >= bound:
                truncated[k] = True
                self._restart(k)
            self._write(k)

    def global_states(self) -> np.ndarray:
        """``[hi - lo, S]`` float32: every slot's global state."""
        out = np.empty((self.n, self.game.state_spec.size), np.float32)
        for k, state in enumerate(self.states):
            state.global_state(out=out[k])
        return out

    # --- one slot ----------------------------------------------------------------------------
    def get(self, slot: int) -> State:
        return self.states[slot - self.lo]

    def set(self, slot: int, state: State) -> None:
        """Continue slot ``slot`` from ``state`` (owned by this run from now; not over): its
        pending choices are dropped and its decision count restarts, as an env reset from a
        saved position does."""
        k = slot - self.lo
        self.states[k] = state
        self.pending[k] = {}
        self.decisions[k] = 0
        self.returns[k] = list(state.returns())
        self._write(k)

    def _new_state(self, k: int) -> State:
        return self.game.new_state(int(self.rngs[k].integers(SEED_BOUND)))

    def _restart(self, k: int) -> None:
        state = self.states[k] = self._new_state(k)
        self.pending[k] = {}
        self.decisions[k] = 0
        self.returns[k] = list(state.returns())

    def _write(self, k: int) -> None:
        """Slot ``k``'s decision into the buffers: the lowest acting seat not yet answered."""
        state = self.states[k]
        pending = self.pending[k]
        p = min(q for q in state.acting_players() if q not in pending)
        self.seat[k] = p
        if self.info_state:
            state.information_state(p, out=self.obs[k])
        else:
            state.observe(p, out=self.obs[k])
        self.mask[k] = state.legal_mask(p)
