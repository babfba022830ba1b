"""Writes one seat's observation (the pieces of ``encoding.build_obs_spec``) into a flat buffer.

Everything written depends only on what that seat has seen: its own hand, tableau, selection and
memory, the public Day cards, counts, discards and effect choices. Offsets are resolved once per
game so the hot path is a handful of index writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.bauer_draft.cards import NUM_CARDS
from envs.bauer_draft.encoding import DAY_ROW, OVER, SELECT_VILLE
from envs.bauer_draft.rules import COPIER_CARDS, COPY_DONE, DAGA_CARD, NIGHT, VILLE

if TYPE_CHECKING:
    from envs.bauer_draft.rules import BauerDraftGame, BauerDraftState


class Encoder:
    def __init__(self, game: BauerDraftGame):
        spec = game.obs_spec
        self.spec = spec
        self.n = game.num_players
        off = spec.offsets
        self.o_hand = off["hand"]
        self.o_sel = off["my_selection"]
        self.o_tab = off["tableau"]
        self.o_copies = off["copies"]
        self.o_copiers = off["copiers"]
        self.o_night = off["night_count"]
        self.o_disc = off["discards"]
        self.o_passed = off["passed"]
        self.o_daga = off["daga_available"]
        self.o_ville = off["ville_ready"]
        self.o_round = off["round"]
        self.o_pile = off["pile_size"]
        self.o_central = off["central_size"]
        self.o_phase = off["phase"]
        self.o_decider = off["decider"]
        self.o_focus = off["focus"]
        self.tab_slice = spec.slice("tableau")

    def encode(self, state: BauerDraftState, p: int, out: np.ndarray) -> None:
        out.fill(0.0)
        n, nc = self.n, NUM_CARDS
        over = state.kind == OVER
        for c in state.hands[p]:
            out[self.o_hand + c] = 1.0
        if state.decider == p and state.kind != OVER:
            if state.kind == SELECT_VILLE:
                picks = state.sel[p][:1]
            else:
                picks = [state.first] if state.first is not None else []
            for c, via_daga in picks:
                out[self.o_sel + c] = 1.0
                if via_daga:
                    out[self.o_sel + nc + c] = 1.0
        owner = state.owner
        tab = out[self.tab_slice].reshape(n, nc)
        night_counts = [0] * n
        for r in range(n):
            s = (p + r) % n
            row = tab[r]
            cards = state.tableau[s]
            if cards:
                row[cards] = 1.0
                if r and not over:
                    row *= DAY_ROW
            night_counts[r] = sum(NIGHT[c] for c in cards)
        for k, copier in enumerate(COPIER_CARDS):
            s = owner[copier]
            if s < 0:
                continue
            r = (s - p) % n
            mode = state.copy_mode[k]
            out[self.o_copiers + (r * 3 + k) * 3 + mode] = 1.0
            if mode == COPY_DONE:
                target = state.copy_target[k]
                if NIGHT[target]:
                    night_counts[r] += 1
                if r == 0 or over or not NIGHT[target]:
                    out[self.o_copies + r * nc + target] = 1.0
        out[self.o_night:self.o_night + n] = night_counts
        if state.discards:
            out[[self.o_disc + c for c in state.discards]] = 1.0
        memory = state.memory[p]
        known = np.flatnonzero(memory >= 0)
        if known.size:
            seat_of_pile = [0] * n
            for s, pile_id in enumerate(state.pile_ids):
                seat_of_pile[pile_id] = s
            for c in known.tolist():
                r = (seat_of_pile[memory[c]] - p) % n
                out[self.o_passed + r * nc + c] = 1.0
        d = owner[DAGA_CARD]
        if d >= 0 and state.daga_available(d):
            out[self.o_daga + (d - p) % n] = 1.0
        v = owner[VILLE]
        if v >= 0 and state.ville_ready(v):
            out[self.o_ville + (v - p) % n] = 1.0
        out[self.o_round + state.round] = 1.0
        for r in range(n):
            out[self.o_pile + r] = len(state.piles[(p + r) % n])
        out[self.o_central] = len(state.central)
        out[self.o_phase + state.kind] = 1.0
        for s in state.acting:
            out[self.o_decider + (s - p) % n] = 1.0
        if state.decider == p:
            if state.source >= 0:
                out[self.o_focus + state.source] = 1.0
            if state.offer >= 0:
                out[self.o_focus + state.offer] = 1.0
