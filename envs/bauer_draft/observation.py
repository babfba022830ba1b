"""Observation of ``bauer_draft``: the pieces (``build_obs_spec``) and the encoder that writes them.

Everything written depends only on what that seat has seen: its own hand, tableau, selection and
memory, the public Day cards, counts, discards and effect choices. Offsets are resolved once per
game so the hot path is a handful of index writes; the tableau and discard pieces are copied
from views the state keeps in step with its card lists (``rebuild_views`` recomputes them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bauer_draft.actions import KINDS, OVER, SELECT_VILLE
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    COPIER_CARDS,
    DAGA_CARD,
    NIGHT,
    NUM_CARDS,
    VILLE,
)
from tablezoo.envs.bauer_draft.effects import COPY_DONE, PLAYED_BY
from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

DAY_ROW = (~CARDS.night).astype(np.float32)


def build_obs_spec(num_players: int, num_rounds: int) -> ObsSpec:
    """The observation pieces; seats are relative: row 0 is me, row r the r-th seat after me."""
    n, c = num_players, NUM_CARDS
    return ObsSpec([
        ObsPiece("hand", (c,), "cards in my hand: the 3 drawn cards while selecting, or the "
                 "card(s) Brother Martin, Olle or the Yule Goat gave me to choose from"),
        ObsPiece("my_selection", (2, c), "row 0: the card I already chose to play in this "
                 "decision's first sub-step (shown while I answer a Ville sub-step); row 1: "
                 "the same card if chosen via Daga"),
        ObsPiece("tableau", (n, c), "cards I can see in each seat's tableau: all of mine, the "
                 "Day cards of the others (every card once the game is over)"),
        ObsPiece("copies", (n, c), "the card each seat's copier (Bella/Adventure Boy/Humpe) "
                 "copied, where visible (another seat's Humpe target is hidden until the end)"),
        ObsPiece("copiers", (n, 3, 3), "per seat and copier (Bella, Adventure Boy, Humpe) in "
                 "that seat's tableau: one-hot [no choice yet, copy later, copied]"),
        ObsPiece("night_count", (n,), "Night cards in each seat's tableau (a Humpe copy counts)",
                 high=float(c)),
        ObsPiece("night_by", (n, len(PLAYED_BY)), "Night cards in each seat's tableau by how "
                 "they were played (public): " + ", ".join(PLAYED_BY) + " (select = selected "
                 "from the hand, Ville included; a Humpe copy is not counted)", high=float(c)),
        ObsPiece("discards", (c,), "discarded cards (public, face up)"),
        ObsPiece("passed", (n, c), "cards I know were put on a pile (the ones I passed; Ville "
                 "when someone took him back), at the seat whose pile it is now"),
        ObsPiece("daga_available", (n,), "this seat can still use Daga's ability (deferred)"),
        ObsPiece("ville_ready", (n,), "this seat has Ville in its tableau from an earlier round"),
        ObsPiece("round", (num_rounds + 1,), "one-hot round; the last entry is the Yule Goat "
                 "stage after the final round"),
        ObsPiece("pile_size", (n,), "cards in the pile in front of each seat", high=12.0),
        ObsPiece("pile_shift", (n,), "one-hot k: the Witch has moved every pile k seats to the "
                 "left (net) since the deal"),
        ObsPiece("central_size", (1,), "cards left in the central deck", high=float(c)),
        ObsPiece("phase", (len(KINDS),), "one-hot decision kind: " + ", ".join(KINDS)),
        ObsPiece("decider", (n,), "seats that decide now"),
        ObsPiece("focus", (c,), "when I decide an effect: its character card, and the card "
                 "offered to a copy-later copier"),
    ])


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
        self.o_night_by = off["night_by"]
        self.o_disc = off["discards"]
        self.o_passed = off["passed"]
        self.o_daga = off["daga_available"]
        self.o_ville = off["ville_ready"]
        self.o_round = off["round"]
        self.o_pile = off["pile_size"]
        self.o_shift = off["pile_shift"]
        self.o_central = off["central_size"]
        self.o_phase = off["phase"]
        self.o_decider = off["decider"]
        self.o_focus = off["focus"]
        self.tab_slice = spec.slice("tableau")
        self.disc_slice = spec.slice("discards")
        n = self.n
        self.orders = [np.array([(p + r) % n for r in range(n)]) for p in range(n)]
        self.seats = np.arange(n)

    def encode(self, state: BauerDraftState, p: int, out: np.ndarray) -> None:
        out.fill(0.0)
        n, nc = self.n, NUM_CARDS
        kind = state.kind
        over = kind == OVER
        o = self.o_hand
        for c in state.hands[p]:
            out[o + c] = 1.0
        decider = state.decider
        if decider == p:
            if kind == SELECT_VILLE:
                c, via_daga = state.sel[p][0]
            elif state.first is not None:
                c, via_daga = state.first
            else:
                c = -1
            if c >= 0:
                out[self.o_sel + c] = 1.0
                if via_daga:
                    out[self.o_sel + nc + c] = 1.0
            if state.source >= 0:
                out[self.o_focus + state.source] = 1.0
            if state.offer >= 0:
                out[self.o_focus + state.offer] = 1.0
        # tableaux: rows in relative seat order, others' Night cards hidden until the end
        tab = out[self.tab_slice].reshape(n, nc)
        if over:
            state.tab_m.take(self.orders[p], axis=0, out=tab)
        else:
            state.tab_day.take(self.orders[p], axis=0, out=tab)
            tab[0] = state.tab_m[p]
        night = state.night_n
        counts = [night[(p + r) % n] for r in range(n)]
        owner = state.owner
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
                    counts[r] += 1
                    if r == 0 or over:
                        out[self.o_copies + r * nc + target] = 1.0
                else:
                    out[self.o_copies + r * nc + target] = 1.0
        out[self.o_night:self.o_night + n] = counts
        played_by, o, k = state.played_by, self.o_night_by, len(PLAYED_BY)
        for r in range(n):
            for c in state.tableau[(p + r) % n]:
                if NIGHT[c]:
                    out[o + r * k + played_by[c]] += 1.0
        out[self.disc_slice] = state.disc_m
        memory = state.memory[p]
        if memory:
            rel_of_pile = [0] * n
            for s, pile_id in enumerate(state.pile_ids):
                rel_of_pile[pile_id] = (s - p) % n
            o = self.o_passed
            for c, pile_id in memory.items():
                out[o + rel_of_pile[pile_id] * nc + c] = 1.0
        d = owner[DAGA_CARD]
        if d >= 0 and state.daga_available(d):
            out[self.o_daga + (d - p) % n] = 1.0
        v = owner[VILLE]
        if v >= 0 and state.ville_ready(v):
            out[self.o_ville + (v - p) % n] = 1.0
        out[self.o_round + state.round] = 1.0
        piles = state.piles
        o = self.o_pile
        for r in range(n):
            out[o + r] = len(piles[(p + r) % n])
        out[self.o_shift + (-state.pile_ids[0]) % n] = 1.0
        out[self.o_central] = len(state.central)
        out[self.o_phase + kind] = 1.0
        o = self.o_decider
        for s in state.acting:
            out[o + (s - p) % n] = 1.0


def rebuild_views(st: BauerDraftState) -> None:
    """Recompute the encoder's views from the card lists (after a load or re-sampling)."""
    st.tab_m.fill(0.0)
    st.disc_m.fill(0.0)
    for s, cards in enumerate(st.tableau):
        st.tab_m[s, cards] = 1.0
    np.multiply(st.tab_m, DAY_ROW, out=st.tab_day)
    for s, cards in enumerate(st.tableau):
        st.night_n[s] = sum(NIGHT[c] for c in cards)
    st.disc_m[st.discards] = 1.0


# --- the global state for centralised critics (full information) -----------------------------
def build_state_spec(num_players: int, num_rounds: int, pile_size: int) -> ObsSpec:
    """The full-information pieces; seats are absolute (row s is seat s)."""
    n, c = num_players, NUM_CARDS
    return ObsSpec([
        ObsPiece("hands", (n, c), "cards in each seat's hand (the drawn cards while selecting, "
                 "an effect's cards to choose from)"),
        ObsPiece("selection", (n, 2, c), "per seat, the card already chosen in this decision "
                 "(a select waiting for the Ville sub-step, or the first pick of Olle/Yule with "
                 "Ville): row 0 the card, row 1 the same card if chosen via Daga"),
        ObsPiece("tableau", (n, c), "every card in each seat's tableau, face-down Night cards "
                 "included"),
        ObsPiece("copies", (3, c), "the card each copier (Bella, Adventure Boy, Humpe) copied"),
        ObsPiece("copy_mode", (3, 3), "per copier: one-hot [no choice yet, copy later, copied]"),
        ObsPiece("piles", (n, c), f"the pile in front of each seat in order: 1 - depth / "
                 f"{pile_size} for each of its cards (the top card, drawn next, is 1)"),
        ObsPiece("central", (c,), f"the central deck in order: 1 - depth / {c} (top card 1)"),
        ObsPiece("discards", (c,), "discarded cards"),
        ObsPiece("passed", (n, c), "cards each seat remembers putting on a pile (its memory)"),
        ObsPiece("daga", (2,), "Daga's ability: ready (her on-play resolved), used"),
        ObsPiece("ville_ready", (n,), "this seat has Ville in its tableau from an earlier round"),
        ObsPiece("round", (num_rounds + 1,), "one-hot round; the last entry is the Yule Goat "
                 "stage after the final round"),
        ObsPiece("phase", (len(KINDS),), "one-hot decision kind: " + ", ".join(KINDS)),
        ObsPiece("acting", (n,), "seats that decide now"),
        ObsPiece("focus", (c,), "the character whose effect is decided, and the card offered "
                 "to a copy-later copier"),
    ])


def observe(st: BauerDraftState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """``player``'s observation, written by the game's ``Encoder``."""
    if out is None:
        out = st.game.obs_spec.zeros()
    st.game.encoder.encode(st, player, out)
    return out


def global_state(st: BauerDraftState, out: np.ndarray | None = None) -> np.ndarray:
    """The full-information state (``Game.state_spec``), written into ``out`` when given."""
    spec = st.game.state_spec
    if out is None:
        out = spec.zeros()
    else:
        out.fill(0.0)
    v = spec.split(out)
    n = st.n
    for s in range(n):
        v["hands"][s, st.hands[s]] = 1.0
        v["tableau"][s, st.tableau[s]] = 1.0
        for c, via in st.sel[s]:
            v["selection"][s, int(via), c] = 1.0
        pile = st.piles[s]  # the top card is at the end of the list
        v["piles"][s, pile] = 1.0 - np.arange(len(pile))[::-1] / st.game.pile_size
        v["passed"][s, list(st.memory[s])] = 1.0
    if st.first is not None:
        v["selection"][st.decider, int(st.first[1]), st.first[0]] = 1.0
    for k in range(3):
        v["copy_mode"][k, st.copy_mode[k]] = 1.0
        if st.copy_mode[k] == COPY_DONE:
            v["copies"][k, st.copy_target[k]] = 1.0
    central = st.central
    v["central"][central] = 1.0 - np.arange(len(central))[::-1] / NUM_CARDS
    v["discards"][st.discards] = 1.0
    v["daga"][:] = (st.daga_ready, st.daga_used)
    ville = st.owner[VILLE]
    if ville >= 0 and st.ville_ready(ville):
        v["ville_ready"][ville] = 1.0
    v["round"][st.round] = 1.0
    v["phase"][st.kind] = 1.0
    v["acting"][list(st.acting)] = 1.0
    for card in (st.source, st.offer):
        if card >= 0:
            v["focus"][card] = 1.0
    return out
