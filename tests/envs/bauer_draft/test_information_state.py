"""The information state of bauer_draft (``State.information_state``,
``envs/bauer_draft/information_state.py``): the default observation and every event of the game as
the seat saw it; nothing hidden, a function of what the seat saw, perfect recall, saved and loaded
with the position."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bauer_draft import information_state as history
from tablezoo.envs.bauer_draft.actions import COPY, OVER
from tablezoo.envs.bauer_draft.components import CARDS, NIGHT, NUM_CARDS
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.conformance import (
    check_information_state,
    check_perfect_recall,
    seen_by,
)
from tablezoo.envs.core.errors import StateFormatError

PLAYERS = (2, 3, 4, 5)


def _joint(state, rng):
    return {p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))
            for p in state.acting_players()}


def _rows(state, seat):
    spec = state.game.information_state_spec
    rows = spec.split(state.information_state(seat))["history"]
    return [(history.KINDS[int(r[0]) - 1].name, int(r[1]), *(int(v) for v in r[2:]))
            for r in rows if r[0]]


def test_layout_sizes_and_bound():
    sizes = {}
    for n in PLAYERS:
        game = BauerDraftGame(num_players=n)
        spec = game.information_state_spec
        assert [p.name for p in spec.pieces] == [*(p.name for p in game.obs_spec.pieces),
                                                  "history"]
        rows = history.rows_bound(game)
        assert rows == game.max_decisions + 2 * NUM_CARDS + 3 * game.num_rounds + 8
        sizes[n] = game.information_state_size
        assert sizes[n] == game.obs_spec.size + rows * 5
    assert sizes == {2: 2624, 3: 2859, 4: 3094, 5: 3237}


@pytest.mark.parametrize("n", PLAYERS)
def test_nothing_hidden_and_exact_copies(n):
    """At every decision of 15 random games (about 250 to 500 positions x every seat),
    determinize for the seat keeps its information state bit for bit; every 10th decision
    also clones and JSON round trips."""
    game = BauerDraftGame(num_players=n)
    rng = np.random.default_rng(n)
    positions = longest = 0
    for seed in range(15):
        state = game.new_state(seed)
        while not state.is_over():
            check_information_state(game, seed, positions, state, rng, None, positions % 10 == 0)
            positions += 1
            state.apply(_joint(state, rng))
        check_information_state(game, seed, positions, state, rng)
        longest = max(longest, max(c.used for c in state.events.caches))
    assert positions > 200
    assert longest < history.rows_bound(game) // 3


@pytest.mark.parametrize("n", PLAYERS)
def test_perfect_recall_on_sampled_continuations(n):
    """Equal action-observation histories <=> equal information states, over 150 random
    continuations of 10 decisions from 5 positions (some equal histories come from different
    hidden moves: another seat's choice of a Night card)."""
    game = BauerDraftGame(num_players=n)
    rng = np.random.default_rng(10 + n)
    lossy = hidden = 0
    for seed in range(5):
        state = game.new_state(seed)
        for _ in range(int(rng.integers(0, 25))):
            if state.is_over():
                break
            state.apply(_joint(state, rng))
        a, b = check_perfect_recall(game, state, seed % n, rng, 150, 10)
        lossy, hidden = lossy + a, hidden + b
    assert lossy + hidden > 0


def test_a_pair_the_default_observation_cannot_tell_apart():
    """Random continuations of a position until two positions on them show the seat the same
    default observation after histories it can tell apart (its observations on the way
    differ): their information states differ, and their first ``obs_spec.size`` entries (the
    default observation) do not."""
    game = BauerDraftGame(num_players=2)
    rng = np.random.default_rng(4)
    found = 0
    for seed in range(40):
        start = game.new_state(seed)
        for _ in range(int(rng.integers(0, 12))):
            start.apply(_joint(start, rng))
        seen: dict[bytes, tuple] = {}
        for _ in range(100):
            state, path = start.clone(), ()
            for _ in range(10):
                if state.is_over():
                    break
                joint = _joint(state, rng)
                state.apply(joint)
                now = seen_by(state, 0)
                if 0 in joint or not path or now != path[-1]:
                    path += (joint.get(0), now)
                obs = state.observe(0).tobytes()
                other_path, info = seen.setdefault(obs, (path, state.information_state(0)))
                if other_path != path:
                    mine = state.information_state(0)
                    assert not np.array_equal(mine, info)
                    n = game.obs_spec.size
                    assert np.array_equal(mine[:n], info[:n])
                    found += 1
                    if found == 3:
                        return
    pytest.fail(f"{found} pairs found")


def _card_ids(action: int) -> int:
    return action % NUM_CARDS if action < COPY + NUM_CARDS else -1


def _swap_action(action: int, x: int, y: int) -> int:
    c = _card_ids(action)
    if c in (x, y):
        return action - c + (y if c == x else x)
    return action


@pytest.mark.parametrize("n", (3, 4))
def test_a_function_of_what_the_seat_saw_relabelled_hidden_cards(n):
    """Two games that differ only by two cards the observer never sees (two Night cards, or two
    Day cards nobody plays, never in the observer's hands nor discarded), swapped in the deal
    and in every action naming them: one history for the observer, so every decision before
    the end (where every tableau is shown) gives equal information states. (The replay of the
    observer's history in another world.)"""
    game = BauerDraftGame(num_players=n)
    checked = 0
    for seed in range(25):
        rng = np.random.default_rng(seed)
        observer = seed % n
        root = game.new_state(seed)
        state, moves, seen = root.clone(), [], set()
        while not state.is_over():
            seen.update(state.hands[observer], state.tableau[observer], state.discards)
            seen.update(c for t in state.tableau for c in t if not NIGHT[c])
            joint = _joint(state, rng)
            moves.append(joint)
            state.apply(joint)
        seen.update(state.discards, state.tableau[observer])
        seen.update(c for t in state.tableau for c in t if not NIGHT[c])
        for night in (True, False):
            unseen = [c for c in range(NUM_CARDS) if c not in seen and NIGHT[c] == night]
            if len(unseen) < 2:
                continue
            x, y = unseen[:2]
            code = CARDS.codes
            swap = {code[x]: code[y], code[y]: code[x]}
            data = root.to_dict()
            for key in ("hands", "piles"):
                data[key] = [[swap.get(c, c) for c in cards] for cards in data[key]]
            data["central"] = [swap.get(c, c) for c in data["central"]]
            data["history"] = [[*e[:2], *({x: y, y: x}.get(v, v) for v in e[2:])]
                               for e in data["history"]]
            a, b = root.clone(), game.state_from_dict(data)
            for joint in moves:
                if a.kind == OVER:
                    break
                assert np.array_equal(a.observe(observer), b.observe(observer))
                assert np.array_equal(a.information_state(observer),
                                      b.information_state(observer))
                checked += 1
                a.apply(joint)
                b.apply({p: _swap_action(act, x, y) for p, act in joint.items()})
    assert checked > 25 * 30


def test_rows_show_what_each_seat_saw():
    game = BauerDraftGame(num_players=3)
    rng = np.random.default_rng(1)
    state = game.new_state(1)
    for _ in range(6):
        state.apply(_joint(state, rng))
    for seat in range(3):
        rows = _rows(state, seat)
        for kind, rel, *fields in rows:
            if kind in ("draw", "decide"):
                assert rel == 1  # my own draws and decisions only
            if kind == "play_night":
                assert (fields[0] >= 0) == (rel == 1)  # a Night card's id: its owner only
            if kind in ("play_day", "discard"):
                assert fields[0] >= 0
        draws = [r for r in rows if r[0] == "draw"]
        assert len(draws) == state.round + 1
        first = draws[0][2:]
        kept = next(r for r in rows if r[0] == "decide")[2] % NUM_CARDS
        assert kept in first  # the round-0 draw and the card kept from it


def test_a_save_without_history_and_a_history_that_does_not_fit():
    game = BauerDraftGame(num_players=4)
    state = game.new_state(3)
    data = state.to_dict()
    del data["history"]
    assert np.array_equal(game.state_from_dict(data).information_state(2),
                          state.information_state(2))  # the first select: rebuilt
    rng = np.random.default_rng(3)
    for _ in range(5):
        state.apply(_joint(state, rng))
    data = state.to_dict()
    rows = data.pop("history")
    old = game.state_from_dict(data)
    with pytest.raises(StateFormatError, match="without its history"):
        old.information_state(0)
    assert np.array_equal(old.observe(0), state.observe(0))
    for bad in (rows[:-1], rows + [rows[0]], [[99, 0, 0, 0, 0]], None):
        with pytest.raises(StateFormatError):
            game.state_from_dict({**data, "history": bad})
