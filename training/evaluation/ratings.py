"""OpenSkill (Plackett-Luce) ratings for multiplayer and team results.

Each game is a list of *units* (a team, or a single seat in games without teams) ranked by their
return. An agent that fills several seats of one unit (a team of two copies) or, in a game
without teams, several units, gets the mean of its updated ratings: an approximation, since
OpenSkill rates players, not programs that play several seats at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def ranks_from_returns(returns: Sequence[float]) -> list[int]:
    """1 for the best; tied returns share the better rank (1 + number strictly better)."""
    return [1 + sum(1 for other in returns if other > r) for r in returns]


class Ratings:
    """Current rating per agent name; ``update`` applies one game."""

    def __init__(self, names: Sequence[str]):
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings: dict[str, Any] = {name: self.model.rating(name=name) for name in names}

    def update(self, units: Sequence[Sequence[str]], returns: Sequence[float]) -> None:
        """``units[i]`` lists the agent name of each seat of unit ``i``; ``returns[i]`` its
        return."""
        teams = [[self.ratings[name] for name in unit] for unit in units]
        new = self.model.rate(teams, ranks=ranks_from_returns(returns))
        collected: dict[str, list[Any]] = {}
        for unit, rated in zip(units, new):
            for name, rating in zip(unit, rated):
                collected.setdefault(name, []).append(rating)
        for name, rated in collected.items():
            mu = sum(r.mu for r in rated) / len(rated)
            sigma = sum(r.sigma for r in rated) / len(rated)
            self.ratings[name] = self.model.rating(mu=mu, sigma=sigma, name=name)

    def table(self) -> dict[str, dict[str, float]]:
        """``{name: {"mu", "sigma", "ordinal"}}``; ordinal = mu - 3 sigma (a cautious skill)."""
        return {
            name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for name, r in self.ratings.items()
        }
