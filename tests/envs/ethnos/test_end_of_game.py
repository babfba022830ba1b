"""The end of a game of ethnos_v0: the final tie-breaks (markers, then bands) and the rewards."""

from __future__ import annotations

import pytest

from tablezoo.envs.ethnos import actions as enc
from tests.envs.ethnos.helpers import (
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
    make_game,
)


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
