"""Scenario tests of the 11 Day characters (rules spec §3, §4, §9.1), each from a built position.

(The 7 Night characters' prizes and Toyvik's per-set quest are in test_scoring.py.)
"""

from __future__ import annotations

from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    COPY_DECLINE,
    COPY_LATER,
    COPY_OFFER,
    DAGA,
    DAGA_KEEP,
    DAGA_PLAY,
    MARTIN,
    NO_VILLE,
    OLLE,
    OLLE_VILLE,
    OVER,
    SELECT,
    SELECT_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
    WITCH_RIGHT,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.effects import COPY_DONE, COPY_NONE, COPY_WAIT
from tablezoo.envs.bauer_draft.hidden import TRACK_PILE
from tests.envs.bauer_draft.positions import (
    codes,
    copy,
    decide,
    discard,
    idx,
    play,
    position,
    select,
    tableau_codes,
    via_daga,
)


def legal(state, seat=None):
    seat = state.acting_players()[0] if seat is None else seat
    return set(state.legal_actions(seat))


# --- Uggel-Guggel --------------------------------------------------------------------------
def test_uggel_guggel_shuffles_each_pile_on_its_own():
    st = position(3, hands={0: ["C01", "E01", "E02"]})
    expected = [list(p) for p in st.piles]
    for s in range(3):  # what passing puts on top of each pile before the reveal
        expected[(s + 1) % 3] += [c for c in st.hands[s][1:]]
    select(st, {0: play("C01")})
    assert st.kind == SELECT and st.round == 1  # no decision: Uggel-Guggel needs none
    after = [list(p) for p in st.piles]
    # each pile keeps its own cards (minus this round's draw of 3) ...
    for s in range(3):
        drawn = st.hands[s]
        assert sorted(after[s] + drawn) == sorted(expected[s])
    # ... and some pile is no longer in passing order
    assert any(after[s] + st.hands[s][::-1] != expected[s] for s in range(3))
    # the passer knew its cards were somewhere in that pile; after the draw it knows nothing
    assert idx("E01") not in st.tracked[0]


def test_uggel_guggel_marks_passed_cards_as_somewhere_in_the_pile():
    st = position(3, hands={0: ["C01", "E01", "E02"], 1: ["C02", "E03", "E04"]})
    select(st, {0: play("C01"), 1: play("C02")})
    assert st.kind == WITCH  # Uggel-Guggel (C01) resolved first, the Witch (C02) waits
    assert st.tracked[0][idx("E01")] == TRACK_PILE
    assert st.tracked[0][idx("E02")] == TRACK_PILE


# --- Witch of Harta Forest -----------------------------------------------------------------
def witch_position(n=3):
    st = position(n, hands={0: ["C02", "E01", "E02"]})
    select(st, {0: play("C02")})
    assert st.kind == WITCH and st.acting_players() == (0,)
    return st


def test_witch_moves_piles_left_example_10():
    st = witch_position()
    before = [list(p) for p in st.piles]
    decide(st, WITCH_LEFT)
    # the next round has drawn 3 cards from each pile: compare pile + hand
    for s in range(3):
        assert st.piles[s] + st.hands[s][::-1] == before[(s - 1) % 3]
    assert st.pile_ids == [2, 0, 1]  # the pile of seat 0 now lies in front of seat 1


def test_witch_moves_piles_right():
    st = witch_position()
    before = [list(p) for p in st.piles]
    decide(st, WITCH_RIGHT)
    for s in range(3):
        assert st.piles[s] + st.hands[s][::-1] == before[(s + 1) % 3]


def test_witch_may_leave_the_piles():
    st = witch_position()
    before = [list(p) for p in st.piles]
    decide(st, WITCH_NONE)
    for s in range(3):
        assert st.piles[s] + st.hands[s][::-1] == before[s]


def test_witch_with_two_players_offers_move_or_none():
    st = witch_position(2)
    assert legal(st) == {WITCH_LEFT, WITCH_NONE}


def test_passer_remembers_its_pile_after_the_witch_moves_it():
    st = witch_position(4)
    obs_before = st.observe(0).copy()
    spec = st.game.obs_spec
    passed = spec.view(obs_before, "passed")
    assert passed[1, idx("E01")] == 1 and passed[1, idx("E02")] == 1  # on seat 1's pile
    decide(st, WITCH_LEFT)
    passed = spec.view(st.observe(0), "passed")
    assert passed[2, idx("E01")] == 1 and passed[1, idx("E01")] == 0  # the pile is at seat 2


def test_witch_left_then_pass_goes_onto_the_moved_pile():
    # example 10 + §3: after the Witch moves piles left, seat 0 passes onto the pile that now
    # lies in front of seat 1, i.e. the pile that was dealt to seat 0
    st = position(3, hands={0: ["C02", "E01", "E02"]})
    select(st, {0: play("C02")})
    decide(st, WITCH_LEFT)
    assert st.pile_ids[1] == 0
    hand0 = codes(st.hands[0])
    select(st, {0: play(hand0[0])})
    assert set(codes(st.hands[1])[:2]) == set(hand0[1:])
    assert st.kind in (SELECT, OVER)


def test_witch_with_two_players_move_swaps_the_two_piles():
    # §9.1: with 2 players left = right: "move" puts seat 0's pile in front of seat 1 and back
    st = position(2, hands={0: ["C02", "E01", "E02"]})
    select(st, {0: play("C02")})
    before = [list(p) for p in st.piles]
    decide(st, WITCH_LEFT)
    assert [p + h[::-1] for p, h in zip(st.piles, st.hands)] == [before[1], before[0]]


# --- Brother Martin ------------------------------------------------------------------------
def test_brother_martin_plays_the_top_central_card():
    st = position(3, hands={0: ["C03", "E01", "E02"]}, central_top=("E09", "E07"))
    size = len(st.central)
    select(st, {0: play("C03")})
    assert tableau_codes(st, 0) == ["C03", "E09"]
    assert len(st.central) == size - 1


def test_brother_martin_card_is_played_in_full_its_effect_resolves():
    st = position(3, hands={0: ["C03", "E01", "E02"]}, central_top=("C04", "E07", "E08"))
    select(st, {0: play("C03")})
    assert st.kind == OLLE and codes(st.hands[0]) == ["E07", "E08"]
    decide(st, play("E08"))
    assert tableau_codes(st, 0) == ["C03", "C04", "E08"]
    assert "E07" in codes(st.discards)


def test_brother_martin_with_empty_central_deck_plays_nothing():
    st = position(3, hands={0: ["C03", "E01", "E02"]}, central_len=0)
    select(st, {0: play("C03")})
    assert tableau_codes(st, 0) == ["C03"] and st.kind == SELECT


def test_brother_martin_card_with_deferred_daga_play_it():
    st = position(3, round=1, hands={0: ["C03", "E01", "E02"]}, tableau={0: ["C05"]},
                  central_top=("E09", "E07", "E08"))
    select(st, {0: play("C03")})
    assert st.kind == MARTIN and codes(st.hands[0]) == ["E09"]
    assert legal(st) == {play("E09"), via_daga("E09")}
    decide(st, play("E09"))
    assert tableau_codes(st, 0) == ["C05", "C03", "E09"] and not st.daga_used


def test_brother_martin_card_with_deferred_daga_discarded_for_two_central_cards():
    st = position(3, round=1, hands={0: ["C03", "E01", "E02"]}, tableau={0: ["C05"]},
                  central_top=("E09", "E07", "E08"))
    select(st, {0: play("C03")})
    decide(st, via_daga("E09"))
    assert tableau_codes(st, 0) == ["C05", "C03", "E07", "E08"]
    assert codes(st.discards) == ["E09"] and st.daga_used


# --- Olle Niklasson ------------------------------------------------------------------------
def test_olle_plays_one_of_two_central_cards_and_discards_the_other():
    st = position(3, hands={0: ["C04", "E01", "E02"]}, central_top=("E09", "E07"))
    select(st, {0: play("C04")})
    assert st.kind == OLLE and legal(st) == {play("E09"), play("E07")}
    decide(st, play("E07"))
    assert tableau_codes(st, 0) == ["C04", "E07"] and codes(st.discards) == ["E09"]


def test_olle_with_one_central_card_plays_it_without_asking():
    st = position(3, hands={0: ["C04", "E01", "E02"]}, central_top=("E09",), central_len=1)
    select(st, {0: play("C04")})
    assert st.kind == SELECT and tableau_codes(st, 0) == ["C04", "E09"]


def test_olle_with_empty_central_deck_does_nothing():
    st = position(3, hands={0: ["C04", "E01", "E02"]}, central_len=0)
    select(st, {0: play("C04")})
    assert st.kind == SELECT and tableau_codes(st, 0) == ["C04"]


def test_olle_with_ville_plays_both_and_discards_ville():
    st = position(3, round=1, hands={0: ["C04", "E01", "E02"]},
                  tableau={0: [{"card": "C07", "round": 0}]}, central_top=("E09", "E07"))
    select(st, {0: play("C04")})
    assert st.kind == SELECT_VILLE
    decide(st, NO_VILLE)
    assert st.kind == OLLE
    decide(st, play("E09"))
    assert st.kind == OLLE_VILLE and legal(st) == {NO_VILLE, play("E07")}
    decide(st, play("E07"))
    assert tableau_codes(st, 0) == ["C04", "E09", "E07"]
    assert codes(st.discards) == ["C07"]


def test_olle_with_ville_may_decline_ville():
    st = position(3, round=1, hands={0: ["C04", "E01", "E02"]},
                  tableau={0: [{"card": "C07", "round": 0}]}, central_top=("E09", "E07"))
    select(st, {0: play("C04")})
    decide(st, NO_VILLE)
    decide(st, play("E09"))
    decide(st, NO_VILLE)
    assert tableau_codes(st, 0) == ["C07", "C04", "E09"] and codes(st.discards) == ["E07"]


def test_olle_with_ville_played_this_round_cannot_use_him():
    st = position(3, hands={0: ["C04", "E01", "E02"], 1: ["C07", "E03", "E04"]},
                  central_top=("E09", "E07"))
    select(st, {0: play("C04"), 1: play("C07")})
    assert st.kind == OLLE
    decide(st, play("E09"))  # no Ville sub-step: Ville is seat 1's, and new this round
    assert codes(st.discards) == ["E07"]


def test_olle_card_discarded_via_deferred_daga():
    st = position(3, round=1, hands={0: ["C04", "E01", "E02"]}, tableau={0: ["C05"]},
                  central_top=("E09", "E07", "E08", "J01"))
    select(st, {0: play("C04")})
    assert legal(st) == {play("E09"), play("E07"), via_daga("E09"), via_daga("E07")}
    decide(st, via_daga("E09"))
    assert tableau_codes(st, 0) == ["C05", "C04", "E08", "J01"]
    assert sorted(codes(st.discards)) == ["E07", "E09"] and st.daga_used


# --- Daga ----------------------------------------------------------------------------------
def test_daga_on_play_discards_an_earlier_card_and_plays_two_central_cards():
    st = position(3, round=1, hands={0: ["C05", "E01", "E02"]}, tableau={0: ["J01"]},
                  central_top=("E09", "E07"))
    select(st, {0: play("C05")})
    assert st.kind == DAGA
    assert legal(st) == {discard("J01"), DAGA_KEEP}  # never Daga herself
    decide(st, discard("J01"))
    assert tableau_codes(st, 0) == ["C05", "E09", "E07"]
    assert codes(st.discards) == ["J01"] and st.daga_used


def test_daga_kept_then_deferred_at_a_later_select():
    st = position(3, round=1, hands={0: ["C05", "E01", "E02"]}, tableau={0: ["J01"]},
                  central_top=("E09", "E07"))
    select(st, {0: play("C05")})
    decide(st, DAGA_KEEP)
    assert not st.daga_used and st.kind == SELECT and st.round == 2
    hand = st.hands[0]
    assert legal(st, 0) == {play(c) for c in codes(hand)} | {via_daga(c) for c in codes(hand)}
    assert legal(st, 1) == {play(c) for c in codes(st.hands[1])}  # only Daga's owner
    chosen = hand[0]
    select(st, {0: via_daga(codes([chosen])[0])})
    assert codes(st.discards)[-1] == codes([chosen])[0]
    assert tableau_codes(st, 0)[-2:] == ["E09", "E07"] and st.daga_used
    assert not any(a >= DAGA_PLAY for a in legal(st, 0))  # once per game


def test_daga_alone_in_the_tableau_is_not_asked():
    st = position(3, hands={0: ["C05", "E01", "E02"]})
    select(st, {0: play("C05")})
    assert st.kind == SELECT and st.daga_ready and not st.daga_used
    assert via_daga(codes([st.hands[0][0]])[0]) in legal(st, 0)


def test_deferred_daga_at_select_draws_before_brother_martin():
    st = position(3, round=1, hands={0: ["E01", "E02", "E03"], 1: ["C03", "E04", "E05"]},
                  tableau={0: ["C05"]}, central_top=("E09", "E07", "E08"))
    select(st, {0: via_daga("E01"), 1: play("C03")})
    assert tableau_codes(st, 0) == ["C05", "E09", "E07"]
    assert tableau_codes(st, 1) == ["C03", "E08"]
    assert codes(st.discards) == ["E01"]


def test_deferred_daga_central_character_joins_the_queue():
    st = position(3, round=1, hands={0: ["E01", "E02", "E03"]}, tableau={0: ["C05"]},
                  central_top=("C03", "E09", "E07"))
    select(st, {0: via_daga("E01")})
    # Daga plays Brother Martin and E09; Martin's effect then plays E07
    assert tableau_codes(st, 0) == ["C05", "C03", "E09", "E07"]


def test_daga_with_one_central_card_plays_what_is_there():
    st = position(3, round=1, hands={0: ["C05", "E01", "E02"]}, tableau={0: ["J01"]},
                  central_top=("E09",), central_len=1)
    select(st, {0: play("C05")})
    decide(st, discard("J01"))
    assert tableau_codes(st, 0) == ["C05", "E09"] and not st.central


def copied_bella_position(**kw):
    return position(3, round=2, hands={0: ["C05", "E01", "E02"]},
                    tableau={0: ["E09", "C09", "E08"]},
                    copies=[{"mode": "copied", "target": "E09"}, {}, {}],
                    central_top=("E07", "J01"), **kw)


def test_daga_discarding_the_copy_source_loses_the_copy_and_the_copier_copies_again_now():
    st = copied_bella_position()
    assert st.holdings()[0].count(idx("E09")) == 2
    select(st, {0: play("C05")})
    decide(st, discard("E09"))
    assert st.kind == COPY_CHOICE and st.source == idx("C09")
    assert st.copy_mode[0] == COPY_NONE
    # copy now: only earlier Day Events (E08); Daga's 2 new cards are not played yet
    assert legal(st) == {copy("E08"), COPY_LATER}
    decide(st, copy("E08"))
    assert tableau_codes(st, 0) == ["C09", "E08", "C05", "E07", "J01"]
    assert st.copy_mode[0] == COPY_DONE and st.copy_target[0] == idx("E08")


def test_daga_discarding_the_copy_source_then_later_counts_dagas_two_cards_as_later():
    st = copied_bella_position()
    select(st, {0: play("C05")})
    decide(st, discard("E09"))
    decide(st, COPY_LATER)
    # end of the queue: E07 (a Day Event from Daga) is offered; J01 is not eligible for Bella
    assert st.kind == COPY_OFFER and st.offer == idx("E07")
    assert legal(st) == {copy("E07"), COPY_DECLINE}
    decide(st, copy("E07"))
    assert st.copy_target[0] == idx("E07") and st.kind == SELECT


def test_daga_discarding_the_copier_loses_the_copy():
    st = copied_bella_position()
    select(st, {0: play("C05")})
    decide(st, discard("C09"))
    assert st.kind == SELECT
    assert st.copy_mode[0] == COPY_NONE and st.holdings()[0].count(idx("E09")) == 1


# --- Yule Goat -----------------------------------------------------------------------------
def yule_position(tableau0=("C06",), seat2_hand=("E09", "E07", "E08"), **kw):
    # round 9 is the last of 10; seat 2 passes its two unkept cards onto seat 0's empty pile
    return position(3, round=9, hands={0: ["J01", "J02", "J03"], 2: list(seat2_hand)},
                    tableau={0: list(tableau0)}, **kw)


def test_yule_goat_plays_one_of_the_two_pile_cards_and_discards_the_other():
    st = yule_position()
    select(st, {2: play("E09")})
    assert st.kind == YULE and st.round == 10
    assert sorted(codes(st.hands[0])) == ["E07", "E08"]
    decide(st, play("E07"))
    assert st.kind == OVER
    assert "E07" in tableau_codes(st, 0) and "E08" in codes(st.discards)
    assert [len(p) for p in st.piles] == [0, 2, 2]


def test_without_yule_goat_every_pile_ends_with_two_cards():
    st = yule_position(tableau0=())
    select(st, {2: play("E09")})
    assert st.kind == OVER and [len(p) for p in st.piles] == [2, 2, 2]


def test_yule_goat_with_ville_plays_both_and_discards_ville():
    st = yule_position(tableau0=("C06", {"card": "C07", "round": 3}))
    select(st, {2: play("E09")})
    assert st.kind == SELECT_VILLE  # Ville is offered at the last select too
    decide(st, NO_VILLE)
    decide(st, play("E07"))
    assert st.kind == YULE_VILLE
    decide(st, play("E08"))
    assert st.kind == OVER
    assert tableau_codes(st, 0)[-2:] == ["E07", "E08"] and "C07" in codes(st.discards)


def test_yule_goat_card_via_deferred_daga():
    st = yule_position(tableau0=("C06", "C05"), central_top=("J04", "J05"))
    select(st, {2: play("E09")})
    assert via_daga("E07") in legal(st)
    decide(st, via_daga("E07"))
    assert st.kind == OVER
    assert tableau_codes(st, 0)[-2:] == ["J04", "J05"]
    assert {"E07", "E08"} <= set(codes(st.discards))


def test_yule_goat_card_effect_resolves_then_a_final_copy_step():
    # seat 0 waits with Bella "later"; the Yule Goat plays Brother Martin, who plays E09
    st = yule_position(tableau0=("C06", "C09"), seat2_hand=("E01", "C03", "E08"),
                       central_top=("E09",), copies=[{"mode": "later", "since": 0}, {}, {}])
    select(st, {2: play("E01")})
    assert st.kind == YULE
    decide(st, play("C03"))
    assert st.kind == COPY_OFFER and st.offer == idx("E09")
    decide(st, copy("E09"))
    assert st.kind == OVER and st.score_breakdown()[0]["events"] == 8


def test_yule_goat_with_five_players_comes_after_round_8():
    # §3: 8 rounds with 5 players; round index 7 is the last; the Yule Goat stage follows
    from tablezoo.envs.bauer_draft.actions import YULE

    st = position(5, round=7, hands={0: ["J01", "J02", "J03"], 4: ["E09", "E07", "E08"]},
                  tableau={0: ["C06"]})
    assert all(len(p) == 0 for p in st.piles)
    select(st, {4: play("E09")})
    assert st.kind == YULE and st.round == 8
    assert sorted(codes(st.hands[0])) == ["E07", "E08"]
    decide(st, play("E08"))
    assert st.kind == OVER and "E07" in codes(st.discards)
    assert [len(p) for p in st.piles] == [0, 2, 2, 2, 2]


# --- Ville Vallareman ----------------------------------------------------------------------
def ville_position(**kw):
    return position(3, round=1, hands={0: ["E09", "E07", "E08"]},
                    tableau={0: [{"card": "C07", "round": 0}]}, **kw)


def test_ville_taken_back_to_play_two_cards():
    st = ville_position()
    select(st, {0: play("E09")})
    assert st.kind == SELECT_VILLE and st.acting_players() == (0,)
    assert legal(st) == {NO_VILLE, play("E07"), play("E08")}
    decide(st, play("E07"))
    assert tableau_codes(st, 0) == ["E09", "E07"]
    # seat 1 drew the passed card and Ville
    assert codes(st.hands[1])[:2] == ["C07", "E08"]
    assert st.plays[0] == 3  # Ville (earlier) + 2 this round


def test_ville_use_is_public_and_others_remember_where_he_went():
    st = ville_position()
    select(st, {0: play("E09")})
    decide(st, play("E07"))
    spec = st.game.obs_spec
    # seat 2 sees Ville went to seat 1's pile (seat 1 is 2 seats after seat 2)
    assert spec.view(st.observe(2), "passed")[2, idx("C07")] == 1


def test_ville_declined_plays_one_card():
    st = ville_position()
    select(st, {0: play("E09")})
    decide(st, NO_VILLE)
    assert tableau_codes(st, 0) == ["C07", "E09"]


def test_ville_second_card_via_daga():
    st = position(3, round=1, hands={0: ["E09", "E07", "E08"]},
                  tableau={0: [{"card": "C07", "round": 0}, "C05"]}, central_top=("J01", "J02"))
    select(st, {0: play("E09")})
    assert legal(st) == {NO_VILLE, play("E07"), play("E08"), via_daga("E07"), via_daga("E08")}
    decide(st, via_daga("E07"))
    assert tableau_codes(st, 0) == ["C05", "E09", "J01", "J02"]
    assert codes(st.discards) == ["E07"]


def test_ville_first_card_via_daga_then_no_second_daga():
    st = position(3, round=1, hands={0: ["E09", "E07", "E08"]},
                  tableau={0: [{"card": "C07", "round": 0}, "C05"]}, central_top=("J01", "J02"))
    select(st, {0: via_daga("E09")})
    assert legal(st) == {NO_VILLE, play("E07"), play("E08")}


def test_ville_played_this_round_is_not_used_until_the_next_round():
    st = position(3, hands={0: ["C07", "E01", "E02"]})
    select(st, {0: play("C07")})
    assert st.kind == SELECT and st.round == 1  # no Ville sub-step in round 0
    select(st, {})
    assert st.kind == SELECT_VILLE and st.decider == 0


# --- copy characters -----------------------------------------------------------------------
def test_bella_copy_now_offers_only_earlier_day_events():
    st = position(3, round=1, hands={0: ["C09", "E01", "E02"]},
                  tableau={0: ["E09", "J01", "NE3", "D07"]})
    select(st, {0: play("C09")})
    assert st.kind == COPY_CHOICE
    assert legal(st) == {copy("E09"), COPY_LATER}
    decide(st, copy("E09"))
    assert st.score_breakdown()[0]["events"] == 4 + 4 + 4  # E09, its copy, NE3


def test_bella_copy_later_accepts_a_later_event():
    st = position(3, round=1, hands={0: ["C09", "E01", "E02"]}, tableau={0: ["E09"]})
    select(st, {0: play("C09")})
    decide(st, COPY_LATER)
    assert st.kind == SELECT and st.copy_mode[0] == COPY_WAIT
    nxt = codes(st.hands[0])
    event = next(c for c in nxt if c.startswith("E"))
    select(st, {0: play(event)})
    assert st.kind == COPY_OFFER and st.offer == idx(event)
    decide(st, copy(event))
    assert st.copy_target[0] == idx(event)


def test_bella_copy_later_declined_then_never_copied_scores_as_a_plain_character():
    st = position(2, round=8, hands={0: ["C09", "E01", "E02"], 1: ["E07", "E08", "E03"]},
                  tableau={0: ["E09"]})
    select(st, {0: play("C09")})
    decide(st, COPY_LATER)
    select(st, {0: play("E08")})  # seat 1 passed E08 and E03 to seat 0
    assert st.kind == COPY_OFFER and st.offer == idx("E08")
    decide(st, COPY_DECLINE)
    assert st.kind == OVER and st.copy_mode[0] == COPY_WAIT
    assert st.holdings()[0] == [idx("E09"), idx("C09"), idx("E08")]


def test_bella_waiting_is_not_offered_non_events():
    st = position(3, round=1, hands={0: ["C09", "E01", "E02"]})
    select(st, {0: play("C09")})  # nothing eligible yet: "later" without asking
    assert st.kind == SELECT and st.copy_mode[0] == COPY_WAIT
    st2 = position(3, round=2, hands={0: ["J01", "NE1", "D07"]}, tableau={0: ["C09"]},
                   copies=[{"mode": "later", "since": 0}, {}, {}])
    select(st2, {0: play("J01")})
    assert st2.kind == SELECT  # a Journey is not offered to Bella


def test_adventure_boy_copies_a_day_journey_or_danger():
    st = position(3, round=1, hands={0: ["C10", "E01", "E02"]},
                  tableau={0: ["E09", "J01", "D07", "ND3"]})
    select(st, {0: play("C10")})
    assert legal(st) == {copy("J01"), copy("D07"), COPY_LATER}
    decide(st, copy("D07"))
    h = st.holdings()[0]
    assert h.count(idx("D07")) == 2
    from tablezoo.envs.bauer_draft.scoring import Holding

    assert Holding(h).swords == 3 + 3 + 3


def test_adventure_boy_later_is_offered_a_danger_from_brother_martin():
    st = position(3, round=1, hands={0: ["C03", "E01", "E02"]}, tableau={0: ["C10"]},
                  copies=[{}, {"mode": "later", "since": 0}, {}], central_top=("D08",))
    select(st, {0: play("C03")})
    assert st.kind == COPY_OFFER and st.offer == idx("D08")
    decide(st, copy("D08"))
    assert st.copy_target[1] == idx("D08")


def test_humpe_copies_a_night_card_hidden_from_the_others():
    st = position(3, round=1, hands={0: ["C11", "E01", "E02"]}, tableau={0: ["NE3", "E09"]})
    select(st, {0: play("C11")})
    assert legal(st) == {copy("NE3"), COPY_LATER}
    decide(st, copy("NE3"))
    assert st.score_breakdown()[0]["events"] == 4 + 4 + 4
    spec = st.game.obs_spec
    mine, other = spec.split(st.observe(0)), spec.split(st.observe(1))
    assert mine["copies"][0, idx("NE3")] == 1
    assert other["copies"].sum() == 0  # seat 1 does not see the target ...
    assert other["copiers"][2, 2, 2] == 1  # ... only that Humpe (seat 0, 2 after 1) copied
    assert other["night_count"][2] == 2  # the copy counts as a Night card
    assert st.night_counts()[0] == 2


def test_humpe_copy_counts_for_longlegged_skutt():
    st = position(2, kind="over", round=10, pile_len=2,
                  tableau={0: ["N01", "C11", "NE1"], 1: ["NE2", "NJ1"]},
                  copies=[{}, {}, {"mode": "copied", "target": "NE1"}])
    assert st.score_breakdown()[0]["night_prizes"] == 6  # 3 Night cards against 2


def test_copier_with_nothing_eligible_and_nothing_later_stays_plain():
    st = position(2, kind="over", round=10, pile_len=2, tableau={0: ["C11", "E09"]},
                  copies=[{}, {}, {"mode": "later", "since": 0}])
    assert st.holdings()[0] == [idx("C11"), idx("E09")]
    assert st.score_breakdown()[0]["events"] == 4


def test_olle_card_is_played_in_full_its_effect_resolves():
    st = position(3, hands={0: ["C04", "E01", "E02"]}, central_top=("C02", "E07"))
    select(st, {0: play("C04")})
    decide(st, play("C02"))  # Olle plays the Witch: her effect joins the queue
    assert st.kind == WITCH and st.decider == 0 and codes(st.discards) == ["E07"]


def test_deferred_daga_with_empty_central_deck_discards_and_plays_nothing():
    st = position(3, round=1, hands={0: ["E01", "E02", "E03"]}, tableau={0: ["C05"]},
                  central_len=0)
    select(st, {0: via_daga("E01")})
    assert tableau_codes(st, 0) == ["C05"] and codes(st.discards)[-1] == "E01" and st.daga_used


def test_humpe_later_is_offered_a_night_card_only_the_owner_sees():
    st = position(3, round=1, hands={0: ["C03", "E01", "E02"]}, tableau={0: ["C11"]},
                  copies=[{}, {}, {"mode": "later", "since": 0}], central_top=("ND4",))
    select(st, {0: play("C03")})
    assert st.kind == COPY_OFFER and st.offer == idx("ND4") and st.acting_players() == (0,)
    spec = st.game.obs_spec
    assert spec.view(st.observe(0), "focus")[idx("ND4")] == 1
    assert spec.view(st.observe(1), "focus").sum() == 0
    assert spec.view(st.observe(1), "tableau")[2, idx("ND4")] == 0
    decide(st, copy("ND4"))
    from tablezoo.envs.bauer_draft.scoring import Holding

    assert Holding(st.holdings()[0]).swords == 6 and st.night_counts()[0] == 2


def test_witch_direction_is_public_as_the_pile_shift():
    st = witch_position(4)
    spec = st.game.obs_spec
    assert spec.view(st.observe(2), "pile_shift").tolist() == [1, 0, 0, 0]
    decide(st, WITCH_RIGHT)
    for seat in range(4):
        assert spec.view(st.observe(seat), "pile_shift").tolist() == [0, 0, 0, 1]
