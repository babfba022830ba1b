"""A reference for the vector tests, written from the engine alone: one plain ``State`` per
slot, seeded by the documented rule, asked seat by seat in simultaneous phases, restarted when
over; and random legal actions drawn from masks."""

from __future__ import annotations

import numpy as np


class ReferenceSlot:
    """Slot ``slot`` of a vector env made with ``seed``, replayed on a plain engine state."""

    def __init__(self, game, seed: int, slot: int):
        self.game = game
        self.rng = np.random.default_rng(np.random.SeedSequence([seed, slot]))
        self.new_game()

    def new_game(self) -> None:
        self.state = self.game.new_state(int(self.rng.integers(2**63 - 1)))
        self.chosen: dict[int, int] = {}
        self.last_returns = list(self.state.returns())

    def decision(self):
        """``(obs, mask, seat)`` of the seat asked now."""
        seat = min(p for p in self.state.acting_players() if p not in self.chosen)
        return self.state.observe(seat), np.asarray(self.state.legal_mask(seat)), seat

    def play(self, action: int):
        """``(rewards, terminated, truncated)`` of one vector step."""
        state = self.state
        seat = self.decision()[2]
        rewards = np.zeros(self.game.num_players, np.float32)
        self.chosen[seat] = action
        if len(self.chosen) < len(state.acting_players()):
            return rewards, False, False
        state.apply(self.chosen)
        self.chosen = {}
        now = list(state.returns())
        rewards[:] = [a - b for a, b in zip(now, self.last_returns)]
        self.last_returns = now
        terminated, truncated = state.is_terminal(), state.is_truncated()
        if terminated or truncated:
            self.new_game()
        return rewards, terminated, truncated


def reference_decisions(slots: list[ReferenceSlot]):
    obs, mask, seat = zip(*(s.decision() for s in slots))
    return np.stack(obs), np.stack(mask), np.array(seat, np.int64)


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` ``[B, A]``."""
    counts = mask.cumsum(axis=1)
    picks = (rng.random(len(mask)) * counts[:, -1]).astype(np.int64)
    return (counts <= picks[:, None]).sum(axis=1)
