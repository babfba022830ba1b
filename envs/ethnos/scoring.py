"""Pure scoring helpers of Ethnos (spec §1.6, §6.1, §6.3, §8): no state, easy to test alone."""

from __future__ import annotations

from collections.abc import Sequence

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
