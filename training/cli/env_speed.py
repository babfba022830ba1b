"""Speed of every tablezoo env: random legal play through the AEC API, with the observation and
the action mask of the acting agent fetched every step (what a training loop pays). Two columns:
the default fresh arrays, and ``reuse_buffers=True`` (in-place buffers, the opt-in), measured
alternately in rounds so machine noise hits both alike. ``--observation information_state`` adds
a third env to the same rounds, handing out the information state (``observation=
"information_state"``, fresh arrays) instead of the default observation, and the cost per step
it adds.

``--vector`` measures the vector API instead (``tablezoo.envs.make_vector``): decisions/s at each
batch size for each backend the env has (``python``: its engines in a loop; ``compiled`` where
the game has one), random legal actions drawn in numpy every step (counted), the AEC env's
decisions/s measured in the same rounds beside it; once in one process and once in two
independent processes running side by side (their total), with the machine's load average.
``--in-place`` steps the compiled engines with ``step(actions, copy=False)`` (their own buffers,
as the batched trainer reads them) and compares with the AEC env's ``reuse_buffers=True``; by
default ``step`` returns fresh arrays and the AEC env too.

    tablezoo bench                      # every env, default options, 3 s each
    tablezoo bench --env bower_v0 --seconds 10
    tablezoo bench --variants --json    # every player count / mode, machine-readable
    tablezoo bench --observation information_state --variants
    tablezoo bench --vector --env bauer_trick_v0 --sizes 1,64,1024 --processes 1
    tablezoo bench --vector --in-place --env ethnos_v0 --sizes 1024
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.envs.registry import VARIANTS
from tablezoo.training.cli.options import add_env, add_env_options, make_parser, parse_env_options


@dataclass
class Result:
    env: str
    options: dict
    steps_per_s: float
    games_per_s: float
    steps: int
    games: int
    seconds: float
    reuse_buffers: bool = False
    observation: str = "default"


def measure(name: str, options: dict, seconds: float, reuse_buffers: bool = False,
            observation: str = "default") -> Result:
    """Play random legal games for ``seconds`` of wall time; count decisions and finished games."""
    env = envs.make(name, reuse_buffers=reuse_buffers, observation=observation, **options)
    pick = random.Random(0)
    steps = games = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[pick.randrange(len(legal))]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return Result(name, options, steps / elapsed, games / elapsed, steps, games, elapsed,
                  reuse_buffers, observation)


def measure_both(name: str, options: dict, seconds: float, rounds: int = 2,
                 information_state: bool = False) -> list[Result]:
    """``[fresh, reused]`` (and ``information_state``: a third, fresh arrays of the information
    state): alternating rounds of ``seconds / rounds``, summed per mode."""
    totals = []
    for reuse in (False, True):
        totals.append(Result(name, options, 0.0, 0.0, 0, 0, 0.0, reuse))
    if information_state:
        totals.append(Result(name, options, 0.0, 0.0, 0, 0, 0.0, False, "information_state"))
    for _ in range(rounds):
        for total in totals:
            r = measure(name, options, seconds / rounds, total.reuse_buffers, total.observation)
            total.steps += r.steps
            total.games += r.games
            total.seconds += r.seconds
    for total in totals:
        total.steps_per_s = total.steps / total.seconds
        total.games_per_s = total.games / total.seconds
    return totals


def option_sets(name: str, variants: bool, given: dict[str, Any]) -> list[dict[str, Any]]:
    """The option sets to measure for env ``name``, each once: ``given`` (``--env-option``)
    over the defaults or over every set of ``envs.VARIANTS``, where ``num_players=3`` turns
    every player count into 3 (it gave four identical rows)."""
    merged = [{**options, **given} for options in (VARIANTS[name] if variants else [{}])]
    return [options for k, options in enumerate(merged) if options not in merged[:k]]


# --- the vector API ------------------------------------------------------------------------
SIZES = (1, 64, 1024, 8192)
PROCESSES = (1, 2)
AEC = "aec"  # the backend label of the AEC env's row in a schedule


@dataclass
class VectorResult:
    env: str
    options: dict
    processes: int
    backend: str  # "python", "compiled", or "aec" (the AEC env, one game)
    num_envs: int
    decisions: int = 0
    seconds: float = 0.0  # summed over the processes' own clocks
    decisions_per_s: float = 0.0  # the processes' total
    per_process: list[float] = field(default_factory=list)
    in_place: bool = False  # compiled: step(copy=False); the AEC env: reuse_buffers=True


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniform legal action per row of ``mask`` ``[B, A]`` (every row has one): compiled
    where numba is installed (the sampler is the harness, not the engine measured), else in
    numpy."""
    uniforms = rng.random(len(mask))
    try:
        from tablezoo.envs.vector.kernels import random_legal_actions
    except ImportError:  # no numba: the vector envs loop over the Python engines anyway
        counts = mask.cumsum(axis=1, dtype=np.int32)
        picks = (uniforms * counts[:, -1]).astype(np.int32)
        return (counts <= picks[:, None]).sum(axis=1)
    return random_legal_actions(mask, uniforms)


def run_vector(env: Any, state: list, seconds: float, in_place: bool = False
               ) -> tuple[int, float]:
    """Step ``env`` with random legal actions for ``seconds``; ``state`` is ``[mask, rng]``,
    carried from one round to the next; ``in_place``: ``step(actions, copy=False)`` (compiled
    engines only). Returns (decisions, seconds)."""
    mask, rng = state
    step = (lambda a: env.step(a, copy=False)) if in_place else env.step
    steps = 0
    start = time.perf_counter()
    while True:
        mask = step(random_legal(rng, mask))[1]
        steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    state[0] = mask
    return steps * env.num_envs, elapsed


def vector_schedule(name: str, sizes: tuple[int, ...]) -> list[tuple[str, int]]:
    """``(backend, B)`` of every row: the AEC env first, then each backend at each size."""
    return [(AEC, 1)] + [(b, n) for b in envs.vector_backends(name) for n in sizes]


def measure_vector_rows(name: str, options: dict, sizes: tuple[int, ...], seconds: float,
                        in_place: bool = False, rounds: int = 2, barrier: Any = None
                        ) -> list[tuple[int, float]]:
    """(decisions, seconds) of every row of ``vector_schedule``, in interleaved rounds of
    ``seconds / rounds``; every vector env is made, reset and stepped once (a compiled
    engine's first step may compile) before the first round. ``in_place``: the compiled
    engines step with ``copy=False`` and the AEC env reuses its buffers. ``barrier`` (two
    processes) starts each measurement together."""
    schedule = vector_schedule(name, sizes)
    made = {}
    for backend, n in schedule:
        if backend != AEC:
            env = envs.make_vector(name, n, seed=0, backend=backend, **options)
            rng = np.random.default_rng(0)
            made[backend, n] = (env, [env.step(random_legal(rng, env.reset()[1]))[1], rng])
    totals = [[0, 0.0] for _ in schedule]
    for _ in range(rounds):
        for row, (backend, n) in enumerate(schedule):
            if barrier is not None:
                barrier.wait(timeout=600)
            if backend == AEC:
                r = measure(name, options, seconds / rounds, reuse_buffers=in_place)
                got = (r.steps, r.seconds)
            else:
                got = run_vector(*made[backend, n], seconds / rounds,
                                 in_place and backend == "compiled")
            totals[row][0] += got[0]
            totals[row][1] += got[1]
    for env, _ in made.values():
        env.close()
    return [(d, t) for d, t in totals]  # (decisions, seconds) per row


def _vector_process(queue: Any, barrier: Any, args: tuple) -> None:
    """One of the side-by-side processes: its rows, or the error that stopped it."""
    try:
        queue.put(("ok", measure_vector_rows(*args, barrier=barrier)))
    except BaseException as exc:  # reported by the parent, which is waiting on the queue
        barrier.abort()
        queue.put(("error", f"{type(exc).__name__}: {exc}"))


def measure_vector(name: str, options: dict, sizes: tuple[int, ...], seconds: float,
                   processes: int, in_place: bool = False) -> list[VectorResult]:
    """Every row of ``vector_schedule`` measured in ``processes`` OS processes at once (1: this
    one); decisions/s is their total."""
    args = (name, options, sizes, seconds, in_place)
    if processes == 1:
        runs = [measure_vector_rows(*args)]
    else:
        ctx = mp.get_context("spawn")
        queue, barrier = ctx.Queue(), ctx.Barrier(processes)
        workers = [ctx.Process(target=_vector_process, args=(queue, barrier, args))
                   for _ in range(processes)]
        for w in workers:
            w.start()
        answers = [queue.get() for _ in workers]
        for w in workers:
            w.join()
        failed = [value for status, value in answers if status != "ok"]
        if failed:
            raise RuntimeError(f"{name}: a benchmark process failed: {failed[0]}")
        runs = [value for _, value in answers]
    results = []
    for row, (backend, n) in enumerate(vector_schedule(name, sizes)):
        rates = [run[row][0] / run[row][1] for run in runs]
        results.append(VectorResult(name, options, processes, backend, n,
                                    sum(run[row][0] for run in runs),
                                    sum(run[row][1] for run in runs), sum(rates), rates,
                                    in_place and backend in (AEC, "compiled")))
    return results


def load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1/5/15 min) on {os.cpu_count()} CPUs"


def positive_ints(text: str) -> tuple[int, ...]:
    """``--sizes 1,64`` / ``--processes 1,2``: comma-separated ints >= 1."""
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        values = ()
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: allowed: comma-separated ints >= 1, "
                                         "e.g. 1,64")
    return values


def print_vector(results: list[list[VectorResult]], loads: tuple[str, str]) -> None:
    label = {id(rows): ",".join(f"{k}={v}" for k, v in rows[0].options.items()) or "(defaults)"
             for rows in results}
    width = max([len("options"), *map(len, label.values())])
    print(f"before: {loads[0]}")
    in_place = any(r.in_place for rows in results for r in rows)
    print("step: " + ("in place (compiled: step(actions, copy=False); AEC env: "
                      "reuse_buffers=True)" if in_place else "fresh arrays (both)"))
    print(f"{'env':<16} {'options':<{width}} {'procs':>5} {'backend':<9} {'B':>6} "
          f"{'decisions/s':>12} {'AEC dec/s':>12} {'vs AEC':>7}")
    for rows in results:
        aec = {r.processes: r.decisions_per_s for r in rows if r.backend == AEC}
        for r in rows:
            if r.backend == AEC:
                continue
            ratio = r.decisions_per_s / aec[r.processes]
            print(f"{r.env:<16} {label[id(rows)]:<{width}} {r.processes:>5} {r.backend:<9} "
                  f"{r.num_envs:>6} {r.decisions_per_s:>12,.0f} {aec[r.processes]:>12,.0f} "
                  f"{ratio:>6.2f}x")
    print(f"after:  {loads[1]}")


def main_vector(args: argparse.Namespace, option_sets_of: dict[str, list[dict]]) -> int:
    sizes = args.sizes or SIZES
    results = []
    before = load_text()
    for name, sets in option_sets_of.items():
        for options in sets:
            rows: list[VectorResult] = []
            for processes in args.processes or PROCESSES:
                rows += measure_vector(name, options, sizes, args.seconds, processes,
                                       args.in_place)
            results.append(rows)
    loads = (before, load_text())
    if args.json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "load_before": loads[0], "load_after": loads[1],
                          "results": [asdict(r) for rows in results for r in rows]}, indent=2))
    else:
        print_vector(results, loads)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = make_parser("bench", __doc__)
    add_env(parser, required=False, multiple=True,
            help="env to measure (repeatable; default: all)")
    add_env_options(parser, help="a game option for every measured env, repeatable "
                                 "(default: each env's defaults, or --variants)")
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per measurement")
    parser.add_argument("--variants", action="store_true",
                        help="measure every option set of envs.VARIANTS, not just the defaults")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--observation", choices=("default", "information_state"),
                        default="default",
                        help="information_state: also measure the env handing out the "
                             "information state, in the same rounds, and its cost per step")
    parser.add_argument("--vector", action="store_true",
                        help="measure the vector API (tablezoo.envs.make_vector): decisions/s "
                             "per batch size and backend, beside the AEC env's")
    parser.add_argument("--in-place", action="store_true",
                        help="with --vector: step the compiled engines with step(actions, "
                             "copy=False) (their own buffers, as the batched trainer reads "
                             "them) and the AEC env with reuse_buffers=True (default: fresh "
                             "arrays from both)")
    parser.add_argument("--sizes", type=positive_ints, default=None, metavar="B,B,...",
                        help="with --vector: the batch sizes (numbers of games) to measure "
                             f"(default: {','.join(map(str, SIZES))})")
    parser.add_argument("--processes", type=positive_ints, default=None, metavar="N,N,...",
                        help="with --vector: run the measurement in N processes side by side "
                             "and report their total, for each N given (default: "
                             f"{','.join(map(str, PROCESSES))})")
    args = parser.parse_args(argv)
    if not 0 < args.seconds < float("inf"):
        parser.error(f"--seconds {args.seconds}: allowed: a finite number more than 0")
    if not args.vector and (args.sizes or args.processes or args.in_place):
        parser.error("--sizes, --processes and --in-place go with --vector")
    info = args.observation == "information_state"
    if args.vector and info:
        parser.error("--observation information_state goes with the AEC env, not --vector")
    try:
        given = parse_env_options(args.env_option)
    except ValueError as exc:
        parser.error(str(exc))
    name = ""
    try:  # every env's option set, checked before any measurement
        for name in args.env or envs.ENVS:
            for options in option_sets(name, args.variants, given):
                envs.make_game(name, **options)
    except ValueError as exc:  # InvalidOptionError names the allowed options and values
        parser.error(f"{name}: {exc}" + ("" if args.env else " (options apply to every env; "
                                              "name one with --env)"))
    if args.vector:
        return main_vector(args, {name: option_sets(name, args.variants, given)
                                  for name in args.env or envs.ENVS})
    results = []
    for name in args.env or envs.ENVS:
        for options in option_sets(name, args.variants, given):
            try:
                results.append(measure_both(name, options, args.seconds,
                                            information_state=info))
            except ImportError as exc:  # a game module not installed/built
                print(f"{name}: skipped ({exc})", file=sys.stderr)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "results": [asdict(r) for pair in results for r in pair]},
                         indent=2))
        return 0
    labels = [",".join(f"{k}={v}" for k, v in row[0].options.items()) or "(defaults)"
              for row in results]
    width = max([len("options"), *map(len, labels)])
    extra = f" {'steps/s info':>13} {'+us/step':>9}" if info else ""
    print(f"{'env':<16} {'options':<{width}} {'steps/s fresh':>14} {'steps/s reuse':>14} "
          f"{'games/s fresh':>14}{extra}")
    for row, label in zip(results, labels):
        fresh, reused = row[0], row[1]
        line = (f"{fresh.env:<16} {label:<{width}} {fresh.steps_per_s:>14,.0f} "
                f"{reused.steps_per_s:>14,.0f} {fresh.games_per_s:>14,.1f}")
        if info:
            cost = 1e6 * (1 / row[2].steps_per_s - 1 / fresh.steps_per_s)
            line += f" {row[2].steps_per_s:>13,.0f} {cost:>9.1f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
