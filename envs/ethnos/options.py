"""The Ethnos options (spec §12) and their value checks: the table ``EthnosGame`` is built from.

Every option names its default, its meaning and, where the spec leaves a value open, marks it
**(assumed)**; ``tablezoo docs`` prints this table for the README.
"""

from __future__ import annotations

from typing import Any

from tablezoo.envs.core.options import Option, int_range
from tablezoo.envs.ethnos.components import TRIBE_INDEX, TRIBES

MAX_DECISIONS_DEFAULT = 10000  # spec §10 bound: 3 Ages x (32 C + 5 n + 1) < 10000


def _int_list(length: int, low: int = 0):
    def check(value: Any) -> str | None:
        if (not isinstance(value, (list, tuple)) or len(value) != length
                or any(type(v) is not int or v < low for v in value)):
            return f"expected a list of {length} ints >= {low}"
        return None
    return check


def _increasing_spaces(value: Any) -> str | None:
    if (not isinstance(value, (list, tuple)) or not value
            or any(type(v) is not int or v < 1 for v in value)
            or list(value) != sorted(set(value))):
        return "expected a non-empty strictly increasing list of ints >= 1"
    return None


def _tribes_check(value: Any) -> str | None:
    if value is None:
        return None
    names = ", ".join(TRIBES)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        return f"expected None (random) or a list of tribe names from: {names}"
    low = [v.lower() for v in value]
    bad = [v for v in value if v.lower() not in TRIBE_INDEX]
    if bad:
        return f"unknown tribe name(s) {bad}; allowed names: {names}"
    if len(set(low)) != len(low):
        return "tribe names must be distinct"
    return None


def _marker_limit_check(value: Any) -> str | None:
    if value is None or (type(value) is int and value >= 3):
        return None
    return "expected None (unlimited) or an int >= 3 (26 in the physical game)"


OPTIONS: tuple[Option, ...] = (
    Option("num_players", 4, "number of players, an int 2-6", check=int_range(2, 6)),
    Option("tribes", None, "None: random tribes; or an explicit list of tribe names (6; 5 with "
           "2-3 players unless tribes_2_3p=6)", check=_tribes_check),
    Option("tribes_2_3p", 5, "tribes in play with 2-3 players (5 rulebook, 6 summary)",
           allowed=(5, 6)),
    Option("glory_tokens", "sg", "glory token set (assumed; impl)", allowed=("sg", "lu")),
    Option("band_glory", (0, 1, 3, 6, 10, 15), "band glory for scored sizes 1..6+, six ints >= 0",
           check=_int_list(6)),
    Option("orc_glory", (1, 3, 6, 10, 15, 21), "glory for emptying a horde of 1..6 markers, six "
           "ints (assumed; summary)", check=_int_list(6)),
    Option("merfolk_spaces", (3, 7, 12, 18), "Merfolk track marker spaces (assumed; summary)",
           check=_increasing_spaces),
    Option("merfolk_end", 18, "last Merfolk track space, an int 1-100 (>= every marker space)",
           check=int_range(1, 100)),
    Option("merfolk_slots_4_6", (1, 2, 4), "Merfolk slot values by Age with 4-6 players "
           "(assumed; summary)", check=_int_list(3)),
    Option("merfolk_slots_2_3", (1, 3), "Merfolk slot values by Age with 2-3 players "
           "(assumed; impl)", check=_int_list(2)),
    Option("merfolk_marker_per_space", True, "one free marker per Merfolk space reached "
           "(False: at most one per band) (assumed)", allowed=(True, False)),
    Option("giant_bonus_4_6", (2, 4, 6), "Giant end-of-Age bonus by Age, 4-6 players "
           "(assumed; summary)", check=_int_list(3)),
    Option("giant_bonus_2_3", (2, 5), "Giant end-of-Age bonus by Age, 2-3 players "
           "(assumed; impl)", check=_int_list(2)),
    Option("giant_claim_glory", 2, "glory for claiming the Giant token, an int >= 0",
           check=int_range(0)),
    Option("giant_troll_tiebreak", True, "Troll tokens break Giant bonus ties (False: the "
           "holder always wins, rulebook)", allowed=(True, False)),
    Option("centaur_requires_marker", False, "a Centaur follow-up band needs the Centaur band "
           "to have placed a marker (rulebook)", allowed=(False, True)),
    Option("troll_tiebreak", "summary", "Troll tie-break keys: 'summary' total, count, highest; "
           "'rulebook' total, highest", allowed=("summary", "rulebook")),
    Option("two_player_tie", "ii_only", "2p Age II full tie: floor(II/2) ('ii_only') or "
           "floor((I+II)/2) ('i_plus_ii')", allowed=("ii_only", "i_plus_ii")),
    Option("two_player_rule_merfolk", True, "apply the 2p Age II rule to the Merfolk track",
           allowed=(True, False)),
    Option("marker_limit", None, "None: unlimited markers; int: markers per player incl. the "
           "score marker (26 physical)", check=_marker_limit_check),
    Option("orc_auto_empty_final_age", False, "empty hordes automatically after the last Age",
           allowed=(False, True)),
    Option("empty_display_draw_two", False, "unofficial BGA variant: recruiting with an empty "
           "display draws 2", allowed=(False, True)),
    Option("auto_single_choice", False, "apply decisions with exactly one legal action "
           "automatically", allowed=(False, True)),
    Option("reward", "rank", "'rank' (zero-sum by final rank, ties broken per §8), 'score' "
           "(glory so far) or 'margin' (glory minus the best other)",
           allowed=("rank", "score", "margin")),
    Option("max_decisions", MAX_DECISIONS_DEFAULT,
           "truncate after this many decisions, an int >= 1 (spec bound 10000)",
           check=int_range(1)),
)


__all__ = ["MAX_DECISIONS_DEFAULT", "OPTIONS"]
