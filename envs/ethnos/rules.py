"""The Ethnos ``Game``: options (spec §12), derived per-player-count tables and precomputed masks.

The mutable position lives in ``envs.ethnos.state``; saving/loading in ``envs.ethnos.serialize``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envs.core.errors import InvalidOptionError
from envs.core.game import Game
from envs.core.options import Option, int_range
from envs.ethnos import encoding as enc
from envs.ethnos.components import (
    NUM_TRIBES,
    NUM_TYPES,
    SKELETON,
    SKELETONS,
    TRIBE_COUNTS,
    TRIBE_INDEX,
    TRIBES,
    TYPE_COLOUR,
    TYPE_TRIBE,
)  # fmt: skip

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


class EthnosGame(Game):
    """Ethnos for 2-6 players (``shared/rules/ethnos.md``); see ``envs.ethnos`` for the docs."""

    name = "ethnos"
    OPTIONS = OPTIONS

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        n = o["num_players"]
        self.num_players = n
        self.num_actions = enc.NUM_ACTIONS
        self.max_decisions = o["max_decisions"]
        self.auto_single_choice: bool = o["auto_single_choice"]
        self.marker_limit: int | None = o["marker_limit"]
        big = n >= 4
        self.num_ages = 3 if big else 2
        self.num_tribes = 6 if big or o["tribes_2_3p"] == 6 else 5
        self.slots_per_kingdom = 3 if big else 2
        self.merfolk_slots = tuple(o["merfolk_slots_4_6"] if big else o["merfolk_slots_2_3"])
        self.giant_bonus = tuple(o["giant_bonus_4_6"] if big else o["giant_bonus_2_3"])
        self.band_glory = tuple(o["band_glory"])
        self.orc_glory = tuple(o["orc_glory"])
        self.merfolk_spaces = tuple(o["merfolk_spaces"])
        self.merfolk_end = o["merfolk_end"]
        if self.merfolk_spaces[-1] > self.merfolk_end:
            raise InvalidOptionError(
                f"ethnos: merfolk_spaces {list(self.merfolk_spaces)} go past "
                f"merfolk_end={self.merfolk_end}; every space must be <= merfolk_end"
            )
        self.fixed_tribes: tuple[int, ...] | None = None
        if o["tribes"] is not None:
            fixed = tuple(sorted(TRIBE_INDEX[t.lower()] for t in o["tribes"]))
            if len(fixed) != self.num_tribes:
                raise InvalidOptionError(
                    f"ethnos: option tribes={list(o['tribes'])!r} names {len(fixed)} tribes; "
                    f"with {n} players and tribes_2_3p={o['tribes_2_3p']} exactly "
                    f"{self.num_tribes} are needed"
                )
            self.fixed_tribes = fixed
        # Own markers in one kingdom: a test placement needs E > own markers (3-6p) or > all
        # markers there (2p) with E <= 11 (Minotaur, X = 10), plus one per Merfolk space.
        markers_high = 11.0 + len(self.merfolk_spaces)
        self.obs_spec, widths = enc.build_obs_spec(n, markers_high, float(self.merfolk_end),
                                                   float(len(self.merfolk_spaces)))
        self._build_layout(widths)
        self._build_masks()

    # --- precomputation --------------------------------------------------------------------
    def _build_layout(self, widths: list[tuple[str, int]]) -> None:
        """Column offsets of the per-seat float block and the per-observer gather indices."""
        n = self.num_players
        self.seat_cols: dict[str, int] = {}
        self.seat_widths: dict[str, int] = dict(widths)
        col = 0
        for name, width in widths:
            self.seat_cols[name] = col
            col += width
        self.seat_width = col
        spec = self.obs_spec
        self.glob_size = spec.offsets[widths[0][0]]
        self.seat_start = self.glob_size
        self.seat_end = self.seat_start + n * col
        self.private_start = self.seat_end
        gather = np.zeros((n, n * col), np.int64)
        for p in range(n):
            pos = 0
            for name, width in widths:
                c0 = self.seat_cols[name]
                for rel in range(n):
                    q = (p + rel) % n
                    gather[p, pos:pos + width] = q * col + c0 + np.arange(width)
                    pos += width
        self.gather = gather
        self.acting_offset = spec.offsets["acting"]
        self.phase_offset = spec.offsets["phase"]
        self.deck_size_offset = spec.offsets["deck_size"]
        self.safe_top_offset = spec.offsets["deck_safe_top"]
        self.hand_slice = spec.slice("my_hand")
        self.building_slice = spec.slice("my_building")
        self.leader_slice = spec.slice("my_building_leader")
        self.elf_slice = spec.slice("my_elf_kept")
        self.private_rest = slice(self.building_slice.start, spec.size)
        self.glob_slices = {name: spec.slice(name) for name, *_ in enc.GLOBAL_PIECES}

    def _build_masks(self) -> None:
        """Per leader type: which card types may join its band by tribe / by colour."""
        t = np.arange(NUM_TYPES)
        self.same_tribe = np.zeros((NUM_TYPES, NUM_TYPES), bool)
        self.same_colour = np.zeros((NUM_TYPES, NUM_TYPES), bool)
        for lead in range(NUM_TYPES - 1):
            self.same_tribe[lead] = (TYPE_TRIBE[lead] == TYPE_TRIBE) & (t != SKELETON)
            self.same_colour[lead] = (TYPE_COLOUR[lead] == TYPE_COLOUR) & (t != SKELETON)
        self.skeleton_only = t == SKELETON

    # --- protocol --------------------------------------------------------------------------
    def composition(self, tribes: tuple[int, ...]) -> np.ndarray:
        """How many cards of each type the Ally deck of ``tribes`` holds."""
        return TRIBE_COUNTS[list(tribes)].sum(axis=0)

    def new_state(self, seed: int | np.random.Generator | None = None):
        from envs.ethnos.state import EthnosState

        return EthnosState.new(self, seed)

    def state_from_dict(self, data: Mapping[str, Any]):
        from envs.ethnos.serialize import state_from_dict

        return state_from_dict(self, data)

    def action_name(self, action: int) -> str:
        return enc.action_name(action)


__all__ = ["NUM_TRIBES", "OPTIONS", "SKELETONS", "EthnosGame"]
