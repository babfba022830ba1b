"""Which seats play together, for evaluation ("the model's partner") and team ratings.

A game declares its partnerships as ``game.teams`` (a tuple of seat tuples, ``None`` when every
seat plays for itself).
"""

from __future__ import annotations

from tablezoo.envs.core.game import Game


def teams_of(game: Game) -> tuple[tuple[int, ...], ...]:
    """The partition of seats into teams (singletons for games without teams)."""
    declared = getattr(game, "teams", None)
    if declared is not None:
        return tuple(tuple(t) for t in declared)
    return tuple((p,) for p in range(game.num_players))


def partners_of(game: Game, seat: int) -> tuple[int, ...]:
    """The other seats of ``seat``'s team (empty for a game without teams)."""
    for team in teams_of(game):
        if seat in team:
            return tuple(p for p in team if p != seat)
    raise ValueError(f"{game.name}: no seat {seat}; seats are 0..{game.num_players - 1}")
