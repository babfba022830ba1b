"""bauer_draft's compiled batched engine (``envs/bauer_draft/compiled/``): the same game as the
Python engine decision by decision (``replay``, from random positions and from positions at the
rare decisions), uniform deals and shuffles, the one-seat-after-another select, its variants'
positions in and out and refused, and autoreset. What every compiled engine promises (bad
input, seeding, buffers, ``step_rows``) is checked in ``tests/envs/vector/``."""

from __future__ import annotations

import numpy as np
import pytest

import tablezoo.envs as tz

pytest.importorskip("numba")

from tablezoo.envs.bauer_draft import BauerDraftGame
from tablezoo.envs.bauer_draft.actions import (
    COPY_LATER,
    DAGA,
    MARTIN,
    NO_VILLE,
    OLLE_VILLE,
    PLAY,
    SELECT,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.compiled import BauerDraftVector, make_vector
from tablezoo.envs.core.errors import (
    InvalidOptionError,
    StateFormatError,
)
from tests.envs.bauer_draft.compiled.replay import random_position, replay, replay_all, variants
from tests.envs.bauer_draft.positions import decide, discard, play, position, select
from tests.envs.vector.compiled_checks import (
    assert_loads,
    assert_same,
    assert_slots_are_their_positions,
    legal_actions,
    snapshot,
)


# --- the same game as the Python engine ------------------------------------------------------
def test_replay_agrees_with_the_aec_env_in_every_variant():
    lines = []
    results = replay_all(240, batch=16, out=lines.append)
    assert len(results) == len(variants()) == 12
    assert all(c.games == 20 and c.decisions > 0 for c in results.values()), lines
    assert sum(c.shuffles for c in results.values()) > 0, "no shuffle met"
    seen = {kind for c in results.values() for kind, count in c.kinds.items() if count}
    assert seen >= {"select", "select_ville", "witch", "olle", "yule", "daga", "copy_choice",
                    "copy_offer"}, lines
    assert lines[-1].startswith("total: 240 games")


def _martin_with_daga(game, rng):
    st = position(3, round=1, hands={0: ["C03", "E01", "E02"]}, tableau={0: ["C05"]},
                  central_top=("E09", "E07", "E08"))
    select(st, {0: play("C03")})
    assert st.kind == MARTIN
    return st


def _olle_with_ville(game, rng):
    st = position(3, round=1, hands={0: ["C04", "E01", "E02"]},
                  tableau={0: [{"card": "C07", "round": 0}]}, central_top=("E09", "E07"))
    select(st, {0: play("C04")})
    decide(st, NO_VILLE)
    decide(st, play("E09"))
    assert st.kind == OLLE_VILLE
    return st


def _yule_with_ville(game, rng):
    st = position(3, round=9, hands={0: ["J01", "J02", "J03"], 2: ["E09", "E07", "E08"]},
                  tableau={0: ["C06", {"card": "C07", "round": 3}]})
    select(st, {2: play("E09")})
    decide(st, NO_VILLE)
    decide(st, play("E07"))
    assert st.kind == YULE_VILLE
    return st


def _daga_on_a_copy_source(game, rng):
    st = position(3, round=2, hands={0: ["C05", "E01", "E02"]},
                  tableau={0: ["E09", "C09", "E08"]},
                  copies=[{"mode": "copied", "target": "E09"}, {}, {}],
                  central_top=("E07", "J01"))
    select(st, {0: play("C05")})
    assert st.kind == DAGA
    if rng.random() < 0.5:
        decide(st, discard("E09"))  # the copier chooses again, then Daga's 2 cards
    return st


def _copy_later_then_offers(game, rng):
    st = _daga_on_a_copy_source(game, rng)
    if st.kind == DAGA:
        decide(st, discard("E09"))
    decide(st, COPY_LATER)
    return st


@pytest.mark.parametrize("positions", [_martin_with_daga, _olle_with_ville, _yule_with_ville,
                                       _daga_on_a_copy_source, _copy_later_then_offers])
def test_replay_agrees_from_the_rare_decisions(positions):
    """Positions at decisions random play seldom reaches (Brother Martin with Daga, Olle and the
    Yule Goat with Ville, Daga on a copy's source, copy-later offers), then random play."""
    counts = replay({"num_players": 3}, 24, batch=8, seed=1, positions=positions)
    assert counts.games == 24 and counts.decisions >= 24


def test_every_slot_is_the_python_engine_s_position():
    """Along random batched play each slot's decision and global state are those of its
    ``get_state`` (built and vetted by the Python engine)."""
    for n in (2, 5):
        env = make_vector(6, seed=3, num_players=n)
        obs, mask, seat = env.reset()
        rng = np.random.default_rng(0)
        for step in range(160):
            if step % 4 == 0:
                assert_slots_are_their_positions(env, obs, mask, seat)
            obs, mask, seat, *_ = env.step(legal_actions(rng, mask))


def test_a_select_asks_every_seat_in_turn_and_none_sees_another_s_choice():
    env = make_vector(1, seed=5, num_players=4)
    obs, mask, seat = env.reset()
    before = env.get_state(0)
    assert before.kind == SELECT
    rng = np.random.default_rng(1)
    for p in range(4):
        assert seat[0] == p
        assert np.array_equal(obs[0], before.observe(p))  # nothing of the select applied yet
        assert np.array_equal(mask[0], before.legal_mask(p))
        during = env.get_state(0).to_dict()
        expected = before.to_dict()
        for data in (during, expected):
            data.pop("rng"), data.pop("history", None)
        assert during == expected
        obs, mask, seat, rewards, *_ = env.step(legal_actions(rng, mask))
        assert not rewards.any()
    assert env.get_state(0).next_seq > 0  # the joint select was applied after the last seat


def test_the_options_are_the_python_game_s():
    options = {"num_players": 3, "reward": "margin"}
    assert make_vector(2, **options).options == BauerDraftGame(**options).options
    for bad in ({"num_players": 6}, {"reward": "points"}):
        with pytest.raises(InvalidOptionError) as python:
            BauerDraftGame(**bad)
        with pytest.raises(InvalidOptionError) as batched:
            make_vector(2, **bad)
        assert str(batched.value) == str(python.value)


def test_make_vector_of_the_registry_runs_the_compiled_engine():
    env = tz.make_vector("bauer_draft_v0", 4, seed=0, num_players=3)
    assert isinstance(env, BauerDraftVector)
    assert "compiled" in tz.vector_backends("bauer_draft_v0")
    obs, mask, seat = env.reset()
    game = BauerDraftGame(num_players=3)
    assert obs.shape == (4, game.obs_spec.size) and obs.dtype == np.float32
    assert mask.shape == (4, 227) and mask.dtype == bool and seat.shape == (4,)
    assert env.state().shape == (4, game.state_spec.size)
    python = tz.make_vector("bauer_draft_v0", 4, seed=0, backend="python", num_players=3)
    assert not isinstance(python, BauerDraftVector)


# --- dealing, shuffling and seeding -------------------------------------------------------------
def state_pieces(env: BauerDraftVector) -> dict[str, np.ndarray]:
    """Every slot's global state by piece: ``[*the piece's shape, B]``."""
    full = env.state()
    spec = env.game.state_spec
    return {p.name: np.moveaxis(full[:, spec.slice(p.name)].reshape(-1, *p.shape), 0, -1)
            for p in spec.pieces}


def _chi2_ok(table: np.ndarray, expected: np.ndarray, df: int) -> bool:
    chi2 = ((table - expected) ** 2 / expected).sum()
    return chi2 < df + 12 * np.sqrt(2 * df)  # far in the tail: fixed seeds, cannot flake


@pytest.mark.parametrize("num_players", [2, 5])
def test_deals_are_uniform(num_players):
    """40,000 deals from one fixed seed: each card lies in each seat's hand, at each depth of each
    pile and of the central deck as often as a uniform deal puts it there."""
    n_envs, rounds = 2000, 20
    env = make_vector(n_envs, seed=20261206, num_players=num_players)
    game = env.game
    size, central = game.pile_size - 3, 55 - num_players * game.pile_size
    # places: hand of seat s (3 cards), depth d of pile s, depth d of the central deck
    places = np.zeros((55, num_players + num_players * size + central))
    for _ in range(rounds):
        env.reset()
        v = state_pieces(env)
        hands = v["hands"]  # [n, 55, B]
        for s in range(num_players):
            places[:, s] += hands[s].sum(axis=1)
            depth = np.rint((1 - v["piles"][s]) * game.pile_size).astype(int)  # 0 = top
            held = v["piles"][s] > 0
            for d in range(size):
                places[:, num_players + s * size + d] += (held & (depth == d)).sum(axis=1)
        depth = np.rint((1 - v["central"]) * 55).astype(int)
        held = v["central"] > 0
        for d in range(central):
            places[:, num_players + num_players * size + d] += (held & (depth == d)).sum(axis=1)
    deals = n_envs * rounds
    assert np.array_equal(places.sum(axis=1), np.full(55, deals))
    expected = np.full(places.shape, deals / 55)
    expected[:, :num_players] = 3 * deals / 55
    assert _chi2_ok(places, expected, places.size - 55)


def test_uggel_guggel_shuffles_every_pile_uniformly():
    """Uggel-Guggel revealed in 6,000 games from one position: each of the 10 cards of each pile
    is drawn next round (the top 3) or lies at each depth of the rest equally often."""
    st = position(4, round=1, hands={0: ["C01", "E01", "E02"]})
    n_envs, rounds = 1500, 4
    env = make_vector(n_envs, seed=7, num_players=4)
    env.reset()
    picks = [play("C01")] + [PLAY + st.hands[p][0] for p in range(1, 4)]
    data = st.to_dict()
    tables = np.zeros((4, 55, 8))  # per seat and card: drawn, then depth 0..6 in the pile
    for _ in range(rounds):
        for i in range(n_envs):
            env.set_state(i, data)
        for p in range(4):
            env.step(np.full(n_envs, picks[p], np.int64))
        v = state_pieces(env)
        for s in range(4):
            tables[s, :, 0] += v["hands"][s].sum(axis=1)
            piles = v["piles"][s]
            depth = np.rint((1 - piles) * env.game.pile_size).astype(int)
            for d in range(7):
                tables[s, :, 1 + d] += ((piles > 0) & (depth == d)).sum(axis=1)
    games = n_envs * rounds
    for table in tables:
        cards = np.flatnonzero(table.sum(axis=1))
        assert len(cards) == 10 and np.array_equal(table[cards].sum(axis=1), np.full(10, games))
        expected = np.full((10, 8), games / 10)
        expected[:, 0] = 3 * games / 10
        assert _chi2_ok(table[cards], expected, 10 * 7)


# --- positions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"num_players": 2, "reward": "score"},
                                     {"num_players": 5, "reward": "margin"}])
def test_set_state_then_get_state_round_trip(options):
    game = BauerDraftGame(**options)
    env = make_vector(4, seed=0, **options)
    env.reset()
    rng = np.random.default_rng(5)
    for k in range(40):
        state = random_position(game, rng)
        i = k % 4
        assert_loads(env, i, state, as_dict=k % 2 == 0)


def test_set_state_refuses_another_variant_or_a_broken_position():
    """(Another game, a finished position and a bad slot: ``tests/envs/vector/``.)"""
    env = make_vector(3, seed=0)
    env.reset()
    before = snapshot(env)
    three = BauerDraftGame(num_players=3).new_state(0)
    for position_ in (three, three.to_dict()):
        with pytest.raises(StateFormatError, match=r"slot 1.*num_players"):
            env.set_state(1, position_)
    broken = BauerDraftGame().new_state(1).to_dict()
    broken["hands"][0] = broken["hands"][1]
    with pytest.raises(StateFormatError, match="slot 0"):
        env.set_state(0, broken)
    assert_same(snapshot(env), before)



# --- autoreset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 4, "reward": "score"}])
def test_autoreset_starts_a_fresh_game_with_the_final_rewards(options):
    env = make_vector(8, seed=4, **options)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        obs, mask, seat, rewards, terminated, truncated = env.step(legal_actions(rng, mask))
        assert not truncated.any()
        assert not rewards[~terminated].any()
        for i in range(8):
            if terminated[i]:
                ended += 1
                now = env.get_state(i)
                assert (now.round, now.kind, now.next_seq) == (0, SELECT, 0)
                if options.get("reward") == "score":
                    assert rewards[i].sum() > 0
                else:
                    assert abs(float(rewards[i].sum())) < 1e-6  # rank rewards are zero-sum

    assert ended >= 8
