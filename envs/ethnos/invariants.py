"""The invariants of an Ethnos position (``EthnosState.check``): a loaded, built or played
position must pass them; ``StateFormatError`` names the first broken one.

Only invariants every position satisfies, also the hand-built positions the tests load (markers,
glory and tokens may be set freely there): card conservation, sizes, the pending decision and
the band it belongs to, tribe-dependent pieces, Troll and Giant tokens.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.core.game import require, short
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.components import (
    CENTAURS,
    DRAGON,
    ELVES,
    GIANTS,
    MERFOLK,
    NUM_DRAGONS,
    NUM_TYPES,
    ORCS,
    SKELETON,
    TRIBES,
    TROLLS,
    TYPE_TRIBE,
    WINGFOLK,
    WIZARDS,
)  # fmt: skip

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState

PHASE_TRIBE = {act.WINGFOLK_PICK: WINGFOLK, act.MERFOLK_PICK: MERFOLK,
                act.TROLL_PICK: TROLLS, act.CENTAUR_PICK: CENTAURS, act.ELF_PICK: ELVES,
                act.WIZARD_PICK: WIZARDS}


def legal_band(band: list[int]) -> bool:
    """True when a band's cards (Skeletons aside) share its leader's tribe or colour."""
    lead = band[0]
    rest = [c for c in band if c != SKELETON]
    same_tribe = all(TYPE_TRIBE[c] == TYPE_TRIBE[lead] for c in rest)
    same_colour = all(c % 6 == lead % 6 for c in rest)
    return same_tribe or same_colour


def check_state(s: EthnosState) -> None:
    """The invariants the rules imply for a position (``EthnosState.check``); raises
    ``StateFormatError`` naming the first broken one.

    Only invariants every position satisfies, also the hand-built positions the tests load
    (markers, glory and tokens may be set freely there): card conservation, sizes, the pending
    decision and the band it belongs to, tribe-dependent pieces, Troll and Giant tokens."""
    g = s.game
    n = s.n
    full = s.full
    deck_counts = np.bincount(np.asarray(s.deck, np.int64), minlength=DRAGON + 1)
    for what, zone in (("display", s.display), ("discard", s.discard), ("hands", s.hands),
                       ("building", s.building), ("elf_kept", s.elf_kept),
                       ("known", s.known)):
        require(bool((zone >= 0).all()), f"ethnos state: {what} holds a negative count")
    total = s.discard + s.display + s.hands.sum(axis=0) + s.building + s.elf_kept
    total = total + s.band_cards.sum(axis=0) + deck_counts[:NUM_TYPES]
    require(np.array_equal(total, full),
            "ethnos state: cards are not conserved: deck + display + hands + bands + discard "
            "must hold every card of the tribes in play exactly once")
    require(int(deck_counts[DRAGON]) == NUM_DRAGONS - s.dragons,
            f"ethnos state: the deck holds {int(deck_counts[DRAGON])} Dragons but {s.dragons} "
            "were revealed (3 in all)")
    require((s.dragons == 3) == (s.phase in (act.ORC_PICK, act.OVER)),
            "ethnos state: 3 Dragons are revealed exactly in the 'orc' and 'over' phases")
    require(0 <= s.lower_left <= len(s.deck),
            f"ethnos state: lower_left {s.lower_left} outside 0..{len(s.deck)}")
    # §3.4: the deck's upper part never holds a Dragon.
    require(DRAGON not in s.deck[s.lower_left:],
            "ethnos state: a Dragon lies above the bottom lower_left cards of the deck")
    require(0 <= s.decisions <= g.max_decisions,
            f"ethnos state: decisions {s.decisions} outside 0..{g.max_decisions}")
    # Hands: at most 10 cards (recruiting needs fewer than 10); known cards are in the hand.
    hand_len = [int(h.sum()) for h in s.hands]
    require(hand_len == s.hand_len, "ethnos state: hand lengths disagree with the hands")
    for p in range(n):
        held = s.hands[p]
        if p == s.actor and not s.terminal:
            held = held + s.building + s.elf_kept
        require(int(held.sum()) <= 10, f"ethnos state: player {p}'s hand holds more than 10 "
                "cards")
        require(bool((s.known[p] <= held).all()),
                f"ethnos state: player {p}'s known hand cards are not all in that hand")
    # Bands (§4.2): legal, at most 10 cards, with tribes in play.
    for p in range(n):
        for band in s.bands[p]:
            require(1 <= len(band) <= 10 and band[0] != SKELETON and legal_band(band),
                    f"ethnos state: band {short(band)} of player {p} is not a legal band")
    # The pending decision and the band it belongs to (§10).
    ph = s.phase
    if s.terminal:
        require(ph == act.OVER and s.actor == -1 and s.age == g.num_ages - 1,
                "ethnos state: the game ends after the last Age with no actor")
    else:
        require(0 <= s.actor < n, f"ethnos state: actor {s.actor} is not a seat")
    need_tribe = PHASE_TRIBE.get(ph)
    if need_tribe is not None:
        lead = s.cur_leader
        require(lead >= 0 and int(TYPE_TRIBE[lead]) == need_tribe,
                f"ethnos state: phase {act.PHASES[ph]} needs a {TRIBES[need_tribe]}-led band")
        last = s.bands[s.actor][-1] if s.bands[s.actor] else None
        require(last is not None and last[0] == lead and len(last) == s.cur_x,
                f"ethnos state: phase {act.PHASES[ph]} resolves the actor's last band "
                f"(leader {lead}, {s.cur_x} cards)")
    elif ph in (act.TURN, act.BUILD, act.ORC_PICK, act.OVER):
        require(s.cur_leader < 0 and s.cur_x == 0,
                f"ethnos state: no band is resolved in phase "
                f"{'over' if s.terminal else act.PHASES[ph]}")
    require(s.merfolk_left == 0 or ph == act.MERFOLK_PICK,
            "ethnos state: Merfolk free markers are placed only in the 'merfolk' phase")
    require(ph != act.MERFOLK_PICK or s.merfolk_left >= 1,
            "ethnos state: the 'merfolk' phase needs a free marker left")
    require(s.elf_n == 0 or ph == act.ELF_PICK,
            "ethnos state: Elf keeps happen only in the 'elf' phase")
    require(ph != act.ELF_PICK or (s.elf_n < s.cur_x and hand_len[s.actor] > 0),
            "ethnos state: the 'elf' phase ends once X cards are kept or the hand is empty")
    require(s.building_len == 0 or ph == act.BUILD,
            "ethnos state: band cards are set aside only while building")
    require((ph == act.BUILD) == (s.building_leader >= 0),
            "ethnos state: building.leader must be set exactly in the 'build' phase")
    if ph in (act.ORC_PICK, act.OVER):
        require(sum(hand_len) == 0, "ethnos state: hands are discarded at the end of an Age")
    if ph == act.ORC_PICK:
        require(len(set(s.orc_queue)) == len(s.orc_queue)
                and all(s.horde[p].sum() >= 1 for p in s.orc_queue),
                "ethnos state: the Orc queue lists distinct seats with horde markers")
    require((ph == act.ORC_PICK) == bool(s.orc_queue)
            and (not s.orc_queue or s.orc_queue[0] == s.actor),
            "ethnos state: orc_queue must be non-empty exactly in the 'orc' phase, actor first")
    # Scores: glory = sum of the breakdown, every part >= 0.
    for p in range(n):
        require(all(v >= 0 for v in s.breakdown[p]) and sum(s.breakdown[p]) == int(s.glory[p]),
                f"ethnos state: player {p}'s glory {int(s.glory[p])} must be the sum of its "
                "breakdown, every part >= 0")
    # Tribe-dependent pieces (§1.4) and the tokens of this Age.
    has = s.has
    require(has[MERFOLK] or not s.merfolk.any(), "ethnos state: Merfolk track without Merfolk")
    require(has[ORCS] or not s.horde.any(), "ethnos state: Orc hordes without Orcs")
    require(has[TROLLS] or all(o < 0 for o in s.troll_owner),
            "ethnos state: Troll tokens without Trolls")
    require(has[GIANTS] or (s.giant_seat < 0 and not s.giant_plays),
            "ethnos state: Giant token without Giants")
    giants = Counter((p, len(b)) for p in range(n) for b in s.bands[p]
                     if int(TYPE_TRIBE[b[0]]) == GIANTS)
    require(Counter(s.giant_plays) == giants,
            "ethnos state: giant_plays must list the Giant-led bands of this Age")
    require((s.giant_seat < 0) == (s.giant_size == 0)
            and (s.giant_seat < 0 or bool(s.giant_plays)),
            "ethnos state: the Giant token is held (with its band size) only after a Giant-led "
            "band")
    if s.giant_seat >= 0:  # §6.3 scoring looks for the holder's band of size giant_size
        require((s.giant_seat, s.giant_size) in s.giant_plays
                and s.giant_size == max(x for _p, x in s.giant_plays),
                f"ethnos state: the Giant token (player {s.giant_seat}, size {s.giant_size}) "
                "must lie on the largest Giant-led band, one of its holder's")
    if g.marker_limit is not None:
        for p in range(n):
            used = 1 + (1 if has[MERFOLK] else 0) + int(s.markers[p].sum())
            used += int(s.horde[p].sum())
            require(used <= g.marker_limit,
                    f"ethnos state: player {p} uses {used} markers; marker_limit "
                    f"{g.marker_limit}")
