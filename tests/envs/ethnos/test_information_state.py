"""The information state of ethnos (``State.information_state``,
``envs/ethnos/information_state.py``): the default observation and the current Age's events as the
seat saw them; nothing hidden, a function of what the seat saw, perfect recall within the Age,
saved and loaded."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.core.conformance import (
    check_information_state,
    check_perfect_recall,
    replay_information_state,
)
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos import information_state as history

PLAYERS = (2, 3, 4, 5, 6)


def _random_move(state, rng):
    (p,) = state.acting_players()
    state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))})


def _rows(state, seat):
    spec = state.game.information_state_spec
    rows = spec.split(state.information_state(seat))["history"]
    return [(history.KINDS[int(r[0]) - 1].name, int(r[1]), int(r[2]), int(r[3]))
            for r in rows if r[0]]


def test_layout_and_sizes():
    sizes = {}
    for n in PLAYERS:
        game = EthnosGame(num_players=n)
        spec = game.information_state_spec
        names = [p.name for p in spec.pieces]
        assert names == [*(p.name for p in game.obs_spec.pieces), "history", "history_dropped"]
        sizes[n] = game.information_state_size
        assert sizes[n] == game.obs_spec.size + history.ROWS * 4 + 1
    assert sizes == {2: 3712, 3: 4059, 4: 4406, 5: 4753, 6: 5100}


@pytest.mark.parametrize("n", PLAYERS)
def test_nothing_hidden_and_exact_copies(n):
    """At every decision of 4 random games (about 1,100 to 1,600 positions), determinize for one
    random seat keeps its information state bit for bit; every 80th decision every seat's, and
    clones and JSON round trips keep them."""
    game = EthnosGame(num_players=n)
    rng = np.random.default_rng(n)
    positions = 0
    for seed in range(4):
        state = game.new_state(seed)
        while not state.is_over():
            full = state.decisions % 80 == 0
            seats = None if full else [int(rng.integers(n))]
            check_information_state(game, seed, state.decisions, state, rng, seats, full)
            positions += 1
            _random_move(state, rng)
    assert positions > 1000


@pytest.mark.parametrize("n", (2, 4))
def test_a_function_of_what_the_seat_saw(n):
    """A world re-sampled for the seat (the other hands, the deck and the Dragons' places)
    follows the seat's history: the others' hidden deck draws are other cards there; every
    decision of the common history gives equal information states."""
    game = EthnosGame(num_players=n)
    rng = np.random.default_rng(11)
    replayed = 0
    for seed in range(12):
        for start in (0, 30, 120):
            replayed += replay_information_state(game, seed, seed % n, start, rng)[0]
    assert replayed > 100


@pytest.mark.parametrize("n", (2, 4))
def test_perfect_recall_on_sampled_continuations(n):
    game = EthnosGame(num_players=n)
    rng = np.random.default_rng(3)
    lossy = hidden = 0
    for seed in range(4):
        state = game.new_state(seed)
        for _ in range(int(rng.integers(0, 80))):
            _random_move(state, rng)
        a, b = check_perfect_recall(game, state, 0, rng, 120, 12)
        lossy, hidden = lossy + a, hidden + b
    assert lossy > 0 and hidden > 0


def test_a_pair_the_default_observation_cannot_tell_apart():
    """Two display recruits of the observer in the other order (the other seat recruiting the
    same card in between): the same hands, display and known cards, so the default observations
    agree; the information states tell the orders apart."""
    game = EthnosGame(num_players=2)
    found = 0
    for seed in range(20):
        start = game.new_state(seed)
        me = start.actor
        shown = np.flatnonzero(start.display)
        if len(shown) < 3:
            continue
        x, y, z = (int(c) for c in shown[:3])
        worlds = []
        for first, second in ((x, z), (z, x)):
            s = start.clone()
            s.apply({me: act.RECRUIT_DISPLAY + first})
            s.apply({1 - me: act.RECRUIT_DISPLAY + y})
            s.apply({me: act.RECRUIT_DISPLAY + second})
            worlds.append(s)
        a, b = worlds
        assert np.array_equal(a.observe(me), b.observe(me))
        assert not np.array_equal(a.information_state(me), b.information_state(me))
        found += 1
    assert found >= 10


def test_rows_show_what_each_seat_saw():
    game = EthnosGame(num_players=3)
    state = game.new_state(5)
    rng = np.random.default_rng(5)
    while not any(e[0] == history.KIND["band"] for e in state.events.events):
        _random_move(state, rng)
    for seat in range(3):
        rows = _rows(state, seat)
        assert [r[0] for r in rows[:3]] == ["dealt"] * 3
        for kind, rel, a, _b in rows:
            if kind in ("dealt", "draw", "elf_keep"):
                assert (a >= 0) == (rel == 1)  # the card: only to its own seat
            if kind in ("leader", "add"):
                assert rel == 1  # my own band as I build it; the others' only when played
            if kind in ("recruit", "band", "band_card", "discard"):
                assert a >= 0


def test_each_age_starts_afresh():
    game = EthnosGame(num_players=2)
    rng = np.random.default_rng(8)
    state = game.new_state(8)
    while state.age == 0:
        _random_move(state, rng)
    rows = _rows(state, 0)
    assert [r[0] for r in rows] == ["dealt", "dealt"]  # the Age's own events only
    info = state.information_state(0)
    assert info[game.obs_spec.slice("age")].tolist() == [0, 1, 0]


def test_a_long_age_keeps_its_last_rows():
    """Past ``ROWS`` rows the oldest give way and ``history_dropped`` counts them."""
    game = EthnosGame(num_players=2)
    state = game.new_state(1)
    table = game.event_table
    for i in range(history.ROWS + 5):
        state.events.add((history.KIND["recruit"], i % 2, i % 60, -1))
    spec = game.information_state_spec.split(state.information_state(0))
    assert spec["history_dropped"].item() == 2 + 5  # the 2 dealt rows and 5 recruits
    assert spec["history"][-1, 2] == (history.ROWS + 4) % 60
    assert spec["history"][0, 0] == table.index["recruit"] + 1


def test_a_save_without_history():
    game = EthnosGame(num_players=3)
    state = game.new_state(2)
    data = state.to_dict()
    del data["history"]
    assert np.array_equal(game.state_from_dict(data).information_state(1),
                          state.information_state(1))  # the game's first decision: rebuilt
    rng = np.random.default_rng(2)
    for _ in range(15):
        _random_move(state, rng)
    data = state.to_dict()
    rows = data.pop("history")
    old = game.state_from_dict(data)
    with pytest.raises(StateFormatError, match="without its history"):
        old.information_state(0)
    assert np.array_equal(old.observe(0), state.observe(0))
    with pytest.raises(StateFormatError, match="history"):
        game.state_from_dict({**data, "history": rows[3:]})
    with pytest.raises(StateFormatError, match="history"):
        game.state_from_dict({**data, "history": [[0, 0, 99, -1]]})
    while old.age == 0:  # a new Age: the history is known again
        _random_move(old, rng)
    assert old.information_state(0).shape == (game.information_state_size,)
