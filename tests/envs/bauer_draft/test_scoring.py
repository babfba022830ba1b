"""Scoring (rules §5, §6), the scoring worked examples of §11 and the rewards (§10), on built end
positions."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.actions import OVER
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.bauer_draft.scoring import Holding, danger_points, journey_points
from tests.envs.bauer_draft.positions import idx, position


def final(n: int, tableau: dict, **kw):
    """An end-of-game position with the given tableaux (each entry a card id or dict)."""
    return position(n, round=10 if n < 5 else 8, kind="over", tableau=tableau, pile_len=2, **kw)


def part(state, seat: int, category: str) -> float:
    return state.score_breakdown()[seat][category]


# --- worked example 1: Journeys ------------------------------------------------------------
def test_example_1_six_journeys_two_of_them_night_score_24():
    st = final(2, {0: ["J01", "J02", "J03", "J04", "NJ1", "NJ2"]})
    assert part(st, 0, "journeys") == 24  # 18 + 4 + 2


@pytest.mark.parametrize("count,expected", [(0, 0), (1, 1), (2, 3), (3, 7), (4, 12), (5, 18),
                                            (6, 22), (7, 26), (8, 30)])
def test_journey_table_day_only(count, expected):
    assert journey_points(count, 0) == expected


# --- worked examples 2 and 7: Dangers ------------------------------------------------------
@pytest.mark.parametrize("tableau,expected", [
    # swords 5, 5, 3, 0 -> shared first 18 / 2 = 9 each, nobody second
    ({0: ["D07", "D04"], 1: ["D08", "D05"], 2: ["ND3"]}, [9, 9, 0, 0]),
    # swords 6, 3, 3, 0 -> 12, then a tie for second shares 6
    ({0: ["D07", "D08"], 1: ["ND3"], 2: ["ND4"]}, [12, 3, 3, 0]),
    # swords 4, 4, 4, 1 -> 18 / 3 = 6 each, the 1 sword gets nothing
    ({0: ["D07", "D01"], 1: ["D08", "D02"], 2: ["ND1", "ND2"], 3: ["D03"]}, [6, 6, 6, 0]),
])
def test_example_2_dangers_four_players(tableau, expected):
    st = final(4, tableau)
    assert [part(st, s, "dangers") for s in range(4)] == expected


@pytest.mark.parametrize("tableau,expected", [
    # swords 4, 4, 4, 4, 1 -> 18 / 4 = 4.5 rounds up to 5
    ({0: ["D07", "D01"], 1: ["D08", "D02"], 2: ["ND1", "ND2"], 3: ["D04", "D05"], 4: ["D03"]},
     [5, 5, 5, 5, 0]),
    # swords 5, 3, 3, 3, 3 -> 12 and 6 / 4 = 1.5 rounds up to 2
    ({0: ["D07", "D04"], 1: ["D08"], 2: ["ND3"], 3: ["ND4"], 4: ["D05", "D01"]},
     [12, 2, 2, 2, 2]),
])
def test_example_7_danger_rounding_five_players(tableau, expected):
    st = final(5, tableau)
    assert [part(st, s, "dangers") for s in range(5)] == expected


def test_danger_table_direct_cases():
    assert danger_points([0, 0, 0]) == [0, 0, 0]
    assert danger_points([3, 0]) == [12, 0]
    assert danger_points([3, 1]) == [12, 6]
    assert danger_points([2, 2]) == [9, 9]
    assert danger_points([7, 3, 3, 3]) == [12, 2, 2, 2]


# --- worked example 3: themes ----------------------------------------------------------------
def test_example_3_themes_four_knight_five_troll_three_witch_score_9():
    # K: E07 J06 D06 E04(+P); T: E03(TT) J07 D04 J05(+B); W: E06 J03 D05
    st = final(2, {0: ["E07", "J06", "D06", "E04", "E03", "J07", "D04", "J05", "E06", "J03",
                       "D05"]})
    h = Holding([idx(c) for c in ["E07", "J06", "D06", "E04", "E03", "J07", "D04", "J05",
                                  "E06", "J03", "D05"]])
    assert h.tags == [3, 4, 5, 1, 1]
    assert part(st, 0, "themes") == 9


# --- worked example 4: Toyvik and Tuvstarr -------------------------------------------------
TOYVIK_TAGS = ["E01", "E02", "J01", "J04", "D01", "E08", "E09", "D07"]  # W3 K3 T3 P4 B3


def test_example_4_toyvik_three_sets_score_15():
    st = final(2, {0: ["C08", *TOYVIK_TAGS]})
    assert Holding([idx(c) for c in TOYVIK_TAGS]).tags == [3, 3, 3, 4, 3]
    assert part(st, 0, "quests") == 15


def test_example_4_tuvstarr_with_toyvik_and_one_other_quest_scores_8():
    # Brother Martin's quest (K P) is also complete: 3 Toyvik sets + 1 = 4 quests
    st = final(2, {0: ["C08", "C03", "N06", *TOYVIK_TAGS]})
    assert part(st, 0, "quests") == 15 + 2
    assert part(st, 0, "night_prizes") == 8


def test_quests_need_every_tag_and_share_tags():
    # Uggel-Guggel T T B and Yule Goat B B T K from E03 (TT) D01 (TB) E09 (B) J06 (K)
    st = final(2, {0: ["C01", "C06", "E03", "D01", "E09", "J06"], 1: ["C02", "E06", "J03"]})
    assert part(st, 0, "quests") == 5 + 5
    assert part(st, 1, "quests") == 0  # the Witch needs W W W; seat 1 has only 2


# --- worked example 5: Skogsra -------------------------------------------------------------
def test_example_5_skogsra_seven_tags_scores_6_and_fifteen_tags_scores_0():
    seven = final(2, {0: ["N07", "E01", "E02", "E06"]})
    assert part(seven, 0, "night_prizes") == 6
    fifteen = final(2, {0: ["N07", "E01", "E02", "J01", "J02", "J04", "D01"]})
    assert sum(Holding([idx(c) for c in ["E01", "E02", "J01", "J02", "J04", "D01"]]).tags) == 15
    assert part(fifteen, 0, "night_prizes") == 0


# --- worked example 6: Big Jock ------------------------------------------------------------
def test_example_6_big_jock_three_events_two_journeys_five_dangers_scores_6():
    st = final(2, {0: ["N05", "E07", "E08", "NE1", "J06", "NJ1", "D04", "D05", "D06", "ND1",
                       "ND2"]})
    assert part(st, 0, "night_prizes") == 6


# --- worked example 7: Longlegged Skutt ----------------------------------------------------
def test_example_7_skutt_tied_for_most_night_cards_scores_0():
    st = final(3, {0: ["N01", "NE1", "NJ1"], 1: ["NE2", "NJ2", "ND1"], 2: ["NE3"]})
    assert part(st, 0, "night_prizes") == 0


def test_skutt_strictly_most_night_cards_scores_6():
    st = final(3, {0: ["N01", "NE1", "NJ1", "NJ3"], 1: ["NE2", "NJ2", "ND1"], 2: ["NE3"]})
    assert part(st, 0, "night_prizes") == 6


# --- worked example 8: Princess Bella copies E09 (the copy is scored) -----------------------
def test_example_8_bella_copy_of_e09_scores_8_event_points_and_two_beast_tags():
    st = final(2, {0: ["E09", "C09"]},
               copies=[{"mode": "copied", "target": "E09"}, {}, {}])
    assert part(st, 0, "events") == 8
    assert Holding(st.holdings()[0]).tags[4] == 2


# --- the other Night prizes ----------------------------------------------------------------
def test_wing_mother_takes_the_best_theme():
    # W: E06 J03 D05 (3), K: E07 (1)
    st = final(2, {0: ["N02", "E06", "J03", "D05", "E07"]})
    assert part(st, 0, "night_prizes") == 3


def test_silver_knight_takes_the_best_card_type_day_and_night():
    # 2 Events, 3 Journeys (1 Night), 1 Danger
    st = final(2, {0: ["N03", "E07", "NE1", "J06", "J07", "NJ1", "D04"]})
    assert part(st, 0, "night_prizes") == 3


def test_king_death_scores_one_per_sword():
    st = final(2, {0: ["N04", "D07", "ND1"], 1: ["D08"]})
    assert part(st, 0, "night_prizes") == 5


def test_tuvstarr_without_quests_scores_0():
    st = final(2, {0: ["N06", "C02", "E06"]})
    assert part(st, 0, "night_prizes") == 0


def test_events_count_day_and_night_points():
    st = final(2, {0: ["E09", "NE3", "E01"]})
    assert part(st, 0, "events") == 4 + 4 + 1


def test_copy_of_a_night_character_scores_its_prize_twice():
    # Humpe copies King Death: 2 x (3 swords)
    st = final(2, {0: ["N04", "C11", "D08"]}, copies=[{}, {}, {"mode": "copied", "target": "N04"}])
    assert part(st, 0, "night_prizes") == 6


def test_ties_share_the_win_in_rank_rewards():
    st = final(3, {0: ["E09"], 1: ["NE3"], 2: ["E01"]})
    assert st.scores() == [4.0, 4.0, 1.0]
    assert st.returns() == [0.5, 0.5, -1.0]


def test_reward_options_score_and_margin():
    from tablezoo.envs.bauer_draft.rules import BauerDraftGame

    st = final(3, {0: ["E09"], 1: ["E07"], 2: ["E01"]})
    data = st.to_dict()
    data.pop("options")
    for reward, expected in (("score", [4.0, 3.0, 1.0]), ("margin", [1.0, -1.0, -3.0]),
                             ("rank", [1.0, 0.0, -1.0])):
        game = BauerDraftGame(num_players=3, reward=reward)
        assert game.state_from_dict(data).returns() == expected


def parts(state, category: str) -> list[float]:
    return [d[category] for d in state.score_breakdown()]


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


def test_game_over_has_no_acting_players_and_rank_rewards():
    game = BauerDraftGame(num_players=3)
    st = game.new_state(3)
    rng = np.random.default_rng(3)
    while not st.is_terminal():
        assert st.returns() == [0.0, 0.0, 0.0]
        st.apply({p: int(rng.choice(st.legal_actions(p))) for p in st.acting_players()})
    assert st.kind == OVER and st.acting_players() == ()
    assert sorted(st.returns()) == sorted(__import__("tablezoo.envs.core.game", fromlist=["x"])
                                          .rank_rewards(st.scores()))
