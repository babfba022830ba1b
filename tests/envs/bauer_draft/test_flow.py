"""Setup, rounds, passing (worked example 9), the reveal order, options, errors, information
(observations and determinize) and the card file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    DAGA,
    NUM_ACTIONS,
    OLLE,
    OVER,
    SELECT,
    SELECT_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
)
from tablezoo.envs.bauer_draft.components import CardDataError, load_cards
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.errors import IllegalActionError, InvalidOptionError, StateFormatError
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


@pytest.mark.parametrize("n,pile,central,rounds", [(2, 12, 31, 10), (3, 12, 19, 10),
                                                   (4, 12, 7, 10), (5, 10, 5, 8)])
def test_setup_sizes_and_round_count(n, pile, central, rounds):
    game = BauerDraftGame(num_players=n)
    st = game.new_state(7)
    assert game.num_rounds == rounds
    assert len(st.central) == central
    assert all(len(h) == 3 for h in st.hands)  # round 1 has been drawn
    assert all(len(p) == pile - 3 for p in st.piles)
    assert st.acting_players() == tuple(range(n))


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


def test_options_are_validated():
    with pytest.raises(InvalidOptionError, match="allowed values: 2, 3, 4, 5"):
        BauerDraftGame(num_players=6)
    with pytest.raises(InvalidOptionError, match="'rank', 'score', 'margin'"):
        BauerDraftGame(reward="points")
    with pytest.raises(InvalidOptionError, match="unknown option"):
        BauerDraftGame(players=3)
    assert BauerDraftGame().num_players == 4


def test_illegal_action_names_the_problem_and_changes_nothing():
    st = position(3, hands={0: ["C01", "E02", "E03"]})
    before = json.dumps(st.to_dict(), sort_keys=True)
    others = {1: play(codes(st.hands[1])[0]), 2: play(codes(st.hands[2])[0])}
    with pytest.raises(IllegalActionError, match=r"player_0.*legal actions: 0 \(play C01"):
        st.apply({0: play("E09"), **others})
    assert json.dumps(st.to_dict(), sort_keys=True) == before
    with pytest.raises(IllegalActionError, match="expected one action for each acting player"):
        st.apply({0: play("C01")})
    with pytest.raises(IllegalActionError, match="not an integer"):
        st.apply({0: "C01", 1: 0, 2: 0})
    with pytest.raises(IllegalActionError):
        st.apply({0: NUM_ACTIONS, 1: 0, 2: 0})
    assert json.dumps(st.to_dict(), sort_keys=True) == before


def test_state_from_dict_rejects_malformed_positions():
    game = BauerDraftGame(num_players=3)
    good = position(3).to_dict()
    bad_card = json.loads(json.dumps(good))
    bad_card["hands"][0][0] = "X99"
    with pytest.raises(StateFormatError, match="unknown card 'X99'"):
        game.state_from_dict(bad_card)
    doubled = json.loads(json.dumps(good))
    doubled["central"].append(doubled["hands"][0][0])
    with pytest.raises(StateFormatError, match="exactly one place"):
        game.state_from_dict(doubled)
    missing = json.loads(json.dumps(good))
    missing["central"].pop()
    with pytest.raises(StateFormatError, match="missing"):
        game.state_from_dict(missing)
    kind = dict(good, kind="dance")
    with pytest.raises(StateFormatError, match="kind 'dance'"):
        game.state_from_dict(kind)
    with pytest.raises(StateFormatError, match="options"):
        BauerDraftGame(num_players=3, reward="score").state_from_dict(good)
    short = json.loads(json.dumps(good))
    short["piles"][0].append(short["hands"][0].pop())
    with pytest.raises(StateFormatError, match="3 cards in each hand"):
        game.state_from_dict(short)
    with pytest.raises(StateFormatError, match="one entry per seat"):
        game.state_from_dict(dict(good, tableau=[[]]))


def test_round_trip_keeps_everything():
    st = position(3, round=1, hands={0: ["E09", "E07", "E08"]},
                  tableau={0: [{"card": "C07", "round": 0}, "C05"]})
    select(st, {0: play("E09")})
    assert st.kind == SELECT_VILLE
    again = st.game.state_from_dict(json.loads(json.dumps(st.to_dict())))
    assert again.to_dict() == st.to_dict()
    assert np.array_equal(again.observe(0), st.observe(0))
    assert np.array_equal(again.legal_mask(0), st.legal_mask(0))


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


def test_render_shows_every_seat():
    st = position(3, hands={0: ["C02", "E01", "E02"]})
    select(st, {0: play("C02")})
    text = str(st)
    assert "decision: witch by seat 0" in text and "seat 2:" in text
    decide(st, WITCH_LEFT)
    assert st.kind == SELECT


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


# --- card file -----------------------------------------------------------------------------
def test_card_file_matches_the_spec_totals():
    cards = load_cards()
    assert cards.size == 55
    assert int((~cards.night).sum()) == 36 and int(cards.night.sum()) == 19
    assert int(cards.tags.sum()) == 40 and cards.tags.sum(axis=0).tolist() == [8] * 5
    assert int(cards.swords.sum()) == 25 and int(cards.points.sum()) == 34
    assert sum(c.kind == 3 for c in cards.cards) == 18


def test_card_file_errors_are_clear(tmp_path):
    from tablezoo.envs.bauer_draft.components import DATA_FILE

    data = json.loads(DATA_FILE.read_text())
    data["cards"][20]["points"] = 3  # E03: 2 -> 3 breaks the event-point total
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="event_points = 35, but its totals say 34"):
        load_cards(bad)
    data = json.loads(DATA_FILE.read_text())
    data["cards"][0]["effect"] = "witch"  # two Witches, no Uggel-Guggel
    bad.write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="effect 'uggel'"):
        load_cards(bad)
    data = json.loads(DATA_FILE.read_text())
    data["cards"][27]["tags"] = "W"  # a Night Event with a tag
    bad.write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="Night cards carry no tags"):
        load_cards(bad)


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
