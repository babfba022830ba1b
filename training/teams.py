"""Which seats play together, for evaluation ("the model's partner") and team ratings.

The engine protocol has no notion of teams yet, so a game may declare ``game.teams`` (a tuple of
seat tuples); otherwise the table below is used, and any other game is every seat for itself.
"""

from __future__ import annotations

from envs.core.game import Game

KNOWN_TEAMS: dict[str, tuple[tuple[int, ...], ...]] = {
    "bauer_trick": ((0, 2), (1, 3)),
}


def teams_of(game: Game) -> tuple[tuple[int, ...], ...]:
    """The partition of seats into teams (singletons for games without teams)."""
    declared = getattr(game, "teams", None)
    if declared is not None:
        return tuple(tuple(t) for t in declared)
    if game.name in KNOWN_TEAMS:
        return KNOWN_TEAMS[game.name]
    return tuple((p,) for p in range(game.num_players))


def partners_of(game: Game, seat: int) -> tuple[int, ...]:
    """The other seats of ``seat``'s team (empty for a game without teams)."""
    for team in teams_of(game):
        if seat in team:
            return tuple(p for p in team if p != seat)
    raise ValueError(f"{game.name}: no seat {seat}; seats are 0..{game.num_players - 1}")
