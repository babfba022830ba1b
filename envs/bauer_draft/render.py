"""Readable text table of a ``bauer_draft`` position (``render_mode="ansi"``).

The render is an omniscient debugging view: it shows every hand, Night card and pile size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.bauer_draft.actions import KINDS, OVER
from envs.bauer_draft.components import CARDS, COPIERS, card_codes

if TYPE_CHECKING:
    from envs.bauer_draft.rules import BauerDraftState

_MODES = ("-", "later", "copied")


def render_state(st: BauerDraftState) -> str:
    g = st.game
    last = g.num_rounds
    stage = "Yule Goat stage" if st.round >= last else f"round {st.round + 1}/{last}"
    lines = [f"bauer_draft  {g.num_players} players  {stage}  decision: {KINDS[st.kind]}"
             + (f" by seat {st.decider}" if st.decider >= 0 else "")
             + (f" ({CARDS[st.source].name})" if st.source >= 0 else "")]
    scores = st.scores()
    for s in range(st.n):
        night = [c for c in st.tableau[s] if CARDS.night_list[c]]
        day = [c for c in st.tableau[s] if not CARDS.night_list[c]]
        lines.append(f"seat {s}: score {scores[s]:g}  pile {len(st.piles[s])} "
                     f"(id {st.pile_ids[s]})  hand [{card_codes(st.hands[s])}]"
                     + (f"  selected {[CARDS.codes[c] + ('*' if v else '') for c, v in st.sel[s]]}"
                        if st.sel[s] else ""))
        lines.append(f"    day:   {card_codes(day)}")
        lines.append(f"    night: {card_codes(night)}")
    for k, name in enumerate(COPIERS):
        copier = CARDS.effect_card[name]
        if st.owner[copier] >= 0:
            target = CARDS.codes[st.copy_target[k]] if st.copy_target[k] >= 0 else ""
            lines.append(f"{CARDS[copier].name} (seat {st.owner[copier]}): "
                         f"{_MODES[st.copy_mode[k]]} {target}")
    lines.append(f"central deck {len(st.central)}  discards [{card_codes(st.discards)}]  "
                 f"Daga {'used' if st.daga_used else 'unused'}")
    if st.kind == OVER:
        lines.append("final scores: " + ", ".join(f"{x:g}" for x in scores))
    return "\n".join(lines)
