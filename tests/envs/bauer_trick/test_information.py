"""What ``determinize`` of bauer_trick keeps or re-deals: voids by effective suit, uniform over
the consistent deals, only what the seat saw, the undealt cards of forehand_on_four."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick import hidden as sampling
from tablezoo.envs.bauer_trick.components import parse_card
from tests.envs.bauer_trick.positions import cards, play_position

CLUBS, HEARTS = 0, 2


def test_determinize_respects_voids_by_effective_suit():
    game = BauerTrickGame()
    state = play_position(game, {0: "7♣ 8♣ 9♣", 1: "J♥ 7♠ 8♠", 2: "A♥ K♥ 9♠",
                                 3: "Q♥ 10♠ 10♦"}, trump="diamonds", caller=0, leader=0)
    data = state.to_dict()
    data["voids"] = [0, 1 << HEARTS, 0, 0]  # seat 1 showed no hearts (J♥ is a diamond here)
    state = game.state_from_dict(data)
    jack_seen = False
    for seed in range(60):
        d = state.determinize(0, np.random.default_rng(seed))
        assert d.hands[0] == state.hands[0]
        assert [h.bit_count() for h in d.hands] == [3] * 4
        assert d.played == state.played and d.points == state.points
        hearts = [c for c in cards("A♥ K♥ Q♥") if d.hands[1] >> c & 1]
        assert not hearts
        jack_seen |= bool(d.hands[1] >> parse_card("J♥") & 1)
        np.testing.assert_array_equal(d.observe(0), state.observe(0))
    assert jack_seen


@pytest.mark.parametrize("shuffles", [0, sampling.REJECTION_TRIES])
def test_determinize_is_uniform_over_consistent_deals(monkeypatch, shuffles):
    """Seat 1 showed no hearts; A♥ K♥ Q♥ must be with seats 2 and 3 (3 cards each). Counting by
    hand: seat 1 takes 3 of the 6 other cards (20 ways), then seats 2 and 3 share the remaining
    6 (C(6,3) = 20 ways): 400 deals. Seat 2 holds all three hearts in 20 of them (seat 1's 3
    cards chosen, seat 3 takes the rest): 1/20; two hearts: C(3,2) x 20 x 3 = 180 (a greedy
    card-by-card deal would give 1/8 and 3/8). Checked with the exact counting sampler alone
    (no rejection shuffles) and with the default mix."""
    monkeypatch.setattr(sampling, "REJECTION_TRIES", shuffles)
    game = BauerTrickGame()
    state = play_position(game, {0: "7♣ 8♣ 9♣", 1: "J♥ 7♠ 8♠", 2: "A♥ K♥ 9♠",
                                 3: "Q♥ 10♠ 10♦"}, trump="diamonds", caller=0, leader=0)
    data = state.to_dict()
    data["voids"] = [0, 1 << HEARTS, 0, 0]
    state = game.state_from_dict(data)
    hearts = sum(1 << c for c in cards("A♥ K♥ Q♥"))
    rng = np.random.default_rng(2024)
    runs = 4000
    counts = np.zeros(4, int)  # hearts held by seat 2
    for _ in range(runs):
        d = state.determinize(0, rng)
        assert not d.hands[1] & hearts
        counts[(d.hands[2] & hearts).bit_count()] += 1
    # exact: 20, 180, 180, 20 of 400
    expected = np.array([0.05, 0.45, 0.45, 0.05])
    assert np.all(np.abs(counts / runs - expected) < 0.03), counts


@pytest.mark.parametrize("shuffles", [0, sampling.REJECTION_TRIES])
def test_determinize_during_random_deals(monkeypatch, shuffles):
    """Every sample keeps the seat's observation and hand sizes and breaks no shown void."""
    monkeypatch.setattr(sampling, "REJECTION_TRIES", shuffles)
    rng = np.random.default_rng(7)
    for options in ({}, {"trump_selection": "forehand_on_four"}):
        game = BauerTrickGame(episode="deal", **options)
        for seed in range(6):
            state = game.new_state(seed)
            while not state.is_over():
                me = state.to_act
                d = state.determinize(me, rng)
                np.testing.assert_array_equal(d.observe(me), state.observe(me))
                assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in state.hands]
                assert len(d.undealt) == len(state.undealt)
                trump = state.trump if state.trump >= 0 else 4
                for s in range(4):
                    for c in range(32):
                        if d.hands[s] >> c & 1:
                            suit = c >> 3
                            if trump < 4 and c & 7 == 4 and suit == trump ^ 1:
                                suit = trump
                            assert not state.voids[s] >> suit & 1
                state.step(int(rng.choice(state.legal_actions(me))))


# --- forehand_on_four: the undealt cards ----------------------------------------------------------
@pytest.mark.parametrize("shuffles", [0, sampling.REJECTION_TRIES])
def test_forehand_determinize_resamples_undealt_keeps_own_four(monkeypatch, shuffles):
    monkeypatch.setattr(sampling, "REJECTION_TRIES", shuffles)
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = game.new_state(4)
    me = state.to_act
    hidden = {c for s in range(4) if s != me for c in range(32) if state.hands[s] >> c & 1}
    hidden |= set(state.undealt)
    moved = False
    for seed in range(10):
        d = state.determinize(me, np.random.default_rng(seed))
        assert d.hands[me] == state.hands[me]
        got = {c for s in range(4) if s != me for c in range(32) if d.hands[s] >> c & 1}
        assert got | set(d.undealt) == hidden and len(d.undealt) == 16
        assert [d.hands[s].bit_count() for s in range(4)] == [4] * 4
        np.testing.assert_array_equal(d.observe(me), state.observe(me))
        moved |= d.undealt != state.undealt
    assert moved


def test_determinize_depends_only_on_what_the_seat_saw():
    """Two deals that agree on seat 0's information give the same sample for the same seed."""
    game = BauerTrickGame()
    state = play_position(game, {0: "7♣ 8♣", 1: "9♣ 10♣", 2: "J♣ Q♣", 3: "K♣ A♣"},
                          trump="hearts", caller=0, leader=0, tricks=(3, 3))
    swapped = state.clone()
    swapped.hands[1], swapped.hands[3] = swapped.hands[3], swapped.hands[1]
    swapped.encode()
    a = state.determinize(0, np.random.default_rng(5))
    b = swapped.determinize(0, np.random.default_rng(5))
    assert a.hands == b.hands
    assert game.teams == ((0, 2), (1, 3))
