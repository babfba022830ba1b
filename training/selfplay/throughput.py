"""Training throughput: MaskablePPO learner steps/s on the batched collector, three set-ups
measured interleaved (round-robin, so machine load hits each alike), with ratios.

    tablezoo bench-training --env bauer_trick_v0 --steps 16384 --rounds 3

- ``random``: every other seat a random agent (the cheapest opponents);
- ``self-play``: a league of 3 frozen snapshots + the heuristic (PFSP), the partner the learner's
  own weights (bauer_trick);
- ``snapshots``: self-play against frozen snapshots (and the latest weights) only: what the
  collector costs without the heuristic, whose own cost per decision differs a lot by game;
- ``self-play --processes 2``: the league of ``self-play`` with the games in two worker
  processes (and two torch threads for the PPO update, while the workers wait);
- ``self-play --learner-forward torch``: ``self-play`` with sb3's own rollout loop (one torch
  forward pass of the learner per step in the main process) instead of the collector answering
  the learner's seats too (``training/selfplay/ppo.py``, the default of every other set-up);
- ``self-play, batched``: the league of ``self-play`` on the batched trainer (``--engine
  compiled``, envs with a compiled engine only: ``training/batched/``, its default rollout
  shape), ``random, batched`` beside it, and ``self-play, batched, sb3's update``: the same
  env and rollouts with sb3-contrib's own ``MaskablePPO`` update (dense first layers) instead of
  ``BatchedPPO``'s. Every other set-up is ``--engine python``.

Each measurement is a whole ``learn`` (collection, the learner's forward passes, the PPO update
and the league callback), on a fresh model; the table gives the median of the rounds, and the
per-round ratios follow it (on a shared machine they spread by +-0.1 or more). The machine's
load average is printed before and after the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from tablezoo import envs
from tablezoo.training.cli.options import (
    add_env,
    add_seed,
    make_parser,
    positive_int,
)

SETUPS = ("random", "self-play", "snapshots", "self-play --processes 2",
          "self-play --learner-forward torch")
BATCHED = ("self-play, batched", "random, batched", "self-play, batched, sb3's update")
PAIRED = (("self-play / random", "self-play", "random"),
          ("snapshots / random", "snapshots", "random"),
          ("--processes 2 / one process", "self-play --processes 2", "self-play"),
          ("sb3's loop / the collector's", "self-play --learner-forward torch", "self-play"),
          ("batched / today's trainer (self-play)", "self-play, batched", "self-play"),
          ("BatchedPPO / sb3's MaskablePPO on the batched env", "self-play, batched",
           "self-play, batched, sb3's update"))


def setup_args(env: str, setup: str, n_envs: int, seed: int) -> argparse.Namespace:
    from tablezoo.training.selfplay import train

    if setup in BATCHED:  # the batched trainer's own rollout shape (train.ENGINE_DEFAULTS)
        argv = ["--env", env, "--timesteps", "1", "--out", "unused", "--seed", str(seed),
                "--engine", "compiled",
                "--opponent", "random" if setup.startswith("random") else "heuristic"]
        return train.parse_args(train.build_parser(), argv)
    argv = ["--env", env, "--timesteps", "1", "--out", "unused", "--n-envs", str(n_envs),
            "--seed", str(seed), "--n-steps", "128", "--batch-size", "1024", "--n-epochs", "4",
            "--engine", "python"]
    if setup == "random":
        argv += ["--opponent", "random"]
    elif setup == "snapshots":
        argv += ["--self-play"]
    else:
        argv += ["--opponent", "heuristic"]
    if setup.endswith("--processes 2"):
        argv += ["--processes", "2"]
    if setup.endswith("--learner-forward torch"):
        argv += ["--learner-forward", "torch"]
    args = train.parse_args(train.build_parser(), argv)
    if setup == "snapshots":
        args.opponent = []  # no agent entry: the snapshots and the latest weights
    return args


def measure(env: str, setup: str, steps: int, n_envs: int, seed: int) -> float:
    """Learner steps/s of one ``learn(steps)`` for ``setup``."""
    import torch

    from tablezoo.training.selfplay import train
    from tablezoo.training.selfplay.callbacks import LeagueCallback, UpdateThreads, export_policy

    torch.set_num_threads(1)
    args = setup_args(env, setup, n_envs, seed)
    options = dict(envs.spec(env).tool_options)
    vec = train.make_vec_env(args, options)
    try:
        if setup.endswith("sb3's update"):  # the same env and rollout, sb3's own PPO update
            args.engine = "python"
            model = train.new_model(args, vec, None)
            args.engine = "compiled"
        else:
            model = train.new_model(args, vec, None)
        model.collector_forward = args.learner_forward == "collector"
        scale = None if args.no_obs_scale else vec_scale(env, options)
        vec.set_self(export_policy(model.policy, scale))
        if not setup.startswith("random"):
            for k in range(3):
                vec.add_snapshot(f"snapshot{k}", export_policy(model.policy, scale))
        callback = [LeagueCallback(vec, scale, 0)]
        if args.processes > 1:
            callback.append(UpdateThreads(args.processes))
        t0 = time.perf_counter()
        model.learn(total_timesteps=steps, callback=callback)
        return model.num_timesteps / (time.perf_counter() - t0)
    finally:
        vec.close()


def load_average() -> str:
    """The 1, 5 and 15 minute load averages and the core count, in words."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def vec_scale(env: str, options: dict[str, Any]) -> Any:
    from tablezoo import envs
    from tablezoo.training.selfplay.collector import obs_scale_for

    return obs_scale_for(envs.make_game(env, **options))


def main(argv: list[str] | None = None) -> int:
    p = make_parser("bench-training", __doc__)
    add_env(p, required=False, default="bauer_trick_v0", help="the env to measure")
    p.add_argument("--steps", type=positive_int, default=16384,
                   help="learner steps per measurement")
    p.add_argument("--rounds", type=positive_int, default=3,
                   help="interleaved rounds; the table shows the median")
    p.add_argument("--n-envs", type=positive_int, default=32, help="games played in lockstep")
    p.add_argument("--batched-steps", type=positive_int, default=131072,
                   help="learner steps per measurement of the batched set-ups (a rollout of "
                        "the batched trainer is 32768 steps)")
    add_seed(p, help="seed of the measured games (round r uses seed + r)")
    args = p.parse_args(argv)
    if args.n_envs < 2:
        p.error(f"--n-envs {args.n_envs}: the '--processes 2' set-up needs at least 2 "
                "games (one per process); allowed: >= 2")
    batched = "compiled" in envs.vector_backends(args.env)
    setups = SETUPS + (BATCHED if batched else ())
    results: dict[str, list[float]] = {s: [] for s in setups}
    print(f"load average before: {load_average()}", flush=True)
    for setup in setups:  # warm-up: imports, worker start-up, first allocations, compiling
        measure(args.env, setup, 1024, args.n_envs, args.seed)
    for r in range(args.rounds):
        for setup in setups:
            steps = args.batched_steps if setup in BATCHED else args.steps
            rate = measure(args.env, setup, steps, args.n_envs, args.seed + r)
            results[setup].append(rate)
            print(f"round {r + 1}: {setup}: {rate:.0f} steps/s", flush=True)
    print(f"load average after: {load_average()}", flush=True)
    med = {s: statistics.median(v) for s, v in results.items()}
    print(f"\n{args.env}, {args.steps} learner steps x {args.rounds} rounds, "
          f"{args.n_envs} games in lockstep (median steps/s)\n")
    print("| set-up | steps/s | ratio |")
    print("|---|---|---|")
    print(f"| random opponents | {med['random']:.0f} | 1.00 |")
    print(f"| self-play (3 snapshots + heuristic) | {med['self-play']:.0f} | "
          f"{med['self-play'] / med['random']:.2f} x random |")
    print(f"| self-play (3 snapshots + latest weights) | {med['snapshots']:.0f} | "
          f"{med['snapshots'] / med['random']:.2f} x random |")
    two = med["self-play --processes 2"]
    print(f"| self-play, --processes 2 | {two:.0f} | {two / med['self-play']:.2f} x one "
          "process |")
    sb3_loop = med["self-play --learner-forward torch"]
    print(f"| self-play, sb3's own rollout loop (torch forward per step) | {sb3_loop:.0f} | "
          f"{sb3_loop / med['self-play']:.2f} x the collector's loop |")
    if batched:
        from tablezoo.training.selfplay.train import ENGINE_DEFAULTS

        shape = ENGINE_DEFAULTS["compiled"]
        for setup, league in (("random, batched", "random opponents"),
                              ("self-play, batched", "self-play (3 snapshots + heuristic)"),
                              ("self-play, batched, sb3's update",
                               "self-play, sb3's MaskablePPO update")):
            print(f"| batched trainer, {league} ({shape['n_envs']} games, {shape['n_steps']} "
                  f"steps, minibatch {shape['batch_size']}, {shape['n_epochs']} epoch(s); "
                  f"{args.batched_steps} steps) | {med[setup]:.0f} | "
                  f"{med[setup] / med['self-play']:.2f} x today's self-play |")
    print("\nPer round (each ratio from set-ups measured back to back: the spread shows the "
          "machine's noise):")
    for label, top, bottom in PAIRED:
        if top not in results:
            continue
        ratios = [a / b for a, b in zip(results[top], results[bottom])]
        print(f"- {label}: " + ", ".join(f"{r:.2f}" for r in ratios)
              + f" (median {statistics.median(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
