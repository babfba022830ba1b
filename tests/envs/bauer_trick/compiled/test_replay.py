"""bauer_trick's compiled batched engine (``envs/bauer_trick/compiled/``): the same game as the
Python engine decision by decision (``replay``), uniform deals, its variants' positions in and out
and refused, and autoreset to a fresh game or deal. What every compiled engine promises (bad
input, seeding, buffers, ``step_rows``) is checked in ``tests/envs/vector/``."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba")

import tablezoo.envs as tz
from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.compiled import BauerTrickVector, make_vector
from tablezoo.envs.core.errors import (
    InvalidOptionError,
    StateFormatError,
)
from tests.envs.bauer_trick.compiled.replay import random_position, replay_all, variants
from tests.envs.vector.compiled_checks import (
    assert_loads,
    assert_same,
    assert_slots_are_their_positions,
    legal_actions,
    snapshot,
)

SMALL_GAME = {"start_score": 2, "max_deals": 3}


# --- the same game as the Python engine ------------------------------------------------------
def test_replay_agrees_with_the_aec_env_in_every_variant():
    lines = []
    results = replay_all(320, batch=16, out=lines.append)
    assert len(results) == len(variants()) == 32
    assert all(c.games == 10 and c.decisions > 0 for c in results.values()), lines
    assert sum(c.truncated for c in results.values()) > 0, "no truncation met"
    assert sum(c.deals_reloaded for c in results.values()) > 0
    assert lines[-1].startswith("total: 320 games")


@pytest.mark.parametrize("options", [{}, {"episode": "deal"},
                                     {"trump_selection": "forehand_on_four", **SMALL_GAME}])
def test_every_slot_is_the_python_engine_s_position(options):
    """Along random batched play each slot's decision and global state are those of its
    ``get_state`` (built and vetted by the Python engine)."""
    env = make_vector(12, seed=3, **options)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    for step in range(150):
        if step % 5 == 0:
            assert_slots_are_their_positions(env, obs, mask, seat)
        obs, mask, seat, *_ = env.step(legal_actions(rng, mask))


def test_the_options_are_the_python_game_s():
    options = {"episode": "deal", "no_trump_leader": "left_of_dealer"}
    assert make_vector(2, **options).options == BauerTrickGame(**options).options
    for bad in ({"episode": "match"}, {"start_score": 0}):
        with pytest.raises(InvalidOptionError) as python:
            BauerTrickGame(**bad)
        with pytest.raises(InvalidOptionError) as batched:
            make_vector(2, **bad)
        assert str(batched.value) == str(python.value)
    with pytest.raises(InvalidOptionError, match="start_score"):
        make_vector(2, start_score=2**60)


def test_make_vector_of_the_registry_runs_the_compiled_engine():
    env = tz.make_vector("bauer_trick_v0", 4, seed=0, episode="deal")
    assert isinstance(env, BauerTrickVector)
    assert "compiled" in tz.vector_backends("bauer_trick_v0")
    obs, mask, seat = env.reset()
    assert obs.shape == (4, 374) and obs.dtype == np.float32
    assert mask.shape == (4, 37) and mask.dtype == bool and seat.shape == (4,)
    assert env.state().shape == (4, 602)


def test_nothing_else_in_envs_imports_numba():
    code = ("import sys, tablezoo.envs as tz\n"
            "for name in tz.ENVS:\n"
            "    env = tz.make(name); env.reset(seed=0)\n"
            "    tz.make_game(name).new_state(0)\n"
            "import tablezoo.envs.bauer_trick.rules, tablezoo.envs.vector.base\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n"
            "import tablezoo.envs.bauer_trick.compiled\n"
            "assert 'numba' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


# --- dealing and seeding -----------------------------------------------------------------------
@pytest.mark.parametrize("selection", ["call_or_pass", "forehand_on_four"])
def test_deals_are_uniform(selection):
    """100,352 deals from one fixed seed: each card goes to each seat (counted from the dealer's
    left, and absolutely), and with forehand_on_four to each seat's first or second four, 1 time
    in 4 (in 8); any two cards share a hand 7 times in 31; the dealer is uniform. Chi-square
    bounds far in the tail (p < 1e-12) on a fixed seed: deterministic, so it cannot flake."""
    n, rounds = 3136, 32
    env = make_vector(n, seed=20261205, trump_selection=selection)
    forehand = selection == "forehand_on_four"
    by_seat = np.zeros((32, 4))
    by_left = np.zeros((32, 8 if forehand else 4))
    dealers = np.zeros(4)
    same_hand = np.zeros((32, 32))
    for _ in range(rounds):
        env.reset()
        full = env.state()
        hands = full[:, :128].reshape(n, 4, 32)
        later = full[:, 470:598].reshape(n, 4, 32)  # forehand_on_four: the second four cards
        dealer = full[:, 138:142].argmax(axis=1)
        dealers += np.bincount(dealer, minlength=4)
        dealt = hands + later
        assert np.array_equal(dealt.sum(axis=1), np.ones((n, 32)))
        assert np.all(hands.sum(axis=2) == (4 if forehand else 8))
        by_seat += dealt.sum(axis=0).T
        for r in range(4):  # r: seats from the dealer's left
            seat = (dealer + 1 + r) % 4
            rows = np.arange(n)
            by_left[:, r] += hands[rows, seat].sum(axis=0)
            if forehand:
                by_left[:, 4 + r] += later[rows, seat].sum(axis=0)
        same_hand += np.einsum("bsc,bsd->cd", dealt, dealt)
    deals = n * rounds
    for table in (by_seat, by_left):
        expected = deals / table.shape[1]
        chi2 = ((table - expected) ** 2 / expected).sum()
        df = table.size - 32
        assert chi2 < df + 12 * np.sqrt(2 * df), (chi2, df)
    assert ((dealers - deals / 4) ** 2 / (deals / 4)).sum() < 60
    pairs = same_hand[np.triu_indices(32, 1)] / deals
    sd = np.sqrt(7 / 31 * 24 / 31 / deals)
    assert np.abs(pairs - 7 / 31).max() < 7 * sd


# --- positions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"episode": "deal", "defenders_score_on_fail": True},
                                     {"trump_selection": "forehand_on_four",
                                      "reward": "points"}])
def test_set_state_then_get_state_round_trip(options):
    game = BauerTrickGame(**options)
    env = make_vector(4, seed=0, **options)
    env.reset()
    rng = np.random.default_rng(5)
    for k in range(60):
        state = random_position(game, rng)
        i = k % 4
        if k % 3 == 2:  # a save without the deal's record (history): rebuilt or left unknown
            data = state.to_dict()
            del data["history"]
            state = game.state_from_dict(data)
        assert_loads(env, i, state, as_dict=k % 2 == 0, unkept=())
        assert env.get_state(i).history_known == state.history_known


def test_set_state_refuses_another_variant_or_a_broken_position():
    """(Another game, a finished position and a bad slot: ``tests/envs/vector/``.)"""
    env = make_vector(3, seed=0)
    env.reset()
    before = snapshot(env)
    deal = BauerTrickGame(episode="deal").new_state(0)
    for position in (deal, deal.to_dict()):
        with pytest.raises(StateFormatError, match=r"slot 1.*episode"):
            env.set_state(1, position)
    broken = BauerTrickGame().new_state(1).to_dict()
    broken["hands"][0] = broken["hands"][1]
    with pytest.raises(StateFormatError, match="slot 0"):
        env.set_state(0, broken)
    assert_same(snapshot(env), before)



# --- autoreset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{**SMALL_GAME}, {**SMALL_GAME, "reward": "points"},
                                     {"episode": "deal"}])
def test_autoreset_starts_a_fresh_game_and_a_deal_keeps_the_game(options):
    """A new deal of the same game (``episode="game"``) passes the deal to the left and keeps
    the points, returns and decision count; only a new episode starts from zero."""
    env = make_vector(8, seed=4, **options)
    obs, mask, seat = env.reset()
    start = env.options["start_score"]
    rng = np.random.default_rng(0)
    before = [env.get_state(i) for i in range(8)]
    ended = new_deals = 0
    for _ in range(400):
        obs, mask, seat, rewards, terminated, truncated = env.step(legal_actions(rng, mask))
        for i in range(8):
            now, was = env.get_state(i), before[i]
            if terminated[i] or truncated[i]:
                ended += 1
                assert (now.phase, now.deals_played, now.decisions, now.points, now.returns(),
                        now.scores()) == (0, 0, 0, [start] * 2, [0.0] * 4, [0.0] * 4)
                if env.options["reward"] == "game" and env.options["episode"] == "game":
                    expected = 0.0 if truncated[i] else 1.0
                    assert np.abs(rewards[i]).tolist() == [expected] * 4
            elif now.deals_played != was.deals_played:
                new_deals += 1
                assert now.dealer == (was.dealer + 1) % 4
                assert now.decisions == was.decisions + 1 and now.phase == 0
                assert now.returns() == (np.array(was.returns()) + rewards[i]).tolist()
                assert sum(now.points) in (sum(was.points), sum(was.points) - 1)
            else:
                assert now.decisions == was.decisions + 1 and now.points == was.points
            before[i] = now
    assert ended > 8
    assert new_deals > 0 or options.get("episode") == "deal"
