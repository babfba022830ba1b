"""The rounds of bauer_draft: one select per round, passing (worked example 9) and the reveal
order with its effect queue."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    DAGA,
    OLLE,
    OVER,
    SELECT,
    WITCH,
    WITCH_NONE,
)
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
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


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_game_has_one_select_per_round(n):
    game = BauerDraftGame(num_players=n)
    rng = np.random.default_rng(n)
    st = game.new_state(n)
    selects = 0
    while not st.is_terminal():
        if st.kind == SELECT:
            selects += 1
        st.apply({p: int(rng.choice(st.legal_actions(p))) for p in st.acting_players()})
    assert selects == game.num_rounds


def test_example_9_passing_three_players():
    st = position(3, hands={0: ["E01", "E02", "E03"], 1: ["E04", "E05", "E06"],
                            2: ["E07", "E08", "E09"]})
    pile1 = list(st.piles[1])
    assert len(pile1) == 9
    select(st, {0: play("E01"), 1: play("E04"), 2: play("E07")})
    # after round 1 seat 1's pile held 11 cards: its 9 plus E02, E03 from seat 0 on top ...
    assert len(st.piles[1]) + len(st.hands[1]) == 11
    assert st.piles[1] + st.hands[1][::-1] == pile1 + [idx("E02"), idx("E03")]
    # ... and seat 1 drew those 2 plus one more in round 2
    assert set(codes(st.hands[1])[:2]) == {"E02", "E03"}
    assert st.hands[1][2] == pile1[-1]


def test_two_players_pass_to_each_other():
    st = position(2, hands={0: ["E01", "E02", "E03"], 1: ["E04", "E05", "E06"]})
    select(st, {0: play("E01"), 1: play("E04")})
    assert set(codes(st.hands[1])[:2]) == {"E02", "E03"}
    assert set(codes(st.hands[0])[:2]) == {"E05", "E06"}


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
