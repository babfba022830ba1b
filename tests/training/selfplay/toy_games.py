"""Tiny games on the engine protocol, to test the generic training code on decision structures
our four games do not have or rarely reach.

``BidGame`` has several seats acting at once and no teams ("Bid": 3 players hold cards 0, 1,
2; each of 3 rounds all play one unused card at once; the single highest unique card scores a
point; rank rewards at the end). ``StopGame`` often ends before a given seat decides at all.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablezoo.envs.core.game import Game, State, rank_rewards, rng_from
from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec

N, CARDS = 3, 3


class BidGame(Game):
    name = "toy_bid"

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.num_players = N
        self.num_actions = CARDS
        self.obs_spec = ObsSpec([ObsPiece("used", (N, CARDS), "cards used, me first"),
                                 ObsPiece("points", (N,), "points, me first", high=CARDS)])
        self.max_decisions = CARDS

    def new_state(self, seed=None) -> BidState:
        return BidState(self, rng_from(seed))

    def state_from_dict(self, data):
        state = BidState(self, rng_from(0))
        state.used = np.array(data["used"], bool)
        state.points = list(data["points"])
        state.round = data["round"]
        return state

    def action_name(self, action: int) -> str:
        return f"bid {action}"


class BidState(State):
    def __init__(self, game: BidGame, rng: np.random.Generator):
        self.game, self.rng = game, rng
        self.used = np.zeros((N, CARDS), bool)
        self.points = [0] * N
        self.round = 0

    def acting_players(self):
        return () if self.round == CARDS else tuple(range(N))

    def legal_mask(self, player):
        if self.round == CARDS:
            return np.zeros(CARDS, bool)
        return ~self.used[player]

    def apply(self, actions):
        joint = self.check_actions(actions)
        for p, a in joint.items():
            self.used[p, a] = True
        bids = list(joint.values())
        unique = [b for b in bids if bids.count(b) == 1]
        if unique:
            winner = next(p for p, a in joint.items() if a == max(unique))
            self.points[winner] += 1
        self.round += 1

    def is_terminal(self):
        return self.round == CARDS

    def returns(self):
        return rank_rewards(self.points) if self.is_terminal() else [0.0] * N

    def scores(self):
        return [float(x) for x in self.points]

    def score_breakdown(self):
        return [{"rounds": float(x)} for x in self.points]

    def observe(self, player, out=None):
        order = [(player + i) % N for i in range(N)]
        vec = np.concatenate([self.used[order].ravel(), np.array(self.points)[order]])
        vec = vec.astype(np.float32)
        if out is None:
            return vec
        out[...] = vec
        return out

    def determinize(self, player, rng):
        new = self.clone()
        new.rng = np.random.default_rng(rng.integers(2**63 - 1))
        return new

    def clone(self):
        new = BidState(self.game, np.random.default_rng())
        new.rng.bit_generator.state = self.rng.bit_generator.state
        new.used, new.points, new.round = self.used.copy(), list(self.points), self.round
        return new

    def to_dict(self):
        return {"used": self.used.tolist(), "points": list(self.points), "round": self.round}

    def __str__(self):
        return f"round {self.round} points {self.points}"


class StopGame(Game):
    """"Stop": 3 players in turn each either stop the game (action 0) or pass it on (1); whoever
    stops loses 1, the others win 0.5 each; after 6 passes nobody loses. A game can end before a
    given seat ever decides, the case the collector replaces without a report. With
    ``over_at_start`` every game is over before anyone decides."""

    name = "toy_stop"

    def __init__(self, over_at_start: bool = False, max_decisions: int = 6, **options: Any):
        super().__init__(**options)
        self.over_at_start = over_at_start
        self.num_players = N
        self.num_actions = 2
        self.obs_spec = ObsSpec([ObsPiece("passes", (1,), "passes so far", high=6),
                                 ObsPiece("seat", (N,), "my seat, one-hot")])
        self.max_decisions = max_decisions  # below 6: games cut by the decision limit

    def new_state(self, seed=None) -> StopState:
        return StopState(self, stopped=None, passes=6 if self.over_at_start else 0)

    def state_from_dict(self, data):
        return StopState(self, data["stopped"], data["passes"])

    def action_name(self, action: int) -> str:
        return ("stop", "pass")[action]


class StopState(State):
    def __init__(self, game: StopGame, stopped: int | None, passes: int):
        self.game, self.stopped, self.passes = game, stopped, passes

    def acting_players(self):
        return () if self.is_terminal() else (self.passes % N,)

    def legal_mask(self, player):
        return np.array([True, True]) if player in self.acting_players() else np.zeros(2, bool)

    def apply(self, actions):
        joint = self.check_actions(actions)
        for p, a in joint.items():
            if a == 0:
                self.stopped = p
            else:
                self.passes += 1

    def is_terminal(self):
        return self.stopped is not None or self.passes >= 6

    def returns(self):
        if self.stopped is None:
            return [0.0] * N
        return [-1.0 if p == self.stopped else 0.5 for p in range(N)]

    def scores(self):
        return self.returns()

    def observe(self, player, out=None):
        vec = np.zeros(1 + N, np.float32)
        vec[0], vec[1 + player] = self.passes, 1.0
        if out is None:
            return vec
        out[...] = vec
        return out

    def clone(self):
        return StopState(self.game, self.stopped, self.passes)

    def determinize(self, player, rng):
        return self.clone()

    def score_breakdown(self):
        return [{"result": r} for r in self.returns()]

    def to_dict(self):
        return {"stopped": self.stopped, "passes": self.passes}

    def __str__(self):
        return f"passes {self.passes}, stopped by {self.stopped}"
