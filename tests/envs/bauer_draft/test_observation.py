"""What each seat of bauer_draft observes: hidden hands and Night cards, pending choices, pile
and central sizes, the effect that played a Night card, the terminal reveal, the text view."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.bauer_draft.actions import OLLE, SELECT, SELECT_VILLE, WITCH_LEFT
from tests.envs.bauer_draft.positions import decide, discard, idx, play, position, select


# --- information ---------------------------------------------------------------------------
def test_observation_hides_opponent_hands_and_night_cards():
    st = position(3, round=1, hands={0: ["E01", "E02", "E03"], 1: ["NE1", "E04", "E05"]},
                  tableau={1: ["NE3", "E09"]})
    spec = st.game.obs_spec
    o = spec.split(st.observe(0))
    assert o["hand"].sum() == 3 and o["hand"][idx("NE1")] == 0
    assert o["tableau"][1, idx("E09")] == 1 and o["tableau"][1, idx("NE3")] == 0
    assert o["night_count"][1] == 1
    mine = spec.split(st.observe(1))
    assert mine["tableau"][0, idx("NE3")] == 1  # my own Night card
    assert mine["hand"][idx("NE1")] == 1


def test_pending_selection_is_secret_during_the_ville_sub_step():
    obs = []
    for pick in ("E04", "E05"):
        st = position(3, round=1, hands={0: ["E09", "E07", "E08"], 1: ["E04", "E05", "E06"]},
                      tableau={0: [{"card": "C07", "round": 0}]})
        select(st, {0: play("E09"), 1: play(pick)})
        assert st.kind == SELECT_VILLE
        obs.append((st.observe(1).copy(), st.observe(2).copy(), st.observe(0).copy()))
        spec = st.game.obs_spec
        assert spec.view(st.observe(0), "my_selection")[0, idx("E09")] == 1
    assert np.array_equal(obs[0][1], obs[1][1])  # seat 2 cannot tell what seat 1 picked
    assert np.array_equal(obs[0][2], obs[1][2])  # nor can seat 0 (the decider)


def test_terminal_observation_reveals_every_tableau():
    st = position(2, kind="over", round=10, pile_len=2, tableau={1: ["NE3", "E09"]})
    o = st.game.obs_spec.split(st.observe(0))
    assert o["tableau"][1, idx("NE3")] == 1


def obs(state, seat: int) -> dict:
    return state.game.obs_spec.split(state.observe(seat))


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


def test_render_shows_every_seat():
    st = position(3, hands={0: ["C02", "E01", "E02"]})
    select(st, {0: play("C02")})
    text = str(st)
    assert "decision: witch by seat 0" in text and "seat 2:" in text
    decide(st, WITCH_LEFT)
    assert st.kind == SELECT
