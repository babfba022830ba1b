"""Observation layout (seat-relative pieces, private pieces, hidden band building) and rewards."""

from __future__ import annotations

import numpy as np
import pytest
from tests.envs.ethnos.helpers import A, B, C, D, build, end_age_now, k, make_game, play_band, t
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as enc

TRIBES = ["Trolls", "Elves", "Orcs", "Merfolk", "Giants", "Skeletons"]


def pieces(s, p):
    return s.game.obs_spec.split(s.observe(p))


def test_seat_relative_pieces():
    g = make_game(4, TRIBES)
    s = build(g, hands={A: ["red Orc"], C: ["blue Elf", "green Elf"]},
              markers={B: {"Rhea": 2}, D: {"Duris": 1}}, merfolk={C: 5}, glory={D: 7},
              horde={B: ["red"]}, trolls={3: C})
    a = pieces(s, A)
    assert a["markers"][1, k("Rhea")] == 2 and a["markers"][3, k("Duris")] == 1
    assert list(a["hand_size"]) == [1, 0, 2, 0]
    assert list(a["merfolk_track"]) == [0, 0, 5, 0]
    assert list(a["glory"]) == [0, 0, 0, 7]
    assert a["horde"][1, k("Rhea")] == 1
    assert a["trolls_held"][2, 2] == 1 and a["troll_supply"][2] == 0 and a["troll_supply"][0] == 1
    assert list(a["acting"]) == [1, 0, 0, 0] and a["phase"][enc.TURN] == 1
    c = pieces(s, C)  # C sees himself first, then D, A, B
    assert list(c["hand_size"]) == [2, 0, 1, 0]
    assert c["markers"][3, k("Rhea")] == 2 and c["markers"][1, k("Duris")] == 1
    assert list(c["acting"]) == [0, 0, 1, 0]
    assert c["my_hand"][t("blue Elf")] == 1 and c["my_hand"].sum() == 2
    assert a["my_hand"][t("red Orc")] == 1 and a["my_hand"].sum() == 1
    assert a["tribes_in_play"].sum() == 6 and a["age"][0] == 1


def test_band_pieces_after_play():
    g = make_game(4, TRIBES)
    s = build(g, hands={A: ["red Orc", "red Elf", "Skeleton"]})
    play_band(s, "red Orc", ["red Elf", "Skeleton"])
    b = pieces(s, B)
    assert b["band_cards"][3, t("red Orc")] == 1 and b["band_cards"][3].sum() == 3
    assert b["band_leaders"][3, t("red Orc")] == 1
    assert b["band_tribe_size"][3, 7, 2] == 1  # Orc-led band of X = 3
    assert b["band_scored_size"][3, 1] == 1  # 2 cards after Skeleton removal
    assert b["band_glory"][3] == 1


def test_band_being_built_is_private_and_hand_size_unchanged():
    g = make_game(4, TRIBES)
    s = build(g, hands={A: ["red Orc", "red Elf", "red Troll"]})
    s.step(enc.LEADER + t("red Orc"))
    before_b = s.observe(B).copy()
    s.step(enc.ADD_CARD + t("red Elf"))
    assert np.array_equal(s.observe(B), before_b)  # nothing public changed
    a = pieces(s, A)
    assert a["my_building"][t("red Orc")] == 1 and a["my_building"][t("red Elf")] == 1
    assert a["my_building_leader"][t("red Orc")] == 1
    assert a["my_hand"].sum() == 1 and a["hand_size"][0] == 3
    assert pieces(s, B)["my_building"].sum() == 0


def test_known_cards_piece():
    g = make_game(4, TRIBES)
    s = build(g, hands={A: ["red Orc"]}, display=["blue Elf", "blue Elf"])
    s.step(enc.RECRUIT_DISPLAY + t("blue Elf"))
    assert pieces(s, B)["known_hand"][3, t("blue Elf")] == 1


def test_observation_within_declared_bounds_and_size():
    for n in (2, 3, 4, 5, 6):
        g = EthnosGame(num_players=n)
        s = g.new_state(0)
        obs = s.observe(0)
        assert obs.shape == (g.obs_spec.size,) and obs.dtype == np.float32
        assert (obs >= g.obs_spec.low).all() and (obs <= g.obs_spec.high).all()


# --- rewards -----------------------------------------------------------------------------------
def _final(reward: str, glory: dict[int, int]):
    g = make_game(4, TRIBES, reward=reward)
    s = build(g, age=2, glory=glory, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.is_terminal()
    return s


def test_rank_reward_with_ties_broken_by_markers():
    s = _final("rank", {A: 30, B: 20, C: 20, D: 10})
    assert s.returns() == pytest.approx([1.0, 0.0, 0.0, -1.0])  # B, C fully tied: shared
    g = make_game(4, TRIBES)
    s = build(g, age=2, glory={A: 30, B: 20, C: 20, D: 10}, markers={C: {"Rhea": 1}},
              tokens={name: [0, 0, 0] for name in ("Rhea",)}, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.returns() == pytest.approx([1.0, -1 / 3, 1 / 3, -1.0])


def test_score_and_margin_rewards():
    s = _final("score", {A: 30, B: 20, C: 20, D: 10})
    assert s.returns() == [30.0, 20.0, 20.0, 10.0]
    s = _final("margin", {A: 30, B: 20, C: 20, D: 10})
    assert s.returns() == [10.0, -10.0, -10.0, -20.0]


def test_rank_reward_zero_before_end():
    g = make_game(4, TRIBES)
    s = build(g, glory={A: 5})
    assert s.returns() == [0.0] * 4
    s = end_age_now(s)
    assert not s.is_terminal() and s.returns() == [0.0] * 4
