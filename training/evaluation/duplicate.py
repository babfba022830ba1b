"""Duplicate deals: one seed played once from every side, so the luck of the deal cancels.

As in duplicate bridge, a *deal* (one game seed) is played once per side of the table, the
evaluated agent taking each side in turn: the two teams of a team game (bauer_trick: the agent's
team holds the cards of {0, 2} once and of {1, 3} once), the two seats of a 2-player game, and
every seat of an n-player game with one evaluated agent (the general case: the agent rotates
through all sides on the same seed). The sides are the game's units (``teams.teams_of``: its
declared teams, else one seat each), so no game needs code of its own here.

Every play of a deal is ``match.play_game(game, agents, seed)`` with the deal's one seed: the
state's generator (the deal, and every shuffle the game draws from it in the same order) and the
seed of the agent in each seat both come from it, so each play replays exactly on its own, and
a seat's agent seed is the same in every play of the deal whoever sits there. The deal's plays
are not independent results: the sample for an interval is their mean (``stats.summarize``'s
``deals``).
"""

from __future__ import annotations

from tablezoo.envs.core.game import Game
from tablezoo.training.evaluation.teams import teams_of


def plays_per_deal(game: Game) -> int:
    """How often duplicate evaluation plays each deal: once per side (team or seat)."""
    return len(teams_of(game))


def hero_seats(game: Game, deal: int) -> list[int]:
    """The evaluated agent's seat in each play of deal number ``deal``: one seat of every side,
    sides in order. Within a team the seat moves on deal by deal, so that over the deals the
    agent sits in every seat equally often (it matters where its partner is another agent)."""
    return [unit[deal % len(unit)] for unit in teams_of(game)]


def check_duplicate(duplicate: object, games: int, plays: int) -> None:
    """Raise ``ValueError`` naming the problem when ``duplicate`` is not a bool, or when it is
    on and ``games`` (games played in all) is not a whole number of deals of ``plays`` plays."""
    if not isinstance(duplicate, bool):
        raise ValueError(f"duplicate={duplicate!r}; allowed: True or False")
    if duplicate and (games < plays or games % plays):
        low, high = max(plays, games - games % plays), games - games % plays + plays
        raise ValueError(f"--games {games} with --duplicate: each deal is played {plays} times "
                         f"(once per side), so games must be a multiple of {plays}, e.g. {low}"
                         + ("" if low == high else f" or {high}"))
