"""bower's compiled batched engine (``envs/bower/compiled/``): the same game as the Python engine
decision by decision (``replay``), uniform shuffles and draws, its variants' positions in and
out and refused, and autoreset to a fresh game. What every compiled engine promises (bad input,
seeding, buffers, ``step_rows``) is checked in ``tests/envs/vector/``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import tablezoo.envs.bower.compiled.layout as K
from tablezoo.envs.bower import BowerGame
from tablezoo.envs.bower.actions import ACCEPT, PH_BONUS, PHASES
from tablezoo.envs.bower.compiled import make_vector
from tablezoo.envs.core.errors import (
    InvalidOptionError,
    StateFormatError,
)
from tests.envs.bower.compiled.replay import random_position, replay_all, variants
from tests.envs.vector.compiled_checks import (
    assert_loads,
    assert_same,
    assert_slots_are_their_positions,
    legal_actions,
    snapshot,
)

MIXED = {"double_turn_mode": "swap", "hands_public": False, "bonus_optional": False,
         "flag_all_triggers": False, "x_cancels": "one", "reward": "egg_diff"}


def chi2_ok(table: np.ndarray, expected: float, df: int) -> bool:
    """A chi-square statistic far in the tail fails (p < 1e-9 or so): on a fixed seed the test
    is deterministic and cannot flake."""
    chi2 = float(((table - expected) ** 2 / expected).sum())
    return chi2 < df + 10 * np.sqrt(2 * df)


# --- the same game as the Python engine ------------------------------------------------------
def test_replay_agrees_with_the_aec_env_in_every_variant_and_option():
    lines = []
    results = replay_all(460, batch=16, seed=1, out=lines.append)
    assert len(results) == len(variants())
    assert all(c.games >= 10 and c.decisions > 0 for c in results.values()), lines
    assert sum(c.reshuffles for c in results.values()) > 0, "no reshuffle met"
    kinds = np.sum([c.phases for c in results.values()], axis=0)
    assert all(kinds[k] > 0 for k in range(len(PHASES) - 1)), lines[-2]  # every decision
    assert lines[-1].startswith("total: 460 games")


@pytest.mark.parametrize("options", [{}, MIXED, {"bonus_tiles": False, "egg_columns": "alternate"}])
def test_every_slot_is_the_python_engine_s_position(options):
    """Along random batched play each slot's decision and global state are those of its
    ``get_state`` (built and vetted by the Python engine)."""
    env = make_vector(8, seed=3, **options)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    for step in range(240):
        if step % 4 == 0:
            assert_slots_are_their_positions(env, obs, mask, seat)
        obs, mask, seat, *_ = env.step(legal_actions(rng, mask))


def test_the_options_are_the_python_game_s():
    assert make_vector(2, **MIXED).options == BowerGame(**MIXED).options
    for bad in ({"reward": "points"}, {"hands_public": 1}):
        with pytest.raises(InvalidOptionError) as python:
            BowerGame(**bad)
        with pytest.raises(InvalidOptionError) as batched:
            make_vector(2, **bad)
        assert str(batched.value) == str(python.value)


# --- shuffles and draws --------------------------------------------------------------------------
def test_new_games_are_uniform():
    """20,480 new games from one fixed seed: the start player, the 20 ways to own 3 columns,
    each nest tile at each place (display or stack) and each bonus tile at each place of the
    deck are uniform."""
    n, rounds = 4096, 5
    env = make_vector(n, seed=20261206)
    starts = 0
    owners = np.zeros(64)
    tiles = np.zeros((36, 36))
    bonus = np.zeros((20, 20))
    rows = np.arange(n)
    for _ in range(rounds):
        env.reset()
        S = env._S
        starts += S[:, K.START].sum()
        owned = S[:, K.OWNER:K.OWNER + 6]
        assert np.all((owned == 0).sum(axis=1) == 3)
        owners += np.bincount(((owned == 0) << np.arange(6)).sum(axis=1), minlength=64)
        order = np.concatenate([S[:, K.STACK:K.STACK + 33], S[:, K.DISPLAY:K.DISPLAY + 3]], 1)
        assert np.all(np.sort(order, axis=1) == np.arange(36))
        for place in range(36):
            tiles[place] += np.bincount(order[rows, place], minlength=36)
        deck = S[:, K.DECK:K.DECK + 20]
        for place in range(20):
            bonus[place] += np.bincount(deck[rows, place], minlength=20)
    games = n * rounds
    assert abs(starts - games / 2) < 6 * np.sqrt(games / 4)
    subsets = owners[[b for b in range(64) if bin(b).count("1") == 3]]
    assert owners.sum() == games and chi2_ok(subsets, games / 20, 19)
    assert chi2_ok(tiles, games / 36, 35 * 35)
    assert chi2_ok(bonus, games / 20, 19 * 19)


def test_new_game_eggs_are_uniform():
    """Each egg at each position (six columns, two removed) 1 time in 8 over 24,576 games."""
    n = 8192
    env = make_vector(n, seed=7)
    table = np.zeros((8, 8))
    for _ in range(3):
        env.reset()
        eggs = env._S[:, K.EGGS:K.EGGS + 8]
        assert np.all(np.sort(eggs, axis=1) == np.arange(8))
        for pos in range(8):
            table[pos] += np.bincount(eggs[:, pos], minlength=8)
    assert chi2_ok(table, 3 * n / 8, 7 * 7)


def test_a_reshuffled_bonus_pile_is_uniform():
    """A position about to draw from an empty deck, its whole pile (at least 11 tiles) on the
    discard pile: over 16,384 draws each tile comes first, second and third, and at each place of
    the new deck, equally often."""
    game = BowerGame()
    rng = np.random.default_rng(3)
    while True:
        state = random_position(game, rng)
        if state.phase == PH_BONUS and len(state.bonus_deck) >= 11:
            break
    data = state.to_dict()
    del data["history"]
    data["bonus_discard"] += [[b, 0] for b in data["bonus_deck"]]
    data["bonus_deck"] = []
    state = game.state_from_dict(data)
    n = 4096
    env = make_vector(n, seed=11)
    env.reset()
    env.set_state(0, state)
    ids = sorted(env._S[0, K.DISC:K.DISC + env._S[0, K.NDISC]].tolist())
    m = len(ids)
    table = np.zeros((m, m))
    for _ in range(4):
        env._S[:] = env._S[0]
        env._write_decisions(0, n)
        env.step(np.full(n, ACCEPT, np.int64))
        S = env._S
        assert np.all(S[:, K.PHASE] == K.KEEPP) and np.all(S[:, K.NDRAWN] == 3)
        order = np.concatenate([S[:, K.DRAWN:K.DRAWN + 3], S[:, K.DECK:K.DECK + m - 3][:, ::-1]],
                               axis=1)  # the draws, then the new deck from its top
        assert np.all(np.sort(order, axis=1) == ids)
        index = np.searchsorted(ids, order)
        for place in range(m):
            table[place] += np.bincount(index[:, place], minlength=m)
        env.set_state(0, state)
    assert chi2_ok(table, 4 * n / m, (m - 1) ** 2)


# --- positions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, MIXED])
def test_set_state_then_get_state_round_trip(options):
    game = BowerGame(**options)
    env = make_vector(4, seed=0, **options)
    env.reset()
    rng = np.random.default_rng(5)
    for k in range(40):
        state = random_position(game, rng, short_deck=k % 4 == 3)
        i = k % 4
        assert_loads(env, i, state, as_dict=k % 2 == 0)


def test_set_state_refuses_another_variant_or_a_broken_position():
    """(Another game, a finished position and a bad slot: ``tests/envs/vector/``.)"""
    env = make_vector(3, seed=0)
    env.reset()
    before = snapshot(env)
    swap = BowerGame(double_turn_mode="swap").new_state(0)
    for position in (swap, swap.to_dict()):
        with pytest.raises(StateFormatError, match=r"slot 1.*double_turn_mode"):
            env.set_state(1, position)
    broken = BowerGame().new_state(1).to_dict()
    broken["hands"][0] = [broken["display"][0]]
    with pytest.raises(StateFormatError, match="slot 0"):
        env.set_state(0, broken)
    assert_same(snapshot(env), before)



# --- autoreset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"reward": "egg_diff"}])
def test_autoreset_starts_a_fresh_game(options):
    """A finished game pays its rewards (zero-sum) in its last step and the slot goes on with
    a fresh game; any other step pays nothing and counts one decision."""
    env = make_vector(8, seed=4, **options)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    before = [env.get_state(i) for i in range(8)]
    ended = 0
    for _ in range(200):
        obs, mask, seat, rewards, terminated, truncated = env.step(legal_actions(rng, mask))
        assert not truncated.any()
        for i in range(8):
            now = env.get_state(i)
            if terminated[i]:
                ended += 1
                assert (now.phase, now.decisions, now.turns, now.placed) == (0, 0, [0, 0],
                                                                            [[], []])
                assert rewards[i].sum() == 0.0
                if options.get("reward") != "egg_diff":
                    assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
            else:
                assert now.decisions == before[i].decisions + 1
                assert rewards[i].tolist() == [0.0, 0.0]
            before[i] = now
    assert ended >= 8
