"""ethnos' compiled batched engine (``envs/ethnos/compiled/``): the same game as the Python engine
decision by decision (``replay``), uniform setups and deals, ``step_rows`` over changing rows,
its variants' positions in and out and refused, and autoreset to a fresh game. What every
compiled engine promises (bad input, seeding, buffers) is checked in ``tests/envs/vector/``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import tablezoo.envs as tz
from tablezoo.envs.core.errors import (
    InvalidOptionError,
    StateFormatError,
)
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos.compiled import EthnosVector, make_vector
from tablezoo.envs.ethnos.compiled import layout as L
from tablezoo.envs.ethnos.components import TRIBE_COUNTS, TRIBE_INDEX
from tests.envs.ethnos.compiled.replay import random_position, replay_all, variants
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
    table = variants()
    results = replay_all(4 * len(table), batch=4, out=lines.append)
    assert len(results) == len(table) >= 25
    assert all(c.games == 4 and c.decisions > 0 for c in results.values()), lines
    assert sum(c.truncated for c in results.values()) > 0, "no truncation met"
    assert sum(c.ages_reloaded for c in results.values()) > 0
    assert lines[-1].startswith(f"total: {4 * len(table)} games")


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 4},
                                     {"num_players": 6, "auto_single_choice": True,
                                      "marker_limit": 8}])
def test_every_slot_is_the_python_engine_s_position(options):
    """Along random batched play (the engine's own deals and new games) each slot's decision
    and global state are those of its ``get_state`` (built and vetted by the Python engine)."""
    env = make_vector(6, seed=3, **options)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for step in range(1500):
        if step % 25 == 0:
            assert_slots_are_their_positions(env, obs, mask, seat)
        obs, mask, seat, _, terminated, truncated = env.step(legal_actions(rng, mask))
        ended += int(terminated.sum() + truncated.sum())
    assert ended > 0


def test_the_options_are_the_python_game_s():
    options = {"num_players": 3, "glory_tokens": "lu", "reward": "margin"}
    assert make_vector(2, **options).options == EthnosGame(**options).options
    for bad in ({"num_players": 7}, {"tribes": ["Elves"]},
                {"merfolk_spaces": [3, 30]}):
        with pytest.raises(InvalidOptionError) as python:
            EthnosGame(**bad)
        with pytest.raises(InvalidOptionError) as batched:
            make_vector(2, **bad)
        assert str(batched.value) == str(python.value)


def test_make_vector_of_the_registry_runs_the_compiled_engine():
    env = tz.make_vector("ethnos_v0", 4, seed=0, num_players=5)
    assert isinstance(env, EthnosVector)
    assert "compiled" in tz.vector_backends("ethnos_v0")
    obs, mask, seat = env.reset()
    game = EthnosGame(num_players=5)
    assert obs.shape == (4, game.obs_spec.size) and obs.dtype == np.float32
    assert mask.shape == (4, 289) and mask.dtype == bool and seat.shape == (4,)
    assert env.state().shape == (4, game.state_spec.size)
    assert env.step(legal_actions(np.random.default_rng(0), mask))[3].shape == (4, 5)


# --- setup and dealing ---------------------------------------------------------------------------
def _chi2_ok(counts: np.ndarray, expected: np.ndarray, df: int) -> bool:
    """A chi-square bound far in the tail (p < 1e-12) on a fixed seed: deterministic."""
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    return chi2 < df + 12 * np.sqrt(2 * df)


def test_setups_are_uniform():
    """24,576 two-player setups: each tribe is drawn 5 times in 12, the first player is either
    seat half the time, each kingdom holds each glory token value in proportion to its count."""
    n, rounds = 4096, 6
    env = make_vector(n, seed=20261206, num_players=2)
    tribes = np.zeros(12)
    firsts = np.zeros(2)
    tokens = np.zeros((6, 11))
    for _ in range(rounds):
        env.reset()
        S = env._S
        tribes += S[:, L.HAS:L.HAS + 12].sum(axis=0)
        firsts += np.bincount(S[:, L.FIRST], minlength=2)
        for k in range(6):
            for slot in range(2):
                tokens[k] += np.bincount(S[:, L.TOKENS + 3 * k + slot], minlength=11)
    games = n * rounds
    assert _chi2_ok(tribes, np.full(12, games * 5 / 12), 11)
    assert _chi2_ok(firsts, np.full(2, games / 2), 1)
    pool = np.bincount([0, 2, 2, 4, 4, 6, 6, 6, 8, 8, 8, 10], minlength=11)
    values = pool > 0
    expected = np.tile(games * 2 * pool[values] / 12, (6, 1))
    assert _chi2_ok(tokens[:, values], expected, 6 * (values.sum() - 1))


def test_deals_are_uniform():
    """24,576 four-player Age I deals of fixed tribes: each seat's first card and the display
    hold each card type in proportion to its copies, and each Dragon lies at each place of the
    deck's lower part equally often (never above it)."""
    names = ["Dwarves", "Elves", "Halflings", "Orcs", "Wizards", "Skeletons"]
    n, rounds = 4096, 6
    env = make_vector(n, seed=7, num_players=4, tribes=names)
    full = TRIBE_COUNTS[[TRIBE_INDEX[t.lower()] for t in names]].sum(axis=0)
    cards = int(full.sum())
    low = (cards - 4 - 8) // 2
    types = full > 0
    hands = np.zeros((4, 67))
    display = np.zeros(67)
    dragons = np.zeros(low + 3)
    for _ in range(rounds):
        env.reset()
        S = env._S
        assert np.all(S[:, L.LOWER_LEFT] == low + 3)
        for p in range(4):
            hands[p] += S[:, L.HANDS + 67 * p:L.HANDS + 67 * (p + 1)].sum(axis=0)
        display += S[:, L.DISPLAY:L.DISPLAY + 67].sum(axis=0)
        deck = S[:, L.DECK:L.DECK + cards - 12 + 3]
        where = np.nonzero(deck == L.DRAGON)
        assert np.all(where[1] < low + 3)
        dragons += np.bincount(where[1], minlength=low + 3)
    games = n * rounds
    for p in range(4):
        assert _chi2_ok(hands[p, types], games * full[types] / cards, types.sum() - 1)
    assert _chi2_ok(display[types], 8 * games * full[types] / cards, types.sum() - 1)
    assert _chi2_ok(dragons, np.full(low + 3, 3 * games / (low + 3)), low + 2)


# --- step_rows --------------------------------------------------------------------------------
def test_step_rows_steps_those_rows_as_step_does():
    """``step_rows`` (the batched trainer's league path) plays the given rows exactly as
    ``step`` plays them (each slot has its own generator) and leaves the others as they were,
    with a new set of rows each step: the reference keeps in step through ``set_state`` of
    ``get_state``, which copies an ethnos slot exactly (not so a bauer_draft slot mid-select)."""
    rows_env, all_env = make_vector(8, seed=9, num_players=5), make_vector(8, seed=9,
                                                                          num_players=5)
    rows_env.reset()
    all_env.reset()
    rng = np.random.default_rng(2)
    for step in range(400):
        mask = all_env.observe()[1]
        actions = legal_actions(rng, mask)
        rows = np.flatnonzero(rng.random(8) < 0.5) if step % 3 else np.arange(8)
        before = rows_env.observe()
        states = [rows_env.get_state(i).to_dict() for i in range(8)]
        rewards, terminated, truncated = rows_env.step_rows(actions, rows)
        after = rows_env.observe()
        full = all_env.step(actions)
        for i in range(8):
            if i in rows:
                assert all(np.array_equal(x[i], y[i]) for x, y in zip(after, full[:3]))
                assert np.array_equal(rewards[i], full[3][i])
                assert (terminated[i], truncated[i]) == (full[4][i], full[5][i])
            else:
                assert all(np.array_equal(x[i], y[i]) for x, y in zip(after, before))
                assert not rewards[i].any() and not terminated[i] and not truncated[i]
                assert rows_env.get_state(i).to_dict() == states[i]
                all_env.set_state(i, rows_env.get_state(i))  # keep the two in step,
                all_env._rng[i] = rows_env._rng[i]  # generators too


# --- positions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 5, "reward": "score"},
                                     {"num_players": 4, "tribes": ["Giants", "Merfolk", "Orcs",
                                                                   "Trolls", "Wingfolk",
                                                                   "Centaurs"]}])
def test_set_state_then_get_state_round_trip(options):
    game = EthnosGame(**options)
    env = make_vector(4, seed=0, **options)
    env.reset()
    rng = np.random.default_rng(5)
    for k in range(24):
        state = random_position(game, rng)
        i = k % 4
        assert_loads(env, i, state, as_dict=k % 2 == 0)


def test_set_state_refuses_another_variant_or_a_broken_position():
    """(Another game, a finished position and a bad slot: ``tests/envs/vector/``.)"""
    env = make_vector(3, seed=0, num_players=4)
    env.reset()
    before = snapshot(env)
    three = EthnosGame(num_players=3).new_state(0)
    for position in (three, three.to_dict()):
        with pytest.raises(StateFormatError, match=r"slot 1.*num_players"):
            env.set_state(1, position)
    scored = EthnosGame(num_players=4, reward="score").new_state(0)
    with pytest.raises(StateFormatError, match=r"slot 1.*reward"):
        env.set_state(1, scored)
    broken = EthnosGame(num_players=4).new_state(1).to_dict()
    broken["hands"][0] = broken["hands"][1]
    with pytest.raises(StateFormatError, match="slot 0"):
        env.set_state(0, broken)
    assert_same(snapshot(env), before)



# --- autoreset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 3, "reward": "score"},
                                     {"num_players": 5, "max_decisions": 60}])
def test_autoreset_starts_a_fresh_game(options):
    """A game that ends reports its last rewards (the rank rewards sum to zero) and the slot
    starts a fresh game: Age I, no decision, no glory, no band, one card in each hand."""
    env = make_vector(8, seed=4, **options)
    obs, mask, seat = env.reset()
    n = env.num_players
    rng = np.random.default_rng(0)
    totals = np.zeros((8, n))
    ended = 0
    for _ in range(1500):
        obs, mask, seat, rewards, terminated, truncated = env.step(legal_actions(rng, mask))
        totals += rewards
        for i in np.flatnonzero(terminated | truncated):
            ended += 1
            now = env.get_state(int(i))
            assert (now.age, now.decisions, now.glory.tolist(), now.bands, now.hand_len) == (
                0, 0, [0.0] * n, [[] for _ in range(n)], [1] * n)
            if env.options["reward"] == "rank" and terminated[i]:
                assert abs(totals[i].sum()) < 1e-5 and totals[i].max() > 0
            totals[i] = 0
    assert ended > 2
