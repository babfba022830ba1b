"""A new game of bauer_draft: the sizes of the piles and the central deck, the number of rounds,
and the options refused when invalid; the card file of bauer_draft: it matches the spec's totals
and its errors are clear."""

from __future__ import annotations

import json

import pytest

from tablezoo.envs.bauer_draft.components import CardDataError, load_cards
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


# --- card file -----------------------------------------------------------------------------
def test_card_file_matches_the_spec_totals():
    cards = load_cards()
    assert cards.size == 55
    assert int((~cards.night).sum()) == 36 and int(cards.night.sum()) == 19
    assert int(cards.tags.sum()) == 40 and cards.tags.sum(axis=0).tolist() == [8] * 5
    assert int(cards.swords.sum()) == 25 and int(cards.points.sum()) == 34
    assert sum(c.kind == 3 for c in cards.cards) == 18


def test_card_file_errors_are_clear(tmp_path):
    from tablezoo.envs.bauer_draft.components import DATA_FILE

    data = json.loads(DATA_FILE.read_text())
    data["cards"][20]["points"] = 3  # E03: 2 -> 3 breaks the event-point total
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="event_points = 35, but its totals say 34"):
        load_cards(bad)
    data = json.loads(DATA_FILE.read_text())
    data["cards"][0]["effect"] = "witch"  # two Witches, no Uggel-Guggel
    bad.write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="effect 'uggel'"):
        load_cards(bad)
    data = json.loads(DATA_FILE.read_text())
    data["cards"][27]["tags"] = "W"  # a Night Event with a tag
    bad.write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="Night cards carry no tags"):
        load_cards(bad)
