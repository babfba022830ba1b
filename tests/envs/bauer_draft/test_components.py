"""The card file of bauer_draft: it matches the spec's totals and its errors are clear."""

from __future__ import annotations

import json

import pytest

from tablezoo.envs.bauer_draft.components import CardDataError, load_cards


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
