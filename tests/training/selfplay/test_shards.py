"""``ShardedVecEnv.start_rollout``: the workers play a whole rollout without waiting for the main
process, and the games are exactly those of step-by-step ``learner_step`` calls."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from stable_baselines3.common.callbacks import BaseCallback

from tablezoo import envs
from tablezoo.training.selfplay.collector import obs_scale_for
from tablezoo.training.selfplay.league import LeagueSettings
from tablezoo.training.selfplay.ppo import CollectorPPO
from tablezoo.training.selfplay.shards import ShardedVecEnv
from tablezoo.training.selfplay.train import build_shard
from tablezoo.training.shipping.export import mlp_from_policy, value_mlp_from_policy

ENV, OPTIONS = "bauer_trick_v0", {"episode": "deal"}


def sharded(num_envs: int = 6, seed: int = 5) -> ShardedVecEnv:
    make = functools.partial(build_shard, ENV, OPTIONS,
                             LeagueSettings(specs=["heuristic", "random"]),
                             True, 1.0)
    probe = make(1, seed)
    return ShardedVecEnv(make, num_envs, 2, seed, probe.observation_space, probe.action_space)


def ready(vec: ShardedVecEnv) -> CollectorPPO:
    model = CollectorPPO("MlpPolicy", vec, n_steps=24, batch_size=48, n_epochs=1, device="cpu",
                         seed=0, policy_kwargs={"net_arch": [32, 32]})
    vec.set_self(mlp_from_policy(model.policy, obs_scale_for(envs.make_game(ENV, **OPTIONS))))
    vec.set_learner(mlp_from_policy(model.policy), value_mlp_from_policy(model.policy))
    vec.reset()
    return model


def same_step(a: tuple, b: tuple) -> None:
    obs, rewards, dones, infos, masks, actions, values, log_probs = a
    for got, want in zip((obs, rewards, dones, masks, actions, values, log_probs),
                         (b[0], b[1], b[2], b[4], b[5], b[6], b[7])):
        np.testing.assert_array_equal(got, want)
    assert [sorted(i) for i in infos] == [sorted(i) for i in b[3]]


def test_a_streamed_rollout_is_the_step_by_step_one():
    streamed, stepped = sharded(), sharded()
    try:
        ready(streamed), ready(stepped)
        for _ in range(2):  # two rollouts: the workers listen again after the first
            streamed.start_rollout(30)
            for _ in range(30):
                same_step(streamed.learner_step(), stepped.learner_step())
            np.testing.assert_array_equal(streamed.action_masks(), stepped.action_masks())
            assert streamed.pop_finished() == stepped.pop_finished()
    finally:
        streamed.close()
        stepped.close()


def test_rollouts_of_other_lengths_reuse_or_renew_the_shared_buffers():
    """The workers write streamed steps into shared memory, a block per worker, made anew when
    a rollout is longer than the block holds (5 -> 30 steps) and reused when it fits (30 ->
    12): the steps are still those of step-by-step play, and closing frees every block."""
    from multiprocessing import shared_memory

    streamed, stepped = sharded(), sharded()
    names = set()
    try:
        ready(streamed), ready(stepped)
        for length in (5, 30, 12):
            streamed.start_rollout(length)
            for _ in range(length):
                same_step(streamed.learner_step(), stepped.learner_step())
            np.testing.assert_array_equal(streamed.action_masks(), stepped.action_masks())
            names.update(buffer.name for buffer in streamed._buffers)
        assert len(names) == 4  # two workers, each a block for 5 steps and one for 30
        streamed.start_rollout(30)  # cancelled, then a longer one: new blocks again
        first = streamed.learner_step()
        streamed.cancel_rollout(first[0], first[2])
        streamed.start_rollout(50)
        assert len([streamed.learner_step() for _ in range(50)]) == 50
        names.update(buffer.name for buffer in streamed._buffers)
        assert len(names) == 6
    finally:
        streamed.close()
        stepped.close()
    for name in names:
        with pytest.raises(FileNotFoundError):
            shared_memory.SharedMemory(name=name)


def _rollout_with_a_wrong_learner(vec: ShardedVecEnv) -> Callable[[], object]:
    """A learner network of the wrong input size: the workers' streamed rollout raises."""
    from tablezoo.agents.learned.policy import NumpyMLP

    width, actions = vec.observation_space.shape[0] + 1, vec.action_space.n
    wrong = NumpyMLP([np.zeros((width, actions), np.float32)], [np.zeros(actions, np.float32)])
    vec.set_learner(wrong, wrong)
    vec.start_rollout(10)
    return vec.learner_step


def _step_with_an_illegal_action(vec: ShardedVecEnv) -> Callable[[], object]:
    """A plain step (sb3's own loop) with an action no game has."""
    vec.step_async(np.full(vec.num_envs, 10**6))
    return vec.step_wait


@pytest.mark.parametrize("failing,reason", [
    (_rollout_with_a_wrong_learner, "ModelMismatchError: .*expects observations"),
    (_step_with_an_illegal_action, "Illegal.*1000000"),
])
def test_a_worker_that_fails_says_why(failing, reason):
    """An exception inside a worker reaches the main process with its reason, instead of a
    bare EOFError from a broken pipe."""
    vec = sharded()
    try:
        ready(vec)
        with pytest.raises(RuntimeError, match=f"worker 0 failed: {reason}"):
            failing(vec)()
    finally:
        vec.close()


def test_closing_frees_the_block_of_a_worker_that_was_killed():
    """A worker killed in mid-rollout cannot free its shared memory; ``close`` does."""
    import os
    import signal
    from multiprocessing import shared_memory

    vec = sharded()
    try:
        ready(vec)
        vec.start_rollout(2_000)  # still playing when it is killed
        vec.learner_step()
        name = vec._buffers[0].name
        os.kill(vec.processes[0].pid, signal.SIGKILL)
        vec.processes[0].join(timeout=10)
        with pytest.raises((EOFError, ConnectionError)):
            for _ in range(1_999):
                vec.learner_step()
    finally:
        vec.close()
    with pytest.raises(FileNotFoundError):
        shared_memory.SharedMemory(name=name)


def test_a_block_with_no_room_is_refused_with_the_sizes(tmp_path):
    from tablezoo.training.selfplay.step_buffer import check_room

    check_room(1, str(tmp_path))  # room enough
    with pytest.raises(MemoryError, match=r"needs \d+ MiB of shared memory but .* MiB free"):
        check_room(2**62, str(tmp_path))


def positions_match(obs: np.ndarray, dones: np.ndarray, sizes: list[int],
                    history: list[tuple]) -> list[int]:
    """For each shard (its rows), the reference step whose observations and dones it shows."""
    found, start = [], 0
    for size in sizes:
        rows = slice(start, start + size)
        hits = [j for j, step in enumerate(history)
                if np.array_equal(step[0][rows], obs[rows])
                and np.array_equal(step[2][rows], dones[rows])]
        assert hits, f"rows {rows} match no step of the reference"
        found.append(hits[-1])
        start += size
    return found


def test_a_cancelled_rollout_leaves_the_games_where_they_stand():
    """Cancelled after 3 of 40 steps, each worker stops at its next step (somewhere in 3..40,
    by timing); the returned observations, dones and masks are those of the games as they
    stand, and step-by-step play goes on from there."""
    streamed = sharded()
    try:
        ready(streamed)
        streamed.start_rollout(40)
        history = [streamed.learner_step() for _ in range(3)]
        with pytest.raises(RuntimeError, match="cancel_rollout"):
            streamed.start_rollout(5)
        with pytest.raises(RuntimeError, match="streaming"):
            streamed.pop_finished()
        obs, dones = streamed.cancel_rollout(history[-1][0], history[-1][2])
        masks = streamed.action_masks().copy()
        next_step = streamed.learner_step()  # step by step again
        np.testing.assert_array_equal(next_step[4], masks)  # chosen under those masks
        streamed.pop_finished()  # the workers listen again
    finally:
        streamed.close()
    reference = sharded()
    try:
        ready(reference)
        history = [reference.learner_step() for _ in range(41)]
    finally:
        reference.close()
    stops = positions_match(obs, dones, streamed.sizes, history)
    assert all(2 <= j <= 39 for j in stops)  # from the 3rd step (index 2) to the 40th
    after = positions_match(next_step[0], next_step[2], streamed.sizes, history)
    assert [j - 1 for j in after] == stops  # one step on, in every shard


class StopAt(BaseCallback):
    def __init__(self, calls: int):
        super().__init__()
        self.calls = calls

    def _on_step(self) -> bool:
        self.calls -= 1
        return self.calls > 0


def test_a_stopped_learn_resumes_from_the_real_positions():
    """A callback stops the rollout at its 3rd of 24 steps while the workers play on. The
    model must go on from where the games stand, not from the 3rd step."""
    vec, reference = sharded(), sharded()
    try:
        model = ready(vec)
        ready(reference)
        reference.reset()  # as learn() resets
        history = [reference.learner_step() for _ in range(24)]
        model.learn(48, callback=StopAt(3))
        assert model.num_timesteps == 3 * vec.num_envs
        stops = positions_match(model._last_obs, model._last_episode_starts, vec.sizes, history)
        assert all(2 <= j <= 23 for j in stops)
        model.learn(48, reset_num_timesteps=False)  # and the protocol is in step again
        assert model.num_timesteps >= 3 * vec.num_envs + 48
    finally:
        vec.close()
        reference.close()


def test_closing_in_mid_stream_ends_the_workers_cleanly():
    """A rollout broken off (an exception, then ``close`` in a ``finally``): the workers stop
    streaming, take the close command and exit normally instead of being terminated."""
    vec = sharded()
    ready(vec)
    workers = list(vec.processes)
    vec.start_rollout(2_000)  # each worker's block: ~9 MB of /dev/shm
    vec.learner_step()
    vec.close()
    assert [p.exitcode for p in workers] == [0, 0]


def test_cancel_stops_the_workers_at_their_next_step():
    """They play on only until the cancel reaches them, not the whole rollout: of 2,000 steps
    (over 1,200 finished deals if played out) few are played."""
    vec = sharded()
    try:
        ready(vec)
        vec.pop_finished()
        vec.start_rollout(2_000)
        first = vec.learner_step()
        vec.cancel_rollout(first[0], first[2])
        assert len(vec.pop_finished()) < 300
    finally:
        vec.close()
