"""What a seat of bauer_trick observes: voids by effective suit, the trick, the tricks won, hidden
hands, and the text legend of a finished deal."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.components import parse_card
from tests.envs.bauer_trick.positions import piece, play, play_position

CLUBS, HEARTS = 0, 2


# --- §6: information ------------------------------------------------------------------------------
def test_void_observation_and_effective_suits():
    game = BauerTrickGame()
    # trump clubs, J♠ led; seat 1 (no clubs) plays A♠: void in clubs, not in spades
    state = play_position(game, {0: "J♠ 7♥ 8♥", 1: "A♠ K♠ 7♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "J♠", "A♠")
    assert state.voids[1] == 1 << CLUBS
    void = piece(state.observe(2), "void").reshape(4, 4)
    assert void.tolist() == [[0] * 4, [0] * 4, [0] * 4, [1, 0, 0, 0]]  # seat 1 = right of 2
    # following suit shows no void
    state = play_position(game, {0: "9♠ 7♥ 8♥", 1: "10♠ 7♦ 8♦"}, trump="clubs", caller=0,
                          leader=0)
    play(state, "9♠", "10♠")
    assert state.voids == [0, 0, 0, 0]


def test_trick_played_and_tricks_won_pieces():
    game = BauerTrickGame()
    state = play_position(game, {0: "A♠ 7♦", 1: "K♠ 8♦", 2: "7♣ 9♦", 3: "Q♠ 10♦"},
                          trump="clubs", caller=1, leader=0, tricks=(2, 4))
    play(state, "A♠", "K♠")
    obs = state.observe(1)
    trick = piece(obs, "trick").reshape(4, 32)
    assert trick[3, parse_card("A♠")] == 1 and trick[0, parse_card("K♠")] == 1
    assert trick.sum() == 2
    assert piece(obs, "leader").tolist() == [0, 0, 0, 1]
    won = piece(obs, "tricks_won").reshape(2, 9)
    assert won[0].tolist().index(1) == 4 and won[1].tolist().index(1) == 2
    play(state, "7♣", "Q♠")
    obs = state.observe(1)
    assert not piece(obs, "trick").any()
    played = piece(obs, "played").reshape(4, 32)
    assert played[3, parse_card("A♠")] == 1 and played[1, parse_card("7♣")] == 1
    assert played[2, parse_card("Q♠")] == 1 and played[0, parse_card("K♠")] == 1
    assert piece(obs, "leader").tolist() == [0, 1, 0, 0]  # seat 2 won: left of seat 1
    won = piece(obs, "tricks_won").reshape(2, 9)
    assert won[0].tolist().index(1) == 4 and won[1].tolist().index(1) == 3
    assert piece(obs, "trick_number").tolist().index(1) == 7


def test_observation_hides_other_hands():
    game = BauerTrickGame()
    state = game.new_state(11)
    other = state.clone()
    other.hands[1], other.hands[3] = other.hands[3], other.hands[1]
    other.encode()
    np.testing.assert_array_equal(state.observe(0), other.observe(0))
    np.testing.assert_array_equal(state.observe(2), other.observe(2))
    assert not np.array_equal(state.observe(1), other.observe(1))
    hand = piece(state.observe(0), "hand")
    assert [c for c in range(32) if hand[c]] == [c for c in range(32) if state.hands[0] >> c & 1]


def test_terminal_legend_states_the_deal_result_the_engine_scores():
    """The terminal player's legend once read '3 of the 5 tricks' (Euchre's count)."""
    from tablezoo.envs.bauer_trick.render import LEGEND

    game = BauerTrickGame(episode="deal")
    state = game.new_state(0)
    rng = np.random.default_rng(0)
    while not state.is_over():
        (p,) = state.acting_players()
        state.step(int(rng.choice(np.flatnonzero(state.legal_mask(p)))))
    total = sum(state.tricks)
    assert f"{total} tricks a deal" in LEGEND
    assert f"{total // 2 + 1} or more tricks" in LEGEND and f"{total // 2}-{total // 2}" in LEGEND
