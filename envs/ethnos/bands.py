"""Playing a band in Ethnos (spec §4.2, §5): from the leader to the end of the turn.

Band resolution is a chain of small continuation functions (marker step -> leader's ability ->
Centaur follow-up -> discard -> Wizard draw -> end of turn); each takes the state, stops where a
player must decide (it sets ``s.phase``), and the matching action handler of ``EthnosState._do``
calls the next one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import (
    CENTAURS,
    DWARVES,
    ELVES,
    GIANTS,
    HALFLINGS,
    MERFOLK,
    MINOTAURS,
    NUM_KINGDOMS,
    ORCS,
    SKELETON,
    TROLLS,
    TYPE_COLOUR,
    TYPE_TRIBE,
    WINGFOLK,
    WIZARDS,
)  # fmt: skip
from tablezoo.envs.ethnos.scoring import GIANT_CLAIM_CAT, band_value, gain

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState

_TYPE_TRIBE = TYPE_TRIBE.tolist()
_TYPE_COLOUR = TYPE_COLOUR.tolist()


def clear_band_context(s: EthnosState) -> None:
    """Forget the band being resolved (only what is set: this runs on every turn)."""
    if s.cur_leader >= 0:
        s.band_leader_view[s.cur_leader] = 0
        s.cur_leader = -1
        s.cur_x = 0
        s.band_x_view[0] = 0
    s.cur_placed = False
    if s.merfolk_left:
        s.merfolk_left = 0
        s.merfolk_left_view[0] = 0
    if s.elf_n:
        s.elf_n = 0
        s.elf_kept[:] = 0
        s.elf_kept_view[0] = 0


def start_band(s: EthnosState, p: int, lead: int) -> None:
    s.log("leader", p, lead)
    s.hands[p, lead] -= 1
    s.hand_len[p] -= 1
    s.building[lead] += 1
    s.building_leader = lead
    s.building_len = 1
    s.building_cards = [lead]
    s.tribe_ok = True
    s.colour_ok = True
    s.phase = act.BUILD


def finish_band(s: EthnosState, p: int) -> None:
    """FINISH_BAND: the band becomes public, then §4.2 steps a-e run."""
    lead = s.building_leader
    x = s.building_len
    bc = s.building_cards
    cards = [lead, *sorted(bc[1:])]  # canonical order: leader, then by type
    s.bands[p].append(cards)
    s.log("band", p, lead, x)
    rest = s.building.copy()
    rest[lead] -= 1
    s.log_cards("band_card", p, rest)
    tribe = _TYPE_TRIBE[lead]
    skeletons = int(s.building[SKELETON])
    s.band_cards[p] += s.building
    s.band_leaders[p, lead] += 1
    s.band_tribe_size[p, tribe * 10 + x - 1] += 1
    scored = x - skeletons
    s.band_scored[p, scored - 1] += 1
    bonus = 1 if tribe == DWARVES else 0
    s.band_glory_col[p] += band_value(s.game.band_glory, scored + bonus)
    s.hand_size[p] -= x
    known = s.known[p]
    np.maximum(known - s.building, 0, out=known)
    s.building[:] = 0
    s.building_leader = -1
    s.building_len = 0
    s.cur_leader = lead
    s.cur_x = x
    s.cur_placed = False
    s.band_x_view[0] = x
    s.band_leader_view[lead] = 1
    marker_step(s, p)


def place(s: EthnosState, p: int, k: int) -> None:
    s.markers[p, k] += 1


def marker_step(s: EthnosState, p: int) -> None:
    lead = s.cur_leader
    tribe = _TYPE_TRIBE[lead]
    e = s.cur_x + (1 if tribe == MINOTAURS else 0)
    if tribe == HALFLINGS or not s.markers_available(p):
        pass
    elif tribe == WINGFOLK:
        if any(s.marker_test(p, k, e) for k in range(NUM_KINGDOMS)):
            s.phase = act.WINGFOLK_PICK
            return
    else:
        k = _TYPE_COLOUR[lead]
        if s.marker_test(p, k, e):
            place(s, p, k)
            s.cur_placed = True
    ability(s, p)


def ability(s: EthnosState, p: int) -> None:
    lead = s.cur_leader
    tribe = _TYPE_TRIBE[lead]
    x = s.cur_x
    if tribe == GIANTS:
        s.giant_plays.append((p, x))
        if s.giant_seat < 0 or x > s.giant_size:
            if s.giant_seat >= 0:
                s.giant_col[s.giant_seat] = 0
            s.giant_seat = p
            s.giant_size = x
            s.giant_col[p] = 1
            s.giant_size_view[0] = x
            gain(s, p, s.game.options["giant_claim_glory"], GIANT_CLAIM_CAT)
    elif tribe == ORCS:
        k = _TYPE_COLOUR[lead]
        if s.horde[p, k] == 0 and s.markers_available(p):
            s.horde[p, k] = 1
    elif tribe == MERFOLK:
        g = s.game
        old = int(s.merfolk[p])
        new = min(g.merfolk_end, old + x)
        passed = sum(1 for space in g.merfolk_spaces if old < space <= new)
        if not g.options["merfolk_marker_per_space"]:
            passed = min(passed, 1)
        s.merfolk[p] = new
        s.merfolk_left = passed
        s.merfolk_left_view[0] = passed
        next_merfolk(s, p)
        return
    elif tribe == TROLLS and any(s.troll_owner[v] < 0 for v in range(min(6, x))):
        s.phase = act.TROLL_PICK
        return
    after_ability(s, p)


def next_merfolk(s: EthnosState, p: int) -> None:
    if s.merfolk_left > 0 and s.markers_available(p):
        s.phase = act.MERFOLK_PICK
        return
    s.merfolk_left = 0
    s.merfolk_left_view[0] = 0
    after_ability(s, p)


def after_ability(s: EthnosState, p: int) -> None:
    """§4.2 c: a Centaur-led band may be followed by another band."""
    if _TYPE_TRIBE[s.cur_leader] == CENTAURS:
        can_follow = s.hand_len[p] - int(s.hands[p, SKELETON]) > 0
        if s.game.options["centaur_requires_marker"] and not s.cur_placed:
            can_follow = False
        if can_follow:
            s.phase = act.CENTAUR_PICK
            return
    discard(s, p)


def discard(s: EthnosState, p: int) -> None:
    """§4.2 d: the hand goes to the display; an Elf-led last band keeps up to X cards."""
    if _TYPE_TRIBE[s.cur_leader] == ELVES and s.hand_len[p] > 0:
        s.phase = act.ELF_PICK
        return
    s.log_cards("discard", p, s.hands[p])
    s.display += s.hands[p]
    s.hands[p] = 0
    s.hand_len[p] = 0
    s.hand_size[p] = 0
    s.known[p] = 0
    after_discard(s, p)


def finish_elf(s: EthnosState, p: int) -> None:
    rest = s.hands[p]
    s.log_cards("discard", p, rest)
    s.display += rest
    known = s.known[p]
    np.maximum(known - rest, 0, out=known)
    rest[:] = s.elf_kept
    s.hand_len[p] = s.elf_n
    s.hand_size[p] = s.elf_n
    s.elf_kept[:] = 0
    after_discard(s, p)


def after_discard(s: EthnosState, p: int) -> None:
    if _TYPE_TRIBE[s.cur_leader] == WIZARDS:
        s.phase = act.WIZARD_PICK
        return
    s.end_turn()
