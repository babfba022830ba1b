"""One or more scenario tests per tribe power (spec §5), each branch the spec names."""

from __future__ import annotations

import pytest

from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON
from tests.envs.ethnos.positions import (
    BASE,
    ZERO_TOKENS,
    ZERO_TOKENS_2,
    A,
    B,
    C,
    build,
    end_age_now,
    give_hand,
    k,
    legal,
    make_game,
    play_band,
    t,
)


# --- Centaurs ----------------------------------------------------------------------------------
def test_centaur_stop_discards_rest():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Centaur", "red Orc", "blue Elf", "green Troll"]})
    play_band(s, "red Centaur", ["red Orc"])
    assert s.phase == enc.CENTAUR_PICK
    assert sorted(legal(s)) == sorted([enc.LEADER + t("green Troll"),
                                       enc.LEADER + t("blue Elf"), enc.CENTAUR_STOP])
    s.step(enc.CENTAUR_STOP)
    assert s.phase == enc.TURN and s.actor == B
    assert s.display[t("blue Elf")] >= 1 and s.hand_len[A] == 0


def test_centaur_no_follow_up_with_only_skeletons_left():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Centaur", "Skeleton"]})
    play_band(s, "red Centaur")
    assert s.phase == enc.TURN and s.actor == B
    assert s.display[t("Skeleton")] >= 1


def test_centaur_requires_marker_option():
    g = make_game(4, BASE, centaur_requires_marker=True)
    hand = ["red Centaur", "blue Elf"]
    s = build(g, hands={A: hand}, markers={A: {"Rhea": 3}})
    play_band(s, "red Centaur")  # X = 1, not > 3: no marker -> no follow-up
    assert s.phase == enc.TURN and s.actor == B
    s = build(g, hands={A: hand})
    play_band(s, "red Centaur")  # marker placed -> follow-up allowed
    assert s.phase == enc.CENTAUR_PICK


def test_centaur_chain_second_centaur_allows_third_band():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Centaur", "blue Centaur", "green Orc", "grey Troll"]})
    play_band(s, "red Centaur")
    s.step(enc.LEADER + t("blue Centaur"))
    s.step(enc.FINISH_BAND)
    assert s.phase == enc.CENTAUR_PICK
    s.step(enc.LEADER + t("green Orc"))
    s.step(enc.FINISH_BAND)
    assert s.phase == enc.TURN and s.actor == B  # Orc band ends the chain
    assert s.display[t("grey Troll")] >= 1


def test_centaur_chain_counts_markers_placed_earlier_in_turn():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Centaur", "red Orc"]})
    play_band(s, "red Centaur")
    assert s.markers[A, k("Rhea")] == 1
    s.step(enc.LEADER + t("red Orc"))
    s.step(enc.FINISH_BAND)  # X = 1, not > 1 (marker from the first band): no marker
    assert s.markers[A, k("Rhea")] == 1


# --- Dwarves -----------------------------------------------------------------------------------
def test_dwarf_bonus_only_for_dwarf_leader():
    g = make_game(4, ["Dwarves", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, bands={A: [["red Dwarf", "red Elf"]], B: [["red Elf", "red Dwarf"]],
                        C: [["blue Dwarf", "Skeleton", "Skeleton"]]})
    s = end_age_now(s)
    assert [s.breakdown[p][5] for p in range(3)] == [3, 1, 1]


# --- Elves -------------------------------------------------------------------------------------
ELF_TRIBES = ["Elves", "Orcs", "Trolls", "Wizards", "Dwarves", "Skeletons"]


def test_elf_keeps_up_to_x_and_ends_itself():
    g = make_game(4, ELF_TRIBES)
    hand = ["red Elf", "red Orc", "red Troll", "blue Orc", "green Troll", "grey Wizard",
            "Skeleton"]
    s = build(g, hands={A: hand})
    display_before = s.display.copy()
    play_band(s, "red Elf", ["red Orc", "red Troll"])  # 7 in hand, Elf band of 3
    assert s.phase == enc.ELF_PICK
    keep = [enc.ELF_KEEP + t(c) for c in ("blue Orc", "green Troll", "grey Wizard", "Skeleton")]
    assert sorted(legal(s)) == sorted([*keep, enc.ELF_DONE])
    s.step(enc.ELF_KEEP + t("blue Orc"))
    s.step(enc.ELF_KEEP + t("Skeleton"))
    assert s.phase == enc.ELF_PICK
    s.step(enc.ELF_KEEP + t("grey Wizard"))  # third kept: ends by itself
    assert s.phase == enc.TURN and s.actor == B
    assert s.hand_len[A] == 3 and int(s.hand_size[A]) == 3
    assert s.hands[A, t("blue Orc")] == 1 and s.hands[A, t("Skeleton")] == 1
    diff = s.display - display_before
    assert diff[t("green Troll")] == 1 and diff.sum() == 1  # at least one discarded


def test_elf_done_early_and_keep_nothing():
    g = make_game(4, ELF_TRIBES)
    s = build(g, hands={A: ["red Elf", "blue Orc", "green Troll"]})
    play_band(s, "red Elf")
    assert s.phase == enc.ELF_PICK
    s.step(enc.ELF_DONE)
    assert s.hand_len[A] == 0 and s.phase == enc.TURN


def test_elf_ends_when_nothing_left_to_keep():
    g = make_game(4, ELF_TRIBES)
    s = build(g, hands={A: ["red Elf", "red Orc", "red Troll", "blue Orc"]})
    play_band(s, "red Elf", ["red Orc", "red Troll"])
    s.step(enc.ELF_KEEP + t("blue Orc"))  # kept 1 < 3, but the hand is empty
    assert s.phase == enc.TURN and s.hand_len[A] == 1


def test_elf_without_cards_left_has_no_decision():
    g = make_game(4, ELF_TRIBES)
    s = build(g, hands={A: ["red Elf"]})
    play_band(s, "red Elf")
    assert s.phase == enc.TURN and s.actor == B


def test_elf_example_seven_in_hand_band_of_three():
    g = make_game(4, BASE)
    hand = ["red Elf", "red Orc", "red Troll", "blue Orc", "green Troll", "grey Wizard",
            "Skeleton"]
    s = build(g, hands={A: hand})
    play_band(s, "red Elf", ["red Orc", "red Troll"])  # X = 3, 4 cards left
    assert s.phase == enc.ELF_PICK
    s.step(enc.ELF_KEEP + t("blue Orc"))
    s.step(enc.ELF_KEEP + t("Skeleton"))
    assert s.phase == enc.ELF_PICK
    s.step(enc.ELF_KEEP + t("green Troll"))  # 3 kept = X: ends by itself
    assert s.phase == enc.TURN and s.actor == B
    assert s.hand_len[A] == 3
    assert s.display[t("grey Wizard")] == 1 and s.display.sum() == 1  # at least 1 discarded


# --- Giants: see E10 in test_examples.py; the first claim of an Age -------------------------------
def test_giant_first_claim_any_size_and_token_returns():
    g = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Giant"]})
    play_band(s, "red Giant")
    assert s.giant_seat == A and s.giant_size == 1 and s.glory[A] == 2 + 0
    s = end_age_now(give_hand(s, B, [], actor=B))
    assert s.breakdown[A][3] == 2  # Age I bonus
    assert s.giant_seat == -1  # back to the supply


@pytest.mark.parametrize("n, age, bonus", [(4, 0, 2), (5, 1, 4), (3, 0, 2), (3, 1, 5),
                                           (2, 1, 5)])
def test_giant_bonus_by_player_count_and_age(n, age, bonus):
    tribes = ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"][:6 if n >= 4 else 5]
    g = make_game(n, tribes)
    s = build(g, hands={A: ["red Giant"]}, age=age,
              tokens=ZERO_TOKENS if n >= 4 else ZERO_TOKENS_2)
    play_band(s, "red Giant")
    assert s.breakdown[A][2] == 2 and s.giant_seat == A  # claimed: +2 at once
    s = end_age_now(give_hand(s, B, [], actor=B))
    assert s.breakdown[A][3] == bonus


def test_giant_bonus_troll_keys_can_pass_over_the_holder():
    tribes = ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"]
    g = make_game(4, tribes)
    # A plays 2 (claims), B plays 2 (equal: nothing); B holds Troll {1}: B gains the bonus
    # (default ``g``, and giant_troll_tiebreak=True), A with giant_troll_tiebreak=False.
    for gg, winner in ((g, B), (make_game(4, tribes, giant_troll_tiebreak=True), B),
                       (make_game(4, tribes, giant_troll_tiebreak=False), A)):
        s = build(gg, hands={A: ["red Giant", "red Orc"]}, trolls={1: B}, age=1,
                  tokens=ZERO_TOKENS)
        play_band(s, "red Giant", ["red Orc"])
        s = give_hand(s, B, ["blue Giant", "blue Elf"], actor=B)
        play_band(s, "blue Giant", ["blue Elf"])
        assert s.giant_seat == A and s.breakdown[B][2] == 0
        s = end_age_now(give_hand(s, C, [], actor=C))
        bonus = [s.breakdown[p][3] for p in range(4)]
        expected = [0, 0, 0, 0]
        expected[winner] = 4
        assert bonus == expected


def test_giant_band_smaller_than_holder_is_no_candidate():
    g = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Giant", "red Orc", "red Elf"]}, age=0, tokens=ZERO_TOKENS)
    play_band(s, "red Giant", ["red Orc", "red Elf"])
    s = give_hand(s, B, ["blue Giant"], actor=B)
    play_band(s, "blue Giant")
    d = s.to_dict()
    d["troll_owner"][5] = B  # B holds Troll 6 but his Giant band (1) is smaller than M = 3
    s = end_age_now(give_hand(g.state_from_dict(d), C, [], actor=C))
    assert [s.breakdown[p][3] for p in range(4)] == [2, 0, 0, 0]


# --- Halflings ---------------------------------------------------------------------------------
def test_halfling_band_never_places_marker():
    g = make_game(4, ["Halflings", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    hand = ["red Halfling"] * 4 + ["blue Halfling"] * 4 + ["green Halfling"] * 2
    s = build(g, hands={A: hand})
    assert enc.LEADER + t("red Halfling") in legal(s)  # Halflings can lead
    play_band(s, "red Halfling", hand[1:])
    assert len(s.bands[A][0]) == 10
    assert s.markers.sum() == 0 and s.phase == enc.TURN


def test_halfling_not_wild():
    g = make_game(4, ["Halflings", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Elf", "blue Halfling"]})
    s.step(enc.LEADER + t("red Elf"))
    assert enc.ADD_CARD + t("blue Halfling") not in legal(s)


def test_halfling_leads_colour_band_and_places_no_marker():
    g = make_game(4, ["Halflings", "Orcs", "Elves", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Halfling", "red Orc", "red Elf"]})
    assert enc.LEADER + t("red Halfling") in legal(s)  # Halflings can lead (spec correction 2)
    play_band(s, "red Halfling", ["red Orc", "red Elf"])
    assert s.markers[A].sum() == 0
    assert s.horde[A].sum() == 0  # only the leader's ability applies (the Orc is no leader)
    assert s.phase == enc.TURN and s.actor == B


# --- Merfolk: E8/E9 in test_examples.py; the one-marker-per-band option --------------------------
def test_merfolk_one_marker_per_band_option():
    g = make_game(4, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"],
                  merfolk_marker_per_space=False)
    six = ["green Merfolk", "green Merfolk", "purple Merfolk", "purple Merfolk",
           "orange Merfolk", "orange Merfolk"]
    s = build(g, hands={A: six}, merfolk={A: 2})
    play_band(s, six[0], six[1:])
    assert s.merfolk[A] == 8 and s.phase == enc.MERFOLK_PICK
    s.step(enc.KINGDOM + k("Ithys"))
    assert s.phase == enc.TURN


def test_merfolk_free_marker_without_test_in_two_player():
    g = make_game(2, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards"])
    s = build(g, hands={A: ["red Merfolk"]}, merfolk={A: 2},
              markers={A: {"Straton": 3}, B: {"Straton": 4}})
    play_band(s, "red Merfolk")
    assert s.phase == enc.MERFOLK_PICK
    s.step(enc.KINGDOM + k("Straton"))
    assert s.markers[A, k("Straton")] == 4


def test_merfolk_passing_three_spaces_in_one_band():
    g = make_game(4, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    hand = ["red Merfolk", "red Merfolk", "red Elf", "red Orc", "red Orc", "red Troll",
            "red Troll", "red Wizard", "red Wizard", "Skeleton"]
    s = build(g, hands={A: hand}, merfolk={A: 2})
    play_band(s, "red Merfolk", hand[1:])  # X = 10: 2 -> 12 passes 3, 7, 12
    assert s.merfolk[A] == 12
    assert s.markers[A, k("Rhea")] == 1  # the colour-band test (10 > 0) in Rhea
    for _ in range(3):
        assert s.phase == enc.MERFOLK_PICK
        s.step(enc.KINGDOM + k("Rhea"))
    assert s.phase == enc.TURN and s.markers[A, k("Rhea")] == 4


# --- Minotaurs: E11/E12 ------------------------------------------------------------------------
def test_minotaur_plus_one_with_wingfolk_absent_and_colour_band():
    g = make_game(4, ["Minotaurs", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["green Minotaur"]}, markers={A: {"Althea": 1}})
    play_band(s, "green Minotaur")  # E = 2 > 1
    assert s.markers[A, k("Althea")] == 2


# --- Orcs --------------------------------------------------------------------------------------
def test_orc_horde_marker_is_extra_to_kingdom_marker():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Orc"]})
    play_band(s, "red Orc")
    assert s.markers[A, k("Rhea")] == 1 and s.horde[A, k("Rhea")] == 1


def test_orc_auto_empty_final_age_option():
    g = make_game(4, BASE, orc_auto_empty_final_age=True)
    s = build(g, horde={A: ["red", "blue"]}, age=2, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.is_terminal() and s.breakdown[A][4] == 3


def test_orc_decisions_in_seat_order_from_first_player_final_age():
    g = make_game(4, BASE)
    s = build(g, horde={A: ["red"], C: ["red", "blue"]}, age=2, actor=B, first=B,
              last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.phase == enc.ORC_PICK and s.actor == C  # B first player: B, C, D, A
    s.step(enc.ORC_KEEP)
    assert s.actor == A
    s.step(enc.ORC_EMPTY)
    assert s.is_terminal()
    assert s.breakdown[A][4] == 1 and s.breakdown[C][4] == 0


@pytest.mark.parametrize("colours, glory", [
    (["red"], 1), (["red", "blue"], 3), (["red", "blue", "green", "grey"], 10),
    (["red", "blue", "green", "grey", "purple"], 15),
])
def test_orc_horde_values(colours, glory):
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"])
    s = build(g, horde={A: colours}, age=0, last_dragon_on_top=True, tokens=ZERO_TOKENS)
    s.step(enc.RECRUIT_DECK)
    assert s.phase == enc.ORC_PICK and s.actor == A
    s.step(enc.ORC_EMPTY)
    assert s.breakdown[A][4] == glory


def test_orc_keep_and_no_decision_without_markers():
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"])
    s = build(g, horde={C: ["red"]}, age=0, last_dragon_on_top=True, tokens=ZERO_TOKENS)
    s.step(enc.RECRUIT_DECK)
    assert s.phase == enc.ORC_PICK and s.actor == C  # only C has a horde marker
    s.step(enc.ORC_KEEP)
    assert s.age == 1 and s.horde[C].sum() == 1 and s.breakdown[C][4] == 0


# --- Skeletons: E5 -----------------------------------------------------------------------------
def test_skeletons_only_hand_must_pass():
    g = make_game(2, ["Skeletons", "Elves", "Orcs", "Trolls", "Wizards"])
    s = build(g, hands={A: ["Skeleton"] * 10})
    assert legal(s) == [enc.PASS]
    s.step(enc.PASS)
    assert s.actor == B


# --- Trolls ------------------------------------------------------------------------------------
def test_troll_no_eligible_token_no_decision():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Troll", "red Orc"]}, trolls={1: B, 2: C})
    play_band(s, "red Troll", ["red Orc"])
    assert s.phase == enc.TURN and s.actor == B


def test_troll_tokens_return_at_end_of_age():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Troll"]})
    play_band(s, "red Troll")
    assert legal(s) == [enc.TROLL]
    s.step(enc.TROLL)
    assert s.troll_owner[0] == A
    s = end_age_now(s)
    assert s.troll_owner == [-1] * 6


def test_x_counts_skeletons_for_troll_token_choice():
    g = make_game(4, BASE)
    # red Troll + 2 Skeletons: X = 3 -> tokens 1, 2, 3 eligible.
    s = build(g, hands={A: ["red Troll", "Skeleton", "Skeleton"]})
    play_band(s, "red Troll", ["Skeleton", "Skeleton"])
    assert s.phase == enc.TROLL_PICK
    assert legal(s) == [enc.TROLL, enc.TROLL + 1, enc.TROLL + 2]  # no skip: must take one


# --- Wingfolk ----------------------------------------------------------------------------------
def test_wingfolk_no_passing_kingdom_no_marker():
    g = make_game(4, ["Wingfolk", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    every = {name: 1 for name in ("Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton")}
    s = build(g, hands={A: ["red Wingfolk"]}, markers={A: every})
    play_band(s, "red Wingfolk")
    assert s.phase == enc.TURN and s.markers.sum() == 6


def test_wingfolk_two_player_counts_all_markers():
    g = make_game(2, ["Wingfolk", "Elves", "Orcs", "Trolls", "Wizards"])
    s = build(g, hands={A: ["red Wingfolk", "red Elf"]},
              markers={B: {"Althea": 2, "Duris": 1}})
    play_band(s, "red Wingfolk", ["red Elf"])
    acts = legal(s)
    assert enc.KINGDOM + k("Althea") not in acts and enc.KINGDOM + k("Duris") in acts


# --- Wizards -----------------------------------------------------------------------------------
def test_wizard_draws_x_cards():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Wizard", "red Orc", "blue Elf"]})
    deck_before = len(s.deck)
    play_band(s, "red Wizard", ["red Orc"])
    assert s.phase == enc.WIZARD_PICK
    assert s.display[t("blue Elf")] >= 1 and s.hand_len[A] == 0  # discard came first
    s.step(enc.WIZARD_DRAW)
    drawn_dragons = s.dragons
    assert s.hand_len[A] == 2
    assert deck_before - len(s.deck) == 2 + drawn_dragons
    assert s.phase == enc.TURN and s.actor == B


def test_wizard_skip():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Wizard"]})
    play_band(s, "red Wizard")
    s.step(enc.WIZARD_SKIP)
    assert s.hand_len[A] == 0 and s.actor == B


def test_wizard_third_dragon_ends_age_mid_draw():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Wizard", "red Orc", "red Troll"]})
    d = s.to_dict()
    deck = [c for c in d["deck"] if c != DRAGON]
    d["deck"] = [*deck[:-1], DRAGON, deck[-1]]  # one Ally, then the third Dragon
    d["dragons"] = 2
    d["lower_left"] = len(d["deck"])
    s = g.state_from_dict(d)
    play_band(s, "red Wizard", ["red Orc", "red Troll"])
    s.step(enc.WIZARD_DRAW)
    assert s.age == 1 and s.third_drawer == A
    assert s.phase == enc.TURN and s.dragons == 0
    assert s.breakdown[A][5] == 3  # Age I band glory of the Wizard band of 3


def test_wizard_draw_skips_non_third_dragons():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Wizard", "red Orc"]})
    d = s.to_dict()
    allies = [c for c in d["deck"] if c != DRAGON]
    d["deck"] = [DRAGON, *allies[:-2], allies[-2], DRAGON, DRAGON, allies[-1]]
    d["dragons"] = 0
    d["lower_left"] = len(d["deck"])
    s = g.state_from_dict(d)
    play_band(s, "red Wizard", ["red Orc"])
    assert s.phase == enc.WIZARD_PICK
    s.step(enc.WIZARD_DRAW)  # X = 2 Allies; two Dragons revealed on the way
    assert s.hand_len[A] == 2 and s.dragons == 2 and s.age == 0
    assert s.actor == B


def test_wizard_led_band_followed_by_discard_before_draw():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Wizard", "red Orc", "blue Elf"]})
    play_band(s, "red Wizard", ["red Orc"])
    # the discard happened before the Wizard decision
    assert s.phase == enc.WIZARD_PICK and s.hand_len[A] == 0
    assert s.display[t("blue Elf")] == 1
    s.step(enc.WIZARD_SKIP)
    assert s.hand_len[A] == 0 and s.actor == B


def test_elf_band_ending_a_centaur_chain_keeps_cards():
    g = make_game(4, BASE)
    s = build(g, hands={A: ["red Centaur", "blue Elf", "green Orc", "grey Troll"]})
    play_band(s, "red Centaur")
    s.step(enc.LEADER + t("blue Elf"))
    s.step(enc.FINISH_BAND)
    assert s.phase == enc.ELF_PICK  # the Elf band is the last band of the turn
    s.step(enc.ELF_KEEP + t("green Orc"))  # X = 1: ends by itself
    assert s.phase == enc.TURN and s.hand_len[A] == 1 and s.display[t("grey Troll")] >= 1


def test_giant_own_larger_band_moves_token_again():
    g = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Giant"]})
    play_band(s, "red Giant")
    s = give_hand(s, A, ["blue Giant", "blue Elf"], actor=A)
    play_band(s, "blue Giant", ["blue Elf"])
    assert s.giant_seat == A and s.giant_size == 2 and s.breakdown[A][2] == 4


def test_giant_bonus_age_three_is_six():
    g = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, age=2, hands={B: ["red Giant"]}, actor=B)
    play_band(s, "red Giant")
    s = end_age_now(s)
    assert s.is_terminal() and s.breakdown[B][3] == 6


def test_giant_bonus_three_candidates_troll_keys_then_holder():
    g = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Giant", "Skeleton"]})
    play_band(s, "red Giant", ["Skeleton"])
    for seat, colour in ((B, "blue"), (C, "green")):
        s = give_hand(s, seat, [f"{colour} Giant", "Skeleton"], actor=seat)
        play_band(s, f"{colour} Giant", ["Skeleton"])
    assert s.giant_seat == A and s.giant_size == 2
    d = s.to_dict()
    d["troll_owner"][0], d["troll_owner"][1] = B, C  # B {1} and C {2}: totals differ
    s2 = g.state_from_dict(d)
    assert s2.giant_bonus_winner() == C
    d["troll_owner"][0], d["troll_owner"][1], d["troll_owner"][2] = -1, -1, -1
    d["troll_owner"][4], d["troll_owner"][5] = -1, -1
    s3 = g.state_from_dict(d)
    assert s3.giant_bonus_winner() == A  # no trolls: the holder
