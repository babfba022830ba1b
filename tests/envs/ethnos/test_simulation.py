"""Random simulation: 500 seeded games per player count with the issue's invariants.

Every step: cards conserved across deck, display, hands, band being built, Elf-kept cards, bands
and discards; Dragons conserved; hand never above 10; markers never removed; glory never
decreases; the mask is non-empty and the chosen legal action is accepted; an Age ends exactly
when the third Dragon is drawn. On sampled steps (cheap enough for the time budget): a random
unmasked action is rejected with the state unchanged, scores equal the breakdown sums, clone and
to_dict/from_dict round-trip, and every seat's observation is identical after ``determinize``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo.envs.core.errors import IllegalActionError
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES

GAMES = 500
SAMPLE_EVERY = 397  # deep checks on every 397th decision and at the end
LONGEST: dict[int, int] = {}


def _cards(s) -> np.ndarray:
    deck = np.bincount(np.asarray(s.deck, np.int64), minlength=DRAGON + 1)
    total = s.display + s.hands.sum(axis=0) + s.building + s.elf_kept + s.discard
    total = total + s.band_cards.sum(axis=0) + deck[:NUM_TYPES]
    return total, int(deck[DRAGON])


def _deep_checks(g, s, rng) -> None:
    scores = s.scores()
    assert [sum(b.values()) for b in s.score_breakdown()] == scores
    d = s.to_dict()
    restored = g.state_from_dict(json.loads(json.dumps(d)))
    assert restored.to_dict() == d
    clone = s.clone()
    assert clone.to_dict() == d
    for p in range(s.n):
        obs = s.observe(p)
        assert np.array_equal(restored.observe(p), obs)
        assert np.array_equal(clone.observe(p), obs)
        assert np.array_equal(s.determinize(p, rng).observe(p), obs)
    if s.is_over():
        return
    actor = s.acting_players()[0]
    mask = s.legal_mask(actor)
    illegal = np.flatnonzero(~mask)
    a = int(illegal[rng.integers(len(illegal))])
    with pytest.raises(IllegalActionError):
        s.step(a)
    assert s.to_dict() == d


def _play(g, seed: int, rng) -> int:
    s = g.new_state(seed)
    full = s.full
    prev_markers = s.markers.copy()
    prev_glory = s.glory.copy()
    step = 0
    while not s.is_over():
        actor = s.actor
        mask = s.legal_mask(actor)
        legal = np.flatnonzero(mask)
        assert len(legal) > 0
        a = int(legal[rng.integers(len(legal))])
        age, phase, dragons = s.age, s.phase, s.dragons
        s.step(a)
        step += 1
        cards, deck_dragons = _cards(s)
        assert np.array_equal(cards, full)
        assert max(s.hand_len) <= 10
        assert (s.markers >= prev_markers).all()
        assert (s.glory >= prev_glory).all()
        prev_markers[:] = s.markers
        prev_glory[:] = s.glory
        age_ended = s.age != age or s.terminal or (s.phase == enc.ORC_PICK
                                                   and phase != enc.ORC_PICK)
        if age_ended and phase != enc.ORC_PICK:
            # only a deck draw can end an Age, and only by drawing the third Dragon (with
            # auto_single_choice a forced RECRUIT_DECK of a later player may follow the action)
            assert dragons <= 2
            if not g.auto_single_choice:
                assert a in (enc.RECRUIT_DECK, enc.WIZARD_DRAW)
                assert s.third_drawer == actor
        if s.phase in (enc.ORC_PICK, enc.OVER):
            assert s.dragons == 3 and deck_dragons == 0
        else:
            assert s.dragons + deck_dragons == 3 and s.dragons <= 2
        if step % SAMPLE_EVERY == 0:
            _deep_checks(g, s, rng)
    assert s.is_terminal(), f"seed {seed} truncated after {s.decisions} decisions"
    _deep_checks(g, s, rng)
    return s.decisions


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games(n):
    g = EthnosGame(num_players=n)
    rng = np.random.default_rng(1000 + n)
    longest = 0
    for seed in range(GAMES):
        longest = max(longest, _play(g, seed, rng))
    LONGEST[n] = longest
    assert longest < g.max_decisions // 3, (n, longest)
    print(f"ethnos {n}p: {GAMES} games, longest {longest} decisions")


ALT_OPTIONS = {
    "tribes_2_3p": 6, "glory_tokens": "lu", "merfolk_marker_per_space": False,
    "giant_troll_tiebreak": False, "centaur_requires_marker": True, "troll_tiebreak": "rulebook",
    "two_player_tie": "i_plus_ii", "two_player_rule_merfolk": False, "marker_limit": 26,
    "orc_auto_empty_final_age": True, "empty_display_draw_two": True, "reward": "margin",
}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("auto", [False, True])
def test_random_games_alternative_options(n, auto):
    g = EthnosGame(num_players=n, auto_single_choice=auto, **ALT_OPTIONS)
    rng = np.random.default_rng(2000 + n)
    for seed in range(30):
        _play(g, seed, rng)


def test_random_games_fixed_tribes_all_twelve_covered():
    """Every tribe in play across fixed lists (each list used for 40 games, 4 players)."""
    lists = [["Centaurs", "Dwarves", "Elves", "Giants", "Halflings", "Merfolk"],
             ["Minotaurs", "Orcs", "Trolls", "Wingfolk", "Wizards", "Skeletons"]]
    for i, tribes in enumerate(lists):
        g = EthnosGame(num_players=4, tribes=tribes)
        rng = np.random.default_rng(3000 + i)
        for seed in range(40):
            _play(g, seed, rng)

