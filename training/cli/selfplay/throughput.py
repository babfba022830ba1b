"""``tablezoo bench-training``: the flags and the table of ``training/selfplay/throughput.py``."""

from __future__ import annotations

import statistics

from tablezoo import envs
from tablezoo.training.cli.options import add_env, add_seed, make_parser, positive_int
from tablezoo.training.selfplay import throughput
from tablezoo.training.selfplay.throughput import BATCHED, PAIRED, SETUPS, load_average, measure


def main(argv: list[str] | None = None) -> int:
    p = make_parser("bench-training", throughput.__doc__)
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
