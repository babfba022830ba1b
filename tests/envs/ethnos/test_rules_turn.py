"""A turn of ethnos_v0: recruiting (§4, §4.1), playing a band (§4.2), and the legal masks and
band resolution against an independent recount."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, SKELETON
from tests.envs.ethnos.positions import (
    ALL_KINGDOMS,
    BASE,
    A,
    B,
    build,
    k,
    legal,
    make_game,
    play_band,
    t,
)


# --- §4 / §4.1 recruiting ------------------------------------------------------------------------
def test_recruit_from_display_is_not_refilled():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Elf"]}, display=["blue Orc", "green Troll"])
    deck_before = len(s.deck)
    s.step(enc.RECRUIT_DISPLAY + t("blue Orc"))
    assert s.display.sum() == 1 and s.display[t("green Troll")] == 1
    assert len(s.deck) == deck_before
    assert s.hands[A, t("blue Orc")] == 1 and s.hand_len[A] == 2
    assert s.actor == B and s.phase == enc.TURN


def test_recruit_deck_dragon_that_is_not_the_third_draws_again():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Elf"]})
    d = s.to_dict()
    deck = [c for c in d["deck"] if c != DRAGON]
    # bottom ... , 2 Dragons, ..., blue Orc, Dragon (top)
    deck.remove(t("blue Orc"))
    deck = [DRAGON, DRAGON, *deck, t("blue Orc"), DRAGON]
    d["deck"] = deck
    d["dragons"] = 0
    d["lower_left"] = len(deck)
    s = g.state_from_dict(d)
    s.step(enc.RECRUIT_DECK)
    assert s.dragons == 1
    assert s.hands[A, t("blue Orc")] == 1 and s.hand_len[A] == 2
    assert s.age == 0 and s.actor == B


def test_third_dragon_gives_no_card_and_scatters_hands():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Elf", "blue Orc"], B: ["green Troll"]}, display=["red Orc"],
              last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    # Age II started: every card reshuffled, 1 card per hand, display 2n = 8 cards.
    assert s.age == 1
    assert s.hand_len == [1, 1, 1, 1]
    assert s.display.sum() == 8
    assert s.dragons == 0
    # deck: 72 Allies - 4 hands - 8 display + 3 Dragons = 63
    assert len(s.deck) == 63 and s.deck.count(DRAGON) == 3


def test_hand_limit_ten_blocks_recruiting_nine_allows_it():
    g = make_game(4, BASE)
    nine = ["red Elf", "red Elf", "blue Elf", "blue Elf", "red Orc", "red Orc", "blue Orc",
            "blue Orc", "Skeleton"]
    s = build(g, hands={A: nine}, display=["green Troll"])
    acts = legal(s)
    assert enc.RECRUIT_DECK in acts and enc.RECRUIT_DISPLAY + t("green Troll") in acts
    s = build(g, hands={A: [*nine, "Skeleton"]}, display=["green Troll"])
    acts = legal(s)
    assert enc.RECRUIT_DECK not in acts and enc.RECRUIT_DISPLAY + t("green Troll") not in acts
    assert enc.PASS not in acts and enc.LEADER + t("red Elf") in acts


def test_pass_only_with_ten_skeletons():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["Skeleton"] * 9})
    acts = legal(s)
    assert enc.PASS not in acts and enc.RECRUIT_DECK in acts
    s = build(g, hands={A: ["Skeleton"] * 10})
    assert legal(s) == [enc.PASS]
    s.step(enc.PASS)
    assert s.actor == B and s.hand_len[A] == 10


def test_empty_display_draw_two_capped_by_hand_limit():
    g = make_game(4, BASE, empty_display_draw_two=True)
    nine = ["red Elf"] * 2 + ["blue Elf"] * 2 + ["red Orc"] * 2 + ["Skeleton"] * 3
    s = build(g, hands={A: nine})
    assert s.display.sum() == 0
    s.step(enc.RECRUIT_DECK)
    assert s.hand_len[A] == 10  # min(2, 10 - 9) = 1


# --- §4.2 band legality --------------------------------------------------------------------------
def test_band_keeps_both_options_until_a_card_breaks_one():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["blue Elf", "blue Elf", "red Elf", "blue Orc", "Skeleton"]})
    s.step(enc.LEADER + t("blue Elf"))
    s.step(enc.ADD_CARD + t("blue Elf"))  # same tribe and colour: both still open
    acts = legal(s)
    assert enc.ADD_CARD + t("red Elf") in acts and enc.ADD_CARD + t("blue Orc") in acts
    s.step(enc.ADD_CARD + t("Skeleton"))  # wild: changes nothing
    acts = legal(s)
    assert enc.ADD_CARD + t("red Elf") in acts and enc.ADD_CARD + t("blue Orc") in acts
    s.step(enc.ADD_CARD + t("red Elf"))  # now a tribe band
    acts = legal(s)
    assert enc.ADD_CARD + t("blue Orc") not in acts
    assert enc.FINISH_BAND in acts


# --- §4.2 b: abilities ------------------------------------------------------------------------
def test_abilities_work_when_the_marker_test_fails():
    # §4.2 b: every ability works whether or not step a placed a marker.
    g = make_game(4, ["Trolls", "Giants", "Orcs", "Merfolk", "Elves", "Skeletons"])
    many = {name: 9 for name in ALL_KINGDOMS}
    s = build(g, hands={A: ["red Troll", "red Orc"]}, markers={A: many})
    play_band(s, "red Troll", ["red Orc"])  # X = 2, not > 9
    assert s.markers[A].sum() == 54 and s.phase == enc.TROLL_PICK
    s = build(g, hands={A: ["red Giant"]}, markers={A: many})
    play_band(s, "red Giant")
    assert s.markers[A].sum() == 54 and s.giant_seat == A and s.breakdown[A][2] == 2
    s = build(g, hands={A: ["red Orc"]}, markers={A: many})
    play_band(s, "red Orc")
    assert s.markers[A].sum() == 54 and s.horde[A, k("Rhea")] == 1
    s = build(g, hands={A: ["red Merfolk", "red Orc", "red Elf"]}, markers={A: many})
    play_band(s, "red Merfolk", ["red Orc", "red Elf"])  # 0 -> 3: one free marker
    assert s.merfolk[A] == 3 and s.phase == enc.MERFOLK_PICK
    s.step(enc.KINGDOM + k("Ithys"))
    assert s.markers[A].sum() == 55


# --- differential check: masks and band resolution recomputed independently ---------------------
def _band_ok(cards: list[int]) -> bool:
    lead = cards[0]
    plain = [c for c in cards if c != SKELETON]
    return all(c // 6 == lead // 6 for c in plain) or all(c % 6 == lead % 6 for c in plain)


def _expected_mask(s) -> set[int]:
    p = s.actor
    hand = [int(x) for x in s.hands[p]]
    size = sum(hand)
    ph = s.phase
    out: set[int] = set()
    if ph == enc.TURN:
        if size < 10:
            out |= {enc.RECRUIT_DISPLAY + c for c in range(NUM_TYPES) if s.display[c] > 0}
            out.add(enc.RECRUIT_DECK)
        out |= {enc.LEADER + c for c in range(SKELETON) if hand[c] > 0}
        if not out:
            out.add(enc.PASS)
    elif ph == enc.BUILD:
        base = [s.building_leader] + [c for c in range(NUM_TYPES)
                                      for _ in range(int(s.building[c]) - (c == s.building_leader))]
        out = {enc.ADD_CARD + c for c in range(NUM_TYPES) if hand[c] > 0 and _band_ok(base + [c])}
        out.add(enc.FINISH_BAND)
    elif ph == enc.WINGFOLK_PICK:
        for kk in range(6):
            have = int(s.markers[:, kk].sum()) if s.n == 2 else int(s.markers[p, kk])
            if s.cur_x > have:
                out.add(enc.KINGDOM + kk)
    elif ph == enc.MERFOLK_PICK:
        out = {enc.KINGDOM + kk for kk in range(6)}
    elif ph == enc.TROLL_PICK:
        out = {enc.TROLL + v - 1 for v in range(1, 7) if v <= s.cur_x and s.troll_owner[v - 1] < 0}
    elif ph == enc.CENTAUR_PICK:
        out = {enc.LEADER + c for c in range(SKELETON) if hand[c] > 0} | {enc.CENTAUR_STOP}
    elif ph == enc.ELF_PICK:
        out = {enc.ELF_KEEP + c for c in range(NUM_TYPES) if hand[c] > 0} | {enc.ELF_DONE}
    elif ph == enc.WIZARD_PICK:
        out = {enc.WIZARD_DRAW, enc.WIZARD_SKIP}
    elif ph == enc.ORC_PICK:
        out = {enc.ORC_EMPTY, enc.ORC_KEEP}
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_masks_and_band_resolution_match_independent_recount(n):
    from tablezoo.envs.ethnos import EthnosGame

    g = EthnosGame(num_players=n)
    bands = 0
    for seed in range(6):
        s = g.new_state(100 + seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            assert set(legal(s)) == _expected_mask(s)
            before = s.clone()
            a = int(rng.choice(legal(s)))
            s.step(a)
            if a != enc.FINISH_BAND:
                continue
            bands += 1
            p = before.actor
            lead = before.building_leader
            x = int(before.building.sum())
            tribe, colour = lead // 6, lead % 6
            if s.age != before.age:
                continue
            # marker step (§4.2 a): not Halfling (4), not Wingfolk (9, a decision)
            have = (int(before.markers[:, colour].sum()) if n == 2
                    else int(before.markers[p, colour]))
            e = x + (1 if tribe == 6 else 0)
            placed = tribe not in (4, 9) and e > have
            assert int(s.markers[p, colour]) - int(before.markers[p, colour]) == int(placed)
            if tribe == 7:  # Orcs
                assert s.horde[p, colour] == 1
            if tribe == 5:  # Merfolk
                assert s.merfolk[p] == min(18, int(before.merfolk[p]) + x)
            if tribe == 3:  # Giants
                claims = before.giant_seat < 0 or x > before.giant_size
                gain = s.breakdown[p][2] - before.breakdown[p][2]
                assert gain == (2 if claims else 0)
                assert s.giant_seat == (p if claims else before.giant_seat)
    assert bands > 20
