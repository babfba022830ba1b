"""Observation layout (seat-relative pieces, private pieces, hidden band building) and what is
public."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import NUM_TYPES, SKELETON
from tests.envs.ethnos.positions import (
    BASE,
    ZERO_TOKENS,
    A,
    B,
    C,
    D,
    build,
    k,
    make_game,
    play_band,
    t,
)

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


# --- §11 information -----------------------------------------------------------------------------
def test_other_hands_hidden_but_sizes_public():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Elf", "blue Orc"], B: ["green Troll"]})
    spec = g.obs_spec
    o_b = s.observe(B)
    assert np.array_equal(o_b[spec.slice("my_hand")], s.hands[B])
    hs = o_b[spec.slice("hand_size")]
    assert hs.tolist() == [1, 0, 0, 2]  # B first, then C, D (empty hands), A


def test_third_dragon_drawer_is_public_during_end_of_age_decisions():
    # §11: "who drew the third" Dragon is public; it settles §3.5 first-player ties, which the
    # Orc decisions can change, so the observation must show it while they are pending.
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"])
    s = build(g, horde={A: ["red"]}, actor=C, first=A, age=0, last_dragon_on_top=True,
              tokens=ZERO_TOKENS)
    piece = g.obs_spec.slice("third_dragon")
    assert s.observe(A)[piece].tolist() == [0, 0, 0, 0]
    s.step(enc.RECRUIT_DECK)
    assert s.phase == enc.ORC_PICK and s.actor == A
    assert s.observe(A)[piece].tolist() == [0, 0, 1, 0]  # A, B, C, D: C drew it
    assert s.observe(D)[piece].tolist() == [0, 0, 0, 1]  # D, A, B, C
    s2 = g.state_from_dict(s.to_dict())
    assert np.array_equal(s2.observe(B), s.observe(B))
    s.step(enc.ORC_KEEP)
    assert s.age == 1 and s.observe(A)[piece].tolist() == [0, 0, 0, 0]


def test_observation_bounds_hold_with_more_merfolk_spaces():
    # Option merfolk_spaces with six spaces: a 6-card band from 0 passes all six -> six free
    # markers pending; the observation must stay inside its declared range.
    g = make_game(4, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"],
                  merfolk_spaces=[1, 2, 3, 4, 5, 6], merfolk_end=18)
    hand = ["red Merfolk", "red Merfolk", "red Elf", "red Orc", "red Troll", "red Wizard"]
    s = build(g, hands={A: hand})
    play_band(s, hand[0], hand[1:])
    for left in range(6, 0, -1):
        assert s.phase == enc.MERFOLK_PICK and s.merfolk_left == left
        obs = s.observe(A)
        assert (obs <= g.obs_spec.high).all() and (obs >= g.obs_spec.low).all()
        s.step(enc.KINGDOM + k("Duris"))
    assert s.markers[A, k("Duris")] == 6 and s.markers[A, k("Rhea")] == 1


def test_pass_reveals_the_ten_skeletons():
    # PASS is legal only with ten Skeletons in hand (§4), so after it every seat knows that hand:
    # the observation shows it and determinize must keep it.
    g = make_game(4, BASE)
    s = build(g, hands={A: ["Skeleton"] * 10})
    s.step(enc.PASS)
    known = s.observe(B)[g.obs_spec.slice("known_hand")].reshape(4, NUM_TYPES)
    assert known[3, SKELETON] == 10  # B, C, D, A
    r = s.determinize(B, np.random.default_rng(0))
    assert r.hands[A, SKELETON] == 10
