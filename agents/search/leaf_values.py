"""Leaf evaluations for ``agents/search/ismcts.py`` at a depth cut-off: per-seat values in [-1, 1].

``"score"`` (every game) is the search's own score-margin value, so it maps to ``None`` here.
The other names are a game's own (its ``GameAgents.leaf_values``): bower's hand-written position
value (``"heuristic"``, and ``"world_heuristic"`` with the sampled world's eggs), bauer_trick's
exact solver (``"solver"``: with a cut-off right after the root this is perfect-information Monte
Carlo), ethnos's glory margins if the Age ended now (``"age_end"``). ``"heuristic"`` in a game
without a position value falls back to the score margin. A value may decline a position
(``None``: the playout goes on), and one that takes ``exact_turns=K`` gives way to the real end
near it (at a cut-off with at most ``K`` turns of the game left, the playout goes on to the end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tablezoo.agents.games import game_agents, games_with
from tablezoo.envs.core.game import State

# per-seat values, or None where the evaluator cannot value the position (the playout goes on)
Evaluator = Callable[[State, int], Sequence[float] | None]


@dataclass(frozen=True)
class LeafValue:
    """A game's named leaf value: ``make(leaf_scale, exact_turns)`` builds its evaluator."""

    make: Callable[[float, int], Evaluator]
    exact_turns: bool = False  # takes ``exact_turns`` (see the module docstring)


def margin_values(scores: Sequence[float], opponents: Sequence[Sequence[int]],
                  scale: float) -> np.ndarray:
    """Per seat, the mean over its opponents of ``tanh(score margin / scale)``: in [-1, 1] like
    the terminal rewards, 0 for equal scores, and a team's seats share it."""
    s = np.asarray(scores, dtype=float)
    out = np.zeros(s.size)
    for p, others in enumerate(opponents):
        if others:
            out[p] = float(np.mean(np.tanh((s[p] - s[list(others)]) / scale)))
    return out


def evaluator_names() -> tuple[str, ...]:
    """Every evaluator name some registered game takes (``score`` and ``heuristic`` first)."""
    named = {n for g in games_with(lambda a: True) for n in game_agents(g).leaf_values}
    return ("score", "heuristic", *sorted(named - {"score", "heuristic"}))


def takes_exact_turns(name: str, game_name: str) -> bool:
    """Whether the game's evaluator ``name`` takes ``exact_turns``."""
    value = game_agents(game_name).leaf_values.get(name)
    return value is not None and value.exact_turns


def leaf_evaluator(name: str, game_name: str, leaf_scale: float = 10.0,
                   exact_turns: int = 0) -> Evaluator | None:
    """The evaluator ``name`` for ``game_name``; ``None`` means the score margin. ``leaf_scale``
    is the scale of the values that use one; ``exact_turns`` is refused by values that do not
    take it."""
    values = game_agents(game_name).leaf_values
    value = values.get(name)
    if exact_turns and (value is None or not value.exact_turns):
        owners = games_with(lambda a: any(v.exact_turns for v in a.leaf_values.values()))
        takers = sorted({n for g in owners
                         for n, v in game_agents(g).leaf_values.items() if v.exact_turns})
        raise ValueError(f"ismcts agent: exact_turns={exact_turns} applies to "
                         f"{_possessive(owners)} evaluators {', '.join(takers)}, not evaluator="
                         f"{name!r} in {game_name!r}; give exact_turns=0")
    if value is not None:
        return value.make(leaf_scale, exact_turns)
    if name in ("score", "heuristic"):
        return None
    others = games_with(lambda a: name in a.leaf_values)
    if not others:
        raise ValueError(f"ismcts agent: evaluator={name!r}; allowed: "
                         f"{', '.join(evaluator_names())}")
    raise ValueError(f"ismcts agent: evaluator={name!r} is {_possessive(others)}, not "
                     f"{game_name!r}'s: no {name} for game {game_name!r}; games with one: "
                     f"{', '.join(others)}; allowed here: score, heuristic"
                     + "".join(f", {n}" for n in values if n != "heuristic"))


def _possessive(games: list[str]) -> str:
    return " and ".join(f"{g}'s" for g in games)
