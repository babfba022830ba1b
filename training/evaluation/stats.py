"""Confidence intervals for evaluation results (normal interval for a mean, Wilson for a rate).

Kept free of scipy: z = 1.96 for 95%. The Wilson interval is used for win/draw/loss rates because
it stays inside [0, 1] and behaves at rates near 0 or 1, where the normal one does not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval ``[low, high]``."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:+.4f} [{self.low:+.4f}, {self.high:+.4f}]"


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """Sample mean with the normal interval ``mean +- z * s / sqrt(n)`` (``s`` with ddof=1)."""
    n = len(values)
    if n == 0:
        raise ValueError("mean_interval: no values")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def interval_caveat(iv: Interval, n: int, sample: str = "game") -> str:
    """A note to print after a mean's interval where the normal interval says nothing: one game
    has none, and games that all gave the same reward (a perfect record) give one of no width,
    which is not certainty; the win rate's Wilson interval still bounds such a record.
    ``sample`` names what the ``n`` samples are (a duplicate deal's mean is one "deal")."""
    if n == 1:
        return f" (one {sample}: no interval)"
    if n > 1 and iv.low == iv.high:
        return (f" (all {n} {sample}s gave the same reward, so the normal interval has no "
                "width; read the win rate's interval)")
    return ""


def wilson_interval(successes: int, n: int, z: float = Z95) -> Interval:
    """Rate ``successes / n`` with the Wilson score interval."""
    if n <= 0:
        raise ValueError("wilson_interval: n must be positive")
    if not 0 <= successes <= n:
        raise ValueError(f"wilson_interval: successes={successes} outside 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class OutcomeSummary:
    """Win/draw/loss rates (reward > 0, == 0, < 0) and the mean reward over ``n`` games."""

    n: int
    win: Interval
    draw: Interval
    loss: Interval
    mean_reward: Interval
    deals: int | None = None  # duplicate deals: the mean's interval is over their means

    def as_dict(self) -> dict[str, float | None]:
        """The figures by name, ready for JSON: a bound that does not exist (one game's mean
        has no interval) is None, since the infinities that stand for it are not JSON."""
        out: dict[str, float | None] = {"games": self.n}
        if self.deals is not None:
            out["deals"] = self.deals
        for key in ("win", "draw", "loss", "mean_reward"):
            iv: Interval = getattr(self, key)
            out[key] = iv.value
            out[f"{key}_low"] = finite_or_none(iv.low)
            out[f"{key}_high"] = finite_or_none(iv.high)
        return out


SUMMARY_KEYS = ("games", "win", "mean_reward", "mean_reward_low", "mean_reward_high")


def json_figures(row: Mapping[str, Any], keys: Sequence[str] = SUMMARY_KEYS) -> dict[str, Any]:
    """``row``'s ``keys`` ready for a JSON file (a model card): a float that is infinite or NaN
    (one game's missing bound) becomes None."""
    return {k: finite_or_none(row[k]) if isinstance(row[k], float) else row[k] for k in keys}


def finite_or_none(x: float) -> float | None:
    """``x``, or None where it is infinite or NaN (strict JSON readers such as ``jq`` or a
    browser refuse ``Infinity``, which Python's ``json`` writes by default)."""
    return x if math.isfinite(x) else None


def summarize(rewards: Sequence[float], deals: Sequence[int] | None = None) -> OutcomeSummary:
    """Win/draw/loss rates and the mean reward of ``rewards``, one per game, with intervals.

    ``deals`` (duplicate evaluation) names the deal of each game: the games of one deal share
    its cards and are not independent, so the mean reward is the mean of the deals' means and
    its interval is over them, one sample a deal. The rates stay per game."""
    n = len(rewards)
    if n == 0:
        raise ValueError("summarize: no games to summarize (rewards is empty)")
    wins = sum(1 for r in rewards if r > 0)
    losses = sum(1 for r in rewards if r < 0)
    mean = mean_interval(rewards if deals is None else deal_means(rewards, deals))
    return OutcomeSummary(
        n=n,
        win=wilson_interval(wins, n),
        draw=wilson_interval(n - wins - losses, n),
        loss=wilson_interval(losses, n),
        mean_reward=mean,
        deals=None if deals is None else len(set(deals)),
    )


def deal_means(rewards: Sequence[float], deals: Sequence[int]) -> list[float]:
    """The mean of ``rewards`` over the games of each deal (``deals[i]``: the deal of game
    ``i``), deals in the order they first appear."""
    if len(deals) != len(rewards):
        raise ValueError(f"deal_means: {len(deals)} deals for {len(rewards)} rewards; give one "
                         "deal number per game")
    grouped: dict[int, list[float]] = {}
    for reward, deal in zip(rewards, deals):
        grouped.setdefault(deal, []).append(reward)
    return [math.fsum(games) / len(games) for games in grouped.values()]
