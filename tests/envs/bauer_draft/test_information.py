"""What ``determinize`` of bauer_draft keeps (the observation, cards the seat tracks through
passing, its Night cards and Humpe target, Ville where everyone saw him go) and re-samples."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tests.envs.bauer_draft.positions import codes, decide, idx, play, position, select


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_determinize_keeps_the_observation_and_resamples_hidden_cards(n):
    game = BauerDraftGame(num_players=n)
    rng = np.random.default_rng(100 + n)
    changed = 0
    for seed in range(25):
        st = game.new_state(seed)
        stop = int(rng.integers(0, 40))
        for _ in range(stop):
            if st.is_terminal():
                break
            st.apply({p: int(rng.choice(st.legal_actions(p))) for p in st.acting_players()})
        for p in range(n):
            d = st.determinize(p, np.random.default_rng(seed))
            assert np.array_equal(d.observe(p), st.observe(p))
            assert np.array_equal(d.legal_mask(p), st.legal_mask(p))
            mine, real = d.score_breakdown()[p], st.score_breakdown()[p]
            for category in ("events", "journeys", "themes", "quests"):  # not others-dependent
                assert mine[category] == real[category]
            cards = sorted(d.all_cards())
            assert cards == list(range(55))
            for s in range(n):  # face-down slots keep Night cards
                assert [game_night(c) for c in d.tableau[s]] == [game_night(c)
                                                                 for c in st.tableau[s]]
            changed += d.central != st.central or d.piles != st.piles
            while not d.is_terminal():  # the determinized state plays on
                d.apply({q: int(rng.choice(d.legal_actions(q))) for q in d.acting_players()})
    assert changed > 0


def game_night(c: int) -> bool:
    from tablezoo.envs.bauer_draft.components import CARDS

    return bool(CARDS.night[c])


def test_determinize_keeps_cards_the_passer_tracks():
    st = position(4, hands={0: ["E01", "E02", "E03"]})
    select(st, {0: play("E01")})
    # seat 1 drew E02 and E03: seat 0 knows they are in seat 1's hand
    assert set(codes(st.hands[1])[:2]) == {"E02", "E03"}
    for seed in range(5):
        d = st.determinize(0, np.random.default_rng(seed))
        assert {"E02", "E03"} <= set(codes(d.hands[1]))
        assert d.hands[0] == st.hands[0]


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


def test_determinize_keeps_a_passed_night_card_when_the_holder_kept_a_day_card():
    # seat 0 passes NE1 and E02 to seat 1, who keeps J01 face up: both went on to seat 2
    st = position(4, hands={0: ["E01", "E02", "NE1"]}, pile_tops={1: ["J01"]})
    select(st, {0: play("E01")})
    select(st, {1: play("J01")})
    assert {"NE1", "E02"} <= set(codes(st.hands[2]))
    for seed in range(10):
        d = st.determinize(0, np.random.default_rng(seed))
        assert {"NE1", "E02"} <= set(codes(d.hands[2]))


def test_determinize_keeps_ville_where_everyone_saw_him_go():
    st = position(3, round=1, hands={0: ["E09", "E07", "E08"]},
                  tableau={0: [{"card": "C07", "round": 0}]})
    select(st, {0: play("E09")})
    decide(st, play("E07"))
    assert codes(st.hands[1])[:1] == ["C07"]  # seat 1 drew Ville (and E08) in round 3
    for seed in range(5):
        d = st.determinize(2, np.random.default_rng(seed))
        assert "C07" in codes(d.hands[1])


def test_determinize_after_uggel_guggel_keeps_passed_cards_in_their_pile():
    st = position(3, hands={0: ["C01", "E01", "E02"], 1: ["C02", "E03", "E04"]})
    select(st, {0: play("C01"), 1: play("C02")})  # paused at the Witch, piles shuffled
    pile_of_e01 = next(s for s, pile in enumerate(st.piles) if idx("E01") in pile)
    for seed in range(5):
        d = st.determinize(0, np.random.default_rng(seed))
        assert idx("E01") in d.piles[pile_of_e01] and idx("E02") in d.piles[pile_of_e01]
