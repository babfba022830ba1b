"""Ethnos scoring (spec §1.6, §6, §8): glory, its breakdown, returns and the reward modes.

The first helpers are pure (no state, easy to test alone); the rest take the state as an argument:
the end-of-Age scoring of kingdoms, the Merfolk track, the Giant bonus and bands, and the final
ranking behind ``returns``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.core.game import margin_rewards, rank_rewards
from tablezoo.envs.ethnos.components import DWARVES, MERFOLK, NUM_KINGDOMS, SKELETON, TYPE_TRIBE

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState

CATEGORIES: tuple[str, ...] = ("kingdoms", "merfolk", "giant_claims", "giant_bonus", "orcs",
                               "bands")
KINGDOM_CAT, MERFOLK_CAT, GIANT_CLAIM_CAT, GIANT_BONUS_CAT, ORC_CAT, BAND_CAT = range(6)
_TYPE_TRIBE = TYPE_TRIBE.tolist()

TrollKey = tuple[int, ...]


def troll_key(values: Sequence[int], mode: str) -> TrollKey:
    """Tie-break key from the Troll tokens a player holds (higher key wins).

    ``"summary"``: total, then number of tokens, then highest token; ``"rulebook"``: total, then
    highest token.
    """
    total = sum(values)
    top = max(values) if values else 0
    if mode == "rulebook":
        return (total, top)
    return (total, len(values), top)


def rank_award(values: Sequence[int], keys: Sequence[TrollKey], slots: Sequence[int]) -> list[int]:
    """Algorithm R (§6.1): glory per player from ``values`` (markers or track positions).

    Players with value 0 are not ranked. Players are ordered by (value, Troll key), high first;
    players equal on both form a tie group that sums the slots it covers (slots past the end of
    ``slots`` count 0) and splits the sum rounded down.
    """
    n = len(values)
    award = [0] * n
    eligible = [p for p in range(n) if values[p] >= 1]
    eligible.sort(key=lambda p: (values[p], keys[p]), reverse=True)
    q = 0
    i = 0
    while i < len(eligible):
        j = i
        first = (values[eligible[i]], keys[eligible[i]])
        while j + 1 < len(eligible) and (values[eligible[j + 1]], keys[eligible[j + 1]]) == first:
            j += 1
        k = j - i + 1
        total = sum(slots[s] for s in range(q, q + k) if s < len(slots))
        for m in range(i, j + 1):
            award[eligible[m]] = total // k
        q += k
        i = j + 1
    return award


def age_slots(values_by_age: Sequence[int], age: int) -> list[int]:
    """Slot list S for Age ``age`` (0-based), best first.

    Age I [v1], Age II [v2, v1], Age III [v3, v2, v1].
    """
    return [values_by_age[a] for a in range(age, -1, -1)]


def two_player_age_two(
    values: Sequence[int], keys: Sequence[TrollKey], low: int, high: int, tie_rule: str
) -> list[int]:
    """The 2-player Age II rule (§6.1 step 5) with slot values ``low`` (I) and ``high`` (II).

    One eligible player gains I + II; two eligible: the winner gains II, the second nothing; a full
    tie gives each floor(II / 2) (``tie_rule="ii_only"``) or floor((I + II) / 2) (``"i_plus_ii"``).
    """
    eligible = [p for p in range(2) if values[p] >= 1]
    if len(eligible) == 1:
        return rank_award(values, keys, [low + high])
    if len(eligible) == 2 and (values[0], keys[0]) == (values[1], keys[1]):
        slots = [high, low] if tie_rule == "i_plus_ii" else [high]
        return rank_award(values, keys, slots)
    return rank_award(values, keys, [high])


def band_value(table: Sequence[int], size: int) -> int:
    """Band glory (§1.6) of a band of scored size ``size`` (>= 1); sizes past the table cap."""
    if size <= 0:
        return 0
    return table[min(size, len(table)) - 1]


def troll_keys(s: EthnosState) -> list[tuple[int, ...]]:
    """Per seat, the Troll tie-break key of the tokens held (option ``troll_tiebreak``)."""
    mode = s.game.options["troll_tiebreak"]
    held: list[list[int]] = [[] for _ in range(s.n)]
    for v, owner in enumerate(s.troll_owner):
        if owner >= 0:
            held[owner].append(v + 1)
    return [troll_key(h, mode) for h in held]


def giant_bonus_winner(s: EthnosState) -> int:
    """§6.3: among players with a Giant-led band of size M, the Troll keys, then the first to
    play size M (the holder, if he is among them)."""
    size = s.giant_size
    if not s.game.options["giant_troll_tiebreak"]:
        return s.giant_seat
    first_play: dict[int, int] = {}
    for i, (p, x) in enumerate(s.giant_plays):
        if x == size and p not in first_play:
            first_play[p] = i
    keys = troll_keys(s)
    return max(first_play, key=lambda p: (keys[p], -first_play[p]))


def gain(s: EthnosState, p: int, amount: int, category: int) -> None:
    """Seat ``p`` gains ``amount`` glory, counted in breakdown ``category``."""
    if amount:
        s.glory[p] += amount
        s.breakdown[p][category] += amount


def gain_all(s: EthnosState, award: list[int], category: int) -> None:
    for p, amount in enumerate(award):
        gain(s, p, amount, category)


def score_age(s: EthnosState) -> None:
    """§6 steps 2-4: the kingdoms, the Merfolk track and the Giant bonus (Algorithm R, §6.3)."""
    g = s.game
    n = s.n
    keys = troll_keys(s)
    age = s.age
    two_p_rule = n == 2 and age == 1
    markers = s.markers.astype(np.int64)
    for k in range(NUM_KINGDOMS):
        values = markers[:, k].tolist()
        toks = s.tokens[k]
        if two_p_rule:
            award = two_player_age_two(values, keys, toks[0], toks[1],
                                       g.options["two_player_tie"])
        else:
            award = rank_award(values, keys, age_slots(toks, age))
        gain_all(s, award, KINGDOM_CAT)
    if s.has[MERFOLK]:
        values = s.merfolk.astype(np.int64).tolist()
        slots = g.merfolk_slots
        if two_p_rule and g.options["two_player_rule_merfolk"]:
            award = two_player_age_two(values, keys, slots[0], slots[1],
                                       g.options["two_player_tie"])
        else:
            award = rank_award(values, keys, age_slots(slots, age))
        gain_all(s, award, MERFOLK_CAT)
    if s.giant_seat >= 0:
        gain(s, giant_bonus_winner(s), g.giant_bonus[age], GIANT_BONUS_CAT)


def score_bands(s: EthnosState) -> None:
    """§6 steps 6-7: every band scores its size after Skeleton removal (+1 if Dwarf-led)."""
    g = s.game
    n = s.n
    for p in range(n):
        total = 0
        for band in s.bands[p]:
            # Skeletons leave the band before scoring (they stay listed until the reshuffle).
            size = len(band) - band.count(SKELETON)
            size += 1 if _TYPE_TRIBE[band[0]] == DWARVES else 0
            total += band_value(g.band_glory, size)
        gain(s, p, total, BAND_CAT)


def score_breakdown(s: EthnosState) -> list[dict[str, float]]:
    """Per seat, glory by category (``CATEGORIES``)."""
    return [{c: float(v) for c, v in zip(CATEGORIES, row)} for row in s.breakdown]


def returns(s: EthnosState) -> list[float]:
    """Per seat, the reward of option ``reward``: rank (at the end), glory or glory margin."""
    mode = s.game.options["reward"]
    if mode == "score":
        return s.scores()
    if mode == "margin":
        return margin_rewards(s.scores())
    if not s.terminal:
        return [0.0] * s.n
    return rank_rewards(final_rank_values(s))


def final_rank_values(s: EthnosState) -> list[float]:
    """Per seat, a number whose order is the §8 ranking: glory, then markers in kingdoms,
    then final-Age band sizes (after Skeleton removal) compared largest first."""
    keys = []
    for p in range(s.n):
        sizes = sorted((len(b) - b.count(SKELETON) for b in s.bands[p]), reverse=True)
        keys.append((float(s.glory[p]), int(s.markers[p].sum()), sizes))
    longest = max((len(k[2]) for k in keys), default=0)
    full = [(k[0], k[1], tuple(k[2] + [0] * (longest - len(k[2])))) for k in keys]
    distinct = sorted(set(full))
    return [float(distinct.index(k)) for k in full]


def winners(s: EthnosState) -> list[int]:
    """The seats ranked first by §8 (all tied seats)."""
    values = final_rank_values(s)
    best = max(values)
    return [p for p in range(s.n) if values[p] == best]

