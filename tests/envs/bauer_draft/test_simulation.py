"""Random simulation: 1,000 seeded games per player count, game-specific invariants every step.

Checked at every decision: all 55 cards in exactly one place (hands, piles, central deck,
tableaux, discards) and copies pointing into their owner's tableau; pile and hand sizes at every
select; one unmasked action rejected with the state unchanged; every card entering a tableau
comes from where the rules allow (the seat's own selected cards, or the central deck / an effect's
cards); the seat's play count matches its selections and effects. At the end: every pile holds 2
cards unless the Yule Goat took them; scores equal the breakdown sum. At one random decision per
game: clone and JSON round-trips.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo.envs.bauer_draft.actions import (
    DAGA_PLAY,
    MARTIN,
    NUM_ACTIONS,
    OLLE,
    OLLE_VILLE,
    SELECT,
    SELECT_VILLE,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.components import COPIER_CARDS
from tablezoo.envs.bauer_draft.effects import COPY_DONE
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.errors import IllegalActionError

GAMES = 1000
EXTRA_KINDS = (MARTIN, OLLE, OLLE_VILLE, YULE, YULE_VILLE)


def fingerprint(st) -> tuple:
    return (st.kind, st.decider, st.round, st.source, st.offer, st.first,
            tuple(map(tuple, st.hands)), tuple(map(tuple, st.piles)), tuple(st.central),
            tuple(st.discards), tuple(map(tuple, st.tableau)), tuple(st.copy_mode),
            tuple(st.copy_target), tuple(st.queue), st.daga_used, tuple(map(tuple, st.sel)),
            repr(st.memory), repr(st.tracked))


def locations(st) -> dict[int, tuple[str, int]]:
    where: dict[int, tuple[str, int]] = {}
    for s in range(st.n):
        for c in st.hands[s]:
            where[c] = ("hand", s)
        for c in st.piles[s]:
            where[c] = ("pile", s)
        for c in st.tableau[s]:
            where[c] = ("tableau", s)
    for c in st.central:
        where[c] = ("central", -1)
    for c in st.discards:
        where[c] = ("discard", -1)
    return where


def check_conservation(st) -> None:
    every = st.all_cards()
    assert len(every) == 55 and len(set(every)) == 55, "cards not conserved"
    for k, copier in enumerate(COPIER_CARDS):
        if st.copy_mode[k] == COPY_DONE:
            assert st.owner[st.copy_target[k]] == st.owner[copier] >= 0


def play_game(game: BauerDraftGame, seed: int) -> None:
    n = game.num_players
    st = game.new_state(seed)
    rng = np.random.default_rng(seed + 7919)
    deep_at = int(rng.integers(0, 40))
    selections = [0] * n   # cards played from the select hand (Daga swaps excluded)
    from_effects = [0] * n  # cards entering the tableau from the central deck / effect hands
    left_tableau = [0] * n
    expected_selections = [0] * n
    daga_picks: list[int] = []
    yule_pile = -1  # the pile the Yule Goat's owner took
    step = turns = 0
    while not st.is_terminal():
        check_conservation(st)
        if turns % 6 == 0:
            st.check()  # the rules' invariants hold at reachable positions
        turns += 1
        acting = st.acting_players()
        assert acting and step < game.max_decisions
        if st.kind == SELECT:
            size = game.pile_size - 3 - st.round
            assert all(len(p) == size for p in st.piles) and all(len(h) == 3 for h in st.hands)
        actions = {}
        for p in acting:
            mask = st.legal_mask(p)
            assert mask.any()
            actions[p] = int(rng.choice(np.flatnonzero(mask)))
        # one unmasked action is rejected and changes nothing
        p = acting[int(rng.integers(len(acting)))]
        bad = np.flatnonzero(~st.legal_mask(p))
        before = fingerprint(st)
        with pytest.raises(IllegalActionError):
            st.apply({**actions, p: int(rng.choice(bad)) if bad.size else NUM_ACTIONS})
        assert fingerprint(st) == before
        if step == deep_at:
            data = st.to_dict()
            assert st.clone().to_dict() == data
            restored = game.state_from_dict(json.loads(json.dumps(data)))
            assert restored.to_dict() == data
            for q in range(n):
                assert np.array_equal(restored.observe(q), st.observe(q))
        kind, where = st.kind, locations(st)
        if kind == YULE and yule_pile < 0:
            yule_pile = st.pile_ids[st.decider]
        old_tableau = [set(t) for t in st.tableau]
        if kind in (SELECT, SELECT_VILLE) + EXTRA_KINDS:
            for q, a in actions.items():
                if a < 2 * 55:  # a pick: played now, or swapped via Daga (then discarded)
                    if a >= DAGA_PLAY:
                        daga_picks.append(a - DAGA_PLAY)
                    elif kind in (SELECT, SELECT_VILLE):
                        expected_selections[q] += 1
        st.apply(actions)
        step += len(actions)
        for q in range(n):
            entered = set(st.tableau[q]) - old_tableau[q]
            left_tableau[q] += len(old_tableau[q] - set(st.tableau[q]))
            for c in entered:
                zone, seat = where[c]
                if zone == "hand" and kind in (SELECT, SELECT_VILLE):
                    assert seat == q, "a card entered a tableau from another seat's hand"
                    selections[q] += 1
                else:
                    assert zone in ("central", "hand"), f"card entered from {zone}"
                    if zone == "hand":
                        assert seat == q and kind in EXTRA_KINDS
                    from_effects[q] += 1
    check_conservation(st)
    st.check()
    # one selected card per round (+1 per Ville use, -1 per Daga swap), plus the effects' cards
    for q in range(n):
        assert selections[q] == expected_selections[q]
        assert st.plays[q] == selections[q] + from_effects[q]
        assert len(st.tableau[q]) == st.plays[q] - left_tableau[q]
    assert len(daga_picks) <= 1 and all(c in st.discards for c in daga_picks)
    for s, pile in enumerate(st.piles):  # the Witch may have moved the Yule Goat's pile
        assert len(pile) == (0 if st.pile_ids[s] == yule_pile else 2)
    scores, parts = st.scores(), st.score_breakdown()
    assert all(abs(sum(parts[q].values()) - scores[q]) < 1e-9 for q in range(n))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_the_invariants(n):
    game = BauerDraftGame(num_players=n)
    for seed in range(GAMES):
        play_game(game, seed)
