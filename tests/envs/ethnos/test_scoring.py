"""Scoring in ethnos_v0: at the end of an Age, kingdom scoring with the Troll keys and the 2-player
Age II rule, the Merfolk track and band glory (and an independent recount); at the end of the
game, the final tie-breaks (markers, then bands); the rewards."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import SKELETON
from tests.envs.ethnos.positions import (
    BASE,
    BASE5,
    ZERO_TOKENS,
    ZERO_TOKENS_2,
    A,
    B,
    C,
    D,
    E,
    build,
    end_age_now,
    kingdom_gain,
    legal,
    make_game,
    score_age,
)


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


# --- rewards -----------------------------------------------------------------------------------
TRIBES = ["Trolls", "Elves", "Orcs", "Merfolk", "Giants", "Skeletons"]


def _final_rewarded(reward: str, glory: dict[int, int]):
    g = make_game(4, TRIBES, reward=reward)
    s = build(g, age=2, glory=glory, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.is_terminal()
    return s


def test_rank_reward_with_ties_broken_by_markers():
    s = _final_rewarded("rank", {A: 30, B: 20, C: 20, D: 10})
    assert s.returns() == pytest.approx([1.0, 0.0, 0.0, -1.0])  # B, C fully tied: shared
    g = make_game(4, TRIBES)
    s = build(g, age=2, glory={A: 30, B: 20, C: 20, D: 10}, markers={C: {"Rhea": 1}},
              tokens={name: [0, 0, 0] for name in ("Rhea",)}, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert s.returns() == pytest.approx([1.0, -1 / 3, 1 / 3, -1.0])


def test_score_and_margin_rewards():
    s = _final_rewarded("score", {A: 30, B: 20, C: 20, D: 10})
    assert s.returns() == [30.0, 20.0, 20.0, 10.0]
    s = _final_rewarded("margin", {A: 30, B: 20, C: 20, D: 10})
    assert s.returns() == [10.0, -10.0, -10.0, -20.0]


def test_rank_reward_zero_before_end():
    g = make_game(4, TRIBES)
    s = build(g, glory={A: 5})
    assert s.returns() == [0.0] * 4
    s = end_age_now(s)
    assert not s.is_terminal() and s.returns() == [0.0] * 4
