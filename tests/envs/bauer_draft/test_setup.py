"""A new game of bauer_draft: the sizes of the piles and the central deck, the number of rounds,
and the options refused when invalid."""

from __future__ import annotations

import pytest

from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.errors import InvalidOptionError


@pytest.mark.parametrize("n,pile,central,rounds", [(2, 12, 31, 10), (3, 12, 19, 10),
                                                   (4, 12, 7, 10), (5, 10, 5, 8)])
def test_setup_sizes_and_round_count(n, pile, central, rounds):
    game = BauerDraftGame(num_players=n)
    st = game.new_state(7)
    assert game.num_rounds == rounds
    assert len(st.central) == central
    assert all(len(h) == 3 for h in st.hands)  # round 1 has been drawn
    assert all(len(p) == pile - 3 for p in st.piles)
    assert st.acting_players() == tuple(range(n))


def test_options_are_validated():
    with pytest.raises(InvalidOptionError, match="allowed values: 2, 3, 4, 5"):
        BauerDraftGame(num_players=6)
    with pytest.raises(InvalidOptionError, match="'rank', 'score', 'margin'"):
        BauerDraftGame(reward="points")
    with pytest.raises(InvalidOptionError, match="unknown option"):
        BauerDraftGame(players=3)
    assert BauerDraftGame().num_players == 4
