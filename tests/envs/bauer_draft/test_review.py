"""Independent rules-fidelity review of ``bauer_draft`` (spec ``shared/rules/bauer_draft.md``).

Every expected number below is worked out by hand from the spec (the section is named in each
test), never read back from the engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from tests.envs.bauer_draft.positions import (
    codes,
    decide,
    discard,
    idx,
    play,
    position,
    select,
    tableau_codes,
)
from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    DAGA,
    OLLE,
    OVER,
    SELECT,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
)
from tablezoo.envs.bauer_draft.rules import BauerDraftGame


def final(n: int, tableau: dict, **kw):
    """An end-of-game position with the given tableaux."""
    return position(n, round=10 if n < 5 else 8, kind="over", tableau=tableau, pile_len=2, **kw)


def parts(state, category: str) -> list[float]:
    return [d[category] for d in state.score_breakdown()]


def obs(state, seat: int) -> dict:
    return state.game.obs_spec.split(state.observe(seat))


# --- §5.3 Dangers --------------------------------------------------------------------------
@pytest.mark.parametrize("n,tableau,expected", [
    # 3 > 2 > 1: first 12, second 6, third nothing
    (3, {0: ["D07"], 1: ["D04"], 2: ["D01"]}, [12, 6, 0]),
    # 3 > 2 = 2: a tie for second shares 6 -> 3 each
    (3, {0: ["D07"], 1: ["D04"], 2: ["D05"]}, [12, 3, 3]),
    # 2 players 3 = 3: a tie for first shares 18 -> 9 each
    (2, {0: ["D07"], 1: ["D08"]}, [9, 9]),
    # 5 players, 3 = 3 > 2 > 1: 9, 9 and nobody second, even with swords
    (5, {0: ["D07"], 1: ["ND3"], 2: ["D04"], 3: ["D01"]}, [9, 9, 0, 0, 0]),
    # 5 players all on 3 swords: 18 / 5 = 3.6 rounds up to 4 each
    (5, {0: ["D07"], 1: ["D08"], 2: ["ND3"], 3: ["ND4"], 4: ["D04", "D01"]}, [4, 4, 4, 4, 4]),
    # a lone player with swords takes 12; the others have none and are out
    (4, {2: ["D01"]}, [0, 0, 12, 0]),
    # 3 swords from one Night Danger count like Day swords
    (3, {0: ["ND3"], 1: ["D04"]}, [12, 6, 0]),
])
def test_danger_places_and_shares(n, tableau, expected):
    assert parts(final(n, tableau), "dangers") == expected


# --- §5.2 Journeys, §4 copies --------------------------------------------------------------
def test_adventure_boy_copy_of_a_journey_counts_as_a_sixth_journey():
    # 5 Day Journeys + a copy of J01 = 6 Journeys: 18 + 4 = 22 (no Night Journey)
    st = final(2, {0: ["J01", "J02", "J03", "J04", "J05", "C10"]},
               copies=[{}, {"mode": "copied", "target": "J01"}, {}])
    assert parts(st, "journeys")[0] == 22


def test_night_journeys_alone():
    # 2 Night Journeys: 2 Journeys = 3, +1 each for Night = 5
    assert parts(final(2, {1: ["NJ1", "NJ2"]}), "journeys") == [0, 5]


# --- §5.4 Themes ---------------------------------------------------------------------------
def test_three_tags_of_a_theme_score_nothing_and_a_copy_makes_four():
    # W tags: E06 (W), J03 (W), D05 (W) = 3 -> 0 points
    assert parts(final(2, {0: ["E06", "J03", "D05", "C09"]}), "themes")[0] == 0
    # Bella copies E06: a 4th W tag -> 4 points
    st = final(2, {0: ["E06", "J03", "D05", "C09"]},
               copies=[{"mode": "copied", "target": "E06"}, {}, {}])
    assert parts(st, "themes")[0] == 4


# --- §5.5 Quests ---------------------------------------------------------------------------
def test_yule_goat_quest_needs_two_beast_tags_a_copy_supplies_the_second():
    # Yule Goat quest B B T K (5): E09 gives B, J07 T, J06 K -> one B short -> 0
    base = {0: ["C06", "E09", "J07", "J06", "C09"]}
    assert parts(final(2, base), "quests")[0] == 0
    # Bella copies E09 (B): B B T K complete -> 5
    st = final(2, base, copies=[{"mode": "copied", "target": "E09"}, {}, {}])
    assert parts(st, "quests")[0] == 5


def test_one_tag_serves_several_quests_and_tuvstarr_counts_them():
    # tags K (J06), P (J08), T (J07): Brother Martin K P (2) and Ville K P T (5) both complete
    st = final(2, {0: ["C03", "C07", "J06", "J08", "J07", "N06"]})
    assert parts(st, "quests")[0] == 7
    assert parts(st, "night_prizes")[0] == 2 * 2  # Princess Tuvstarr: 2 completed quests


def test_toyvik_without_one_theme_scores_no_set():
    # W K T P but no B: 0 sets, and Tuvstarr gets nothing from Toyvik
    st = final(2, {0: ["C08", "J03", "J06", "J07", "J08", "N06"]})
    assert parts(st, "quests")[0] == 0 and parts(st, "night_prizes")[0] == 0


def test_toyvik_counts_only_complete_sets():
    # W: E01 E02 -> 2, K: E01 J06 -> 2, T: E01 J07 -> 2, P: E02 J08 -> 2, B: E02 -> 1: 1 set
    st = final(2, {0: ["C08", "E01", "E02", "J06", "J07", "J08"]})
    assert parts(st, "quests")[0] == 5


# --- §6 Night prizes -----------------------------------------------------------------------
def test_skutt_strictly_most_night_cards_among_three_players():
    # Night counts 2 (N01, NE1), 1, 1 -> 6
    st = final(3, {0: ["N01", "NE1"], 1: ["NE2"], 2: ["NJ1"]})
    assert parts(st, "night_prizes") == [6, 0, 0]
    # 2, 2, 1 -> tie for most: nothing
    st = final(3, {0: ["N01", "NE1"], 1: ["NE2", "NJ2"], 2: ["NJ1"]})
    assert parts(st, "night_prizes") == [0, 0, 0]


def test_skogsra_counts_the_tags_of_copies():
    # tags: E01 (3) + E02 (3) + J01 (3) + E03 (2) = 11 -> 13 - 11 = 2
    base = {0: ["N07", "E01", "E02", "J01", "E03", "C09"]}
    assert parts(final(2, base), "night_prizes")[0] == 2
    # Bella copies E03 (T T): 13 tags -> 0
    st = final(2, base, copies=[{"mode": "copied", "target": "E03"}, {}, {}])
    assert parts(st, "night_prizes")[0] == 0


def test_silver_knight_and_king_death_count_copies():
    # Dangers: D07 (3 swords), D08 (3) + Adventure Boy copy of D08 -> 3 Dangers, 9 swords;
    # Events: E09, NE1 -> 2. Silver Knight takes Danger: 3. King Death: 9.
    st = final(2, {0: ["N03", "N04", "D07", "D08", "E09", "NE1", "C10"]},
               copies=[{}, {"mode": "copied", "target": "D08"}, {}])
    assert parts(st, "night_prizes")[0] == 3 + 9


def test_big_jock_counts_day_and_night_cards():
    # Events E09, NE1 (2); Journeys J01, NJ1 (2); Dangers D01, ND1, D07 (3) -> 2 sets -> 6
    st = final(2, {0: ["N05", "E09", "NE1", "J01", "NJ1", "D01", "ND1", "D07"]})
    assert parts(st, "night_prizes")[0] == 6


def test_wing_mother_picks_the_best_theme():
    # W: E06, J03, D05 (3); K: E07, J06 (2) -> 3
    st = final(2, {0: ["N02", "E06", "J03", "D05", "E07", "J06"]})
    assert parts(st, "night_prizes")[0] == 3


def test_full_breakdown_of_one_player():
    # E09 (4 pts, B), J02 (P B), D08 (3 swords, B), NJ1, C01 Uggel-Guggel (quest T T B: 5)
    # events 4; journeys 2 Journeys = 3, +1 Night = 4; dangers: alone with swords = 12;
    # themes: B = 3 -> 0; quests: T missing -> 0; no Night characters
    st = final(2, {0: ["E09", "J02", "D08", "NJ1", "C01"]})
    assert st.score_breakdown()[0] == {"events": 4, "journeys": 4, "dangers": 12, "themes": 0,
                                       "quests": 0, "night_prizes": 0}
    assert st.scores()[0] == 20


# --- §10 rewards ---------------------------------------------------------------------------
def test_rank_rewards_four_players_three_way_tie_for_first():
    # scores 4, 4, 4, 1: places +1, +1/3, -1/3 shared -> 1/3 each; last -1
    st = final(4, {0: ["E09"], 1: ["NE3"], 2: ["NE4"], 3: ["E01"]})
    assert st.scores() == [4, 4, 4, 1]
    assert st.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3, -1])


def test_rank_rewards_five_players_tie_in_the_middle():
    # scores 4, 3, 3, 2, 1: places 1, 0.5, 0, -0.5, -1; the tie shares (0.5 + 0) / 2
    st = final(5, {0: ["E09"], 1: ["E07"], 2: ["E08"], 3: ["E03"], 4: ["E01"]})
    assert st.scores() == [4, 3, 3, 2, 1]
    assert st.returns() == pytest.approx([1, 0.25, 0.25, -0.5, -1])


def test_two_player_rewards_win_and_draw():
    assert final(2, {0: ["E09"], 1: ["E07"]}).returns() == [1, -1]
    assert final(2, {0: ["E09"], 1: ["NE3"]}).returns() == [0, 0]


def test_margin_reward_with_a_tie_for_best():
    game = BauerDraftGame(num_players=3, reward="margin")
    data = final(3, {0: ["E09"], 1: ["NE3"], 2: ["E01"]}).to_dict()
    data.pop("options")
    assert game.state_from_dict(data).returns() == [0, 0, -3]


# --- §2, §3 setup, passing, rounds ---------------------------------------------------------
def test_four_players_last_seat_passes_to_seat_0():
    st = position(4, hands={3: ["E01", "E02", "E03"]})
    select(st, {3: play("E01")})
    assert set(codes(st.hands[0])[:2]) == {"E02", "E03"}


@pytest.mark.parametrize("n", [2, 3])
def test_ten_rounds_of_one_card_each_leave_two_cards_per_pile(n):
    # §2/§3: 12-card piles, 10 rounds of draw 3 / keep 1 / pass 2 -> 10 cards played per seat and
    # 12 - 10 = 2 cards left in every pile (piles hold plain cards only: no effect decisions)
    st = position(n)
    for _ in range(10):
        assert st.kind == SELECT
        select(st, {})
    assert st.kind == OVER
    assert [len(p) for p in st.piles] == [2] * n
    assert [len(t) for t in st.tableau] == [10] * n
    assert st.round == 10


# --- §3.3 reveal order and the effect queue ------------------------------------------------
def test_reveal_resolves_by_card_id_not_by_seat_and_effect_cards_join_the_end():
    # seat 0 plays Olle (C04), seat 1 Brother Martin (C03): C03 resolves first and takes the
    # top central card (the Witch C02), whose effect goes to the END of the queue; then Olle
    # draws the next 2 (E09, E07); the Witch is decided last
    st = position(3, hands={0: ["C04", "E01", "E02"], 1: ["C03", "E03", "E04"]},
                  central_top=("C02", "E09", "E07"))
    select(st, {0: play("C04"), 1: play("C03")})
    assert tableau_codes(st, 1) == ["C03", "C02"]
    assert st.kind == OLLE and st.decider == 0 and sorted(codes(st.hands[0])) == ["E07", "E09"]
    decide(st, play("E09"))
    assert st.kind == WITCH and st.decider == 1
    decide(st, WITCH_NONE)
    assert st.kind == SELECT and st.round == 1


def test_daga_resolves_before_a_copier_of_the_same_reveal():
    # seat 0 has Ville (earlier round) and plays Bella (C09) and Daga (C05) together: Daga (C05)
    # resolves first, then Bella may copy; E09 discarded by Daga cannot be copied any more
    st = position(3, round=1, hands={0: ["C09", "C05", "E01"]},
                  tableau={0: [{"card": "C07", "round": 0}, "E09", "E08"]},
                  central_top=("J01", "J02"))
    select(st, {0: play("C09")})
    decide(st, play("C05"))  # Ville: play Daga too
    assert st.kind == DAGA
    decide(st, discard("E09"))
    assert st.kind == COPY_CHOICE and st.source == idx("C09")
    legal = set(st.legal_actions(0))
    from tablezoo.envs.bauer_draft.actions import COPY, COPY_LATER

    assert legal == {COPY + idx("E08"), COPY_LATER}


# --- §7 information ------------------------------------------------------------------------
def test_night_card_played_by_brother_martin_is_hidden_but_counted():
    st = position(3, hands={0: ["C03", "E01", "E02"]}, central_top=("NE3",))
    select(st, {0: play("C03")})
    other, mine = obs(st, 1), obs(st, 0)
    assert other["tableau"][2, idx("NE3")] == 0 and other["night_count"][2] == 1
    assert other["tableau"][2, idx("C03")] == 1
    assert mine["tableau"][0, idx("NE3")] == 1 and mine["night_count"][0] == 1


def test_night_card_discarded_by_daga_is_revealed_to_everyone():
    st = position(3, round=1, hands={0: ["C05", "E01", "E02"]}, tableau={0: ["NE3"]},
                  central_top=("E09", "E07"))
    select(st, {0: play("C05")})
    decide(st, discard("NE3"))
    for seat in (1, 2):
        o = obs(st, seat)
        assert o["discards"][idx("NE3")] == 1
        assert o["night_count"][(0 - seat) % 3] == 0


def test_olle_leftover_is_public_and_his_choice_hidden_while_pending():
    st = position(3, hands={0: ["C04", "E01", "E02"]}, central_top=("NE3", "E07"))
    select(st, {0: play("C04")})
    assert st.kind == OLLE
    assert obs(st, 1)["hand"].sum() == 0 and obs(st, 0)["hand"][idx("NE3")] == 1
    decide(st, play("NE3"))
    o = obs(st, 1)
    assert o["discards"][idx("E07")] == 1 and o["night_count"][2] == 1
    assert o["tableau"][2, idx("NE3")] == 0


def test_observation_shows_pile_and_central_sizes_from_each_seat():
    st = position(4, hands={0: ["C03", "E01", "E02"]}, central_top=("E09",))
    central = len(st.central)
    select(st, {0: play("C03")})
    for seat in range(4):
        o = obs(st, seat)
        assert o["central_size"][0] == central - 1
        assert o["pile_size"].tolist() == [len(st.piles[(seat + r) % 4]) for r in range(4)]


def test_determinize_keeps_my_night_cards_and_my_humpe_target():
    st = position(3, round=2, hands={0: ["E01", "E02", "E03"]},
                  tableau={0: ["NE3", "C11"], 1: ["ND4", "E09"]},
                  copies=[{}, {}, {"mode": "copied", "target": "NE3"}])
    for seed in range(10):
        d = st.determinize(0, np.random.default_rng(seed))
        assert d.tableau[0] == st.tableau[0] and d.copy_target[2] == idx("NE3")
        assert d.hands[0] == st.hands[0]
        assert idx("E09") in d.tableau[1]  # public Day card stays
        assert len(d.tableau[1]) == 2


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


def test_determinize_keeps_a_passed_day_card_the_next_seat_did_not_keep():
    # §7 / determinize: seat 0 passes E02, E03 to seat 1; seat 1 draws them with J01 and keeps
    # J01 (a Day card everyone sees), so seat 0 knows E02 and E03 went on to seat 2's pile, and
    # seat 2 drew them in the next round
    st = position(4, hands={0: ["E01", "E02", "E03"]}, pile_tops={1: ["J01"]})
    select(st, {0: play("E01")})
    assert set(codes(st.hands[1])) == {"E02", "E03", "J01"}
    select(st, {1: play("J01")})
    assert {"E02", "E03"} <= set(codes(st.hands[2]))
    for seed in range(10):
        d = st.determinize(0, np.random.default_rng(seed))
        assert {"E02", "E03"} <= set(codes(d.hands[2]))


def test_determinize_forgets_a_passed_night_card_when_the_holder_kept_one_face_down():
    # seat 0 passes NE1 and E02; seat 1 keeps a face-down card: it may be NE1 (or its pile card
    # NE2), so seat 0 cannot place NE1 any more
    st = position(4, hands={0: ["E01", "E02", "NE1"]}, pile_tops={1: ["NE2"]})
    select(st, {0: play("E01")})
    select(st, {1: play("NE2")})
    assert idx("NE1") not in st.tracked[0]
    assert idx("E02") in st.tracked[0]  # the Day card was surely passed on


def test_observation_tells_which_effect_played_a_night_card():
    # §7: "the others see the owner's Night count rise and which effect played it"
    st = position(3, round=1, hands={0: ["C03", "E01", "E02"], 1: ["NE1", "E03", "E04"]},
                  tableau={0: ["NE2"]}, central_top=("NE3",))
    select(st, {0: play("C03"), 1: play("NE1")})
    from tablezoo.envs.bauer_draft.effects import BY_MARTIN, BY_SELECT

    for seat in range(3):
        by = obs(st, seat)["night_by"]
        r0, r1 = (0 - seat) % 3, (1 - seat) % 3
        assert by[r0, BY_SELECT] == 1 and by[r0, BY_MARTIN] == 1  # NE2 earlier, NE3 by Martin
        assert by[r1, BY_SELECT] == 1 and by[r1].sum() == 1  # NE1 selected
        assert by.sum() == 3


def test_determinize_keeps_a_passed_night_card_when_the_holder_kept_a_day_card():
    # seat 0 passes NE1 and E02 to seat 1, who keeps J01 face up: both went on to seat 2
    st = position(4, hands={0: ["E01", "E02", "NE1"]}, pile_tops={1: ["J01"]})
    select(st, {0: play("E01")})
    select(st, {1: play("J01")})
    assert {"NE1", "E02"} <= set(codes(st.hands[2]))
    for seed in range(10):
        d = st.determinize(0, np.random.default_rng(seed))
        assert {"NE1", "E02"} <= set(codes(d.hands[2]))


def test_witch_with_two_players_move_swaps_the_two_piles():
    # §9.1: with 2 players left = right: "move" puts seat 0's pile in front of seat 1 and back
    st = position(2, hands={0: ["C02", "E01", "E02"]})
    select(st, {0: play("C02")})
    before = [list(p) for p in st.piles]
    decide(st, WITCH_LEFT)
    assert [p + h[::-1] for p, h in zip(st.piles, st.hands)] == [before[1], before[0]]


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
