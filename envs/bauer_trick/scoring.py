"""Scoring of ``bauer_trick``: who subtracts a point for a deal, the tally, scores and rewards.

Each team starts at ``start_score`` points and subtracts one per deal it wins; ``tally`` counts
those points by category (the score breakdown). Rewards go to the seats of a team (+amount) and
the other team (-amount): per point subtracted in ``episode="deal"`` or ``reward="points"``, and
+1/-1 for the team that reaches 0 in a ``game`` episode (the rules call ``reward_team`` for that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bauer_trick.components import NO_TRUMP, NUM_SEATS

if TYPE_CHECKING:
    from tablezoo.envs.bauer_trick.rules import BauerTrickState

CATEGORIES = ("calls_made", "no_trump_won", "failed_calls_punished")


def deal_scorer(state: BauerTrickState) -> tuple[int, str] | None:
    """The team that subtracts a point for this finished deal and why, or ``None``."""
    if state.trump == NO_TRUMP:
        for team in (0, 1):
            if state.tricks[team] >= 5:
                return team, "no_trump_won"
        return None
    calling = state.caller % 2
    if state.tricks[calling] >= 5:
        return calling, "calls_made"
    if state.game.options["defenders_score_on_fail"]:
        return 1 - calling, "failed_calls_punished"
    return None


def score_deal(state: BauerTrickState) -> tuple[int, str] | None:
    """Subtract the finished deal's point (tally and per-point reward); the scorer, or ``None``."""
    game = state.game
    scorer = deal_scorer(state)
    per_point = game.deal_mode or game.options["reward"] == "points"
    if scorer is not None:
        team, category = scorer
        state.points[team] -= 1
        state.tally[team][category] += 1
        if per_point:
            reward_team(state, team, 1.0)
    return scorer


def reward_team(state: BauerTrickState, team: int, amount: float) -> None:
    for seat in range(NUM_SEATS):
        state.total_returns[seat] += amount if seat % 2 == team else -amount


def scores(state: BauerTrickState) -> list[float]:
    return [float(sum(state.tally[seat % 2].values())) for seat in range(NUM_SEATS)]


def score_breakdown(state: BauerTrickState) -> list[dict[str, float]]:
    return [
        {k: float(v) for k, v in state.tally[seat % 2].items()} for seat in range(NUM_SEATS)
    ]
