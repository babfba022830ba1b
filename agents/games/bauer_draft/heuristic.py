"""A rule-of-thumb player for ``bauer_draft``, reading only its own observation.

Strategy: every decision is "which cards end up in my tableau", so the agent keeps one estimate
``E(cards)`` of the final score a holding is heading for, and takes the option that raises it
most. ``E`` is the real scoring (Events, Journeys, Dangers, themes, quests, Night prizes) with the
rounds still to come folded in, because a greedy look at the current score undervalues
everything that pays off later:

- Journeys score on a convex curve, so ``E`` scores ``journeys + f`` on the (interpolated) curve,
  ``f`` being the Journeys I can still expect; a Journey is worth more the more I have.
- A theme scores only from 4 tags: below that its tags count with a smooth discount
  ``x * (x / 4) ** 2`` of the tags ``x`` I can expect, so the 3rd and 4th tag are worth most.
- Quests and the next Toyvik set count a share of their points, shrinking with each missing tag
  (zero when too few plays remain to finish them).
- Dangers are a race: my swords and each opponent's (their visible Day swords plus about half a
  sword per hidden Night card) get a noisy future, and ``E`` takes my mean Danger points over a
  fixed set of samples, so a sword is worth most where it decides first or second place.
- Night prizes score what they pay now plus a small future share; Skutt compares Night counts.

On top of ``E``, a Day character played now is credited with its one-off effect (Brother Martin
and Olle play central cards, Ville an extra card, the Yule Goat a final card, copiers a copy),
priced with ``avg``: the mean gain of a card I have not seen (what a central card is worth).
Daga's deferred ability replaces a weak card by two central cards when ``2 * avg`` beats the best
pick clearly; on play she discards the tableau card whose loss is smallest when that wins enough.
Ville is used when the second card is worth more than losing Ville (his quest). The Witch moves
the piles toward the pile whose known cards (those I passed onto it) are best. Copiers copy now
when the best copy beats what a later card is expected to give, and accept a later card when its
copy is worth enough for the rounds left. Only observation pieces are used (opponents' Night
cards are seen as counts only; the engine state, when given, only names the game's layout). Ties
(values within 1e-9) are broken by the agent's own generator; ``tie_break="first"`` takes the
first tied option in the agent's scan order instead (no draws), as ``compiled_heuristic.py``
beside this does for a batch.

Tuning: the rates of ``Weights``, ``effect_scale`` and ``denial`` are constructor keywords, so
``heuristic:journey_rate=0.3`` works in the command-line tools. Measured in seeded duplicate
tournaments against the defaults (300-600 games, 3 and 4 players): no single rate change was
clearly better (all within about +-0.06 mean rank reward); halving the effect credits lost 0.11
to 0.15, 1.5x gained +0.02 to +0.04 (adopted); charging a card by what the best passed card is
worth to the left neighbour (``denial`` 0.3 / 0.7) did not help (-0.00 to -0.05), so it is off.
Strength (seed 0, one heuristic seat against random seats, 400 games per player count): mean
rank reward +0.90 / +0.91 / +0.91 / +0.88 and win rate 95% / 93% / 98% / 97% with 2 / 3 / 4 / 5
players; with 3 players it also beats ``search:rollouts=64`` (+0.65 vs +0.27 over 90 games).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids, only_noop
from tablezoo.envs.bauer_draft.actions import (
    COPY,
    COPY_CHOICE,
    COPY_DECLINE,
    COPY_LATER,
    COPY_OFFER,
    DAGA,
    DAGA_KEEP,
    DAGA_PLAY,
    DISCARD,
    MARTIN,
    NO_VILLE,
    NUM_ACTIONS,
    OLLE,
    OLLE_VILLE,
    PLAY,
    SELECT,
    SELECT_VILLE,
    WITCH,
    WITCH_LEFT,
    WITCH_NONE,
    WITCH_RIGHT,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.components import CARDS, DANGER, EVENT, JOURNEY, NUM_CARDS
from tablezoo.envs.bauer_draft.observation import build_obs_spec
from tablezoo.envs.bauer_draft.scoring import JOURNEY_POINTS
from tablezoo.envs.core.game import State

# --- card facts as plain lists (fast in the scoring loop) ------------------------------------
KIND = [int(k) for k in CARDS.kind]
NIGHT = [bool(x) for x in CARDS.night]
POINTS = [int(x) for x in CARDS.points]
SWORDS = [int(x) for x in CARDS.swords]
TAGS = [tuple(int(t) for t in row) for row in CARDS.tags]
PRIZE = [c.prize for c in CARDS.cards]
QUEST = [c.quest for c in CARDS.cards]
QUEST_POINTS = [c.quest_points for c in CARDS.cards]
QUEST_PER_SET = [c.quest_per_set for c in CARDS.cards]
EFFECT = [c.effect for c in CARDS.cards]
VILLE = CARDS.effect_card["ville"]
DAGA_CARD = CARDS.effect_card["daga"]
COPIER_CARDS = tuple(CARDS.effect_card[e] for e in ("bella", "adventure_boy", "humpe"))
ELIGIBLE = (
    [not NIGHT[c] and KIND[c] == EVENT for c in range(NUM_CARDS)],
    [not NIGHT[c] and KIND[c] in (JOURNEY, DANGER) for c in range(NUM_CARDS)],
    list(NIGHT),
)
# Night cards are hidden; a hidden Night card holds this many swords on average.
NIGHT_SWORDS = sum(SWORDS[c] for c in range(NUM_CARDS) if NIGHT[c]) / max(1, sum(NIGHT))

# --- tuning ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Weights:
    """The rule-of-thumb rates (per future play) and margins; constructor keywords of the agent."""

    journey_rate: float = 0.2   # Journeys I expect per future play
    tag_rate: float = 0.15      # tags of one theme I expect per future play
    sword_rate: float = 0.45    # swords per future play (25 swords over 55 cards)
    sword_sd: float = 0.9       # spread of the swords one play adds
    quest_share: float = 0.55   # share of a quest's points kept per missing tag
    prize_rate: float = 0.3     # what a counting Night prize gains per future play
    daga_margin: float = 1.5    # how much 2 central cards must beat the alternative for Daga


# what each rate counts (a count or a spread cannot be negative; a share lies in [0, 1])
NON_NEGATIVE = {"journey_rate": "Journeys expected per future play",
                "tag_rate": "tags of one theme expected per future play",
                "sword_rate": "swords expected per future play",
                "sword_sd": "the spread of the swords one play adds",
                "prize_rate": "what a counting Night prize gains per future play"}


def check_weights(weights: Weights) -> None:
    """Refuse rates outside their meaning by name, before any move (a negative ``journey_rate``
    used to fail inside the first move's Journey curve)."""
    for name, meaning in NON_NEGATIVE.items():
        value = getattr(weights, name)
        if not value >= 0:
            raise ValueError(f"bauer_draft heuristic: {name}={value!r}; expected a number >= 0 "
                             f"({meaning})")
    if not 0 <= weights.quest_share <= 1:
        raise ValueError(f"bauer_draft heuristic: quest_share={weights.quest_share!r}; expected "
                         "a number from 0 to 1 (the share of a quest's points kept per missing "
                         "tag)")


TIE_BREAKS = ("random", "first")  # how ``HeuristicAgent`` picks among equal values

_SAMPLES = np.random.default_rng(20261129).standard_normal((48, 5))  # fixed: deterministic E


def journey_curve(x: float) -> float:
    """Journey points of ``x`` Journeys, linear between whole counts (+4 each beyond 5)."""
    if x >= 5:
        return JOURNEY_POINTS[5] + 4.0 * (x - 5)
    lo = int(x)
    return JOURNEY_POINTS[lo] + (JOURNEY_POINTS[lo + 1] - JOURNEY_POINTS[lo]) * (x - lo)


def theme_curve(x: float) -> float:
    """Points of a theme heading for ``x`` tags: x from 4 tags, smoothly less below."""
    return x if x >= 4 else x * (x / 4.0) ** 2


class Evaluator:
    """``E(cards)``: the final score a holding is heading for, seen from one observation."""

    def __init__(self, obs: dict[str, np.ndarray], num_rounds: int, weights: Weights = Weights()):
        self.w = w = weights
        rnd = int(np.argmax(obs["round"]))
        self.rem = max(0, num_rounds - 1 - rnd)  # plays after the current round's
        tableau, copies = obs["tableau"], obs["copies"]
        self.mine = [int(c) for c in np.flatnonzero(tableau[0])]
        self.mine += [int(c) for c in np.flatnonzero(copies[0])]
        n = tableau.shape[0]
        self.n = n
        nights = obs["night_count"]
        self.other_nights = [float(nights[r]) for r in range(1, n)]
        rem = self.rem
        sd = w.sword_sd * np.sqrt(rem)
        # opponents' final swords: visible Day swords + hidden Night guess + a noisy future
        others = []
        for r in range(1, n):
            visible = [int(c) for c in np.flatnonzero(tableau[r])]
            visible += [int(c) for c in np.flatnonzero(copies[r])]
            day_swords = sum(SWORDS[c] for c in visible if not NIGHT[c])
            hidden = float(nights[r]) - sum(NIGHT[c] for c in visible)
            others.append(day_swords + hidden * NIGHT_SWORDS + rem * w.sword_rate
                          + (sd + 0.5 * np.sqrt(max(hidden, 0.0))) * _SAMPLES[:, r])
        self.other_swords = np.stack(others, axis=1) if others else np.zeros((48, 0))
        self.other_top = self.other_swords.max(axis=1)
        self.my_noise = rem * w.sword_rate + sd * _SAMPLES[:, 0]
        self.visible_cards = set(int(c) for c in np.flatnonzero(tableau.sum(axis=0)))
        self._cache: dict[tuple[int, ...], float] = {}
        # the Danger value depends on my sword total only: many holdings share one
        self._danger_cache: dict[int, float] = {}

    # -- the estimate --------------------------------------------------------------------------
    def __call__(self, cards: list[int]) -> float:
        key = tuple(sorted(cards))
        value = self._cache.get(key)
        if value is None:
            value = self._estimate(cards)
            self._cache[key] = value
        return value

    def _estimate(self, cards: list[int]) -> float:
        rem = self.rem
        tags = [0, 0, 0, 0, 0]
        events = event_points = journeys = night_journeys = dangers = swords = nights = 0
        for c in cards:
            kind = KIND[c]
            if NIGHT[c]:
                nights += 1
            if kind == EVENT:
                events += 1
                event_points += POINTS[c]
            elif kind == JOURNEY:
                journeys += 1
                night_journeys += NIGHT[c]
            elif kind == DANGER:
                dangers += 1
                swords += SWORDS[c]
            for t, k in enumerate(TAGS[c]):
                tags[t] += k
        total = float(event_points)
        total += journey_curve(journeys + self.w.journey_rate * rem) + night_journeys
        total += self._danger(swords)
        if rem:
            future_tags = self.w.tag_rate * rem
            total += sum(theme_curve(t + future_tags) for t in tags)
        else:
            total += sum(t for t in tags if t >= 4)
        quests = 0.0
        for c in cards:
            quest = QUEST[c]
            if quest is None:
                continue
            quests += self._quest(quest, QUEST_POINTS[c], QUEST_PER_SET[c], tags)
        total += quests
        for c in cards:
            prize = PRIZE[c]
            if prize is None:
                continue
            total += self._prize(prize, tags, events, journeys, dangers, swords, nights, quests)
        return total

    def _quest(self, quest: tuple[int, ...], points: int, per_set: bool,
               tags: list[int]) -> float:
        rem = self.rem
        if per_set:
            sets = min(tags[t] // quest[t] for t in range(5) if quest[t])
            missing = sum(1 for t in range(5) if quest[t] and tags[t] < (sets + 1) * quest[t])
            partial = points * self.w.quest_share ** missing if rem * 1.5 >= missing else 0.0
            return sets * points + partial
        missing = sum(max(0, quest[t] - tags[t]) for t in range(5))
        if missing == 0:
            return float(points)
        if rem * 1.5 < missing:
            return 0.0
        return points * self.w.quest_share ** missing

    def _prize(self, prize: str, tags: list[int], events: int, journeys: int, dangers: int,
               swords: int, nights: int, quests: float) -> float:
        future = self.w.prize_rate * self.rem
        if prize == "skutt":
            lead = nights - max(self.other_nights, default=0.0)
            if self.rem == 0:
                return 6.0 if lead > 0 else 0.0
            return 6.0 * min(1.0, max(0.0, 0.35 + 0.2 * lead))
        if prize == "wing_mother":
            return max(tags) + future
        if prize == "silver_knight":
            return max(events, journeys, dangers) + future
        if prize == "king_death":
            return swords + future
        if prize == "big_jock":
            return 3.0 * min(events, journeys, dangers) + future
        if prize == "tuvstarr":
            return 2.0 * quests / 3.0  # about 2 per quest (quests average ~3 points)
        if prize == "skogsra":
            return max(0.0, 13.0 - sum(tags) - 0.8 * self.rem)
        return 0.0

    def _danger(self, swords: int) -> float:
        """My mean Danger points over the fixed samples of everyone's final swords."""
        value = self._danger_cache.get(swords)
        if value is None:
            value = self._danger_cache[swords] = self._danger_points(swords)
        return value

    def _danger_points(self, swords: int) -> float:
        if swords == 0 and self.rem == 0:
            return 0.0
        mine = swords + self.my_noise
        if self.rem == 0:
            mine = np.full(len(mine), float(swords))
        others = self.other_swords
        top = self.other_top
        first = mine > top
        points = np.where(first, 12.0, 0.0)
        tie = mine == top
        if tie.any():
            k = 1 + (others == mine[:, None]).sum(axis=1)
            points = np.where(tie, np.ceil(18.0 / k), points)
        below = mine < top
        if below.any():
            # second place: mine is the highest value under the top
            under = np.where(others < top[:, None], others, -np.inf).max(axis=1)
            second = below & (mine >= under)
            k2 = 1 + (others == mine[:, None]).sum(axis=1)
            points = np.where(second, np.ceil(6.0 / k2), points)
        points = np.where(mine > 0, points, 0.0)
        return float(points.mean())

    # -- derived values -----------------------------------------------------------------------
    def gain(self, base: list[int], card: int) -> float:
        """What adding ``card`` to ``base`` adds to ``E``."""
        return self(base + [card]) - self(base)

    def loss(self, base: list[int], card: int) -> float:
        """What removing ``card`` (and a copy of it) from ``base`` costs."""
        rest = [c for c in base if c != card]
        return self(base) - self(rest)


class HeuristicAgent(BaseAgent):
    """Greedy on an estimate of the final score; prices effects with the mean unseen card."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, journey_rate: float = 0.2, tag_rate: float = 0.15,
                 sword_rate: float = 0.45, sword_sd: float = 0.9, quest_share: float = 0.55,
                 prize_rate: float = 0.3, daga_margin: float = 1.5, denial: float = 0.0,
                 effect_scale: float = 1.5, tie_break: str = "random"):
        super().__init__(seed)
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"bauer_draft heuristic: tie_break={tie_break!r}; expected one of "
                             f"{', '.join(map(repr, TIE_BREAKS))} (a draw of the agent's "
                             "generator, or the first tied option in scan order)")
        self.tie_break = tie_break
        self.weights = Weights(
            journey_rate=journey_rate, tag_rate=tag_rate, sword_rate=sword_rate,
            sword_sd=sword_sd, quest_share=quest_share, prize_rate=prize_rate,
            daga_margin=daga_margin)
        check_weights(self.weights)
        self.denial = float(denial)
        self.effect_scale = float(effect_scale)
        self._specs = {}
        for n in (2, 3, 4, 5):  # rules spec §3: 10 rounds, 8 with 5 players
            rounds = 8 if n == 5 else 10
            spec = build_obs_spec(n, rounds)
            self._specs[spec.size] = (spec, rounds, n)

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        if only_noop(action_mask, NUM_ACTIONS):
            return NUM_ACTIONS
        legal = [int(a) for a in legal_ids(action_mask[:NUM_ACTIONS])]
        if len(legal) == 1:
            return legal[0]
        if state is not None:
            spec, rounds = state.game.obs_spec, state.game.num_rounds
        else:  # the observation's length tells the player count
            found = self._specs.get(len(observation))
            if found is None:
                sizes = ", ".join(f"{size} ({n} players)"
                                  for size, (_, _, n) in self._specs.items())
                raise ValueError(f"bauer_draft heuristic: an observation of shape "
                                 f"{np.shape(observation)}; bauer_draft observations have "
                                 f"size {sizes}")
            spec, rounds, _ = found
        obs = spec.split(np.asarray(observation, dtype=np.float32))
        self._obs = obs
        self._eval = Evaluator(obs, rounds, self.weights)
        self._avg: float | None = None
        self._left: Evaluator | None = None
        self._rounds = rounds
        phase = int(np.argmax(obs["phase"]))
        if phase in (SELECT, MARTIN, OLLE, YULE):
            return self._pick(legal, phase)
        if phase in (SELECT_VILLE, OLLE_VILLE, YULE_VILLE):
            return self._ville(legal)
        if phase == WITCH:
            return self._witch(legal)
        if phase == DAGA:
            return self._daga(legal)
        if phase == COPY_CHOICE:
            return self._copy_choice(legal)
        if phase == COPY_OFFER:
            return self._copy_offer(legal)
        return self._best(legal, [0.0] * len(legal))

    # -- helpers ------------------------------------------------------------------------------
    def _best(self, options: list[int], values: list[float]) -> int:
        top = max(values)
        ties = [a for a, v in zip(options, values) if v >= top - 1e-9]
        if len(ties) == 1 or self.tie_break == "first":
            return ties[0]
        return ties[int(self.rng.integers(len(ties)))]

    def _central(self) -> int:
        return round(float(self._obs["central_size"][0]))

    def avg_unseen(self) -> float:
        """Mean gain of a card I have not seen (the expected worth of a central card)."""
        if self._avg is None:
            obs, ev = self._obs, self._eval
            seen = np.zeros(NUM_CARDS, bool)
            seen |= obs["tableau"].sum(axis=0) > 0
            seen |= obs["discards"] > 0
            seen |= obs["hand"] > 0
            seen |= obs["passed"].sum(axis=0) > 0
            unseen = np.flatnonzero(~seen)
            if unseen.size == 0:
                self._avg = 0.0
            else:
                self._avg = float(np.mean([ev.gain(ev.mine, int(c)) for c in unseen]))
        return self._avg

    def effect_bonus(self, base: list[int], card: int) -> float:
        """One-off worth of a Day character's effect when it is played now."""
        effect = EFFECT[card]
        if effect is None or NIGHT[card]:
            return 0.0
        rem = self._eval.rem
        central = self._central()
        if effect == "martin":
            return self.avg_unseen() if central else 0.0
        if effect == "olle":
            return 1.25 * self.avg_unseen() if central else 0.0
        if effect == "yule":
            return 1.25 * self.avg_unseen()
        if effect == "ville":
            return self.avg_unseen() if rem > 0 else 0.0
        if effect == "daga":
            return 1.5 if central else 0.0
        if effect == "witch":
            return 0.5 if rem > 0 else 0.0
        if effect in ("bella", "adventure_boy", "humpe"):
            k = ("bella", "adventure_boy", "humpe").index(effect)
            ev = self._eval
            now = [ev.gain(base, c) for c in base if ELIGIBLE[k][c]]
            later = min(3.0, 0.5 * rem)
            return max(now + [later])
        return 0.0

    def passing_cost(self, kept: int, plays: list[int]) -> float:
        """What the best card I pass is worth to my left neighbour, who draws it next round."""
        if self._left is None:
            obs = self._obs
            rolled = {key: np.roll(obs[key], -1, axis=0)
                      for key in ("tableau", "copies", "night_count")}
            rolled["round"] = obs["round"]
            self._left = Evaluator(rolled, self._rounds, self.weights)
        left = self._left
        passed = [a - PLAY for a in plays if a - PLAY != kept]
        return max((left.gain(left.mine, c) for c in passed), default=0.0)

    def card_value(self, base: list[int], card: int) -> float:
        bonus = self.effect_bonus(base, card)
        return self._eval.gain(base, card) + (self.effect_scale * bonus if bonus else 0.0)

    # -- decisions ----------------------------------------------------------------------------
    def _pick(self, legal: list[int], phase: int) -> int:
        """Select / Brother Martin / Olle / Yule Goat: the card worth most (or Daga's swap)."""
        base = self._eval.mine
        plays = [a for a in legal if a < DAGA_PLAY]
        values = [self.card_value(base, a - PLAY) for a in plays]
        if phase == SELECT and self.denial:
            values = [v - self.denial * self.passing_cost(a - PLAY, plays)
                      for a, v in zip(plays, values)]
        via = [a for a in legal if DAGA_PLAY <= a < DISCARD]
        if via:
            swap = min(2, self._central()) * self.avg_unseen()
            if swap - max(values) > self.weights.daga_margin:
                # every card here is weak: give up the one worth most to whoever gets it next
                worth = [self.card_value(base, a - DAGA_PLAY) for a in via]
                return self._best(via, worth)
        return self._best(plays, values)

    def _ville(self, legal: list[int]) -> int:
        """Second card with Ville (select, Olle or Yule Goat): worth more than losing Ville?"""
        ev = self._eval
        first = np.flatnonzero(self._obs["my_selection"][0])
        base = ev.mine + [int(c) for c in first]
        cost = ev.loss(base, VILLE) + 0.5
        plays = [a for a in legal if a < DAGA_PLAY]
        values = [self.card_value(base, a - PLAY) - cost for a in plays]
        options = [NO_VILLE] + plays
        scores = [0.0] + values
        via = [a for a in legal if DAGA_PLAY <= a < DISCARD]
        if via:
            swap = min(2, self._central()) * self.avg_unseen() - cost - self.weights.daga_margin
            options += via
            scores += [swap] * len(via)
        return self._best(options, scores)

    def _witch(self, legal: list[int]) -> int:
        """Move the piles so that the best known cards come to me (unknown piles: average)."""
        passed = self._obs["passed"]
        n = passed.shape[0]
        base = self._eval.mine
        # the pile that would lie in front of me: left move -> the right neighbour's (row n-1)
        rows = {WITCH_LEFT: n - 1, WITCH_RIGHT: 1, WITCH_NONE: 0}
        avg = self.avg_unseen()
        scores = []
        for a in legal:
            known = [int(c) for c in np.flatnonzero(passed[rows[a]])]
            best_known = max((self.card_value(base, c) for c in known), default=-np.inf)
            scores.append(max(best_known, 1.3 * avg) + (0.25 if a == WITCH_NONE else 0.0))
        return self._best(legal, scores)

    def _daga(self, legal: list[int]) -> int:
        """Daga on play: discard my least useful card for 2 central cards, if that wins enough."""
        ev = self._eval
        discards = [a for a in legal if DISCARD <= a < COPY]
        central = min(2, self._central())
        if not discards or central == 0:
            return DAGA_KEEP
        losses = [ev.loss(ev.mine, a - DISCARD) for a in discards]
        keep_value = self.weights.daga_margin if ev.rem > 0 else 0.0
        gains = [central * self.avg_unseen() - loss for loss in losses]
        if max(gains) > keep_value:
            return self._best(discards, gains)
        return DAGA_KEEP

    def _copy_choice(self, legal: list[int]) -> int:
        """Copy the best eligible card now unless a later one is expected to be worth more."""
        ev = self._eval
        copies = [a for a in legal if COPY <= a < COPY + NUM_CARDS]
        values = [ev.gain(ev.mine, a - COPY) for a in copies]
        later = min(3.0, 0.5 * ev.rem)
        if COPY_LATER in legal and (not copies or max(values) < later):
            return COPY_LATER
        return self._best(copies, values)

    def _copy_offer(self, legal: list[int]) -> int:
        """Accept the offered card as the copy when it is worth enough for the rounds left."""
        ev = self._eval
        offer = [a for a in legal if COPY <= a < COPY + NUM_CARDS]
        if not offer:
            return COPY_DECLINE
        value = ev.gain(ev.mine, offer[0] - COPY)
        return offer[0] if value >= min(3.0, 0.5 * ev.rem) else COPY_DECLINE
