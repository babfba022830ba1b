"""The information state of bauer_trick (``State.information_state``,
``envs/bauer_trick/information_state.py``): perfect recall of the current deal, nothing hidden, a
function of what the seat saw, saved and loaded with the position."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.components import EFFECTIVE_SUIT, NUM_SEATS, cards_of
from tablezoo.envs.core.conformance import check_information_state, check_perfect_recall
from tablezoo.envs.core.errors import StateFormatError

OPTIONS = [{}, {"episode": "deal"}, {"trump_selection": "forehand_on_four"},
           {"episode": "deal", "no_trump_leader": "left_of_dealer"}]
ids = [",".join(f"{k}={v}" for k, v in o.items()) or "defaults" for o in OPTIONS]


def _random_move(state, rng):
    (p,) = state.acting_players()
    state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))})


def _piece(game, vector, name):
    return game.information_state_spec.split(vector)[name]


def test_layout_is_the_observation_then_the_deal():
    game = BauerTrickGame()
    spec = game.information_state_spec
    names = [p.name for p in spec.pieces]
    assert names[:len(game.obs_spec.pieces)] == [p.name for p in game.obs_spec.pieces]
    assert names[len(game.obs_spec.pieces):] == ["first_four", "trick_leader", "trick_cards"]
    assert game.information_state_size == spec.size == 1462
    for options in OPTIONS:
        assert BauerTrickGame(**options).information_state_size == 1462
    state = game.new_state(3)
    info = state.information_state(1)
    assert np.array_equal(info[:game.obs_spec.size], state.observe(1))  # the same offsets


@pytest.mark.parametrize("options", OPTIONS, ids=ids)
def test_nothing_hidden_and_exact_copies_at_every_position(options):
    """determinize for each seat leaves its information state bit for bit (the re-sampling test
    of the default observation), and clones and JSON round trips keep it: 20 deals, about 720
    positions x 4 seats per option set."""
    game = BauerTrickGame(**options)
    rng = np.random.default_rng(7)
    positions = 0
    for seed in range(20):
        state = game.new_state(seed)
        deals = state.deals_played
        while not state.is_over() and state.deals_played == deals:
            check_information_state(game, seed, state.decisions, state, rng)
            positions += 1
            _random_move(state, rng)
    assert positions >= 20 * 33


@pytest.mark.parametrize("options", OPTIONS, ids=ids)
def test_perfect_recall_on_sampled_continuations(options):
    """Equal action-observation histories <=> equal information states, over 300 random
    continuations of 12 decisions from each of 8 positions; many of the different histories
    share the default observation (the order of the tricks is what tells them apart)."""
    game = BauerTrickGame(**options)
    rng = np.random.default_rng(1)
    lossy = 0
    for seed in range(8):
        state = game.new_state(seed)
        for _ in range(int(rng.integers(0, 16))):
            _random_move(state, rng)
        lossy += check_perfect_recall(game, state, seed % NUM_SEATS, rng, 300, 12)[0]
    assert lossy > 20


def _first_play_position(game, seed):
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    while state.phase == 0:
        _random_move(state, rng)
    return state


def test_a_pair_the_default_observation_cannot_tell_apart():
    """Same deal, same cards played by each seat in the first two tricks, in another order:
    the default observations agree, the information states do not (``trick_cards``)."""
    game = BauerTrickGame(episode="deal")
    for seed in range(200):
        start = _first_play_position(game, seed)
        rng = np.random.default_rng(seed)
        seen: dict[bytes, tuple] = {}
        for _ in range(200):
            state = start.clone()
            moves = []
            while state.trick_no < 2:
                (p,) = state.acting_players()
                a = int(rng.choice(np.flatnonzero(state.legal_mask(p))))
                moves.append(a)
                state.apply({p: a})
            obs = state.observe(0).tobytes()
            other = seen.setdefault(obs, (tuple(moves), state))
            if other[0] != tuple(moves):
                a, b = other[1].information_state(0), state.information_state(0)
                assert not np.array_equal(a, b)
                assert not np.array_equal(_piece(game, a, "trick_cards"),
                                          _piece(game, b, "trick_cards"))
                n = game.obs_spec.size
                assert np.array_equal(a[:n], b[:n])
                return
    pytest.fail("no pair found")


@pytest.mark.parametrize("options", OPTIONS, ids=ids)
def test_a_function_of_what_the_seat_saw_swapped_hidden_cards(options):
    """Two deals that differ only by two cards of one effective suit swapped between two other
    seats are the same history for the observer until one of the two cards is played: every
    decision before gives equal information states, the first play of either card different
    ones. (The replay of the observer's history in another world.)"""
    game = BauerTrickGame(**options)
    checked = 0
    for seed in range(40):
        start = _first_play_position(game, seed)
        rng = np.random.default_rng(100 + seed)
        moves, order = [], []
        state = start.clone()
        while state.phase == 1 and state.deals_played == start.deals_played:
            (p,) = state.acting_players()
            a = int(rng.choice(np.flatnonzero(state.legal_mask(p))))
            moves.append(a)
            order.append((p, a))
            state.apply({p: a})
        observer = seed % NUM_SEATS
        when = {card: i for i, (_, card) in enumerate(order)}
        suit = EFFECTIVE_SUIT[start.trump]
        best = None
        others = [s for s in range(NUM_SEATS) if s != observer]
        for i, s1 in enumerate(others):
            for s2 in others[i + 1:]:
                for x in cards_of(start.hands[s1]):
                    for y in cards_of(start.hands[s2]):
                        if suit[x] == suit[y]:
                            t = min(when[x], when[y])
                            if best is None or t > best[0]:
                                best = (t, s1, s2, x, y)
        if best is None:
            continue
        t, s1, s2, x, y = best
        data = start.to_dict()
        for s, old, new in ((s1, x, y), (s2, y, x)):
            data["hands"][s] = sorted(new if c == old else c for c in data["hands"][s])
            if data["history"]["first_four"][s]:
                data["history"]["first_four"][s] = sorted(
                    new if c == old else c for c in data["history"]["first_four"][s])
        a, b = start.clone(), game.state_from_dict(data)
        for move in moves[:t]:
            assert np.array_equal(a.information_state(observer), b.information_state(observer))
            assert np.array_equal(a.observe(observer), b.observe(observer))
            (p,) = a.acting_players()
            a.apply({p: move})
            b.apply({p: move})
            checked += 1
        assert np.array_equal(a.information_state(observer), b.information_state(observer))
        (p,) = a.acting_players()
        a.apply({p: moves[t]})
        b.apply({p: y if moves[t] == x else x})
        assert not np.array_equal(a.information_state(observer), b.information_state(observer))
    assert checked > 40 * 10


def test_forehand_first_four_recalled_and_resampled():
    game = BauerTrickGame(trump_selection="forehand_on_four")
    state = game.new_state(5)
    dealt = list(state.hands)
    for p in range(NUM_SEATS):
        first = _piece(game, state.information_state(p), "first_four")
        assert sorted(np.flatnonzero(first).tolist()) == cards_of(dealt[p])
    rng = np.random.default_rng(0)
    _random_move(state, rng)  # the call: 4 more cards each
    for p in range(NUM_SEATS):
        info = state.information_state(p)
        assert sorted(np.flatnonzero(_piece(game, info, "first_four")).tolist()) == \
            cards_of(dealt[p])
        assert state.hands[p] & dealt[p] == dealt[p]
    world = state.determinize(0, rng)
    assert world.first_four[0] == state.first_four[0]
    for s in range(1, NUM_SEATS):  # the others' records re-drawn from the cards they hold
        assert world.first_four[s].bit_count() == 4
        assert world.first_four[s] & ~world.hands[s] == 0
    differs = any(state.determinize(0, np.random.default_rng(k)).first_four[1]
                  != state.first_four[1] for k in range(10))
    assert differs
    plain = BauerTrickGame().new_state(5)
    assert not _piece(plain.game, plain.information_state(0), "first_four").any()


def test_trick_rows_as_played_and_game_mode_starts_each_deal_afresh():
    game = BauerTrickGame(start_score=3)
    state = _first_play_position(game, 2)
    rng = np.random.default_rng(2)
    observer = 1
    while state.trick_no < 3:
        _random_move(state, rng)
    info = state.information_state(observer)
    leaders = _piece(game, info, "trick_leader")
    cards = _piece(game, info, "trick_cards")
    for t, (leader, *played) in enumerate(state.trick_history):
        assert leaders[t].tolist().index(1) == (leader - observer) % NUM_SEATS
        for i, card in enumerate(played):
            seat = (leader + i) % NUM_SEATS
            assert cards[t, (seat - observer) % NUM_SEATS, card] == 1
    assert leaders[3].sum() == 1 and leaders[4:].sum() == 0  # the current trick is led
    assert cards[3:].sum() == len(state.trick_cards)
    deals = state.deals_played
    while state.deals_played == deals:
        _random_move(state, rng)
    info = state.information_state(observer)
    assert not _piece(game, info, "trick_cards").any()  # a new deal: its own history only
    assert not _piece(game, info, "trick_leader").any()
    assert _piece(game, info, "deals").item() > 0  # the public game score carries over


def test_a_save_without_history_is_rebuilt_or_refused():
    """Saves written before the history was recorded: rebuilt where the position tells it (the
    call, or the first trick with call_or_pass), refused with a clear error otherwise (observe()
    still works), and available again from the next deal."""
    game = BauerTrickGame(start_score=2)
    state = game.new_state(4)
    data = state.to_dict()
    assert "history" in data
    del data["history"]
    old = game.state_from_dict(data)
    assert np.array_equal(old.information_state(2), state.information_state(2))
    rng = np.random.default_rng(4)
    while state.trick_no < 2:
        _random_move(state, rng)
    data = state.to_dict()
    del data["history"]
    old = game.state_from_dict(data)
    assert "history" not in old.to_dict()  # it stays unknown, it is not made up
    with pytest.raises(StateFormatError, match="without its history"):
        old.information_state(0)
    assert np.array_equal(old.observe(0), state.observe(0))
    deals = old.deals_played
    while old.deals_played == deals:
        _random_move(old, rng)
    assert old.information_state(0).shape == (game.information_state_size,)
    assert "history" in old.to_dict()


def test_a_saved_history_that_does_not_fit_is_refused():
    game = BauerTrickGame(episode="deal")
    state = _first_play_position(game, 6)
    rng = np.random.default_rng(6)
    while state.trick_no < 2:
        _random_move(state, rng)
    good = state.to_dict()
    for change, match in (
        (lambda h: h["tricks"].pop(), "completed tricks recorded"),
        (lambda h: h["tricks"].reverse(), "won by|hold the cards"),
        (lambda h: h["tricks"][0].__setitem__(0, (h["tricks"][0][0] + 1) % 4), "hold the cards"),
        (lambda h: h.__setitem__("tricks", "x"), "history must be"),
        (lambda h: h["first_four"][0].append(3), "only recorded with forehand"),
    ):
        data = {**good, "history": {"first_four": [list(c) for c in good["history"]["first_four"]],
                                    "tricks": [list(t) for t in good["history"]["tricks"]]}}
        change(data["history"])
        with pytest.raises(StateFormatError, match=match):
            game.state_from_dict(data)


def test_env_hands_out_the_information_state():
    env = envs.make("bauer_trick_v0", observation="information_state", episode="deal")
    env.reset(seed=3)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (1462,)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert space.contains(obs["observation"])
        p = env.possible_agents.index(agent)
        assert np.array_equal(obs["observation"], env.game_state.information_state(p))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
