"""Random simulation of bauer_trick: 2,000 seeded full games and 10,000 seeded single deals,
with the spec's invariants checked independently of the engine's own tables."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.core.conformance import check_deep, check_rejections, check_scores

SCALE = float(os.environ.get("TABLEZOO_SIM_SCALE", "1"))
FULL_GAMES = max(4, round(2000 * SCALE))
DEALS = max(4, round(10000 * SCALE))
CHUNKS = 4


def effective_suit(card: int, trump: int) -> int:
    """Written again here on purpose: the test must not trust the engine's tables."""
    suit, rank = divmod(card, 8)
    if trump < 4 and rank == 4 and suit == trump ^ 1:
        return trump
    return suit


class DealWatcher:
    """Follows one game from outside and asserts the spec's invariants."""

    def __init__(self, game: BauerTrickGame, state):
        self.game = game
        self.points = list(state.points)
        self.deals = 0
        self.start_deal(state)

    def start_deal(self, state) -> None:
        dealt = [c for h in state.hands for c in range(32) if h >> c & 1] + list(state.undealt)
        assert sorted(dealt) == list(range(32)), "all 32 cards dealt once"
        self.played_this_deal: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.tricks_seen = 0

    def before(self, state, action: int) -> None:
        if action >= 32:
            return
        seat = state.to_act
        hand = [c for c in range(32) if state.hands[seat] >> c & 1]
        assert action in hand
        trump = state.trump
        if self.trick:
            led = effective_suit(self.trick[0][1], trump)
            if any(effective_suit(c, trump) == led for c in hand):
                assert effective_suit(action, trump) == led, "must follow the suit led"
            assert seat == (self.trick[-1][0] + 1) % 4
        self.trick.append((seat, action))
        self.played_this_deal.append(action)
        if len(self.trick) == 4:
            assert len({s for s, _ in self.trick}) == 4
            self.tricks_seen += 1
            self.trick = []

    def after(self, state, deal_before: int) -> None:
        if state.deals_played == deal_before:
            return
        assert self.tricks_seen == 8 and sorted(self.played_this_deal) == list(range(32))
        moved = [a - b for a, b in zip(self.points, state.points)]
        assert sorted(moved) in ([0, 0], [0, 1]), f"points moved by {moved}"
        self.points = list(state.points)
        self.deals += 1
        if not state.is_over():
            self.start_deal(state)


def run_game(game: BauerTrickGame, seed: int, deep: bool) -> None:
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    watcher = DealWatcher(game, state)
    deep_at = int(rng.integers(0, 40)) if deep else -1
    step = 0
    while not state.is_over():
        if step == deep_at:
            check_deep(game, seed, step, state, rng)
            deep_at += int(rng.integers(30, 400))
        elif step % 16 == 0:
            check_rejections(game, seed, step, state, rng, exhaustive=False)
            check_scores(game, seed, step, state)
            state.check()  # the rules' invariants hold at reachable positions
        legal = np.flatnonzero(state.legal_mask(state.to_act))
        assert len(legal)
        action = int(legal[int(rng.integers(len(legal)))])
        watcher.before(state, action)
        deals = state.deals_played
        state.step(action)
        watcher.after(state, deals)
        step += 1
    check_scores(game, seed, step, state)
    state.check()
    assert step <= game.max_decisions
    if game.deal_mode:
        assert watcher.deals == 1 and state.is_terminal()
    elif state.is_terminal():
        assert min(state.points) == 0 and max(state.points) > 0
        winner = state.points.index(0)
        assert state.returns() == [1.0 if s % 2 == winner else -1.0 for s in range(4)]
    else:
        assert state.is_truncated() and watcher.deals == game.options["max_deals"]
        assert state.returns() == [0.0] * 4
    start = game.options["start_score"]
    for seat in range(4):
        assert state.scores()[seat] == start - state.points[seat % 2]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_full_games(chunk):
    game = BauerTrickGame()
    for seed in range(chunk, FULL_GAMES, CHUNKS):
        run_game(game, seed, deep=seed % 5 == 0)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_single_deals(chunk):
    games = [BauerTrickGame(episode="deal"),
             BauerTrickGame(episode="deal", trump_selection="forehand_on_four"),
             BauerTrickGame(episode="deal", defenders_score_on_fail=True,
                            no_trump_leader="left_of_dealer")]
    for seed in range(chunk, DEALS, CHUNKS):
        run_game(games[seed % 3], seed, deep=seed % 10 == 0)


def test_incremental_observation_matches_a_fresh_encoding():
    game = BauerTrickGame(trump_selection="forehand_on_four")
    rng = np.random.default_rng(1)
    for seed in range(6):
        state = game.new_state(seed)
        while not state.is_over():
            fresh = state.clone()
            fresh.encode()
            np.testing.assert_array_equal(fresh.buf, state.buf)
            state.step(int(rng.choice(state.legal_actions(state.to_act))))
