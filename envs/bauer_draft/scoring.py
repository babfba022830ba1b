"""Final scoring of Bauer (rules spec §5 and §6), as pure functions of what each player holds.

A player's *holding* is the list of card indices in their tableau plus one extra entry per copy
(a copy is an identical second card: same type, Day/Night, points, swords, tags and prize).
The ``state_*`` functions read a position's holdings, breakdown and returns (reward modes) for the
``State`` methods of the same names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tablezoo.envs.bauer_draft.actions import OVER
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    CHARACTER,
    COPIER_CARDS,
    DANGER,
    EVENT,
    JOURNEY,
    CardSet,
)
from tablezoo.envs.bauer_draft.effects import COPY_DONE
from tablezoo.envs.core.game import margin_rewards, rank_rewards

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftState

CATEGORIES = ("events", "journeys", "dangers", "themes", "quests", "night_prizes")
JOURNEY_POINTS = (0, 1, 3, 7, 12, 18)  # by count; +4 for each Journey beyond 5
DANGER_FIRST, DANGER_SECOND, DANGER_SHARED_FIRST = 12, 6, 18
THEME_MIN = 4
SKUTT_POINTS, BIG_JOCK_POINTS, TUVSTARR_POINTS, SKOGSRA_BASE = 6, 3, 2, 13


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def journey_points(journeys: int, night_journeys: int) -> int:
    """1/2/3/4/5 Journeys = 1/3/7/12/18, +4 per Journey beyond 5, +1 per Night Journey."""
    base = JOURNEY_POINTS[min(journeys, 5)] + 4 * max(0, journeys - 5)
    return base + night_journeys


def danger_points(swords: Sequence[int]) -> list[int]:
    """Most swords 12, second 6; a tie for first shares 18 (no second), a tie for second
    shares 6; shares rounded up; players without swords are out."""
    out = [0] * len(swords)
    values = sorted({s for s in swords if s > 0}, reverse=True)
    if not values:
        return out
    first = [p for p, s in enumerate(swords) if s == values[0]]
    if len(first) > 1:
        for p in first:
            out[p] = _ceil_div(DANGER_SHARED_FIRST, len(first))
        return out
    out[first[0]] = DANGER_FIRST
    if len(values) > 1:
        second = [p for p, s in enumerate(swords) if s == values[1]]
        for p in second:
            out[p] = _ceil_div(DANGER_SECOND, len(second))
    return out


def theme_points(tags: Sequence[int]) -> int:
    """1 point per tag of every theme with at least 4 tags."""
    return sum(t for t in tags if t >= THEME_MIN)


class Holding:
    """Counts of one player's holding that every scoring rule reads."""

    __slots__ = (
        "cards",
        "dangers",
        "event_points",
        "events",
        "journeys",
        "night",
        "night_journeys",
        "quest_points",
        "quests_completed",
        "swords",
        "tags",
    )

    def __init__(self, holding: Sequence[int], cards: CardSet = CARDS):
        self.cards = list(holding)
        tags = [0, 0, 0, 0, 0]
        self.events = self.event_points = self.journeys = self.night_journeys = 0
        self.dangers = self.swords = self.night = 0
        for c in holding:
            card = cards[c]
            if card.night:
                self.night += 1
            if card.kind == EVENT:
                self.events += 1
                self.event_points += card.points
            elif card.kind == JOURNEY:
                self.journeys += 1
                self.night_journeys += card.night
            elif card.kind == DANGER:
                self.dangers += 1
                self.swords += card.swords
            for t in range(5):
                tags[t] += card.tags[t]
        self.tags = tags
        self.quest_points = self.quests_completed = 0
        for c in holding:
            card = cards[c]
            if card.kind != CHARACTER or card.quest is None:
                continue
            if card.quest_per_set:
                sets = min(tags[t] // card.quest[t] for t in range(5) if card.quest[t])
                self.quest_points += sets * card.quest_points
                self.quests_completed += sets
            elif all(tags[t] >= card.quest[t] for t in range(5)):
                self.quest_points += card.quest_points
                self.quests_completed += 1


def prize_points(prize: str, me: Holding, night_counts: Sequence[int], seat: int) -> int:
    """One Night character's prize for its owner (choices taken best for the owner)."""
    if prize == "skutt":
        others = [n for p, n in enumerate(night_counts) if p != seat]
        return SKUTT_POINTS if all(me.night > n for n in others) else 0
    if prize == "wing_mother":
        return max(me.tags)
    if prize == "silver_knight":
        return max(me.events, me.journeys, me.dangers)
    if prize == "king_death":
        return me.swords
    if prize == "big_jock":
        return BIG_JOCK_POINTS * min(me.events, me.journeys, me.dangers)
    if prize == "tuvstarr":
        return TUVSTARR_POINTS * me.quests_completed
    if prize == "skogsra":
        return max(0, SKOGSRA_BASE - sum(me.tags))
    raise ValueError(f"unknown prize {prize!r}")


def score_holdings(holdings: Sequence[Sequence[int]], cards: CardSet = CARDS
                   ) -> list[dict[str, int]]:
    """Per player, points per category of ``CATEGORIES`` (they sum to the player's score)."""
    counted = [Holding(h, cards) for h in holdings]
    dangers = danger_points([h.swords for h in counted])
    nights = [h.night for h in counted]
    out = []
    for seat, h in enumerate(counted):
        prizes = sum(prize_points(cards[c].prize, h, nights, seat)
                     for c in h.cards if cards[c].prize)
        out.append({
            "events": h.event_points,
            "journeys": journey_points(h.journeys, h.night_journeys),
            "dangers": dangers[seat],
            "themes": theme_points(h.tags),
            "quests": h.quest_points,
            "night_prizes": prizes,
        })
    return out


def state_holdings(st: BauerDraftState) -> list[list[int]]:
    """Per seat: tableau cards plus one entry per copy made."""
    out = [list(t) for t in st.tableau]
    for k, copier in enumerate(COPIER_CARDS):
        if st.copy_mode[k] == COPY_DONE and st.owner[copier] >= 0:
            out[st.owner[copier]].append(st.copy_target[k])
    return out


def state_breakdown(st: BauerDraftState) -> list[dict[str, float]]:
    parts = st._final if st._final is not None else st._compute_breakdown()
    return [{k: float(d[k]) for k in CATEGORIES} for d in parts]


def state_returns(st: BauerDraftState) -> list[float]:
    if st.kind != OVER:
        return [0.0] * st.n
    scores = st.scores()
    mode = st.game.options["reward"]
    if mode == "score":
        return scores
    if mode == "margin":
        return margin_rewards(scores)
    return rank_rewards(scores)
