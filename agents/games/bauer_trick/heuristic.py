"""A rule-of-thumb player for ``bauer_trick``, reading only its own observation.

Trump call: score each suit as trump by the cards held (the two Bauers and high trumps count
most, side aces a little) and name the best suit if the score reaches ``call_threshold``, else
pass. The default threshold (3.0) is low on purpose: measured over 2,000 seeded deals against
random seats, calling almost any reasonable suit (which also gives my team the lead) beat waiting
for a strong hand (mean deal reward +0.35 at 3.0 vs +0.04 at 7.0, partner also heuristic).
Play: lead the highest trump when my team named trump (to draw the others' trumps), else a
side ace, else my cheapest card; when following, let the partner's winning card stand, otherwise
win the trick with the cheapest card that beats it, or throw the cheapest card. Seats in the
observation are relative: 0 me, 1 left, 2 partner, 3 right.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids, only_noop
from tablezoo.envs.bauer_trick.actions import CALL_BASE, NUM_ACTIONS, PASS
from tablezoo.envs.bauer_trick.components import (
    EFFECTIVE_SUIT,
    JACK,
    NO_TRUMP,
    NUM_CARDS,
    NUM_SEATS,
    STRENGTH,
    rank_of,
    suit_of,
)
from tablezoo.envs.bauer_trick.observation import OBS_SPEC
from tablezoo.envs.core.game import State

PARTNER = 2
ACE = 7
KING = 6


def call_strength(hand: list[int], trump: int) -> float:
    """How good ``hand`` is with ``trump`` as trump suit (about 1 point per likely trick)."""
    total = 0.0
    for card in hand:
        if EFFECTIVE_SUIT[trump][card] == trump:
            if rank_of(card) == JACK:
                total += 3.0 if suit_of(card) == trump else 2.5
            elif rank_of(card) == ACE:
                total += 2.0
            elif rank_of(card) == KING:
                total += 1.5
            else:
                total += 1.0
        elif rank_of(card) == ACE:
            total += 0.75
    return total


def own_value(card: int, trump: int) -> int:
    """Strength of a card within its own effective suit (trumps above every side card)."""
    return STRENGTH[trump][EFFECTIVE_SUIT[trump][card]][card]


class HeuristicAgent(BaseAgent):
    """Calls its strongest suit when strong enough; wins tricks cheaply; trusts the partner."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, call_threshold: float = 3.0):
        super().__init__(seed)
        self.call_threshold = float(call_threshold)

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        if only_noop(action_mask, NUM_ACTIONS):
            return NUM_ACTIONS
        legal = legal_ids(action_mask[:NUM_ACTIONS])
        obs = OBS_SPEC.split(observation)
        hand = np.flatnonzero(obs["hand"]).tolist()
        if legal[0] >= CALL_BASE:
            return self._call(hand, legal)
        return self._play(obs, legal.tolist())

    def _call(self, hand: list[int], legal: np.ndarray) -> int:
        strengths = [call_strength(hand, suit) for suit in range(4)]
        best = max(range(4), key=lambda s: (strengths[s], -s))
        if strengths[best] >= self.call_threshold or PASS not in legal:
            return CALL_BASE + best
        return PASS

    def _play(self, obs: Mapping[str, np.ndarray], legal: list[int]) -> int:
        trump_row = np.flatnonzero(obs["trump"])
        trump = int(trump_row[0]) if trump_row.size else NO_TRUMP
        cheapest = min(legal, key=lambda c: (own_value(c, trump), c))
        # one nonzero per seat that has played to this trick: index = seat * 32 + card
        on_table = np.flatnonzero(obs["trick"]).tolist()
        if not on_table:
            return self._lead(obs, legal, trump, cheapest)
        played = [divmod(i, NUM_CARDS) for i in on_table]  # (seat, card), seats ascending
        leader = int(np.argmax(obs["leader"]))
        led_card = next(card for seat, card in played if seat == leader)
        strength = STRENGTH[trump][EFFECTIVE_SUIT[trump][led_card]]
        best_seat, best_card = max(played, key=lambda sc: strength[sc[1]])
        last_to_play = len(played) == NUM_SEATS - 1
        if best_seat == PARTNER and (last_to_play or strength[best_card] >= ACE):
            return cheapest
        winners = [c for c in legal if strength[c] > strength[best_card]]
        if winners:
            return min(winners, key=lambda c: (strength[c], c))
        return cheapest

    def _lead(self, obs: Mapping[str, np.ndarray], legal: list[int], trump: int,
              cheapest: int) -> int:
        my_team_called = bool(obs["caller"][0] or obs["caller"][PARTNER])
        trumps = [c for c in legal if trump != NO_TRUMP and EFFECTIVE_SUIT[trump][c] == trump]
        if my_team_called and trumps:
            return max(trumps, key=lambda c: (own_value(c, trump), c))
        aces = [c for c in legal if rank_of(c) == ACE and EFFECTIVE_SUIT[trump][c] != trump]
        if aces:
            return aces[0]
        return cheapest
