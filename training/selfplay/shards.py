"""``--processes K``: the collector split into K shards, each in its own worker process.

The pattern of sb3's ``SubprocVecEnv``, but over whole ``MultiSeatVecEnv`` shards instead of
single envs, so each worker still batches its network seats. Every worker owns its shard's games
and its own copy of the league (PFSP statistics from its own games); the learner's weights and
new snapshots are broadcast to all of them. The main process only runs the PPO update (and, with
sb3's own rollout loop, the learner's forward pass).

With ``tablezoo.training.selfplay.ppo.CollectorPPO`` the workers answer the learner's seats
themselves, so nothing they need comes from the main process during a rollout: ``start_rollout(n)``
lets each worker play its ``n`` steps straight through, writing their arrays into shared memory
(``tablezoo.training.selfplay.step_buffer``) and telling the main process through its pipe which
steps are ready (``STREAM_BATCH`` steps a message, with their ``info`` dicts), while the main
process fills the rollout buffer. The workers then wait for neither the main process nor each other
(a rollout's block holds all its steps, so a worker plays its rollout through even while the main
process is busy elsewhere), and the games are exactly those of step-by-step ``learner_step`` calls.
No other command may be sent while a rollout streams; ``cancel_rollout`` stops it early (each worker
at its next step) and says where the games stand. A worker whose command raises sends the reason
before it ends, and the main process raises it.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from tablezoo.agents.learned.policy import NumpyMLP
from tablezoo.training.selfplay.collector import LockstepVecEnv
from tablezoo.training.selfplay.step_buffer import StepBuffer

ShardFactory = Callable[[int, int], Any]  # (num_envs, seed) -> MultiSeatVecEnv
CANCELLED = "cancelled"  # a worker's last message of a cancelled stream
FAILED = "failed"  # a worker's last message when a command raised: (FAILED, reason)
# steps per message of a streamed rollout: each message wakes the main process and costs a
# system call on both sides, so the steps are announced in batches (their arrays are already in
# shared memory; the message carries their infos)
STREAM_BATCH = 8


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
    buffer: StepBuffer | None = None  # where this worker's streamed steps are written
    try:
        while True:
            command, payload = remote.recv()
            if command == "close":
                return
            buffer = _answer(remote, shard, command, payload, buffer)
    except Exception as error:  # said before the pipe breaks: the main process raises it
        with contextlib.suppress(OSError):
            remote.send((FAILED, f"{type(error).__name__}: {error}"))
    finally:
        if buffer is not None:
            buffer.close()
        remote.close()


def _answer(remote: Any, shard: Any, command: str, payload: Any,
            buffer: StepBuffer | None) -> StepBuffer | None:
    """Carry out one command of the main process; returns the worker's step buffer."""
    if command == "step":  # the next masks travel with the step (no extra round trip)
        shard.step_async(payload)
        remote.send((*shard.step_wait(), shard.action_masks()))
    elif command == "learner_step":  # masks for the next step travel with it
        results = shard.learner_step()
        remote.send((*results, shard.action_masks()))
    elif command == "learner_steps":  # a whole rollout, streamed without waiting
        buffer = _stream_rollout(remote, shard, payload, buffer)
    elif command == "cancel":  # a stream stopped early (or already over): mark its end
        remote.send(CANCELLED)
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
    else:
        raise ValueError(f"unknown command {command!r}")
    return buffer


def _stream_rollout(remote: Any, shard: Any, steps: int,
                    buffer: StepBuffer | None) -> StepBuffer | None:
    """Play ``steps`` learner steps into ``buffer`` (a new one if it is too small: only at the
    first step, when the main process has read every earlier step), announcing them in
    batches; stop early at a "cancel". Returns the buffer the steps are in."""
    first, infos, announce = 0, [], None
    for index in range(steps):
        obs, rewards, dones, step_infos, masks, actions, values, log_probs = shard.learner_step()
        step = {"obs": obs, "rewards": rewards, "dones": dones, "masks": masks,
                "actions": actions, "values": values, "log_probs": log_probs,
                "next_masks": shard.action_masks()}
        if index == 0 and (buffer is None or not buffer.fits(steps, step)):
            if buffer is not None:
                buffer.close()
            buffer = StepBuffer.create(steps, step)
            announce = (buffer.name, buffer.layout)
        assert buffer is not None
        buffer.write(index, step)
        infos.append(step_infos)
        if len(infos) == STREAM_BATCH:
            remote.send((announce, first, infos))
            first, infos, announce = index + 1, [], None
        if remote.poll():  # only "cancel" may come during a stream
            break
    if infos:
        remote.send((announce, first, infos))
    return buffer


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
        # streamed steps not yet collected, (index in the worker's buffer, infos) per worker
        self._received: list[deque[tuple[int, list]]] = [deque() for _ in sizes]
        self._buffers: list[StepBuffer | None] = [None for _ in sizes]  # attached by name
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
        self._idle("reset")
        for r in self.remotes:
            r.send(("reset", None))
        obs, masks = zip(*[self._recv(k) for k in range(len(self.remotes))])
        self._masks = np.concatenate(masks)
        return np.concatenate(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._idle("step_async")
        start = 0
        for r, size in zip(self.remotes, self.sizes):
            r.send(("step", np.asarray(actions)[start:start + size]))
            start += size

    def step_wait(self):
        results = [self._recv(k) for k in range(len(self.remotes))]
        obs, rewards, dones, infos, masks = zip(*results)
        self._masks = np.concatenate(masks)
        return (np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones),
                [info for part in infos for info in part])

    def set_learner(self, actor: NumpyMLP, critic: NumpyMLP) -> None:
        self._idle("set_learner")
        for r in self.remotes:
            r.send(("set_learner", (actor, critic)))

    def start_rollout(self, n_steps: int) -> None:
        """Let every worker play the next ``n_steps`` learner steps on its own; the next
        ``n_steps`` calls of ``learner_step`` collect them in order."""
        self._idle("start_rollout")
        for r in self.remotes:
            r.send(("learner_steps", int(n_steps)))
        self._streamed = int(n_steps)

    def cancel_rollout(self, obs: np.ndarray, dones: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Stop a streaming rollout early. ``obs`` and ``dones`` are those of the last step
        collected; the steps the workers played beyond it are dropped (each worker stops at
        its next step), and the observations and dones of where the games now stand are
        returned (the masks follow them)."""
        obs, dones = np.array(obs, copy=True), np.array(dones, copy=True)
        start = 0
        for size, last in zip(self.sizes, self._drain()):
            if last is not None:
                obs[start:start + size], dones[start:start + size] = last["obs"], last["dones"]
                self._masks[start:start + size] = last["next_masks"]
            start += size
        return obs, dones

    def _drain(self) -> list[dict[str, np.ndarray] | None]:
        """Each worker's last streamed step not yet collected (None: nothing beyond it)."""
        if not self._streamed:
            return [None] * len(self.remotes)
        for r in self.remotes:
            r.send(("cancel", None))
        lasts: list[dict[str, np.ndarray] | None] = []
        for k, received in enumerate(self._received):
            last = received[-1][0] if received else None
            received.clear()
            while self._receive(k):
                last = received[-1][0]
                received.clear()
            buffer = self._buffers[k]
            lasts.append(None if last is None or buffer is None else buffer.read(last))
        self._streamed = 0
        return lasts

    def _recv(self, k: int) -> Any:
        """Worker ``k``'s next message; a worker that failed sent its reason, raised here."""
        message = self.remotes[k].recv()
        if (isinstance(message, tuple) and len(message) == 2 and isinstance(message[0], str)
                and message[0] == FAILED):
            raise RuntimeError(f"--processes: worker {k} failed: {message[1]}")
        return message

    def _receive(self, k: int) -> bool:
        """Worker ``k``'s next message of a stream: its steps are queued (a new buffer
        attached first if it announces one). False: the stream's end after a cancel."""
        message = self._recv(k)
        if isinstance(message, str):
            return False
        announce, first, infos = message
        if announce is not None:
            if self._buffers[k] is not None:
                self._buffers[k].close()
            self._buffers[k] = StepBuffer.attach(*announce)
        self._received[k].extend((first + j, info) for j, info in enumerate(infos))
        return True

    def _idle(self, what: str) -> None:
        if self._streamed:
            raise RuntimeError(f"{what}: the workers are streaming a rollout ({self._streamed} "
                               "steps to come); collect them with learner_step() or call "
                               "cancel_rollout() first")

    def learner_step(self) -> tuple[Any, ...]:
        """``MultiSeatVecEnv.learner_step`` in every worker at once: the learner's forward
        pass runs in the workers too, so the main process only gathers and trains."""
        if self._streamed:
            self._streamed -= 1
            steps = []
            for k, received in enumerate(self._received):
                if not received:
                    self._receive(k)
                index, infos = received.popleft()
                step = self._buffers[k].read(index)  # type: ignore[union-attr]
                steps.append((step["obs"], step["rewards"], step["dones"], infos, step["masks"],
                              step["actions"], step["values"], step["log_probs"],
                              step["next_masks"]))
        else:
            for r in self.remotes:
                r.send(("learner_step", None))
            steps = [self._recv(k) for k in range(len(self.remotes))]
        parts = list(zip(*steps))
        obs, rewards, dones, infos, masks, actions, values, log_probs, next_masks = parts
        self._masks = np.concatenate(next_masks)
        return (np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones),
                [info for part in infos for info in part], np.concatenate(masks),
                np.concatenate(actions), np.concatenate(values), np.concatenate(log_probs))

    def action_masks(self) -> np.ndarray:
        """The masks that came back with the last ``reset``/``step``."""
        return self._masks

    def set_self(self, mlp: NumpyMLP) -> None:
        self._idle("set_self")
        for r in self.remotes:
            r.send(("set_self", mlp))

    def add_snapshot(self, name: str, mlp: NumpyMLP) -> None:
        self._idle("add_snapshot")
        for r in self.remotes:
            r.send(("add_snapshot", (name, mlp)))

    def pop_finished(self) -> list[tuple[str, float]]:
        self._idle("pop_finished")
        for r in self.remotes:
            r.send(("finished", None))
        return [item for k in range(len(self.remotes)) for item in self._recv(k)]

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, EOFError, OSError):
            self._drain()  # a rollout broken off by an exception: workers listen again
        for r in self.remotes:
            with contextlib.suppress(BrokenPipeError, EOFError, OSError):
                r.send(("close", None))
        for p in self.processes:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
        for p, buffer in zip(self.processes, self._buffers):
            if buffer is not None:  # a worker that ended badly could not free its own block
                buffer.close(unlink=p.exitcode != 0)
        self.remotes, self.processes, self._buffers = [], [], []

    def seed(self, seed: int | None = None) -> list[int | None]:
        return [seed] * self.num_envs
