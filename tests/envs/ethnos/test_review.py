"""Rules-fidelity review of ``ethnos_v0`` against ``shared/rules/ethnos.md``.

Every expected number below is worked out by hand from the spec (section named in each test),
never read back from the engine. Players A-F are seats 0-5.
"""

from __future__ import annotations

import numpy as np
import pytest
from tests.envs.ethnos.helpers import (
    A,
    B,
    C,
    D,
    build,
    end_age_now,
    give_hand,
    k,
    legal,
    make_game,
    play_band,
    t,
)  # fmt: skip
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, SKELETON

E, F = 4, 5
BASE = ["Centaurs", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"]
BASE5 = BASE[:5]
ALL_KINGDOMS = ("Althea", "Duris", "Ithys", "Pelagon", "Rhea", "Straton")
ZERO_TOKENS = {name: [0, 0, 0] for name in ALL_KINGDOMS}
ZERO_TOKENS_2 = {name: [0, 0] for name in ALL_KINGDOMS}


def kingdom_gain(before, after) -> list[int]:
    return [after.breakdown[p][0] - before.breakdown[p][0] for p in range(before.n)]


def score_age(g, **kw) -> tuple:
    """Build a turn-start position whose next RECRUIT_DECK draws the third Dragon; draw it."""
    s = build(g, last_dragon_on_top=True, **kw)
    before = s.clone()
    s.step(enc.RECRUIT_DECK)
    return before, s


# --- §6.1 algorithm R: Troll keys ----------------------------------------------------------------
@pytest.mark.parametrize("mode, trolls, winner", [
    # totals 6 = 6, counts 2 = 2, highest 5 > 4: A (both modes)
    ("summary", {1: A, 5: A, 2: B, 4: B}, A),
    ("rulebook", {1: A, 5: A, 2: B, 4: B}, A),
    # A {6}, B {1, 5}: totals 6 = 6; summary: count 2 > 1 -> B; rulebook: highest 6 > 5 -> A
    ("summary", {6: A, 1: B, 5: B}, B),
    ("rulebook", {6: A, 1: B, 5: B}, A),
    # higher total wins before anything else: A {4} = 4 < B {2, 3} = 5
    ("rulebook", {4: A, 2: B, 3: B}, B),
])
def test_troll_keys_order_equal_marker_counts(mode, trolls, winner):
    g = make_game(4, BASE, troll_tiebreak=mode)
    before, s = score_age(g, tokens={"Rhea": [3, 6, 8]},
                          markers={A: {"Rhea": 2}, B: {"Rhea": 2}}, trolls=trolls, age=0)
    expected = [0, 0, 0, 0]
    expected[winner] = 3  # Age I: only slot I (3); second place gains nothing
    assert kingdom_gain(before, s) == expected


def test_troll_tokens_do_not_beat_more_markers():
    g = make_game(4, BASE)
    # A 3 markers no Trolls, B 2 markers with {6}: A first (value first), B second.
    before, s = score_age(g, tokens={"Rhea": [3, 6, 8]},
                          markers={A: {"Rhea": 3}, B: {"Rhea": 2}}, trolls={6: B}, age=1)
    assert kingdom_gain(before, s) == [6, 3, 0, 0]  # Age II: S = [II, I] = [6, 3]


def test_six_players_age_three_four_way_tie_and_slots_run_out():
    g = make_game(6, BASE)
    # Rhea I=2, II=6, III=10; A-D 2 markers, E 1, F 0. Group {A,B,C,D} covers III, II, I and a
    # missing slot: floor(18 / 4) = 4 each; E is fifth: no slot left -> 0; F unranked.
    before, s = score_age(g, tokens={"Rhea": [2, 6, 10]},
                          markers={A: {"Rhea": 2}, B: {"Rhea": 2}, C: {"Rhea": 2},
                                   D: {"Rhea": 2}, E: {"Rhea": 1}}, age=2)
    assert s.is_terminal()
    assert kingdom_gain(before, s) == [4, 4, 4, 4, 0, 0]


def test_age_two_tie_for_second_shares_slot_one_and_nothing():
    g = make_game(4, BASE)
    # Ithys I=5, II=7: A 3 -> 7; {B, C} 2 each share 5 + 0 -> floor(5/2) = 2 each.
    before, s = score_age(g, tokens={"Ithys": [5, 7, 9]},
                          markers={A: {"Ithys": 3}, B: {"Ithys": 2}, C: {"Ithys": 2}}, age=1)
    assert kingdom_gain(before, s) == [7, 2, 2, 0]


def test_age_one_tie_for_first_floor_split():
    g = make_game(5, BASE)
    # Age I, Pelagon I=5: A and B tie with 1 marker: floor(5/2) = 2 each.
    before, s = score_age(g, tokens={"Pelagon": [5, 6, 8]},
                          markers={A: {"Pelagon": 1}, B: {"Pelagon": 1}}, age=0)
    assert kingdom_gain(before, s) == [2, 2, 0, 0, 0]


def test_every_kingdom_scored_independently():
    g = make_game(4, BASE)
    toks = {"Althea": [1, 2, 3], "Duris": [2, 4, 6], "Ithys": [0, 0, 0],
            "Pelagon": [0, 0, 0], "Rhea": [0, 0, 0], "Straton": [4, 8, 10]}
    # Age II: Althea A 1 -> 2; Duris B 2 (II=4), A 1 (I=2); Straton C 1, D 1 tie: (8+4)/2 = 6.
    before, s = score_age(g, tokens=toks, age=1,
                          markers={A: {"Althea": 1, "Duris": 1}, B: {"Duris": 2},
                                   C: {"Straton": 1}, D: {"Straton": 1}})
    assert kingdom_gain(before, s) == [2 + 2, 4, 6, 6]


# --- §6.1 step 5 / §9: 2-player Age II rule, only with 2 players ---------------------------------
def test_three_players_age_two_uses_normal_rule():
    g = make_game(3, BASE5)
    # Rhea I=2, II=8, only A has markers: normal R gives A slot II only (8), not I + II.
    before, s = score_age(g, tokens={"Rhea": [2, 8]}, markers={A: {"Rhea": 2}}, age=1)
    assert kingdom_gain(before, s) == [8, 0, 0]
    # and a second player takes slot I (no "second place gains nothing" with 3 players)
    before, s = score_age(g, tokens={"Rhea": [2, 8]}, markers={A: {"Rhea": 2}, B: {"Rhea": 1}},
                          age=1)
    assert kingdom_gain(before, s) == [8, 2, 0]


def test_two_players_age_one_tie_splits_slot_one():
    g = make_game(2, BASE5)
    before, s = score_age(g, tokens={"Rhea": [5, 8]}, markers={A: {"Rhea": 1}, B: {"Rhea": 1}},
                          age=0)
    assert kingdom_gain(before, s) == [2, 2]  # floor(5 / 2)


@pytest.mark.parametrize("tie, expected", [("ii_only", [1, 1]), ("i_plus_ii", [2, 2])])
def test_two_player_merfolk_age_two_full_tie(tie, expected):
    g = make_game(2, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards"], two_player_tie=tie)
    # slots 2-3p: I = 1, II = 3. Full tie 5/5: ii_only floor(3/2) = 1; i_plus_ii floor(4/2) = 2.
    before, s = score_age(g, tokens=ZERO_TOKENS_2, merfolk={A: 5, B: 5}, age=1)
    assert [s.breakdown[p][1] for p in range(2)] == expected


def test_two_player_merfolk_troll_breaks_tie_winner_takes_ii():
    g = make_game(2, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards"])
    before, s = score_age(g, tokens=ZERO_TOKENS_2, merfolk={A: 5, B: 5}, trolls={1: A}, age=1)
    assert [s.breakdown[p][1] for p in range(2)] == [3, 0]


# --- §6 step 3: Merfolk track slots --------------------------------------------------------------
def test_merfolk_track_age_two_four_players():
    g = make_game(4, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards", "Centaurs"])
    # 4-6p slots by Age: I 1, II 2, III 4. Age II: S = [2, 1]. A 9 -> 2, B 4 -> 1, C 1 -> 0.
    before, s = score_age(g, tokens=ZERO_TOKENS, merfolk={A: 9, B: 4, C: 1}, age=1)
    assert [s.breakdown[p][1] for p in range(4)] == [2, 1, 0, 0]


def test_merfolk_track_age_one_three_players():
    g = make_game(3, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards"])
    # 2-3p Age I: S = [1]; A and B tie on 3: floor(1/2) = 0 each.
    before, s = score_age(g, tokens=ZERO_TOKENS_2, merfolk={A: 3, B: 3}, age=0)
    assert [s.breakdown[p][1] for p in range(3)] == [0, 0, 0]
    before, s = score_age(g, tokens=ZERO_TOKENS_2, merfolk={A: 3, C: 2}, age=0)
    assert [s.breakdown[p][1] for p in range(3)] == [1, 0, 0]


# --- §1.6 band table and §5 Dwarves -------------------------------------------------------------
def test_band_table_for_non_dwarf_bands():
    g = make_game(4, ["Elves", "Orcs", "Trolls", "Wizards", "Halflings", "Skeletons"])
    hf = [f"{c} Halfling" for c in ("green", "purple", "orange", "grey", "red", "blue")]
    s = build(g, tokens=ZERO_TOKENS, bands={
        A: [["red Elf"], ["blue Elf", "blue Orc"]],                       # 0 + 1
        B: [["red Orc", "red Troll", "red Elf"], ["green Orc", "green Troll", "green Elf",
                                                   "green Wizard"]],    # 3 + 6
        C: [["grey Orc", "grey Troll", "grey Elf", "grey Wizard", "grey Halfling"]],  # 10
        D: [hf + hf[:4]],                                                 # 10 cards -> 15
    })
    s = end_age_now(s)
    assert [s.breakdown[p][5] for p in range(4)] == [1, 9, 10, 15]


def test_skeletons_removed_before_scoring_and_dwarf_bonus_after_removal():
    g = make_game(4, ["Dwarves", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = build(g, tokens=ZERO_TOKENS, bands={
        A: [["red Elf", "Skeleton", "Skeleton", "Skeleton"]],          # 1 card left -> 0
        B: [["red Dwarf", "Skeleton", "Skeleton"]],                    # 1 + 1 = 2 -> 1
        C: [["blue Dwarf", "blue Elf", "blue Orc", "blue Troll", "blue Wizard",
             "Skeleton"]],                                              # 5 + 1 = 6 -> 15
    })
    s = end_age_now(s)
    assert [s.breakdown[p][5] for p in range(4)] == [0, 1, 15, 0]


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


def test_halfling_leads_colour_band_and_places_no_marker():
    g = make_game(4, ["Halflings", "Orcs", "Elves", "Trolls", "Wizards", "Skeletons"])
    s = build(g, hands={A: ["red Halfling", "red Orc", "red Elf"]})
    assert enc.LEADER + t("red Halfling") in legal(s)  # Halflings can lead (spec correction 2)
    play_band(s, "red Halfling", ["red Orc", "red Elf"])
    assert s.markers[A].sum() == 0
    assert s.horde[A].sum() == 0  # only the leader's ability applies (the Orc is no leader)
    assert s.phase == enc.TURN and s.actor == B


def test_x_counts_skeletons_for_troll_token_choice():
    g = make_game(4, BASE)
    # red Troll + 2 Skeletons: X = 3 -> tokens 1, 2, 3 eligible.
    s = build(g, hands={A: ["red Troll", "Skeleton", "Skeleton"]})
    play_band(s, "red Troll", ["Skeleton", "Skeleton"])
    assert s.phase == enc.TROLL_PICK
    assert legal(s) == [enc.TROLL, enc.TROLL + 1, enc.TROLL + 2]  # no skip: must take one


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


# --- §5 Elves (the spec's example) ---------------------------------------------------------------
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


# --- §5 Wizards ----------------------------------------------------------------------------------
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


# --- §5 Merfolk ----------------------------------------------------------------------------------
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


# --- §5 Giants -----------------------------------------------------------------------------------
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
    g = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    # A plays 2 (claims), B plays 2 (equal: nothing); B holds Troll {1}: B gains the bonus
    # (default), A with giant_troll_tiebreak=False.
    for opt, winner in ((True, B), (False, A)):
        gg = make_game(4, ["Giants", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"],
                       giant_troll_tiebreak=opt)
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
    assert g.num_players == 4


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


# --- §1.4 / §6 step 5: Orc values ----------------------------------------------------------------
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


# --- §1.5 marker_limit ---------------------------------------------------------------------------
def test_marker_limit_26_counts_merfolk_marker_and_horde():
    tribes = ["Merfolk", "Orcs", "Elves", "Trolls", "Wizards", "Skeletons"]
    g = make_game(4, tribes, marker_limit=26)
    # available = 26 - 1 - 1 (Merfolk in play) - 22 (kingdoms) - 1 (horde) = 1
    s = build(g, hands={A: ["red Orc"]}, markers={A: {"Duris": 11, "Althea": 11}},
              horde={A: ["blue"]})
    play_band(s, "red Orc")
    assert s.markers[A, k("Rhea")] == 1  # the last marker goes to the kingdom (step a first)
    assert s.horde[A].sum() == 1  # none left for the horde
    # one more on the board: 0 available, a passing band places nothing
    s = build(g, hands={A: ["red Elf"]}, markers={A: {"Duris": 11, "Althea": 12}},
              horde={A: ["blue"]})
    play_band(s, "red Elf")
    assert s.markers[A].sum() == 23


def test_marker_limit_without_merfolk():
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"],
                  marker_limit=26)
    # available = 26 - 1 - 24 = 1 -> placed; then none left.
    s = build(g, hands={A: ["red Elf"]}, markers={A: {"Duris": 12, "Althea": 12}})
    play_band(s, "red Elf")
    assert s.markers[A].sum() == 25


# --- §3.5 first player ---------------------------------------------------------------------------
def test_first_player_tie_includes_third_dragon_drawer():
    g = make_game(4, BASE)
    # glory A 5, B 9, C 5, D 5 after Age I; C drew the third Dragon: C, D, A tied -> C.
    before, s = score_age(g, glory={A: 5, B: 9, C: 5, D: 5}, actor=C, first=A, age=0,
                          tokens=ZERO_TOKENS)
    assert s.age == 1 and s.first_player == C and s.actor == C


def test_first_player_counts_band_glory_of_the_age():
    g = make_game(4, ["Dwarves", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    # A 0 glory, but his band (3 cards) scores 3 at the end of Age I; B 2 -> B has least (2 < 3).
    before, s = score_age(g, glory={B: 2, C: 7, D: 7}, actor=D, first=A, age=0,
                          tokens=ZERO_TOKENS, bands={A: [["red Elf", "red Orc", "red Troll"]]})
    assert [int(x) for x in s.glory] == [3, 2, 7, 7]
    assert s.first_player == B


# --- §7 between Ages -----------------------------------------------------------------------------
def test_between_ages_kept_and_cleared():
    tribes = ["Merfolk", "Orcs", "Giants", "Trolls", "Elves", "Skeletons"]
    g = make_game(4, tribes)
    s = build(g, hands={A: ["red Giant", "red Orc"]}, markers={B: {"Rhea": 2}},
              merfolk={C: 5}, horde={D: ["green"]}, trolls={3: B}, tokens=ZERO_TOKENS)
    play_band(s, "red Giant", ["red Orc"])
    s = end_age_now(give_hand(s, B, [], actor=B))
    assert s.phase == enc.ORC_PICK and s.actor == D
    s.step(enc.ORC_KEEP)
    assert s.age == 1
    assert s.markers[B, k("Rhea")] == 2 and s.markers[A, k("Rhea")] == 1
    assert s.merfolk[C] == 5 and s.horde[D].sum() == 1
    assert s.troll_owner == [-1] * 6 and s.giant_seat == -1 and s.giant_size == 0
    assert all(len(b) == 0 for b in s.bands)
    # every card of the 6 tribes is back in play: deck + display + hands
    allies = [c for c in s.deck if c != DRAGON]
    total = len(allies) + int(s.display.sum()) + sum(s.hand_len)
    assert total == 72


# --- §8 end of game, rewards ---------------------------------------------------------------------
def _final(g, glory, markers=None, bands=None):
    """Terminal state after the last Age with the given glory (bands score 0 extra: 1 card)."""
    s = build(g, age=g.num_ages - 1, glory=glory, markers=markers or {}, bands=bands or {},
              tokens=ZERO_TOKENS if g.num_players >= 4 else ZERO_TOKENS_2, actor=0,
              last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.is_terminal()
    return s


def test_final_tie_missing_band_counts_zero_and_no_dwarf_bonus():
    g = make_game(4, ["Dwarves", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    # A [3 (Dwarf-led: 3 for the tie, not 4), 1]; B [3, 1, 1]: third position 1 > 0 -> B.
    # Band glory: A 6 (Dwarf 3+1=4 -> 6) + 0; B 3 + 0 + 0. Start glory evens it: A 14, B 17.
    bands = {A: [["red Dwarf", "red Elf", "red Orc"], ["blue Elf"]],
             B: [["green Elf", "green Orc", "green Troll"], ["grey Elf"], ["purple Elf"]]}
    s = _final(g, {A: 14, B: 17}, markers={A: {"Rhea": 1}, B: {"Duris": 1}}, bands=bands)
    assert [int(x) for x in s.glory[:2]] == [20, 20]
    assert s.winners() == [B]


def test_final_tie_markers_before_bands():
    g = make_game(4, ["Dwarves", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    s = _final(g, {A: 10, B: 10}, markers={A: {"Rhea": 2}, B: {"Duris": 3}},
               bands={A: [["red Elf", "red Orc", "red Troll", "red Wizard", "red Dwarf"]]})
    # A: 10 + 10 (5-card band) = 20; B 10. Not a tie: A wins on glory.
    assert s.winners() == [A]
    s = _final(g, {A: 10, B: 20}, markers={A: {"Rhea": 2}, B: {"Duris": 3}},
               bands={A: [["red Elf", "red Orc", "red Troll", "red Wizard", "red Dwarf"]]})
    assert s.winners() == [B]  # 20 = 20, markers 3 > 2 (A's larger band does not matter)


def test_rank_rewards_three_plus_players_linear_with_ties():
    g = make_game(4, BASE)
    s = _final(g, {A: 20, B: 40, C: 40, D: 10})
    # B, C share places 1 and 2: (1 + 1/3) / 2 = 2/3; A third: -1/3; D last: -1.
    assert s.returns() == pytest.approx([-1 / 3, 2 / 3, 2 / 3, -1])
    assert sum(s.returns()) == pytest.approx(0)


def test_rank_rewards_five_players():
    g = make_game(5, BASE)
    s = _final(g, {A: 5, B: 4, C: 3, D: 2, E: 1})
    assert s.returns() == pytest.approx([1, 0.5, 0, -0.5, -1])


def test_two_player_rewards_win_loss_and_shared_victory():
    g = make_game(2, BASE5)
    s = _final(g, {A: 3, B: 7})
    assert s.returns() == [-1.0, 1.0]
    s = _final(g, {A: 7, B: 7})  # same glory, markers (0) and bands (none): shared
    assert s.returns() == [0.0, 0.0] and s.winners() == [A, B]


# --- §2 setup / §3 Age start ---------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_age_start_counts(n):
    g = EthnosGameN(n)
    s = g.new_state(11)
    cards = 72 if n >= 4 else 60  # no Halflings in BASE
    r = cards - n - 2 * n
    assert s.hand_len == [1] * n and s.display.sum() == 2 * n
    assert len(s.deck) == r + 3
    assert s.lower_left == r // 2 + 3
    obs = s.observe(0)
    off = g.obs_spec.offsets
    assert obs[off["deck_size"]] == r + 3
    assert obs[off["deck_safe_top"]] == r - r // 2  # the top ceil(R/2) cards hold no Dragon
    assert all(c != DRAGON for c in s.deck[r // 2 + 3:])


def EthnosGameN(n):
    return make_game(n, BASE if n >= 4 else BASE5)


@pytest.mark.parametrize("n, per", [(2, 2), (4, 3)])
def test_glory_tokens_dealt_sorted(n, per):
    g = make_game(n, BASE if n >= 4 else BASE5)
    pool = []
    for seed in range(5):
        s = g.new_state(seed)
        for toks in s.tokens:
            assert len(toks) == per and toks == sorted(toks)
        pool = sorted(v for toks in s.tokens for v in toks)
        if n >= 4:
            assert pool == [0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10]
        else:
            assert pool == [0, 2, 2, 4, 4, 6, 6, 6, 8, 8, 8, 10]
    assert pool


def test_halfling_deck_has_24_cards_four_per_colour():
    g = make_game(4, ["Halflings", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"])
    comp = g.composition(tuple(sorted([4, 2, 7, 8, 10, 11])))
    assert comp.sum() == 84
    assert [int(comp[6 * 4 + c]) for c in range(6)] == [4] * 6
    assert comp[SKELETON] == 12 and comp[6 * 2 + 5] == 2
    assert len(comp) == NUM_TYPES


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


# --- determinize: another seat's band under construction / Elf keeps are hidden ---------------
def _conserved(r) -> bool:
    total = r.display + r.hands.sum(axis=0) + r.building + r.elf_kept + r.discard
    total = total + r.band_cards.sum(axis=0)
    deck = np.bincount(np.asarray(r.deck, np.int64), minlength=DRAGON + 1)[:NUM_TYPES]
    return bool(np.array_equal(total + deck, r.full))


def test_determinize_resamples_a_band_another_seat_is_building():
    g = make_game(4, BASE)
    s = build(g, hands={B: ["red Elf", "red Orc", "blue Troll", "Skeleton"]}, actor=B)
    s.step(enc.LEADER + t("red Elf"))
    s.step(enc.ADD_CARD + t("red Orc"))
    obs = s.observe(A)
    rng = np.random.default_rng(3)
    leaders = set()
    for _ in range(30):
        r = s.determinize(A, rng)
        assert np.array_equal(r.observe(A), obs)  # nothing A sees changes
        assert r.phase == enc.BUILD and r.actor == B
        assert r.hand_len[B] + r.building_len == 4  # B's card count is public
        assert r.building_leader != SKELETON and r.building[r.building_leader] >= 1
        assert _conserved(r)
        leaders.add(r.building_leader)
        r.step(enc.FINISH_BAND)  # the re-sampled position plays on
    assert len(leaders) > 1  # the true partial band (red Elf + red Orc) is not kept


def test_determinize_resamples_cards_another_seat_keeps_with_an_elf():
    g = make_game(4, BASE)
    s = build(g, hands={B: ["red Elf", "red Orc", "red Troll", "blue Orc", "green Troll",
                            "grey Wizard"]}, actor=B)
    play_band(s, "red Elf", ["red Orc", "red Troll"])
    s.step(enc.ELF_KEEP + t("blue Orc"))
    obs = s.observe(C)
    rng = np.random.default_rng(4)
    kept_blue_orc = 0
    for _ in range(30):
        r = s.determinize(C, rng)
        assert np.array_equal(r.observe(C), obs)
        assert r.phase == enc.ELF_PICK and r.elf_kept.sum() == 1 and r.hand_len[B] == 2
        assert _conserved(r)
        kept_blue_orc += int(r.elf_kept[t("blue Orc")])
        r.step(enc.ELF_DONE)
        assert r.hand_len[B] == 1 and r.actor == C
    assert kept_blue_orc < 30


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


# --- differential check: end-of-Age scoring recomputed independently from the position
def _keys(owner: list[int], n: int) -> list[tuple[int, int, int]]:
    held = [[v + 1 for v in range(6) if owner[v] == p] for p in range(n)]
    return [(sum(h), len(h), max(h, default=0)) for h in held]


def _algorithm_r(values, keys, slots) -> list[int]:
    n = len(values)
    ranked = sorted((p for p in range(n) if values[p] > 0),
                    key=lambda p: (-values[p], tuple(-x for x in keys[p])))
    out = [0] * n
    q = 0
    groups: list[list[int]] = []
    for p in ranked:
        if groups and (values[groups[-1][0]], keys[groups[-1][0]]) == (values[p], keys[p]):
            groups[-1].append(p)
        else:
            groups.append([p])
    for grp in groups:
        total = sum(slots[i] if i < len(slots) else 0 for i in range(q, q + len(grp)))
        for p in grp:
            out[p] = total // len(grp)
        q += len(grp)
    return out


def _two_player(values, keys, low, high) -> list[int]:
    elig = [p for p in (0, 1) if values[p] > 0]
    if len(elig) == 1:
        out = [0, 0]
        out[elig[0]] = low + high
        return out
    return _algorithm_r(values, keys, [high])


def _expected_age_scores(s) -> list[list[int]]:
    """Per seat [kingdoms, merfolk, giant bonus, bands] for the Age ``s`` is about to end."""
    n, age = s.n, s.age
    keys = _keys(s.troll_owner, n)
    out = [[0, 0, 0, 0] for _ in range(n)]
    big = n >= 4
    for kk in range(6):
        vals = [int(s.markers[p, kk]) for p in range(n)]
        toks = s.tokens[kk]
        if n == 2 and age == 1:
            award = _two_player(vals, keys, toks[0], toks[1])
        else:
            award = _algorithm_r(vals, keys, [toks[a] for a in range(age, -1, -1)])
        for p in range(n):
            out[p][0] += award[p]
    if 5 in s.tribes:  # Merfolk
        slots = [1, 2, 4] if big else [1, 3]
        vals = [int(s.merfolk[p]) for p in range(n)]
        if n == 2 and age == 1:
            award = _two_player(vals, keys, 1, 3)
        else:
            award = _algorithm_r(vals, keys, [slots[a] for a in range(age, -1, -1)])
        for p in range(n):
            out[p][1] += award[p]
    if s.giant_seat >= 0:
        m = s.giant_size
        cands = [p for p in range(n) if any(b[0] // 6 == 3 and len(b) == m for b in s.bands[p])]
        best = max(keys[p] for p in cands)
        top = [p for p in cands if keys[p] == best]
        winner = top[0] if len(top) == 1 else s.giant_seat
        assert winner in cands
        out[winner][2] += ([2, 4, 6] if big else [2, 5])[age]
    table = [0, 1, 3, 6, 10, 15]
    for p in range(n):
        for b in s.bands[p]:
            size = len(b) - b.count(SKELETON) + (1 if b[0] // 6 == 1 else 0)
            out[p][3] += table[min(size, 6) - 1] if size else 0
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_end_of_age_scoring_matches_independent_recount(n):
    from tablezoo.envs.ethnos import EthnosGame

    g = EthnosGame(num_players=n)
    checked = 0
    for seed in range(12):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            before = s.clone()
            acts = legal(s)
            s.step(int(rng.choice(acts)))
            if (before.dragons < 3 and s.dragons == 3) or s.age != before.age or s.is_terminal():
                if before.phase == enc.ORC_PICK:
                    continue  # the Age ended earlier; counted at its third Dragon
                expected = _expected_age_scores(before)
                while s.phase == enc.ORC_PICK:
                    s.step(enc.ORC_KEEP)
                got = [[s.breakdown[p][c] - before.breakdown[p][c] for c in (0, 1, 3, 5)]
                       for p in range(n)]
                assert got == expected, (seed, before.age)
                checked += 1
    assert checked >= 12 * (3 if n >= 4 else 2)


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
