"""Speed of bauer_draft's compiled batched engine beside the AEC env, in one process.

``python -m tests.envs.bauer_draft.compiled.speed [--num-envs 1024] [--rounds 5] [--seconds 2]``
measures, in interleaved rounds, decisions/s of

- the AEC env (``tz.make("bauer_draft_v0")``): ``env.last()`` (observation and mask) and a
  random legal action every step;
- ``make_vector(num_envs)``: a random legal action per game drawn in numpy from the mask every
  step (``tablezoo bench --vector``'s sampler), ``step`` returning fresh arrays, and
  ``step(copy=False)`` returning the engine's buffers;

and prints the median of each over the rounds (wall clock, and this process's CPU time, which a
busy machine disturbs less), the ratios to the AEC env and ``os.getloadavg()`` before and after.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import tablezoo.envs as tz
from tablezoo.envs.bauer_draft.compiled import make_vector
from tablezoo.training.cli.env_speed import random_legal


def aec_round(env, rng: np.random.Generator, seconds: float) -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds) of AEC play for ``seconds``."""
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        decisions += 1
    return decisions, time.perf_counter() - wall, time.process_time() - cpu


def vector_round(env, state: list, seconds: float, copy: bool) -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds) of batched play for ``seconds``; ``state`` is
    ``[mask, rng]``, carried between rounds."""
    mask, rng = state
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        mask = env.step(random_legal(rng, mask), copy=copy)[1]
        steps += 1
    state[0] = mask
    return steps * env.num_envs, time.perf_counter() - wall, time.process_time() - cpu


def measure(num_envs: int = 1024, rounds: int = 5, seconds: float = 2.0) -> dict[str, list]:
    aec = tz.make("bauer_draft_v0")
    aec.reset(seed=0)
    aec_rng = np.random.default_rng(0)
    env = make_vector(num_envs, seed=0)
    rng = np.random.default_rng(0)
    state = [env.step(random_legal(rng, env.reset()[1]))[1], rng]  # compiled (or cached) here
    rows: dict[str, list] = {"aec": [], "batched": [], "batched copy=False": []}
    for _ in range(rounds):
        rows["aec"].append(aec_round(aec, aec_rng, seconds))
        rows["batched"].append(vector_round(env, state, seconds, copy=True))
        rows["batched copy=False"].append(vector_round(env, state, seconds, copy=False))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = measure(args.num_envs, args.rounds, args.seconds)
    load_after = os.getloadavg()
    medians = {name: (float(np.median([d / w for d, w, _ in runs])),
                      float(np.median([d / c for d, _, c in runs]))) for name, runs in rows.items()}
    base = medians["aec"]
    print(f"bauer_draft_v0, B={args.num_envs}, median of {args.rounds} interleaved rounds of "
          f"{args.seconds:g}s; decisions/s wall (CPU time)")
    for name, (wall, cpu) in medians.items():
        print(f"  {name:20s} {wall:>12,.0f} ({cpu:,.0f})  x{wall / base[0]:.1f} "
              f"(x{cpu / base[1]:.1f})")
    print("  load average before " + ", ".join(f"{x:.2f}" for x in load_before)
          + "; after " + ", ".join(f"{x:.2f}" for x in load_after) + f" ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
