"""The ethnos heuristic's fast band search and recruit rule choose what a plain recomputation
chooses: every group's cards laid out for every candidate leader, the blind draw's expected gain
summed type by type in Python, marker tests read from the observation's marker array. Same
actions and the same generator draws over the positions of seeded games, so a search that plays
the heuristic replays its measured games exactly."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games.ethnos.heuristic import (
    GROUP_TYPES,
    GROUPS,
    SKELETON,
    TRIBE_COUNTS,
    Band,
    HeuristicAgent,
    View,
    hand_score,
    hand_scores_plus_one,
)
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DWARVES, HALFLINGS


class PlainHeuristic(HeuristicAgent):
    """The same rules computed the slow, obvious way."""

    def passes(self, v: View, k: int, e: int) -> bool:
        if v.n == 2:
            return e > int(v.markers[:, k].sum())
        return e > int(v.markers[0, k])

    def best_band(self, v: View, hand: np.ndarray, follow: bool = True,
                  leader: int = -1) -> Band | None:
        best: Band | None = None
        skeletons = int(hand[SKELETON])
        for group, types in zip(GROUPS, GROUP_TYPES):
            size = int(hand[group].sum())
            if size == 0 or (leader >= 0 and not group[leader]):
                continue
            cards = np.where(group, hand, 0)
            cards[SKELETON] = skeletons
            rest = hand - cards
            x = int(cards.sum())
            for lead in [leader] if leader >= 0 else [t for t in types if hand[t] > 0]:
                value, places = self.band_value(v, lead, x, skeletons, int(rest.sum()), rest,
                                                follow)
                value += self._noise()
                if best is None or value > best.value:
                    best = Band(lead, cards, x, value, places)
        return best

    def _recruit(self, v: View, mask: np.ndarray) -> int:
        base = hand_score(v.hand)
        with_card = hand_scores_plus_one(v.hand)
        best_a, best_gain = enc.RECRUIT_DECK, -np.inf
        for t in range(enc.RECRUIT_DECK):
            if mask[t]:
                gain = with_card[t] - base + self._noise()
                if gain > best_gain:
                    best_a, best_gain = t, gain
        full = TRIBE_COUNTS[v.tribes].sum(axis=0)
        seen = (v.hand + v.display + v.band_cards.sum(axis=0) + v.known[1:].sum(axis=0)
                + v.building + v.elf_kept)
        unseen = np.maximum(full - seen, 0)
        total = int(unseen.sum())
        if total > 0:
            deck_gain = 0.0
            for t in range(unseen.size):
                if unseen[t]:
                    deck_gain += int(unseen[t]) * (with_card[t] - base)
            if deck_gain / total > best_gain:
                return enc.RECRUIT_DECK
        return best_a


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_fast_choices_equal_the_plain_ones(n):
    game = envs.make_game("ethnos_v0", num_players=n)
    decisions = 0
    for seed in range(4):
        state = game.new_state(900 + seed)
        fast = [HeuristicAgent(seed=10 * seed + p) for p in range(n)]
        plain = [PlainHeuristic(seed=10 * seed + p) for p in range(n)]
        walk = np.random.default_rng(seed)
        while not state.is_over():
            joint = {}
            for p in state.acting_players():
                obs, mask = state.observe(p), state.legal_mask(p)
                a = fast[p].act(obs, mask, state=state, player=p)
                assert a == plain[p].act(obs, mask, state=state, player=p)
                decisions += 1
                if seed % 2:  # half the games wander off the heuristic's own lines
                    legal = np.flatnonzero(mask)
                    a = int(legal[walk.integers(legal.size)])
                joint[p] = a
            state.apply(joint)
        for f, s in zip(fast, plain):
            assert f.rng.random() == s.rng.random()  # the same draws, in the same order
    assert decisions > 500


def test_band_value_from_counts_leaves_skeletons_out_of_the_glory():
    """The plain reference shares ``band_value``, so its count arguments are checked on their
    own: Skeletons raise the band's size X but score no band glory (a Dwarf leader scores one
    card more), and every card left in hand costs 0.05. Halflings place no marker and have no
    power to value, so the band table is all there is."""
    game = envs.make_game("ethnos_v0", num_players=3)
    v = View(game, game.new_state(0).observe(0))
    agent = HeuristicAgent(seed=0)
    halfling, dwarf = 6 * HALFLINGS, 6 * DWARVES
    glory = game.band_glory
    value, places = agent.band_value(v, halfling, x=4, skeletons=1, left=2)
    assert (value, places) == (glory[2] - 0.05 * 2, False)
    value, _ = agent.band_value(v, halfling, x=4, skeletons=0, left=0)
    assert value == glory[3]
    with_skeleton, _ = agent.band_value(v, dwarf, x=4, skeletons=1, left=0)
    without, _ = agent.band_value(v, dwarf, x=3, skeletons=0, left=0)
    assert with_skeleton == without  # the Skeleton only raised X (the marker test)
