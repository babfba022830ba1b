"""The Age cycle of ethnos_v0 (§3.5, §7): the next first player and what carries over between
Ages."""

from __future__ import annotations

from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON
from tests.envs.ethnos.positions import (
    BASE,
    ZERO_TOKENS,
    A,
    B,
    C,
    D,
    build,
    end_age_now,
    give_hand,
    k,
    make_game,
    play_band,
    score_age,
)


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
