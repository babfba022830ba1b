r"""Evolve a game heuristic's parameters with CMA-ES against the default heuristic.

    tablezoo evolve --config training/configs/bower_evolve.json --out runs/bower_evolve
    tablezoo evolve --env bower_v0 --param bonus_value=0:2 --param read_opponent=0:4 \
        --out runs/evolve_small --max-minutes 5

A black-box policy search (evolution strategies; Salimans et al. 2017 use ES as an RL method):
the policy is the env's heuristic, its parameters (``--param NAME=LOW:HIGH``, searched inside
those bounds, starting at the heuristic's defaults) are the weights, and the fitness is the
mean reward against the default heuristic. Each generation CMA-ES (the ``cmaes`` library)
proposes ``--population`` parameter vectors; each plays ``--pairs`` fresh seeded deals once from
every seat (team games: with its partners; the same deals for every candidate of the
generation, so their ranking is not decided by the deals' luck), and CMA-ES moves its mean
towards the better ones. ``--env-option`` sets the games' options (the tools' defaults
otherwise: bauer_trick single deals).

Every ``--eval-every`` generations the distribution's mean (the model the run would save) plays
``--eval-games`` fixed seeded games against the heuristic, seats rotated; those figures go to
``OUT/eval.csv`` (``step``: games played so far) and ``OUT/learning_curve.png``, and each
generation's population to ``OUT/evolution.csv``. After ``--generations`` generations the mean
is written as ``OUT/model.npz`` (a ``tablezoo.agents.learned.heuristic_weights`` model, played
by ``trained:OUT/model.npz``). The budget is the generation count: everything is seeded, so the
same command plays the same games and writes the same bytes, and the wall time is only
measured. ``--max-minutes`` adds a wall-clock guard for exploration runs (where it stops
depends on the machine, so such a run cannot be rerun; the shipped config has none).

``--tail-average F`` saves instead the average of the distribution's means over the last
fraction ``F`` of the generations played (Polyak-Ruppert tail averaging), and the curve follows
that average. Why: each generation's fitness is a few hundred noisy games, so once CMA-ES nears
the optimum its mean keeps wandering around it, and the final mean is one draw of that walk; the
average of the walk sits closer to its centre. CMA-ES itself is unchanged by it.
"""

from __future__ import annotations

import csv
import json
import math
import sys
import time
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.learned.heuristic_weights import HeuristicWeights, heuristic_parameters
from tablezoo.training.evaluation.evaluate import evaluate_seat
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.stats import json_figures
from tablezoo.training.evaluation.teams import partners_of
from tablezoo.training.runs import SettingsError, clear_run, earlier_run_problem, env_options_for
from tablezoo.training.selfplay.callbacks import EVAL_FIELDS, eval_row
from tablezoo.training.shipping.machine import machine_record

TRAIN_SEEDS = 30_000_000  # generation g deals from TRAIN_SEEDS + 1,000,000 * seed + g * pairs
EVAL_SEEDS = 1_000_000  # the learning curve's fixed games, as in tablezoo train
EVOLUTION_FIELDS = ["generation", "games", "seconds", "population_mean",
                    "population_best", "mean_params"]


@dataclass(kw_only=True)
class EvolutionSettings:
    """One evolution run (``tablezoo evolve --help`` explains each field under its flag's
    name): ``param`` lists the parameters to evolve as ``NAME=LOW:HIGH``, ``env_options`` the
    game options over the tools' defaults."""

    env: str = "bower_v0"
    env_options: dict[str, Any] | None = None
    param: list[str] | None = None
    out: Path
    seed: int = 0
    population: int = 8
    pairs: int = 120
    sigma: float = 0.15
    generations: int = 1000
    max_minutes: float | None = None
    eval_every: int = 3
    eval_games: int = 400
    tail_average: float = 0.0
    processes: int = 2
    force: bool = False


def check_settings(settings: EvolutionSettings) -> tuple[dict[str, tuple[float, float]],
                                                          dict[str, Any]]:
    """The bounds of the evolved parameters and the game's options; raises ``SettingsError``
    naming the first setting out of range by its flag."""
    if settings.env not in envs.ENVS:
        raise SettingsError(f"unknown env {settings.env!r}; known envs: {', '.join(envs.ENVS)}")
    for flag, least in (("population", 4), ("pairs", 1), ("processes", 1), ("eval_games", 1)):
        if getattr(settings, flag) < least:  # CMA-ES's recombination needs 2 parents of 4
            raise SettingsError(f"--{flag.replace('_', '-')} must be at least {least}")
    if not 0.0 < settings.sigma <= 1.0:  # a step in units of each parameter's range
        raise SettingsError(f"--sigma {settings.sigma}: allowed: more than 0, at most 1")
    if settings.generations < 1:
        raise SettingsError(f"--generations {settings.generations}: allowed: 1 or more")
    if settings.max_minutes is not None and not settings.max_minutes > 0:
        raise SettingsError(f"--max-minutes {settings.max_minutes}: allowed: more than 0, or "
                            "leave it out")
    if settings.eval_every < 0:
        raise SettingsError(f"--eval-every {settings.eval_every}: allowed: 0 (the curve's ends "
                            "only) or more")
    if not 0.0 <= settings.tail_average <= 1.0:
        raise SettingsError(f"--tail-average must be between 0 and 1, got "
                            f"{settings.tail_average}")
    try:
        bounds = parse_bounds(settings.param or [], settings.env)
        options = env_options_for(settings.env, settings.env_options or {})
    except ValueError as exc:
        raise SettingsError(str(exc)) from exc
    problem = earlier_run_problem(settings.out, force=settings.force, also=("evolution.csv",))
    if problem is not None:
        raise SettingsError(problem)
    return bounds, options


def evolve(settings: EvolutionSettings, command: str | None = None,
           record: dict[str, Any] | None = None) -> Path:
    """Check ``settings``, then run the evolution (module docstring); returns the model's path.
    ``command`` is the card's ``training_command`` (default: the settings' repr) and ``record``
    what ``config.json`` records of the settings (default: their fields). Settings that cannot
    run raise ``SettingsError`` before anything is written."""
    bounds, options = check_settings(settings)
    if settings.force:
        clear_run(settings.out)
        (settings.out / "evolution.csv").unlink(missing_ok=True)
    if record is None:
        record = {k: v for k, v in vars(settings).items() if k != "env_options"}
    return run(settings, bounds, options, repr(settings) if command is None else command,
               record)


# --- games ---------------------------------------------------------------------------------------
Task = tuple[str, dict[str, Any], dict[str, float], list[Any]]  # env, options, params, games


def _play_pairs(task: Task) -> list[float]:
    """The candidate's reward in each deal of ``seeds``, played once from every seat (team
    games: the candidate plays the seat and its partners, as in ``tablezoo evaluate``)."""
    env, options, params, seeds = task
    game = envs.make_game(env, **options)
    rewards = []
    for s in seeds:
        for seat in range(game.num_players):
            rewards.append(play_game(game, _seating(env, game, params, seat), s).returns[seat])
    return rewards


def _seating(env: str, game: Any, params: dict[str, float], seat: int) -> list[Any]:
    """The candidate's heuristic in ``seat`` (and its partners' seats), the default elsewhere."""
    mine = {seat, *partners_of(game, seat)}
    return [HeuristicWeights(env, params if p in mine else {}).make_heuristic()
            for p in range(game.num_players)]


def _play_rotated(task: Task) -> list[float]:
    """The candidate's reward in the curve games ``ks`` (``tablezoo evaluate``'s protocol: game
    ``k`` from seed ``EVAL_SEEDS + k``, the candidate in seat ``k`` mod players); the other
    curve games are another worker's."""
    env, options, params, ks = task
    game = envs.make_game(env, **options)
    weights = HeuristicWeights(env, params)
    default = HeuristicWeights(env, {})
    last = max(ks) + 1
    return evaluate_seat(game, weights.make_heuristic, weights.make_heuristic,
                         default.make_heuristic, last, EVAL_SEEDS, skip=set(range(last)) - set(ks))


def _split(items: list[Any], parts: int) -> list[list[Any]]:
    return [items[i::parts] for i in range(parts) if items[i::parts]]


# --- parameters ----------------------------------------------------------------------------------
def parse_bounds(items: list[str], env: str) -> dict[str, tuple[float, float]]:
    """``NAME=LOW:HIGH`` flags -> bounds, checked against the heuristic's parameters."""
    allowed = heuristic_parameters(env)
    bounds = {}
    for item in items:
        name, _, rng = item.partition("=")
        low, _, high = rng.partition(":")
        if name not in allowed:
            raise ValueError(f"--param {item!r}: the {env} heuristic has no parameter {name!r}; "
                             f"allowed: {', '.join(sorted(allowed))}")
        if name in bounds:
            raise ValueError(f"--param {item!r}: {name} is given twice (first as "
                             f"{name}={bounds[name][0]:g}:{bounds[name][1]:g}); give it once")
        try:
            lo, hi = float(low), float(high)
        except ValueError:
            raise ValueError(f"--param {item!r}: write NAME=LOW:HIGH with two numbers") from None
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError(f"--param {item!r}: LOW and HIGH must be finite numbers")
        if not lo < hi or not lo <= allowed[name] <= hi:
            raise ValueError(f"--param {item!r}: need LOW < HIGH around the default "
                             f"{name}={allowed[name]}")
        bounds[name] = (lo, hi)
    if not bounds:
        raise ValueError(f"give at least one --param NAME=LOW:HIGH; the {env} heuristic has "
                         f"{', '.join(sorted(allowed))}")
    return bounds


def to_params(x: np.ndarray, bounds: dict[str, tuple[float, float]]) -> dict[str, float]:
    """A point of the unit cube -> parameter values inside their bounds."""
    return {n: round(lo + float(v) * (hi - lo), 6)
            for (n, (lo, hi)), v in zip(bounds.items(), np.clip(x, 0.0, 1.0))}


def to_unit(params: dict[str, float], bounds: dict[str, tuple[float, float]]) -> np.ndarray:
    return np.array([(params[n] - lo) / (hi - lo) for n, (lo, hi) in bounds.items()])


# --- the run -------------------------------------------------------------------------------------
class Evolution:
    """CMA-ES over the unit cube of ``bounds``; games in a pool of ``processes`` workers."""

    def __init__(self, settings: EvolutionSettings, bounds: dict[str, tuple[float, float]],
                 options: dict[str, Any]):
        from cmaes import CMA

        self.settings = settings
        self.bounds = bounds
        start = to_unit(heuristic_parameters(settings.env), bounds)
        self.cma = CMA(mean=start, sigma=settings.sigma,
                       bounds=np.array([[0.0, 1.0]] * len(bounds)), seed=settings.seed,
                       population_size=settings.population)
        self.games = 0
        self.means: list[np.ndarray] = []  # the distribution's mean after each generation
        self.options: dict[str, Any] = options
        # each deal is played from every seat
        self.seats = envs.make_game(settings.env, **self.options).num_players
        self.pool = (get_context("spawn").Pool(settings.processes) if settings.processes > 1
                     else None)

    def _map(self, fn: Any, tasks: list[Any]) -> list[list[float]]:
        return self.pool.map(fn, tasks) if self.pool else [fn(t) for t in tasks]

    def mean_params(self) -> dict[str, float]:
        return to_params(self.cma.mean, self.bounds)

    def tail(self) -> list[int]:
        """The generations (1-based) whose means the model averages: the last
        ``--tail-average`` fraction of those played (at least one), or just the last."""
        played = len(self.means)
        count = max(1, math.ceil(self.settings.tail_average * played)) if played else 0
        return list(range(played - count + 1, played + 1))

    def model_params(self) -> dict[str, float]:
        """The parameters the run would save now: the mean, or its tail average."""
        if not self.settings.tail_average or not self.means:
            return self.mean_params()
        return to_params(np.mean([self.means[g - 1] for g in self.tail()], axis=0), self.bounds)

    def generation(self, g: int) -> tuple[list[float], float]:
        """Play one generation and update CMA-ES; the candidates' fitness and the seconds."""
        t0 = time.perf_counter()
        a = self.settings
        first = TRAIN_SEEDS + 1_000_000 * a.seed + g * a.pairs
        seeds = list(range(first, first + a.pairs))
        xs = [self.cma.ask() for _ in range(self.cma.population_size)]
        chunks = _split(seeds, a.processes)
        tasks = [(a.env, self.options, to_params(x, self.bounds), c) for x in xs for c in chunks]
        results = self._map(_play_pairs, tasks)
        per = len(chunks)
        fitness = [float(np.mean(np.concatenate(results[i * per:(i + 1) * per])))
                   for i in range(len(xs))]
        self.cma.tell([(x, -f) for x, f in zip(xs, fitness)])  # cmaes minimises
        self.means.append(self.cma.mean.copy())
        self.games += len(xs) * self.seats * a.pairs
        return fitness, time.perf_counter() - t0

    def evaluate_model(self) -> dict[str, Any]:
        """The model's reward against the heuristic on the fixed curve games."""
        t0 = time.perf_counter()
        a = self.settings
        parts = self._map(_play_rotated, [(a.env, self.options, self.model_params(), c)
                                          for c in _split(list(range(a.eval_games)), a.processes)])
        rewards = [r for part in parts for r in part]
        return eval_row(self.games, "heuristic", rewards, time.perf_counter() - t0)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()


def _model_description(evo: Evolution) -> str:
    tail = evo.tail()
    if not evo.settings.tail_average or len(tail) < 2:
        return "the distribution's mean after the last generation"
    return f"the average of the distribution's means after generations {tail[0]}..{tail[-1]}"


def _append_csv(path: Path, fields: list[str], row: dict[str, Any]) -> None:
    new = not path.is_file()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        if new:
            writer.writeheader()
        writer.writerow(row)


def run(settings: EvolutionSettings, bounds: dict[str, tuple[float, float]],
        options: dict[str, Any], command: str, record: dict[str, Any]) -> Path:
    """The whole run of checked settings (``evolve``); returns the model's path."""
    from tablezoo.training.figures.learning_curve import plot_run

    out: Path = settings.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(
        {**{k: (str(v) if isinstance(v, Path) else v) for k, v in record.items()},
         "env_options": options, "bounds": bounds, "command": command}, indent=2) + "\n")
    t_start = time.perf_counter()
    machine = machine_record(settings.processes)
    deadline = math.inf if settings.max_minutes is None else t_start + 60.0 * settings.max_minutes
    evo = Evolution(settings, bounds, options)
    curve = [evo.evaluate_model()]
    _append_csv(out / "eval.csv", EVAL_FIELDS, curve[-1])
    last = 0.0
    g = 0
    try:
        while g < settings.generations and time.perf_counter() + last < deadline:
            fitness, seconds = evo.generation(g)
            g += 1
            last = seconds
            _append_csv(out / "evolution.csv", EVOLUTION_FIELDS, {
                "generation": g, "games": evo.games, "seconds": round(seconds, 1),
                "population_mean": round(float(np.mean(fitness)), 4),
                "population_best": round(float(np.max(fitness)), 4),
                "mean_params": json.dumps(evo.mean_params())})
            print(f"generation {g}: population {np.mean(fitness):+.3f} (best {max(fitness):+.3f})"
                  f", mean {evo.mean_params()}, {seconds:.0f} s", file=sys.stderr, flush=True)
            if settings.eval_every and g % settings.eval_every == 0:
                curve.append(evo.evaluate_model())
                _append_csv(out / "eval.csv", EVAL_FIELDS, curve[-1])
                last = seconds + curve[-1]["seconds"]
        if curve[-1]["step"] != evo.games:
            curve.append(evo.evaluate_model())
            _append_csv(out / "eval.csv", EVAL_FIELDS, curve[-1])
    finally:
        evo.close()
    wall = time.perf_counter() - t_start
    final = curve[-1]
    model = HeuristicWeights(settings.env, evo.model_params())
    path = model.save(out / "model.npz", {
        "num_players": evo.seats, "env_options": options,
        "training_command": command, "timesteps": 0, "games": evo.games, "generations": g,
        "wall_seconds": round(wall, 1), "seed": settings.seed,
        "budget": {"max_minutes": settings.max_minutes, "generations": settings.generations,
                   "stopped_by": "generations" if g >= settings.generations else
                   "max_minutes: the wall clock, so a rerun stops elsewhere",
                   "machine": machine},
        "evolution": {"method": "CMA-ES (cmaes)", "population": settings.population,
                      "pairs": settings.pairs, "sigma0": settings.sigma, "bounds": bounds,
                      "opponent": "heuristic (default parameters)",
                      "model": _model_description(evo)},
        "eval_during_training": json_figures(final)})
    plot_run(out, xlabel="games played")
    print(f"{path}: {model.describe()} after {g} generations, {evo.games} games, "
          f"{wall / 60:.1f} min", file=sys.stderr)
    return path
