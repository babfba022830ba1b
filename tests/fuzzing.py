"""A seeded mutator of saved states (``State.to_dict()`` outputs) and the fuzz verdict.

Every game must answer any input to ``game.state_from_dict`` in one of two ways: raise
``StateFormatError`` quickly, or load a state that passes its invariant check (``State.check``)
and plays to the end with random legal actions. The mutations are generic (they know JSON, not
the games): delete a key, a wrong type, out-of-range and huge integers, NaN/inf, deep nesting,
huge lists, a value moved or copied between two lists (a card in two zones), swapped siblings,
off-by-one integers. Real saved states come from random points of random games.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import Game, State

Path = tuple[Any, ...]

WRONG_TYPES: tuple[Any, ...] = (None, "junk", "", [], {}, 1.5, True, -1, [[]], {"a": 1})
BAD_NUMBERS: tuple[Any, ...] = (
    -1, -2, 2**64, -(2**64), 2**63, 2**31, 10**30, math.nan, math.inf, -math.inf, 0.5, 1e308,
)


def random_saved_states(game: Game, rng: np.random.Generator, count: int) -> list[dict]:
    """``count`` saved states taken at uniformly random points of random-play games."""
    saved = []
    while len(saved) < count:
        state = game.new_state(int(rng.integers(2**31)))
        stop = int(rng.integers(0, 400))
        steps = 0
        while not state.is_over() and steps < stop:
            play_random_step(state, rng)
            steps += 1
        saved.append(state.to_dict())
    return saved


def play_random_step(state: State, rng: np.random.Generator) -> None:
    """One joint decision of uniformly random legal actions."""
    joint = {}
    for player in state.acting_players():
        legal = np.flatnonzero(state.legal_mask(player))
        if legal.size == 0:
            raise AssertionError(f"acting player {player} has an empty mask")
        joint[player] = int(rng.choice(legal))
    state.apply(joint)


def _paths(node: Any, prefix: Path = ()) -> list[Path]:
    """Every path to a value inside ``node`` (dict keys and list indices), the root excluded."""
    found: list[Path] = []
    stack: list[tuple[Any, Path]] = [(node, prefix)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        for key, child in items:
            found.append(path + (key,))
            stack.append((child, path + (key,)))
    return found


def _get(root: Any, path: Path) -> Any:
    for key in path:
        root = root[key]
    return root


def _set(root: Any, path: Path, value: Any) -> None:
    _get(root, path[:-1])[path[-1]] = value


def _delete(root: Any, path: Path) -> None:
    del _get(root, path[:-1])[path[-1]]


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _int_lists(root: Any) -> list[Path]:
    return [p for p in _paths(root) if isinstance(_get(root, p), list)
            and _get(root, p) and not isinstance(_get(root, p)[0], (dict, list))]


@dataclass
class Mutation:
    """One mutated saved state and a short description of what was done (for failures)."""

    data: dict
    what: str


def mutate(saved: dict, rng: np.random.Generator) -> Mutation:
    """A copy of ``saved`` with one random mutation."""
    data = copy.deepcopy(saved)
    paths = _paths(data)
    path = paths[int(rng.integers(len(paths)))]
    old = _get(data, path)
    kind = int(rng.integers(11))
    if kind == 0:
        _delete(data, path)
        return Mutation(data, f"deleted {path}")
    if kind == 1:
        new = WRONG_TYPES[int(rng.integers(len(WRONG_TYPES)))]
        _set(data, path, copy.deepcopy(new))
        return Mutation(data, f"{path}: {old!r:.40} -> {new!r}")
    if kind == 2:
        new = BAD_NUMBERS[int(rng.integers(len(BAD_NUMBERS)))]
        _set(data, path, new)
        return Mutation(data, f"{path}: {old!r:.40} -> {new!r}")
    if kind == 3 and isinstance(old, (int, float)) and not isinstance(old, bool):
        new = old + (1 if rng.random() < 0.5 else -1)
        _set(data, path, new)
        return Mutation(data, f"{path}: {old!r} -> {new!r}")
    if kind == 4:
        _set(data, path, _deep(int(rng.choice([50, 1000, 20_000]))))
        return Mutation(data, f"{path}: deeply nested list")
    if kind == 5:
        filler = old[0] if isinstance(old, list) and old else 0
        _set(data, path, [copy.deepcopy(filler) for _ in range(100_000)])
        return Mutation(data, f"{path}: 100,000-element list of {filler!r:.40}")
    lists = _int_lists(data)
    if kind in (6, 7) and len(lists) >= 2:
        src, dst = (lists[int(i)] for i in rng.choice(len(lists), 2, replace=False))
        source, target = _get(data, src), _get(data, dst)
        item = source[int(rng.integers(len(source)))]
        if kind == 6:
            source.remove(item)
        target.append(item)
        verb = "moved" if kind == 6 else "copied"
        return Mutation(data, f"{verb} {item!r} from {src} to {dst}")
    if kind == 8 and lists:
        target = _get(data, lists[int(rng.integers(len(lists)))])
        target.pop(int(rng.integers(len(target))))
        return Mutation(data, f"removed an element of {lists}")
    if kind == 9:
        parent = _get(data, path[:-1])
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        if len(keys) >= 2:
            a, b = (keys[int(i)] for i in rng.choice(len(keys), 2, replace=False))
            parent[a], parent[b] = parent[b], parent[a]
            return Mutation(data, f"swapped {path[:-1] + (a,)} and {path[:-1] + (b,)}")
    if isinstance(old, list) and len(old) >= 2:
        order = rng.permutation(len(old))
        _set(data, path, [old[int(i)] for i in order])
        return Mutation(data, f"{path}: shuffled")
    _set(data, path, "junk")
    return Mutation(data, f"{path}: {old!r:.40} -> 'junk'")


@dataclass
class FuzzReport:
    """What happened to the mutations of one game."""

    mutations: int = 0
    raised: int = 0
    loaded_and_played: int = 0
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.mutations} mutations: {self.raised} raised StateFormatError, "
                f"{self.loaded_and_played} loaded and played to the end, "
                f"{len(self.failures)} failures")


def judge(game: Game, mutation: Mutation, rng: np.random.Generator,
          time_limit: float = 1.0, check_every: int = 7) -> tuple[str, str | None]:
    """``("raised" | "played", None)`` if handled correctly, else ``("failed", what went wrong)``.

    The time limit is CPU time (``process_time``), so a loaded machine does not fail it; it
    catches quadratic scans of huge inputs, not slowness.
    """
    start = time.process_time()
    try:
        state = game.state_from_dict(mutation.data)
    except StateFormatError as exc:
        spent = time.process_time() - start
        if spent > time_limit:
            return "failed", (f"{mutation.what}: StateFormatError after {spent:.2f} s CPU "
                              f"(limit {time_limit})")
        if len(str(exc)) > 2_000:
            return "failed", (f"{mutation.what}: StateFormatError message of "
                              f"{len(str(exc))} characters")
        return "raised", None
    except Exception as exc:  # the verdict names any other exception
        return "failed", (f"{mutation.what}: {type(exc).__name__} instead of "
                          f"StateFormatError: {exc!r:.300}")
    problem = _play_out(state, mutation.what, rng, check_every)
    return ("played", None) if problem is None else ("failed", problem)


def _play_out(state: State, what: str, rng: np.random.Generator, check_every: int) -> str | None:
    steps = 0
    try:
        state.check()
        while not state.is_over():
            play_random_step(state, rng)
            steps += 1
            if steps % check_every == 0:
                state.check()
            if steps > 20 * state.game.max_decisions + 100:
                return f"{what}: loaded, but no end after {steps} steps"
        state.check()
        returns = state.returns()
        if not all(math.isfinite(r) for r in returns):
            return f"{what}: loaded, played to non-finite returns {returns}"
    except StateFormatError as exc:
        return f"{what}: loaded, but after {steps} random steps the check fails: {exc!s:.300}"
    except Exception as exc:  # the verdict names any other exception
        return f"{what}: loaded, but step {steps} raised {type(exc).__name__}: {exc!r:.300}"
    return None


def fuzz(game: Game, seed: int, mutations: int, states: int = 40,
         on_progress: Callable[[FuzzReport], None] | None = None) -> FuzzReport:
    """Mutate ``states`` real saved states ``mutations`` times in all and judge each result."""
    rng = np.random.default_rng(seed)
    saved = random_saved_states(game, rng, states)
    report = FuzzReport()
    for i in range(mutations):
        mutation = mutate(saved[i % len(saved)], rng)
        report.mutations += 1
        outcome, problem = judge(game, mutation, rng)
        if problem is not None:
            report.failures.append(problem)
        elif outcome == "raised":
            report.raised += 1
        else:
            report.loaded_and_played += 1
        if on_progress is not None and (i + 1) % 1000 == 0:
            on_progress(report)
    return report

