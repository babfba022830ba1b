"""Every game's ``determinize(seat, rng)`` depends only on that seat's information.

IS-MCTS (``agents/search/ismcts.py``) samples its worlds with ``state.determinize(me, rng)``. If the
result depended on the true hidden cards (e.g. a re-dealt pool shuffled in the order the truth
holds it), the search would read the truth through its samples. So: re-sample a state once (a
position ``me`` cannot tell from the truth), then determinize the truth and the re-sample with
equal generators; the two results must be identical, hidden cards and state generator included.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from tablezoo import envs

SCALE = float(os.environ.get("TABLEZOO_ISMCTS_SCALE", "1"))
CASES = [
    ("bauer_trick_v0", {"episode": "deal"}),
    ("bauer_trick_v0", {"trump_selection": "forehand_on_four"}),
    ("bauer_draft_v0", {"num_players": 2}),
    ("bauer_draft_v0", {"num_players": 3}),
    ("bauer_draft_v0", {"num_players": 4}),
    ("bauer_draft_v0", {"num_players": 5}),
    ("bower_v0", {}),
    ("bower_v0", {"hands_public": False}),
    ("ethnos_v0", {"num_players": 2}),
    ("ethnos_v0", {"num_players": 4}),
    ("ethnos_v0", {"num_players": 6}),
]
GAMES = {"bauer_trick_v0": 30, "bauer_draft_v0": 30, "bower_v0": 20, "ethnos_v0": 4}
# every other registered game (a game added through its record), over its record's variants
OTHERS = [(name, options) for name in envs.ENVS if name not in GAMES
          for options in envs.VARIANTS[name]]
OTHER_GAMES = 20


def case_id(case: tuple[str, dict]) -> str:
    name, options = case
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def positions(name: str, options: dict, games: int, seed: int):
    """(state, seat) at the decisions of seeded random games (the state is live: use it now)."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_state(seed * 1000 + g)
        while not state.is_over():
            for p in state.acting_players():
                yield state, p
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))
                         for p in state.acting_players()})


@pytest.mark.parametrize("case", CASES + OTHERS, ids=case_id)
def test_determinize_of_a_resample_equals_determinize_of_the_truth(case):
    name, options = case
    games = max(1, round(GAMES.get(name, OTHER_GAMES) * SCALE))
    if name == "bauer_trick_v0" and "episode" not in options:
        games = max(1, games // 10)  # whole games of many deals: a tenth gives as many positions
    checked = 0
    for i, (state, me) in enumerate(positions(name, options, games, seed=7)):
        if name == "ethnos_v0" and i % 5:
            continue  # long games: every fifth decision is plenty
        resample = state.determinize(me, np.random.default_rng(10_000 + i))
        assert np.array_equal(resample.observe(me), state.observe(me))
        a = state.determinize(me, np.random.default_rng(i))
        b = resample.determinize(me, np.random.default_rng(i))
        assert a.to_dict() == b.to_dict(), (
            f"{name} {options}: determinize({me}) reads the truth at decision {i}")
        checked += 1
    assert checked >= min(100, 20 * games)


@pytest.mark.parametrize("case", CASES[:1] + CASES[2:3] + CASES[6:7] + CASES[8:9], ids=case_id)
def test_determinize_still_resamples_hidden_information(case):
    """The canonical order must not freeze the sample: different generators give different
    worlds somewhere (else the first test would pass for a determinize that re-samples nothing)."""
    name, options = case
    differs = 0
    for i, (state, me) in enumerate(positions(name, options, 2, seed=3)):
        if i > 40:
            break
        a = state.determinize(me, np.random.default_rng(1)).to_dict()
        b = state.determinize(me, np.random.default_rng(2)).to_dict()
        a.pop("rng", None)
        b.pop("rng", None)
        differs += a != b
    assert differs >= 20
