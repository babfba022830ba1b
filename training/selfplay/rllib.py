"""Self-play PPO with action masking on Ray RLlib, locally or on a Ray cluster.

    tablezoo rllib --env bower_v0 --iterations 20 --num-env-runners 2 --out runs/rl

Every seat is played by one shared masked policy (``tablezoo.envs.integrations.rllib``). Each
iteration prints and appends to ``OUT/metrics.jsonl``: env steps sampled (this iteration and in
all), env steps/s (of the whole iteration, and of its sampling alone), and the mean return of every
seat over RLlib's smoothing window of recent episodes. ``OUT/checkpoint/`` holds the newest
checkpoint (``Algorithm.save_to_path``; usable as the agent spec ``rllib:OUT`` in ``tablezoo
evaluate``, ``tablezoo tournament`` and ``tablezoo play``), ``OUT/checkpoints/iter_NNNN/`` the
periodic ones, ``OUT/config.json`` the run's settings.

Without ``--address`` a local Ray is started; with it (``auto`` or ``HOST:6379``) the run joins
a running cluster: ``ray start --head --port=6379`` on the head machine, ``ray start
--address=HEAD:6379`` on every other one, each with tablezoo and the ``rllib`` extra installed.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablezoo.training.runs import SettingsError, env_options_for


@dataclass(kw_only=True)
class RllibSettings:
    """One RLlib run (``tablezoo rllib --help`` explains each field under its flag's name);
    ``address`` ``None`` starts a local Ray, ``env_options`` are over the tools' defaults."""

    env: str
    iterations: int = 10
    num_env_runners: int = 1
    out: Path
    address: str | None = None
    seed: int = 0
    env_options: dict[str, Any] | None = None
    train_batch_size: int = 4000
    minibatch_size: int = 512
    num_epochs: int = 8
    lr: float = 3e-4
    torch_threads: int = 1
    checkpoint_every: int = 10


def check_settings(settings: RllibSettings) -> None:
    """Raises ``SettingsError`` naming the first count out of range by its flag."""
    for flag in ("iterations", "train_batch_size", "minibatch_size", "num_epochs",
                 "torch_threads"):
        if getattr(settings, flag) < 1:
            raise SettingsError(f"--{flag.replace('_', '-')} must be >= 1")
    if settings.num_env_runners < 0 or settings.checkpoint_every < 0:
        raise SettingsError("--num-env-runners and --checkpoint-every must be >= 0")
    if settings.minibatch_size > settings.train_batch_size:
        raise SettingsError("--minibatch-size must not exceed --train-batch-size")


def iteration_record(iteration: int, result: dict[str, Any], wall_s: float) -> dict[str, Any]:
    """The figures logged per iteration, as plain JSON values."""
    runners = result.get("env_runners", {})
    steps = int(runners.get("num_env_steps_sampled", 0))
    seat_returns = runners.get("agent_episode_returns_mean", {})
    timers = result.get("timers", {})
    sample_s = timers.get("env_runner_sampling_timer")
    return {
        "iteration": iteration,
        "env_steps": steps,
        "env_steps_total": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        "episodes": int(runners.get("num_episodes", 0)),
        "wall_s": round(wall_s, 3),
        "env_steps_per_s": round(steps / wall_s, 1) if wall_s > 0 else None,
        # RLlib's own timers: sampling (all env runners together) and the learner's update
        "sample_s": None if sample_s is None else round(float(sample_s), 3),
        "learn_s": None if "learner_update_timer" not in timers
        else round(float(timers["learner_update_timer"]), 3),
        "sample_steps_per_s": round(steps / sample_s, 1) if sample_s else None,
        "seat_returns": {seat: round(float(v), 4) for seat, v in sorted(seat_returns.items())},
    }


def start_ray(address: str | None, num_env_runners: int) -> bool:
    """Join ``address``, or start a local Ray with a CPU slot for every env runner; False (and
    nothing done) when this process is already connected to a Ray, e.g. from a notebook."""
    import ray

    if ray.is_initialized():
        return False
    if address is not None:
        ray.init(address=address)
    else:
        cpus = max(os.cpu_count() or 1, num_env_runners + 1)
        ray.init(num_cpus=cpus, include_dashboard=False)
    return True


def train(settings: RllibSettings) -> list[dict[str, Any]]:
    """Run the iterations; returns one record per iteration (also in ``OUT/metrics.jsonl``)."""
    from tablezoo.envs.integrations.rllib import ppo_config

    options = env_options_for(settings.env, settings.env_options or {})
    out: Path = settings.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    config = {"env": settings.env, "options": options, "seed": settings.seed,
              "num_env_runners": settings.num_env_runners,
              "train_batch_size": settings.train_batch_size,
              "minibatch_size": settings.minibatch_size, "num_epochs": settings.num_epochs,
              "lr": settings.lr, "address": settings.address}
    (out / "config.json").write_text(json.dumps(config, indent=2))
    algo = ppo_config(settings.env, options, num_env_runners=settings.num_env_runners,
                      seed=settings.seed, train_batch_size=settings.train_batch_size,
                      minibatch_size=settings.minibatch_size, num_epochs=settings.num_epochs,
                      lr=settings.lr).build_algo()
    records = []
    try:
        with (out / "metrics.jsonl").open("a") as log:
            for it in range(1, settings.iterations + 1):
                start = time.perf_counter()
                result = algo.train()
                record = iteration_record(it, result, time.perf_counter() - start)
                records.append(record)
                log.write(json.dumps(record) + "\n")
                log.flush()
                seats = " ".join(f"{s}={r:+.3f}" for s, r in record["seat_returns"].items())
                print(f"iter {it:4d}  steps {record['env_steps_total']:8d}  "
                      f"{record['env_steps_per_s']} steps/s (sampling "
                      f"{record['sample_steps_per_s']})  returns {seats}", flush=True)
                if settings.checkpoint_every and it % settings.checkpoint_every == 0:
                    algo.save_to_path(str(out / "checkpoints" / f"iter_{it:04d}"))
        algo.save_to_path(str(out / "checkpoint"))
    finally:
        algo.stop()
    return records


def run_rllib(settings: RllibSettings) -> list[dict[str, Any]]:
    """Check ``settings``, start (or join) Ray and run the iterations; returns one record per
    iteration. ``SettingsError`` for settings out of range, ``SystemExit`` without Ray."""
    check_settings(settings)
    try:
        import ray
    except ModuleNotFoundError:
        from tablezoo.agents.learned.rllib import RAY_MISSING

        raise SystemExit(f"tablezoo rllib {RAY_MISSING}") from None
    import torch

    torch.set_num_threads(settings.torch_threads)
    started = start_ray(settings.address, settings.num_env_runners)
    try:
        records = train(settings)
    finally:
        if started:
            ray.shutdown()
    print(f"checkpoint: {settings.out / 'checkpoint'} (agent spec rllib:{settings.out})")
    return records
