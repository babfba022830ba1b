"""The single-agent view: gymnasium's checker, masks, seats, rewards, determinism, errors."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tablezoo.envs.core.errors import IllegalActionError, InvalidOptionError, ResetNeededError
from tablezoo.training.selfplay.pool import OpponentPool
from tablezoo.training.selfplay.seat_env import SeatEnv

ENV = "bauer_trick_v0"
DEAL = {"episode": "deal"}


def test_gymnasium_check_env_passes():
    # check_env steps with action_space.sample(), which ignores masks: the view is built to
    # replace such an action by a random legal one (the training default raises instead).
    check_env(SeatEnv(ENV, DEAL, on_illegal="random_legal"), skip_render_check=True)


def test_masked_action_raises_and_leaves_the_state_unchanged():
    env = SeatEnv(ENV, DEAL)
    env.reset(seed=4)
    mask = env.action_masks()
    illegal = int(np.flatnonzero(~mask)[0])
    before = env.state.to_dict()
    with pytest.raises(IllegalActionError, match="illegal"):
        env.step(illegal)
    assert env.state.to_dict() == before


def test_mask_is_the_engine_mask_of_the_learners_seat_at_every_step():
    env = SeatEnv(ENV, DEAL)
    rng = np.random.default_rng(0)
    for episode in range(30):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            seat = info["seat"]
            assert env.state.acting_players() == (seat,)
            mask = env.action_masks()
            assert np.array_equal(mask, env.state.legal_mask(seat))
            assert np.array_equal(obs, env.state.observe(seat))
            obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = term or trunc


def test_seats_are_drawn_at_random_and_rewards_add_up_to_the_return():
    env = SeatEnv(ENV, DEAL)
    rng = np.random.default_rng(1)
    seats = set()
    for episode in range(40):
        _, info = env.reset(seed=100 + episode)
        seats.add(info["seat"])
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            _, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            done = term or trunc
        assert term and not trunc
        assert total == env.state.returns()[info["seat"]]
        assert info["opponents"][info["seat"]] is None
    assert seats == {0, 1, 2, 3}


def trajectory(seed: int, episodes: int = 5) -> list:
    env = SeatEnv(ENV, DEAL, opponents=["random", "heuristic"])
    out = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            a = int(np.flatnonzero(env.action_masks())[0])
            obs, reward, term, trunc, info = env.step(a)
            out.append((obs.tobytes(), reward, info["seat"], tuple(info["opponents"])))
            done = term or trunc
        obs, info = env.reset()
    return out


def test_same_seed_same_episodes_even_with_global_rngs_stirred():
    first = trajectory(11)
    np.random.seed(5)
    assert trajectory(11) == first
    assert trajectory(12) != first


def test_fixed_seat_and_game_mode():
    env = SeatEnv(ENV, {}, seat=2)  # whole games: several deals per episode
    rng = np.random.default_rng(2)
    _, info = env.reset(seed=0)
    steps, done = 0, False
    while not done:
        assert info["seat"] == 2
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        steps += 1
        done = term or trunc
    assert steps > 8  # more than one deal


def test_bad_configuration_errors_name_the_allowed_values():
    with pytest.raises(InvalidOptionError, match="known envs"):
        SeatEnv("nope_v0")
    with pytest.raises(InvalidOptionError, match="allowed values: 'game', 'deal'"):
        SeatEnv(ENV, {"episode": "hand"})
    with pytest.raises(ValueError, match="allowed: None or 0..3"):
        SeatEnv(ENV, DEAL, seat=4)
    with pytest.raises(ValueError, match="allowed values: raise, random_legal"):
        SeatEnv(ENV, DEAL, on_illegal="ignore")
    with pytest.raises(ValueError, match="known agents"):
        SeatEnv(ENV, DEAL, opponents=["randum"])
    with pytest.raises(ValueError, match="at least one"):
        OpponentPool(ENV, [])
    # a search option the played count cannot take (4-player bauer_draft pairs its root search)
    # is refused when the env is made, not at its first step
    with pytest.raises(ValueError, match="paired=True needs keys='root'"):
        SeatEnv("bauer_draft_v0", opponents=["ismcts:keys=own,iterations=5"])
    SeatEnv("bauer_draft_v0", {"num_players": 3}, opponents=["ismcts:keys=own,iterations=5"])


def test_seat_env_reads_one_spec_and_refuses_what_is_no_step():
    """A single spec was read letter by letter ("unknown agent 'r'"), 1.7 was played as 1, and
    a step before reset() said "a finished episode"."""
    env = SeatEnv(ENV, DEAL, opponents="heuristic")
    assert env.pool.names() == ["heuristic"]
    with pytest.raises(ResetNeededError, match="before reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    legal = int(np.flatnonzero(env.action_masks())[0])
    for action in (legal + 0.7, True):
        with pytest.raises(IllegalActionError, match="integer action id"):
            env.step(action)
    env.step(np.int64(legal))  # numpy integers, as sb3 sends them, are actions


def test_pool_draws_entries_by_weight():
    pool = OpponentPool(ENV, ["random", "heuristic"])
    pool.entries[1].weight = 3.0
    rng = np.random.default_rng(0)
    names = [pool.sample(rng).name for _ in range(4000)]
    assert 0.72 < names.count("heuristic") / 4000 < 0.78


@pytest.mark.parametrize("seed", [True, np.True_, -1, np.int64(-1), 1.5, "3", []])
def test_a_bad_seed_is_refused_as_by_the_envs_and_changes_nothing(seed):
    """gymnasium's own check took True as seed 1 and raised its own ``Error`` for the rest."""
    env = SeatEnv(ENV, DEAL)
    env.reset(seed=4)
    before, generator = env.state.to_dict(), env.np_random.bit_generator.state
    with pytest.raises(InvalidOptionError, match=rf"{ENV}: reset\(seed={re.escape(repr(seed))}\) "
                       "is not allowed; allowed: a non-negative int .*or None"):
        env.reset(seed=seed)
    assert env.state.to_dict() == before and env.np_random.bit_generator.state == generator


def test_a_numpy_integer_seed_is_its_int():
    """gymnasium refused np.int64 ("Seed must be a python integer"); the PettingZoo envs take it."""
    obs, info = SeatEnv(ENV, DEAL).reset(seed=np.int64(3))
    again, info_again = SeatEnv(ENV, DEAL).reset(seed=3)
    np.testing.assert_array_equal(obs, again)
    assert info == info_again
