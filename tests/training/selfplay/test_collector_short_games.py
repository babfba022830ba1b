"""Games that end before the learner's seat decides: the collector replaces them without a
report, inside the same batched rounds as everything else (training_toy_games.StopGame)."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.training.selfplay.collector import MAX_RESET_TRIES, MultiSeatVecEnv
from tablezoo.training.selfplay.league import League, LeagueSettings
from tests.training.selfplay.toy_games import StopGame


def count_new_games(vec: MultiSeatVecEnv) -> dict[str, int]:
    """``{"slots": n}``: how many games ``vec`` starts from now on, reported or not."""
    created = {"slots": 0}
    new_slot = vec._new_slot

    def counting_new_slot():
        created["slots"] += 1
        return new_slot()

    vec._new_slot = counting_new_slot
    return created


@pytest.mark.parametrize("max_decisions", [6, 4])  # 4: some games are cut by the limit
def test_only_games_the_learner_played_in_are_reported_with_their_returns(max_decisions):
    game = StopGame(max_decisions=max_decisions)
    league = League(game, None, LeagueSettings(specs=["random"]))
    vec = MultiSeatVecEnv(game, league, num_envs=5, seed=3, reward_scale=0.5)
    vec.reset()
    rng = np.random.default_rng(0)
    created = count_new_games(vec)
    running = np.zeros(vec.num_envs)
    episodes, truncated = [], 0
    for _ in range(400):
        masks = vec.action_masks()
        slots = list(vec.slots)
        for slot, mask in zip(slots, masks):  # every game waits for its learner
            assert slot.seat in slot.state.acting_players() and mask.any()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, dones, infos = vec.step(actions)
        running += rewards
        for i in range(vec.num_envs):
            if not dones[i]:
                assert vec.slots[i] is slots[i] and infos[i] == {}
                continue
            ended, info = slots[i], infos[i]
            assert vec.slots[i] is not ended
            final = ended.state.returns()[ended.seat]  # StopGame starts every seat at 0
            assert info["episode"]["r"] == final and running[i] == pytest.approx(0.5 * final)
            assert info["episode"]["l"] >= 1  # the learner decided in every reported game
            assert info["seat"] == ended.seat and info["entry"] == "random"
            assert info["TimeLimit.truncated"] == (not ended.state.is_terminal())
            np.testing.assert_array_equal(info["terminal_observation"],
                                          ended.state.observe(ended.seat))
            truncated += info["TimeLimit.truncated"]
            episodes.append(info["episode"])
            running[i] = 0.0
    finished = vec.pop_finished()
    assert sorted(r for _, r in finished) == sorted(e["r"] for e in episodes)
    # some games ended before their learner decided and were replaced without a report
    assert created["slots"] > len(episodes) + 20
    assert (truncated > 20) == (max_decisions < 6)


def test_a_game_whose_learner_never_decides_is_refused_by_name():
    game = StopGame(over_at_start=True)
    league = League(game, None, LeagueSettings(specs=["random"]))
    vec = MultiSeatVecEnv(game, league, num_envs=2, seed=0)
    with pytest.raises(RuntimeError, match=f"never had a decision in {MAX_RESET_TRIES} new"):
        vec.reset()


def test_new_games_after_a_step_that_never_reach_the_learner_are_refused_by_name():
    game = StopGame()
    league = League(game, None, LeagueSettings(specs=["random"]))
    vec = MultiSeatVecEnv(game, league, num_envs=2, seed=0)
    vec.reset()
    game.over_at_start = True  # every game from now on is over before anyone decides
    created = count_new_games(vec)
    with pytest.raises(RuntimeError, match=f"never had a decision in {MAX_RESET_TRIES} new"):
        for _ in range(20):  # "stop" ends a game at once
            vec.step(np.zeros(vec.num_envs, int))
    assert created["slots"] == MAX_RESET_TRIES  # the first game to end: 100 unplayable successors
