"""The suit symmetries of bauer_trick (``envs/bauer_trick/symmetry.py``): renaming the suits of a
real position (written out here on its saved state, not with the symmetry tables) gives the
observation and legal mask that the tables predict for every seat, and the renamed deal played
with renamed moves ends with the same points and returns, in every option set of the rules. (In
``episode="game"`` the next deal comes from the state's random generator, so the renamed game
matches only to the end of its first deal; the later deals are alike in distribution.)"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.symmetry import suit_renamings
from tablezoo.envs.core.symmetry import Symmetries

OPTION_SETS = [
    {"episode": "deal"},
    {"episode": "game", "start_score": 2},
    {"episode": "deal", "trump_selection": "forehand_on_four"},
    {"episode": "deal", "no_trump_leader": "left_of_dealer", "defenders_score_on_fail": True},
]
SUITS_OF_COLOUR = ({0, 1}, {2, 3})


def renamed_card(card: int, new_suit: tuple[int, ...]) -> int:
    suit, rank = divmod(card, 8)
    return new_suit[suit] * 8 + rank


def renamed_action(action: int, new_suit: tuple[int, ...]) -> int:
    if action < 32:
        return renamed_card(action, new_suit)
    if action < 36:
        return 32 + new_suit[action - 32]
    return action  # pass, NOOP


def renamed_saved(data: dict, new_suit: tuple[int, ...]) -> dict:
    """The saved state with every suit renamed: hands, cards still to deal, trick, played cards,
    calls, trump, the voids each seat has shown and the deal's recorded history."""
    data = dict(data)
    data["hands"] = [[renamed_card(c, new_suit) for c in hand] for hand in data["hands"]]
    data["undealt"] = [renamed_card(c, new_suit) for c in data["undealt"]]
    data["played"] = [[renamed_card(c, new_suit) for c in cards] for cards in data["played"]]
    data["trick"] = [[seat, renamed_card(c, new_suit)] for seat, c in data["trick"]]
    data["calls"] = [new_suit[c] if 0 <= c < 4 else c for c in data["calls"]]
    data["trump"] = new_suit[data["trump"]] if 0 <= data["trump"] < 4 else data["trump"]
    data["voids"] = [sum(1 << new_suit[s] for s in range(4) if bits >> s & 1)
                     for bits in data["voids"]]
    if "history" in data:  # the deal's history (the information state's record)
        history = data["history"]
        data["history"] = {
            "first_four": [[renamed_card(c, new_suit) for c in cards]
                           for cards in history["first_four"]],
            "tricks": [[leader, *(renamed_card(c, new_suit) for c in cards)]
                       for leader, *cards in history["tricks"]]}
    return data


def test_eight_renamings_keep_colours_and_form_a_group():
    renamings = suit_renamings()
    assert renamings[0] == (0, 1, 2, 3)
    assert len(set(renamings)) == 8
    for new_suit in renamings:
        assert sorted(new_suit) == [0, 1, 2, 3]
        for pair in SUITS_OF_COLOUR:  # a colour pair goes to a colour pair
            assert {new_suit[s] for s in pair} in SUITS_OF_COLOUR
    for a, b in itertools.product(renamings, repeat=2):
        assert tuple(a[b[s]] for s in range(4)) in renamings


def test_no_other_renaming_keeps_the_rules():
    """Any suit renaming that splits a colour pair changes the left Bauer, so the 8 are all."""
    for new_suit in itertools.permutations(range(4)):
        keeps = all({new_suit[s] for s in pair} in SUITS_OF_COLOUR for pair in SUITS_OF_COLOUR)
        assert keeps == (new_suit in suit_renamings())


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
def test_renamed_positions_match_the_tables_and_end_alike(options):
    game = BauerTrickGame(**options)
    symmetries = game.symmetries()
    renamings = suit_renamings()
    positions = 0
    for g in range(40):
        k = g % len(renamings)
        new_suit = renamings[k]
        rng = np.random.default_rng(g)
        state = game.new_state(g)
        renamed = game.state_from_dict(renamed_saved(state.to_dict(), new_suit))
        while not state.is_over() and state.deals_played == 0:
            for seat in range(4):
                obs, mask = state.observe(seat), state.legal_mask(seat)
                np.testing.assert_array_equal(renamed.observe(seat),
                                              obs[symmetries.observation[k]])
                np.testing.assert_array_equal(renamed.legal_mask(seat)[:37],
                                              mask[:37][symmetries.action[k]])
            (seat,) = state.acting_players()
            action = int(rng.choice(state.legal_actions(seat)))
            assert symmetries.inverse_action(k)[action] == renamed_action(action, new_suit)
            state.apply({seat: action})
            renamed.apply({seat: renamed_action(action, new_suit)})
            positions += 1
        assert renamed.is_over() == state.is_over()
        assert (renamed.points, renamed.tally) == (state.points, state.tally)
        assert renamed.returns() == state.returns()
    assert positions > 40 * 8


def test_advised_table_moves_the_advice_with_the_actions():
    symmetries = BauerTrickGame().symmetries()
    table = symmetries.with_advice()
    width = symmetries.observation.shape[1]
    advice = np.zeros(width + 37, np.float32)
    advice[width + 3] = 1.0  # play 10 of clubs (card 3)
    for k, new_suit in enumerate(suit_renamings()):
        moved = advice[table[k]]
        assert np.flatnonzero(moved).tolist() == [width + renamed_card(3, new_suit)]


def test_games_without_symmetries_say_none():
    from tablezoo import envs

    for name in ("bauer_draft_v0", "bower_v0", "ethnos_v0"):
        assert envs.make_game(name).symmetries() is None


@pytest.mark.parametrize("observation, action, why", [
    ([[0, 1, 2], [0, 2, 2]], [[0, 1], [1, 0]], "permutation"),
    ([[1, 0, 2]], [[0, 1]], "identity"),
    ([[0, 1, 2]], [[0, 1], [1, 0]], "one row per symmetry"),
])
def test_malformed_tables_are_refused(observation, action, why):
    with pytest.raises(ValueError, match=why):
        Symmetries(np.array(observation), np.array(action))
