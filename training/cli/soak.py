"""Soak test: play every env and player count for minutes, print steps, exceptions and RSS.

    tablezoo soak --minutes 10
    tablezoo soak --minutes 1 --env bower_v0 --env ethnos_v0

starts one worker process per env (so each RSS figure belongs to one env alone), each cycling
through that env's variants in ``envs.VARIANTS`` with uniformly random legal actions through the
AEC env, and prints one line per env per minute. It is a memory and robustness check for long
training runs (module caches must stay bounded), not a test: CI does not run it; its 10-minute
figures are recorded in envs/README.md.
"""

from __future__ import annotations

import multiprocessing as mp
import queue as queue_module
import time
import traceback
from pathlib import Path

import numpy as np

from tablezoo.training.cli.options import add_env, add_seed, make_parser


def rss_mb() -> float:
    """Resident set size of this process in MiB (Linux ``/proc``; 0 where unavailable)."""
    status = Path("/proc/self/status")
    if not status.exists():
        return 0.0
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _play_game(env, rng: np.random.Generator, seed: int) -> int:
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return steps


def soak_env(name: str, minutes: float, seed: int, queue) -> None:
    """Worker: play ``name``'s variants round-robin; put ``(name, minute, steps, errors, rss)``."""
    from tablezoo import envs

    rng = np.random.default_rng(seed)
    games = [envs.make(name, **options) for options in envs.VARIANTS[name]]
    start = time.monotonic()
    next_report = 60.0
    steps = errors = played = 0
    last_error = ""
    while (elapsed := time.monotonic() - start) < minutes * 60:
        env = games[played % len(games)]
        try:
            steps += _play_game(env, rng, int(rng.integers(2**31)))
        except Exception:  # a soak run counts and reports every exception, then goes on
            errors += 1
            last_error = traceback.format_exc(limit=3)
        played += 1
        if elapsed >= next_report:
            queue.put((name, round(elapsed / 60), steps, played, errors, rss_mb(), last_error))
            next_report += 60.0
    queue.put((name, round((time.monotonic() - start) / 60, 1), steps, played, errors, rss_mb(),
               last_error))
    queue.put((name, None, 0, 0, 0, 0.0, ""))


def main(argv: list[str] | None = None) -> int:
    from tablezoo import envs

    parser = make_parser("soak", __doc__)
    parser.add_argument("--minutes", type=float, default=10.0, help="how long each env plays")
    add_env(parser, required=False, multiple=True,
            help="env to soak, repeatable (default: every env)")
    add_seed(parser, help="seed of the action choices (env i uses seed + i)")
    args = parser.parse_args(argv)
    if not 0 < args.minutes < float("inf"):
        parser.error(f"--minutes {args.minutes}: allowed: a finite number more than 0")
    names = args.env or list(envs.ENVS)
    queue: mp.Queue = mp.get_context("spawn").Queue()
    workers = [
        mp.get_context("spawn").Process(target=soak_env, args=(n, args.minutes, args.seed + i,
                                                              queue))
        for i, n in enumerate(names)
    ]
    for worker in workers:
        worker.start()
    first: dict[str, float] = {}
    last: dict[str, tuple] = {}
    running = len(workers)
    print(f"{'env':16} {'min':>5} {'steps':>11} {'games':>8} {'errors':>6} {'RSS MiB':>8}")
    while running:
        try:
            name, minute, steps, played, errors, rss, error = queue.get(timeout=5.0)
        except queue_module.Empty:  # a worker that died without its last report would hang us
            dead = [n for n, w in zip(names, workers) if w.exitcode not in (None, 0)]
            if dead:
                for worker in workers:
                    worker.terminate()
                print(f"soak worker(s) for {', '.join(dead)} stopped with an error (above)")
                return 1
            continue
        if minute is None:
            running -= 1
            continue
        first.setdefault(name, rss)
        last[name] = (minute, steps, played, errors, rss)
        print(f"{name:16} {minute:>5} {steps:>11,} {played:>8,} {errors:>6} {rss:>8.1f}",
              flush=True)
        if error:
            print(f"  last exception in {name}:\n{error}")
    for worker in workers:
        worker.join()
    print("\nsummary (RSS growth from the first report to the last):")
    failed = False
    for name in names:
        minute, steps, played, errors, rss = last[name]
        growth = rss - first[name]
        failed |= errors > 0
        print(f"  {name:16} {steps:>11,} steps, {played:,} games, {errors} exceptions, "
              f"RSS {first[name]:.1f} -> {rss:.1f} MiB ({growth:+.1f}) after {minute} min")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
