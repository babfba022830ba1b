"""Ethnos (CMON 2016) for 2-6 players, all twelve tribes: ``ethnos_v0``.

Rules: our binding specification (README.md beside this). Six random tribes (five with 2-3 players,
option ``tribes_2_3p``; fixed with ``tribes``); Ages with the three Dragons shuffled into the lower
half of the deck, the third Dragon ending the Age at once; turns recruit (display or deck, hand
limit 10) or play a band of one tribe or one colour with a leader (Skeletons wild), with the marker
test (2 players: against all markers), the leader's tribe power, the discard to the display;
end-of-Age scoring of kingdoms (Troll tie-breaks, floor-split ties, the 2-player Age II rule), the
Merfolk track, the Giant bonus, Orc hordes and bands (Skeletons removed, Dwarf bonus). 3 Ages with
4-6 players, 2 with 2-3.

Agents: any agent of ``agents/`` (the env is a standard PettingZoo AEC / parallel env).
Actions (289 + NOOP, spec §10): RECRUIT_DISPLAY[t] 0-66, RECRUIT_DECK 67, LEADER[t] 68-134,
ADD_CARD[t] 135-201, FINISH_BAND 202, KINGDOM[k] 203-208, TROLL[v] 209-214, CENTAUR_STOP 215,
ELF_KEEP[t] 216-282, ELF_DONE 283, WIZARD_DRAW/SKIP 284/285, ORC_EMPTY/KEEP 286/287, PASS 288.
Observation: seat-relative float32 pieces (public, per seat, private hand); see the README table.
Rewards: zero-sum rank reward at the end with the §8 tie-breaks (``reward="rank"``), or glory
(``"score"``) or glory margin (``"margin"``). Options: every option of spec §12, plus ``reward``
and ``max_decisions`` (default 10000, truncation).

Assumed rules: every ``(assumed)`` value and decision of the spec is listed in
``envs/ethnos/README.md`` (e.g. Troll token values 1-6, Merfolk spaces 3/7/12/18, Orc values
1/3/6/10/15/21, automatic Giant/Orc/Merfolk effects, obligatory Troll/Merfolk/Wingfolk choices,
PASS with ten Skeletons, unlimited markers by default).

Version history: v0, first release; rules review: ``third_dragon`` observation piece (spec §11),
PASS reveals the ten Skeletons, ``determinize`` re-samples another seat's hidden partial band.
Reliability: saved states are validated by ``State.check()`` (``invariants.check_state``);
read-only legal masks; a full-information global state (``observation.global_state``).
"""

from tablezoo.envs.ethnos.rules import EthnosGame

__all__ = ["EthnosGame"]
