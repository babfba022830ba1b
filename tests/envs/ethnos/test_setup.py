"""Setup, player-count rules (spec §2, §3, §9) and options, with bad options refused."""

from __future__ import annotations

import math

import pytest

from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON, GLORY_SETS, NUM_TYPES, SKELETON, TYPE_NAMES
from tests.envs.ethnos.positions import (
    BASE,
    BASE5,
    A,
    B,
    build,
    end_age_now,
    give_hand,
    k,
    make_game,
    play_band,
)


@pytest.mark.parametrize("n, ages, tribes, per_kingdom", [
    (2, 2, 5, 2), (3, 2, 5, 2), (4, 3, 6, 3), (5, 3, 6, 3), (6, 3, 6, 3),
])
def test_player_count_table(n, ages, tribes, per_kingdom):
    g = EthnosGame(num_players=n)
    assert g.num_ages == ages and g.num_tribes == tribes
    for seed in range(5):
        s = g.new_state(seed)
        assert len(s.tribes) == tribes
        dealt = sorted(v for toks in s.tokens for v in toks)
        assert all(len(toks) == per_kingdom and toks == sorted(toks) for toks in s.tokens)
        full = GLORY_SETS["sg"]["other"] + (GLORY_SETS["sg"]["four_plus"] if n >= 4 else ())
        assert dealt == sorted(full)
        assert int(s.display.sum()) == 2 * n  # display 2n
        assert s.hand_len == [1] * n
        assert s.first_player == s.actor


def test_six_tribes_option_for_small_counts():
    for n in (2, 3):
        g = EthnosGame(num_players=n, tribes_2_3p=6)
        assert g.num_ages == 2 and len(g.new_state(0).tribes) == 6


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_dragons_in_lower_half(n):
    g = EthnosGame(num_players=n)
    for seed in range(10):
        s = g.new_state(seed)
        deck = s.deck
        rest = len(deck) - 3
        upper = math.ceil(rest / 2)
        assert deck.count(DRAGON) == 3
        assert DRAGON not in deck[len(deck) - upper:]
        assert s.lower_left == rest // 2 + 3


def test_first_player_of_age_one_is_random():
    g = EthnosGame(num_players=4)
    assert {g.new_state(seed).first_player for seed in range(40)} == {0, 1, 2, 3}


def test_lu_token_set():
    g = EthnosGame(num_players=2, glory_tokens="lu")
    s = g.new_state(3)
    assert sorted(v for toks in s.tokens for v in toks) == sorted(GLORY_SETS["lu"]["other"])


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


def test_two_player_giant_bonus_age_two_is_five():
    g = make_game(2, ["Giants", "Elves", "Orcs", "Trolls", "Wizards"])
    s = build(g, age=1, hands={A: ["red Giant"]})
    play_band(s, "red Giant")
    d = s.to_dict()
    d["deck"] = [c for c in d["deck"] if c != DRAGON] + [DRAGON]
    d["dragons"], d["lower_left"] = 2, len(d["deck"])
    s = g.state_from_dict(d)
    s.step(enc.RECRUIT_DECK)
    assert s.is_terminal() and s.breakdown[A][3] == 5


def test_two_player_merfolk_rule_can_be_switched_off():
    g = make_game(2, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards"],
                  two_player_rule_merfolk=False)
    s = build(g, merfolk={A: 5, B: 3}, age=1, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert [s.breakdown[p][1] for p in range(2)] == [3, 1]


def test_recruit_from_display_is_public_and_hand_limit():
    g = make_game(4, ["Elves", "Orcs", "Trolls", "Wizards", "Dwarves", "Skeletons"])
    s = build(g, hands={A: ["red Elf"] * 2 + ["blue Elf"] * 2 + ["red Orc"] * 2
                        + ["Skeleton"] * 3}, display=["green Troll"])
    s.step(enc.RECRUIT_DISPLAY + TYPE_NAMES.index("green Troll"))
    assert s.known[A, TYPE_NAMES.index("green Troll")] == 1
    assert s.hand_len[A] == 10
    s = build(g, hands={A: ["red Elf"] * 2 + ["blue Elf"] * 2 + ["red Orc"] * 2
                        + ["Skeleton"] * 4}, display=["green Troll"])
    acts = s.legal_actions(A)
    assert enc.RECRUIT_DECK not in acts and all(a >= enc.LEADER for a in acts)


def test_empty_display_draw_two_variant():
    g = make_game(4, ["Elves", "Orcs", "Trolls", "Wizards", "Dwarves", "Skeletons"],
                  empty_display_draw_two=True)
    s = build(g, hands={A: ["red Elf"]})
    assert s.display.sum() == 0
    s.step(enc.RECRUIT_DECK)
    assert s.hand_len[A] == 3  # the top deck cards lie above the Dragon region
    s2 = build(g, hands={A: ["red Elf"]}, display=["blue Elf"])
    s2.step(enc.RECRUIT_DECK)
    assert s2.hand_len[A] == 2  # display not empty: one card


def test_two_player_age_one_scored_normally():
    g = make_game(2, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards"])
    s = build(g, tokens={"Rhea": [2, 8]}, markers={A: {"Rhea": 2}, B: {"Rhea": 1}},
              age=0, last_dragon_on_top=True)
    s.step(enc.RECRUIT_DECK)
    assert [s.breakdown[p][0] for p in range(2)] == [2, 0]


def test_auto_single_choice_skips_forced_decisions():
    g = make_game(4, ["Trolls", "Elves", "Orcs", "Wizards", "Dwarves", "Skeletons"],
                  auto_single_choice=True)
    s = build(g, hands={A: ["red Troll"]}, display=["blue Elf", "green Elf"])
    s.step(enc.LEADER + TYPE_NAMES.index("red Troll"))  # FINISH_BAND is the only choice
    assert s.troll_owner[0] == A  # TROLL[1] applied too
    assert s.actor == B


def test_marker_limit_option():
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"],
                  marker_limit=5)
    # 5 - 1 score marker = 4 available; A already has 4 on the board.
    s = build(g, hands={A: ["red Orc"]}, markers={A: {"Duris": 4}})
    play_band(s, "red Orc")
    assert s.markers[A].sum() == 4 and s.horde[A].sum() == 0


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


# --- bad input -----------------------------------------------------------------------------------
def test_bad_options():
    with pytest.raises(InvalidOptionError, match="num_players"):
        EthnosGame(num_players=7)
    with pytest.raises(InvalidOptionError, match="unknown tribe"):
        EthnosGame(num_players=4, tribes=["Orcs", "Goblins"])
    with pytest.raises(InvalidOptionError, match="exactly 6"):
        EthnosGame(num_players=4, tribes=["Orcs", "Elves"])
    with pytest.raises(InvalidOptionError, match="allowed values"):
        EthnosGame(num_players=4, reward="win")


# --- numeric options -----------------------------------------------------------------------------
def test_custom_orc_band_and_giant_values():
    g = make_game(4, ["Orcs", "Giants", "Elves", "Trolls", "Wizards", "Skeletons"],
                  orc_glory=[1, 3, 7, 10, 15, 20], band_glory=[1, 2, 4, 7, 11, 16],
                  giant_claim_glory=3, giant_bonus_4_6=[1, 2, 3])
    s = build(g, hands={A: ["red Giant", "red Orc"]}, horde={A: ["blue", "green", "grey"]})
    play_band(s, "red Giant", ["red Orc"])
    assert s.breakdown[A][2] == 3  # claim
    s = end_age_now(give_hand(s, B, [], actor=B))
    assert s.breakdown[A][3] == 1  # Age I Giant bonus
    assert s.phase == enc.ORC_PICK
    s.step(enc.ORC_EMPTY)
    assert s.breakdown[A][4] == 7  # 3 markers with the custom table (default 6)
    assert s.breakdown[A][5] == 2  # band of 2 with the custom table


def test_custom_merfolk_spaces_and_slots():
    g = make_game(4, ["Merfolk", "Elves", "Orcs", "Trolls", "Wizards", "Skeletons"],
                  merfolk_spaces=[1, 2], merfolk_end=5, merfolk_slots_4_6=[7, 8, 9])
    s = build(g, hands={A: ["red Merfolk", "red Merfolk", "red Elf", "red Orc", "red Troll",
                            "Skeleton", "Skeleton"]})
    play_band(s, "red Merfolk", ["red Merfolk", "red Elf", "red Orc", "red Troll", "Skeleton",
                                 "Skeleton"])
    assert s.merfolk[A] == 5 and s.merfolk_left == 2
    s.step(enc.KINGDOM)
    s.step(enc.KINGDOM)
    s = end_age_now(s)
    assert s.breakdown[A][1] == 7
