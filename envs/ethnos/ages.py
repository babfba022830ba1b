"""The Ethnos Age cycle (spec §3, §6, §7): dealing an Age, its end and the next Age.

``start_age`` reshuffles and deals (the Dragons go into the lower half of the deck); the third
Dragon calls ``end_age``, which scores (``scoring``), asks the Orc decisions one seat at a time
(``next_orc``) and then ``finish_age`` scores the bands and starts the next Age or ends the game.
Each function takes the state as an argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos.bands import clear_band_context
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, ORCS, TROLLS
from tablezoo.envs.ethnos.scoring import ORC_CAT, gain, score_age, score_bands

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosState


def start_age(s: EthnosState, age: int) -> None:
    """§3: reshuffle every Ally, deal 1 card each and 2n to the display, insert Dragons."""
    n = s.n
    rng = s.rng
    s.age = age
    s.age_view[:] = 0
    s.age_view[age] = 1
    s.hands[:] = 0
    s.hand_len = [0] * n
    s.discard[:] = 0
    s.display[:] = 0
    s.bands = [[] for _ in range(n)]
    sf = s.seat_f
    cols, widths = s.game.seat_cols, s.game.seat_widths
    for name in ("known_hand", "band_cards", "band_leaders", "band_tribe_size",
                 "band_scored_size"):
        sf[:, cols[name]:cols[name] + widths[name]] = 0
    s.band_glory_col[:] = 0
    s.hand_size[:] = 0
    cards = np.repeat(np.arange(NUM_TYPES), s.full.astype(np.int64))
    deck = cards[rng.permutation(len(cards))].tolist()
    for p in range(n):
        c = deck.pop()
        s.hands[p, c] += 1
        s.hand_len[p] = 1
        s.hand_size[p] = 1
    for _ in range(2 * n):
        s.display[deck.pop()] += 1
    s.log_age()  # the Age's history starts with the dealt cards
    rest = len(deck)
    low = rest // 2
    lower = deck[:low] + [DRAGON] * 3
    lower = [lower[i] for i in rng.permutation(len(lower))]
    s.deck = lower + deck[low:]
    s.lower_left = low + 3
    s.dragons = 0
    s.dragons_view[0] = 0
    s.troll_owner = [-1] * 6
    s.trolls_held[:] = 0
    s.troll_supply[:] = 1 if s.has[TROLLS] else 0
    s.giant_seat = -1
    s.giant_size = 0
    s.giant_plays = []
    s.giant_col[:] = 0
    s.giant_size_view[0] = 0
    s.first_col[:] = 0
    s.first_col[s.first_player] = 1
    s.third_col[:] = 0
    s.actor = s.first_player
    s.phase = act.TURN
    clear_band_context(s)


def end_age(s: EthnosState) -> None:
    """§6 steps 1-5 (the Orc decisions may pause it); ``finish_age`` does the rest."""
    g = s.game
    n = s.n
    clear_band_context(s)
    s.discard += s.hands.sum(axis=0)
    s.hands[:] = 0
    s.hand_len = [0] * n
    s.hand_size[:] = 0
    s.known[:] = 0
    score_age(s)
    s.orc_queue = []
    if s.has[ORCS]:
        order = [(s.first_player + i) % n for i in range(n)]
        holders = [p for p in order if s.horde[p].sum() >= 1]
        if s.age == g.num_ages - 1 and g.options["orc_auto_empty_final_age"]:
            for p in holders:
                empty_horde(s, p)
        else:
            s.orc_queue = holders
    next_orc(s)


def next_orc(s: EthnosState) -> None:
    """§6 step 5: the next Orc horde holder decides, or the Age goes on to its end."""
    if s.orc_queue:
        s.actor = s.orc_queue[0]
        s.phase = act.ORC_PICK
        return
    finish_age(s)


def empty_horde(s: EthnosState, p: int) -> None:
    """ORC_EMPTY: seat ``p`` gains glory by its horde size and the markers leave the board."""
    count = int(s.horde[p].sum())
    gain(s, p, s.game.orc_glory[count - 1], ORC_CAT)
    s.horde[p] = 0


def finish_age(s: EthnosState) -> None:
    """§6 steps 6-8, then the next Age (§3.5 first player) or the end of the game (§8)."""
    g = s.game
    score_bands(s)
    s.troll_owner = [-1] * 6
    s.trolls_held[:] = 0
    s.troll_supply[:] = 1 if s.has[TROLLS] else 0
    s.giant_seat = -1
    s.giant_size = 0
    s.giant_col[:] = 0
    s.giant_size_view[0] = 0
    if s.age == g.num_ages - 1:
        s.terminal = True
        s.phase = act.OVER
        s.actor = -1
        return
    s.first_player = next_first_player(s)
    start_age(s, s.age + 1)


def next_first_player(s: EthnosState) -> int:
    """§3.5: least glory; ties clockwise from (and including) the third-Dragon drawer."""
    n = s.n
    least = min(s.glory.tolist())
    start = s.third_drawer if s.third_drawer >= 0 else 0
    for i in range(n):
        p = (start + i) % n
        if s.glory[p] == least:
            return p
    raise AssertionError("unreachable")
