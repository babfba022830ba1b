"""``--processes K``: the collector split into K shards, each in its own worker process.

The pattern of sb3's ``SubprocVecEnv``, but over whole ``MultiSeatVecEnv`` shards instead of
single envs, so each worker still batches its network seats. Every worker owns its shard's games
and its own copy of the league (PFSP statistics from its own games); the learner's weights and
new snapshots are broadcast to all of them. The main process only runs the PPO update (and, with
sb3's own rollout loop, the learner's forward pass).

With ``training.ppo.CollectorPPO`` the workers answer the learner's seats themselves, so nothing
they need comes from the main process during a rollout: ``start_rollout(n)`` lets each worker play
its ``n`` steps straight through and stream them back, while the main process fills the rollout
buffer. The workers then never wait for the main process or for each other step by step, and
the games are exactly those of step-by-step ``learner_step`` calls.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from collections.abc import Callable
from typing import Any

import numpy as np

from agents.policy import NumpyMLP
from training.collector import LockstepVecEnv

ShardFactory = Callable[[int, int], Any]  # (num_envs, seed) -> MultiSeatVecEnv


def _worker(remote: Any, make_shard: ShardFactory, num_envs: int, seed: int) -> None:
    import torch

    torch.set_num_threads(1)
    try:
        shard = make_shard(num_envs, seed)
    except Exception as error:  # reported by the constructor, not as a broken pipe later
        remote.send(("error", f"{type(error).__name__}: {error}"))
        remote.close()
        return
    remote.send(("ready", None))
    while True:
        command, payload = remote.recv()
        if command == "step":  # the next masks travel with the step (no extra round trip)
            shard.step_async(payload)
            remote.send((*shard.step_wait(), shard.action_masks()))
        elif command == "learner_step":  # masks for the next step travel with it
            results = shard.learner_step()
            remote.send((*results, shard.action_masks()))
        elif command == "learner_steps":  # a whole rollout, streamed without waiting
            for _ in range(payload):
                results = shard.learner_step()
                remote.send((*results, shard.action_masks()))
        elif command == "set_learner":
            shard.set_learner(*payload)
        elif command == "reset":
            remote.send((shard.reset(), shard.action_masks()))
        elif command == "set_self":
            shard.set_self(payload)
        elif command == "add_snapshot":
            shard.add_snapshot(*payload)
        elif command == "finished":
            remote.send(shard.pop_finished())
        elif command == "close":
            remote.close()
            return


class ShardedVecEnv(LockstepVecEnv):
    """``processes`` worker processes with ``num_envs // processes`` games each."""

    def __init__(self, make_shard: ShardFactory, num_envs: int, processes: int, seed: int,
                 observation_space: Any, action_space: Any):
        if processes < 2 or num_envs < processes:
            raise ValueError(f"processes={processes}, num_envs={num_envs}; allowed: "
                             "2 <= processes <= num_envs")
        sizes = [num_envs // processes + (k < num_envs % processes) for k in range(processes)]
        ctx = mp.get_context("forkserver")
        self.remotes, self.processes, self.sizes = [], [], sizes
        self._masks = np.zeros((0, 0), bool)
        self._streamed = 0  # steps of the current rollout still to come from the workers
        for k, size in enumerate(sizes):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(there, make_shard, size, seed + 1000 * k),
                               daemon=True)
            proc.start()
            there.close()
            self.remotes.append(here)
            self.processes.append(proc)
        # wait until every shard is built (imports included), so a failure surfaces here and
        # a timed run measures playing, not start-up
        for k, r in enumerate(self.remotes):
            try:
                status, message = r.recv()
            except EOFError:
                status, message = "error", "the process ended before it was ready"
            if status != "ready":
                self.close()
                raise RuntimeError(f"--processes: worker {k} could not build its games: {message}")
        self.render_mode = None
        super().__init__(num_envs, observation_space, action_space)

    def reset(self) -> np.ndarray:
        for r in self.remotes:
            r.send(("reset", None))
        obs, masks = zip(*[r.recv() for r in self.remotes])
        self._masks = np.concatenate(masks)
        return np.concatenate(obs)

    def step_async(self, actions: np.ndarray) -> None:
        start = 0
        for r, size in zip(self.remotes, self.sizes):
            r.send(("step", np.asarray(actions)[start:start + size]))
            start += size

    def step_wait(self):
        results = [r.recv() for r in self.remotes]
        obs, rewards, dones, infos, masks = zip(*results)
        self._masks = np.concatenate(masks)
        return (np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones),
                [info for part in infos for info in part])

    def set_learner(self, actor: NumpyMLP, critic: NumpyMLP) -> None:
        for r in self.remotes:
            r.send(("set_learner", (actor, critic)))

    def start_rollout(self, n_steps: int) -> None:
        """Let every worker play the next ``n_steps`` learner steps on its own; the next
        ``n_steps`` calls of ``learner_step`` collect them in order."""
        if self._streamed:
            raise RuntimeError(f"start_rollout: {self._streamed} steps of the last rollout "
                               "were never collected; call cancel_rollout() first")
        for r in self.remotes:
            r.send(("learner_steps", int(n_steps)))
        self._streamed = int(n_steps)

    def cancel_rollout(self) -> tuple[Any, ...] | None:
        """Collect and drop the steps still streaming (a rollout stopped early); returns the
        last of them (its observations and dones are where the games now stand), or None."""
        last = None
        while self._streamed:
            last = self.learner_step()
        return last

    def learner_step(self) -> tuple[Any, ...]:
        """``MultiSeatVecEnv.learner_step`` in every worker at once: the learner's forward
        pass runs in the workers too, so the main process only gathers and trains."""
        if self._streamed:
            self._streamed -= 1
        else:
            for r in self.remotes:
                r.send(("learner_step", None))
        parts = list(zip(*[r.recv() for r in self.remotes]))
        obs, rewards, dones, infos, masks, actions, values, log_probs, next_masks = parts
        self._masks = np.concatenate(next_masks)
        return (np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones),
                [info for part in infos for info in part], np.concatenate(masks),
                np.concatenate(actions), np.concatenate(values), np.concatenate(log_probs))

    def action_masks(self) -> np.ndarray:
        """The masks that came back with the last ``reset``/``step``."""
        return self._masks

    def set_self(self, mlp: NumpyMLP) -> None:
        for r in self.remotes:
            r.send(("set_self", mlp))

    def add_snapshot(self, name: str, mlp: NumpyMLP) -> None:
        for r in self.remotes:
            r.send(("add_snapshot", (name, mlp)))

    def pop_finished(self) -> list[tuple[str, float]]:
        for r in self.remotes:
            r.send(("finished", None))
        return [item for r in self.remotes for item in r.recv()]

    def close(self) -> None:
        for r in self.remotes:
            with contextlib.suppress(BrokenPipeError, EOFError):
                r.send(("close", None))
        for p in self.processes:
            p.join(timeout=5)
        self.remotes, self.processes = [], []

    def seed(self, seed: int | None = None) -> list[int | None]:
        return [seed] * self.num_envs
