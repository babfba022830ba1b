"""Speed of an env's compiled batched engine beside its AEC env, in one process.

``python -m tests.envs.vector.compiled_speed --env bauer_trick_v0 [--num-envs 1024]
[--num-players N] [--rounds 5] [--seconds 2] [--parts]`` measures, in interleaved rounds,
decisions/s of

- the AEC env (``tz.make(env)``): ``env.last()`` (observation and mask) and a random legal
  action every step;
- ``tz.make_vector(env, num_envs, backend="compiled")``: a random legal action per game drawn in
  numpy from the mask every step (``tablezoo bench --vector``'s sampler), ``step`` returning
  fresh arrays, and ``step(copy=False)`` returning the engine's buffers;
- with ``--parts``: the same with ``copy=False`` and a sampler that reads only the legal ids
  (``flat_legal``; bench's sampler takes a cumulative sum over every action id of every row,
  which costs more than the step of an engine with many actions), the sampler alone, and the
  engine's step alone (``copy=False``, the actions drawn beforehand);

and prints the median of each over the rounds (wall clock, and this process's CPU time, which a
busy machine disturbs less), the ratios to the AEC env and ``os.getloadavg()`` before and after.
``--num-players`` is passed to both engines as the game's option; left out, the game's default.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

import tablezoo.envs as tz
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


def flat_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniform legal action per row of ``mask`` ``[B, A]`` from the legal ids alone."""
    counts = np.count_nonzero(mask, axis=1)
    picks = (rng.random(len(mask)) * counts).astype(np.int64)
    starts = np.cumsum(counts) - counts
    return np.flatnonzero(mask)[starts + picks] - np.arange(len(mask)) * mask.shape[1]


def vector_round(env, state: list, seconds: float, copy: bool, sampler=random_legal,
                 part: str = "both") -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds) of batched play for ``seconds``; ``state`` is
    ``[mask, rng]``, carried between rounds. ``part``: time the sampler and the step
    (``both``), only the sampler, or only the step (its actions drawn untimed)."""
    mask, rng = state
    steps = 0
    spent_wall = spent_cpu = 0.0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        wall, cpu = time.perf_counter(), time.process_time()
        actions = sampler(rng, mask)
        if part == "step":
            wall, cpu = time.perf_counter(), time.process_time()
        if part != "sampler":
            mask = env.step(actions, copy=copy)[1]
        spent_wall += time.perf_counter() - wall
        spent_cpu += time.process_time() - cpu
        if part == "sampler":
            mask = env.step(actions, copy=copy)[1]
        steps += 1
    state[0] = mask
    return steps * env.num_envs, spent_wall, spent_cpu


def measure(env_name: str, num_envs: int = 1024, rounds: int = 5, seconds: float = 2.0,
            parts: bool = False, **options: Any) -> dict[str, list]:
    """Per row name, each round's (decisions, wall seconds, CPU seconds)."""
    aec = tz.make(env_name, **options)
    aec.reset(seed=0)
    aec_rng = np.random.default_rng(0)
    env = tz.make_vector(env_name, num_envs, seed=0, backend="compiled", **options)
    rng = np.random.default_rng(0)
    state = [env.step(random_legal(rng, env.reset()[1]))[1], rng]  # compiled (or cached) here
    rows: dict[str, list] = {"aec": [], "batched": [], "batched copy=False": []}
    if parts:
        rows.update({"copy=False, flat_legal": [], "random_legal alone": [], "step alone": []})
    for _ in range(rounds):
        rows["aec"].append(aec_round(aec, aec_rng, seconds))
        rows["batched"].append(vector_round(env, state, seconds, copy=True))
        rows["batched copy=False"].append(vector_round(env, state, seconds, copy=False))
        if parts:
            rows["copy=False, flat_legal"].append(
                vector_round(env, state, seconds, copy=False, sampler=flat_legal))
            rows["random_legal alone"].append(
                vector_round(env, state, seconds, copy=False, part="sampler"))
            rows["step alone"].append(
                vector_round(env, state, seconds, copy=False, sampler=flat_legal, part="step"))
    return rows


def main(argv: list[str] | None = None) -> None:
    compiled = [e for e in tz.ENVS if "compiled" in tz.vector_backends(e)]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", required=True, choices=compiled)
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--parts", action="store_true",
                        help="also time a legal-ids sampler, the sampler alone and the step alone")
    args = parser.parse_args(argv)
    options = {} if args.num_players is None else {"num_players": args.num_players}
    load_before = os.getloadavg()
    rows = measure(args.env, args.num_envs, args.rounds, args.seconds, args.parts, **options)
    load_after = os.getloadavg()
    medians = {name: (float(np.median([d / w for d, w, _ in runs])),
                      float(np.median([d / c for d, _, c in runs]))) for name, runs in rows.items()}
    base = medians["aec"]
    players = "" if args.num_players is None else f", {args.num_players} players"
    print(f"{args.env}{players}, B={args.num_envs}, median of {args.rounds} interleaved rounds "
          f"of {args.seconds:g}s; decisions/s wall (CPU time)")
    for name, (wall, cpu) in medians.items():
        print(f"  {name:24s} {wall:>12,.0f} ({cpu:,.0f})  x{wall / base[0]:.1f} "
              f"(x{cpu / base[1]:.1f})")
    print("  load average before " + ", ".join(f"{x:.2f}" for x in load_before)
          + "; after " + ", ".join(f"{x:.2f}" for x in load_after) + f" ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
