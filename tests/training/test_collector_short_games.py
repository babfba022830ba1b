"""Games that end before the learner's seat decides: the collector replaces them without a
report, inside the same batched rounds as everything else (training_toy_games.StopGame)."""

from __future__ import annotations

import numpy as np
import pytest
from training_toy_games import StopGame

from training.collector import MAX_RESET_TRIES, MultiSeatVecEnv
from training.league import League


def test_only_games_the_learner_played_in_are_reported_and_their_rewards_sum_to_returns():
    game = StopGame()
    league = League(game, None, ["random"])
    vec = MultiSeatVecEnv(game, league, num_envs=5, seed=3)
    vec.reset()
    rng = np.random.default_rng(0)
    created = {"slots": 0}
    new_slot = vec._new_slot

    def counting_new_slot():
        created["slots"] += 1
        return new_slot()

    vec._new_slot = counting_new_slot
    running = np.zeros(vec.num_envs)
    episodes = []
    for _ in range(400):
        masks = vec.action_masks()
        for slot, mask in zip(vec.slots, masks):  # every game waits for its learner
            assert slot.seat in slot.state.acting_players() and mask.any()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, dones, infos = vec.step(actions)
        running += rewards
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["l"] >= 1  # the learner decided in every reported game
            assert running[i] == pytest.approx(episode["r"])
            episodes.append(episode)
            running[i] = 0.0
    finished = vec.pop_finished()
    assert sorted(r for _, r in finished) == sorted(e["r"] for e in episodes)
    # some games ended before their learner decided and were replaced without a report
    assert created["slots"] > len(episodes) + 20


def test_a_game_whose_learner_never_decides_is_refused_by_name():
    game = StopGame(over_at_start=True)
    vec = MultiSeatVecEnv(game, League(game, None, ["random"]), num_envs=2, seed=0)
    with pytest.raises(RuntimeError, match=f"never had a decision in {MAX_RESET_TRIES} new"):
        vec.reset()
