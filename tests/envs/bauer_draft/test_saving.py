"""Saved states of bauer_draft: round trips keep everything; malformed positions are refused, odd
input only ever gives ``StateFormatError``, huge or deeply nested input quickly."""

from __future__ import annotations

import copy
import json
import time

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.actions import SELECT, SELECT_VILLE
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core import StateFormatError
from tests.envs.bauer_draft.positions import mid_select, play, position, saved, select


def refused(game: BauerDraftGame, data: dict, match: str) -> None:
    with pytest.raises(StateFormatError, match=match):
        game.state_from_dict(data)


GAME = BauerDraftGame(num_players=3)


def test_round_trip_keeps_everything():
    st = position(3, round=1, hands={0: ["E09", "E07", "E08"]},
                  tableau={0: [{"card": "C07", "round": 0}, "C05"]})
    select(st, {0: play("E09")})
    assert st.kind == SELECT_VILLE
    again = st.game.state_from_dict(json.loads(json.dumps(st.to_dict())))
    assert again.to_dict() == st.to_dict()
    assert np.array_equal(again.observe(0), st.observe(0))
    assert np.array_equal(again.legal_mask(0), st.legal_mask(0))


def test_state_from_dict_rejects_malformed_positions():
    game = BauerDraftGame(num_players=3)
    good = position(3).to_dict()
    bad_card = json.loads(json.dumps(good))
    bad_card["hands"][0][0] = "X99"
    with pytest.raises(StateFormatError, match="unknown card 'X99'"):
        game.state_from_dict(bad_card)
    doubled = json.loads(json.dumps(good))
    doubled["central"].append(doubled["hands"][0][0])
    with pytest.raises(StateFormatError, match="exactly one place"):
        game.state_from_dict(doubled)
    missing = json.loads(json.dumps(good))
    missing["central"].pop()
    with pytest.raises(StateFormatError, match="missing"):
        game.state_from_dict(missing)
    kind = dict(good, kind="dance")
    with pytest.raises(StateFormatError, match="kind 'dance'"):
        game.state_from_dict(kind)
    with pytest.raises(StateFormatError, match="options"):
        BauerDraftGame(num_players=3, reward="score").state_from_dict(good)
    short = json.loads(json.dumps(good))
    short["piles"][0].append(short["hands"][0].pop())
    with pytest.raises(StateFormatError, match="3 cards in each hand"):
        game.state_from_dict(short)
    with pytest.raises(StateFormatError, match="one entry per seat"):
        game.state_from_dict(dict(good, tableau=[[]]))


def test_huge_discards_are_refused_fast():
    data = saved(GAME, 4, mid_select)
    for copies in (20_000, 100_000):
        bad = copy.deepcopy(data)
        bad["discards"] = bad["discards"] + ["E01"] * copies
        start = time.process_time()
        refused(GAME, bad, f"discards has {len(bad['discards'])} entries, at most 55 allowed")
        assert time.process_time() - start < 0.2


@pytest.mark.parametrize("value", [[], {}, [[[]]], None, 1.5, "junk", 2**64, -1])
def test_odd_types_only_give_state_format_error(value):
    data = saved(GAME, 10, lambda st: st.kind != SELECT)
    for key in data:
        bad = copy.deepcopy(data)
        if bad[key] == value:
            continue
        bad[key] = value
        try:
            GAME.state_from_dict(bad).check()
        except StateFormatError as exc:
            assert len(str(exc)) < 1_000


def test_deep_nesting_and_huge_lists_are_refused_quickly():
    data = saved(GAME, 11, mid_select)
    deep: list = []
    for _ in range(20_000):
        deep = [deep]
    for key in ("hands", "tableau", "memory", "queue", "copies", "selected", "kind", "rng"):
        for value in (deep, [deep] * 3, [0] * 100_000):
            bad = copy.deepcopy(data)
            bad[key] = value
            start = time.process_time()
            with pytest.raises(StateFormatError) as info:
                GAME.state_from_dict(bad)
            assert time.process_time() - start < 0.5, key
            assert len(str(info.value)) < 1_000, key
