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

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_out,
    add_seed,
    env_options_for,
    make_parser,
    parse_env_options,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = make_parser("rllib", __doc__)
    add_env(p, help="the env to train on")
    p.add_argument("--iterations", type=int, default=10, help="PPO training iterations")
    p.add_argument("--num-env-runners", type=int, default=1,
                   help="Ray actors that sample episodes (0: sample in this process)")
    add_out(p, help="folder for checkpoints and metrics")
    p.add_argument("--address", default=None,
                   help="join this Ray cluster (e.g. auto or HOST:6379); default: a local Ray")
    add_seed(p, help="seed of the Ray run and its environments")
    add_env_options(p)
    p.add_argument("--train-batch-size", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch-size", type=int, default=512, help="PPO minibatch size")
    p.add_argument("--num-epochs", type=int, default=8, help="PPO epochs per iteration")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch threads of the learner in this process (1: much faster on a busy "
                        "machine; env runners get 1 from Ray)")
    p.add_argument("--checkpoint-every", type=int, default=10,
                   help="also keep a checkpoint every N iterations (0: only the newest)")
    args = p.parse_args(argv)
    for flag in ("iterations", "train_batch_size", "minibatch_size", "num_epochs", "torch_threads"):
        if getattr(args, flag) < 1:
            p.error(f"--{flag.replace('_', '-')} must be >= 1")
    if args.num_env_runners < 0 or args.checkpoint_every < 0:
        p.error("--num-env-runners and --checkpoint-every must be >= 0")
    if args.minibatch_size > args.train_batch_size:
        p.error("--minibatch-size must not exceed --train-batch-size")
    return args


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


def train(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Run the iterations; returns one record per iteration (also in ``OUT/metrics.jsonl``)."""
    from tablezoo.envs.integrations.rllib import ppo_config

    options = env_options_for(args.env, parse_env_options(args.env_option))
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    settings = {"env": args.env, "options": options, "seed": args.seed,
                "num_env_runners": args.num_env_runners, "train_batch_size": args.train_batch_size,
                "minibatch_size": args.minibatch_size, "num_epochs": args.num_epochs,
                "lr": args.lr, "address": args.address}
    (out / "config.json").write_text(json.dumps(settings, indent=2))
    algo = ppo_config(args.env, options, num_env_runners=args.num_env_runners, seed=args.seed,
                      train_batch_size=args.train_batch_size, minibatch_size=args.minibatch_size,
                      num_epochs=args.num_epochs, lr=args.lr).build_algo()
    records = []
    try:
        with (out / "metrics.jsonl").open("a") as log:
            for it in range(1, args.iterations + 1):
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
                if args.checkpoint_every and it % args.checkpoint_every == 0:
                    algo.save_to_path(str(out / "checkpoints" / f"iter_{it:04d}"))
        algo.save_to_path(str(out / "checkpoint"))
    finally:
        algo.stop()
    return records


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import ray
    except ModuleNotFoundError:
        from tablezoo.agents.learned.rllib import RAY_MISSING

        raise SystemExit(f"tablezoo rllib {RAY_MISSING}") from None
    import torch

    torch.set_num_threads(args.torch_threads)
    started = start_ray(args.address, args.num_env_runners)
    try:
        train(args)
    finally:
        if started:
            ray.shutdown()
    print(f"checkpoint: {args.out / 'checkpoint'} (agent spec rllib:{args.out})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
