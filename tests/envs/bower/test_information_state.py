"""The information state of bower (``State.information_state``,
``envs/bower/information_state.py``): the default observation and every event of the game as the
seat saw it; nothing hidden, a function of what the seat saw, perfect recall, saved and loaded with
the position."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.bower import information_state as history
from tablezoo.envs.bower.actions import DISPLAY, PH_KEEP, PH_PLAY, PH_TAKE, PLAY
from tablezoo.envs.bower.components import BONUS_KIND, BONUS_TILE, TILE_INDEX
from tablezoo.envs.bower.geometry import NUM_PLACEMENTS, placement_mask
from tablezoo.envs.bower.render import public_move
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.conformance import check_information_state, check_perfect_recall
from tablezoo.envs.core.errors import StateFormatError

VARIANTS = [{}, {"hands_public": False}, {"double_turn_mode": "swap"},
            {"bonus_optional": False, "flag_all_triggers": False}]
ids = [",".join(f"{k}={v}" for k, v in o.items()) or "defaults" for o in VARIANTS]


def _random_move(state, rng):
    (p,) = state.acting_players()
    state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))})


def _draws(state):
    return sum(e[0] == state.game.event_table.index["draw"] for e in state.events.events)


def _until(game, enough, seed=0):
    """A random game's first position with ``enough(state)``, trying seeds from ``seed``."""
    rng = np.random.default_rng(seed)
    while True:
        state = game.new_state(seed)
        while not state.is_over():
            _random_move(state, rng)
            if enough(state):
                return state
        seed += 1


def _rows(state, seat):
    """The seat's history rows as (kind name, relative seat, fields...) tuples."""
    game = state.game
    rows = game.information_state_spec.split(state.information_state(seat))["history"]
    kinds = game.event_table.kinds
    return [(kinds[int(r[0]) - 1].name, int(r[1]), *(int(v) for v in r[2:]))
            for r in rows if r[0]]


def test_layout_and_size():
    game = BowerGame()
    spec = game.information_state_spec
    assert [p.name for p in spec.pieces] == [*(p.name for p in game.obs_spec.pieces), "history"]
    assert spec.pieces[-1].shape == (history.ROWS, 6)
    assert game.information_state_size == game.obs_spec.size + history.ROWS * 6 == 4269
    # the bound: one row per decision, a draw and a reshuffle per turn, the SP2 look
    assert history.ROWS >= game.max_decisions + 2 * 24 + 1


@pytest.mark.parametrize("options", VARIANTS, ids=ids)
def test_nothing_hidden_and_exact_copies(options):
    """determinize for each seat keeps its information state bit for bit, clones and JSON
    round trips keep it, at every other decision of 12 games (about 300 positions x 2 seats)."""
    game = BowerGame(**options)
    rng = np.random.default_rng(5)
    positions = longest = 0
    for seed in range(12):
        state = game.new_state(seed)
        while not state.is_over():
            if state.decisions % 2 == 0:
                check_information_state(game, seed, state.decisions, state, rng)
                positions += 1
            _random_move(state, rng)
        check_information_state(game, seed, state.decisions, state, rng)
        longest = max(longest, len(state.events))
    assert positions > 250
    assert longest < history.ROWS


@pytest.mark.parametrize("options", VARIANTS[:2], ids=ids[:2])
def test_perfect_recall_on_sampled_continuations(options):
    game = BowerGame(**options)
    rng = np.random.default_rng(2)
    for seed in range(4):
        state = game.new_state(seed)
        for _ in range(int(rng.integers(0, 30))):
            _random_move(state, rng)
        check_perfect_recall(game, state, seed % 2, rng, 120, 10)


def _play_tile(state, tile, placement):
    p = state.turn_player
    h = state.hands[p].index(tile)
    state.apply({p: PLAY + NUM_PLACEMENTS * h + placement})


def test_a_pair_the_default_observation_cannot_tell_apart():
    """The start player places its draft tile on turn 1 and the taken tile on turn 2, or the
    other way round, on the same two row-0 placements: same nest, hand, display and counts, so
    the default observations agree; the information states tell the orders apart."""
    game = BowerGame(bonus_tiles=False)
    found = 0
    for seed in range(30):
        start = game.new_state(seed)
        me = start.start
        for seat in (me, 1 - me, me):  # the draft, then my first take
            start.apply({seat: int(np.flatnonzero(start.legal_mask(seat))[0])})
        draft, taken = start.hands[me]
        row0 = [p for p in np.flatnonzero(placement_mask(0)) if p < 10]
        first, second = int(row0[0]), int(row0[-1])  # two disjoint row-0 footprints
        worlds = []
        for order in ((draft, taken), (taken, draft)):
            s = start.clone()
            _play_tile(s, order[0], first if order[0] == draft else second)
            while s.turn_player != me or s.phase != PH_TAKE:  # the opponent's turn, the same
                (q,) = s.acting_players()
                s.apply({q: int(np.flatnonzero(s.legal_mask(q))[0])})
            s.apply({me: DISPLAY + 0})
            assert s.phase == PH_PLAY
            _play_tile(s, order[1], first if order[1] == draft else second)
            worlds.append(s)
        a, b = worlds
        if not np.array_equal(a.observe(me), b.observe(me)):
            continue  # the opponent's first-legal moves differed (e.g. another take)
        assert not np.array_equal(a.information_state(me), b.information_state(me))
        n = game.obs_spec.size
        assert np.array_equal(a.information_state(me)[:n], b.information_state(me)[:n])
        found += 1
    assert found >= 5


def test_rows_show_what_each_seat_saw():
    state = _until(BowerGame(), lambda s: _draws(s) > 0, seed=1)
    drawer = state.turn_player
    mine, theirs = _rows(state, drawer), _rows(state, 1 - drawer)
    draw_mine = next(r for r in mine if r[0] == "draw")
    draw_theirs = next(r for r in theirs if r[0] == "draw")
    assert draw_mine[1] == 1 and draw_theirs[1] == 2  # relative seat: me, the opponent
    assert draw_mine[2] == draw_theirs[2] >= 1  # how many: public
    assert all(v >= 0 for v in draw_mine[3:3 + draw_mine[2]])  # which: the drawer only
    assert all(v == -1 for v in draw_theirs[3:])
    takes = [r for r in theirs if r[0] in ("draft", "take")]
    assert takes and all(r[3] >= 0 for r in takes)  # hands public: every taken tile


def _tables_from_rows(state, seat):
    """Both hands ([me, the opponent]) and the display slots as ``seat``'s history rows tell
    them: a tile enters a hand by a draft, a take, an IA2 gift or a kept nest bonus tile and
    leaves it by a play or a discard; a take or gift refills its slot (None: not told)."""
    hands, display = [[], []], [None, None, None]
    for kind, rel, *f in _rows(state, seat):
        who = rel - 1
        if kind in ("draft", "take"):
            hands[who].append(f[1])
        elif kind == "force" and f[0] >= 0:
            hands[1 - who].append(f[1])
        elif kind == "keep" and BONUS_KIND[f[0]] == "nest":
            hands[who].append(BONUS_TILE[f[0]])
        elif kind in ("play", "discard"):
            assert hands[who].pop(f[0]) == f[1 if kind == "discard" else 2]
        if kind in ("take", "force") and f[0] >= 0:
            display[f[0]] = f[2]
    return hands, display


@pytest.mark.parametrize("public", [True, False])
def test_the_rows_tell_both_hands_and_the_display(public):
    """Every hand tile passed the public display or is a kept nest bonus tile, and leaves face
    up: with hands_public=False too, each seat's rows tell the opponent's whole hand and the
    refills at every decision (only the default observation leaves the opponent's tiles out)."""
    game = BowerGame(hands_public=public)
    rng = np.random.default_rng(11)
    checked = told = 0
    for seed in range(6):
        state = game.new_state(seed)
        while not state.is_over():
            for seat in (0, 1):
                hands, display = _tables_from_rows(state, seat)
                assert hands == [state.hands[seat], state.hands[1 - seat]]
                assert all(t is None or t == state.display[d] for d, t in enumerate(display))
                told += sum(t is not None for t in display)
                checked += bool(state.hands[1 - seat])
            _random_move(state, rng)
    assert checked > 300 and told > 600


def test_hands_public_changes_only_the_observed_opponent_hand():
    """The same game with and without public hands: equal information states but for the
    opponent's hand tiles of the default observation (the rows are the same)."""
    games = [BowerGame(hands_public=public) for public in (True, False)]
    rng = np.random.default_rng(12)
    differs = 0
    for seed in range(4):
        states = [game.new_state(seed) for game in games]
        while not states[0].is_over():
            for seat in (0, 1):
                a, b = (games[0].information_state_spec.split(s.information_state(seat))
                        for s in states)
                for name in a:
                    if name == "hands":
                        assert np.array_equal(a[name][0], b[name][0])  # mine
                        differs += not np.array_equal(a[name][1], b[name][1])
                    else:
                        assert np.array_equal(a[name], b[name]), name
            (p,) = states[0].acting_players()
            move = int(rng.choice(np.flatnonzero(states[0].legal_mask(p))))
            for s in states:
                s.apply({p: move})
    assert differs > 100


def test_a_tile_taken_from_the_display_stays_with_its_taker():
    """Issue case (seed 91001501, hands_public=False): seat 0 sees player_1 take T31 from
    display slot 0; its rows show T31 and its determinizations keep T31 in player_1's hand
    until it is played, while the stack is still re-sampled."""
    game = BowerGame(hands_public=False)
    state = game.new_state(91001501)
    rng = np.random.default_rng(5)
    t31 = TILE_INDEX["T31"]
    while True:  # until player_1 takes T31 from display slot 0
        (p,) = state.acting_players()
        move = int(rng.choice(np.flatnonzero(state.legal_mask(p))))
        seen, was_shown = public_move(state, p, move), state.display[0] == t31
        state.apply({p: move})
        if p == 1 and was_shown and t31 in state.hands[1]:
            break
    assert "T31" in seen and "display slot 0" in seen  # the text view names the tile taken
    assert ("take", 2, 0, t31, state.display[0], -1) in _rows(state, 0)
    stacks = set()
    positions = 0
    while t31 in state.hands[1]:
        for k in range(8):
            world = state.determinize(0, np.random.default_rng(k))
            assert world.hands == state.hands and world.forced == state.forced
            assert sorted(world.stack) == sorted(state.stack)
            stacks.add(tuple(world.stack))
        positions += 1
        _random_move(state, rng)
    assert positions >= 2 and len(stacks) > 1
    assert any(t == t31 for t, _pl, _cover in state.placed[1]) or t31 in state.tile_discards


def test_old_saves_of_hidden_hands_get_their_refills():
    """Saves of hands_public=False games once held -1 for every refill; they still load, and
    the refills are rebuilt (the tile next taken from the slot, else the slot's tile now)."""
    game = BowerGame(hands_public=False)
    state = game.new_state(7)
    rng = np.random.default_rng(7)
    for _ in range(40):
        _random_move(state, rng)
    data = state.to_dict()
    moves = {game.event_table.index[k] for k in ("take", "force")}
    old = [[*e[:4], -1, e[5]] if e[0] in moves and e[2] >= 0 else e for e in data["history"]]
    assert old != data["history"]
    loaded = game.state_from_dict({**data, "history": old})
    assert loaded.to_dict() == data
    for seat in (0, 1):
        assert np.array_equal(loaded.information_state(seat), state.information_state(seat))


def _swap_root(game, seed, observer, rng):
    """The root of a game and a copy whose two hidden eggs of the opponent are swapped."""
    state = game.new_state(seed)
    data = state.to_dict()
    cols = [c for c in range(6) if state.col_owner[c] != observer]
    a, b = cols[0], cols[1]
    data["eggs"][a], data["eggs"][b] = data["eggs"][b], data["eggs"][a]
    return state, game.state_from_dict(data)


@pytest.mark.parametrize("options", VARIANTS[:2], ids=ids[:2])
def test_a_function_of_what_the_seat_saw_swapped_hidden_eggs(options):
    """Two games that differ only by two of the opponent's eggs swapped are one history for the
    observer until it sees one of them (an SP1 look, or the end): every decision before gives
    equal information states (the replay of the observer's history in another world)."""
    game = BowerGame(**options)
    rng = np.random.default_rng(9)
    checked = 0
    for seed in range(8):
        observer = seed % 2
        a, b = _swap_root(game, seed, observer, rng)
        while not a.is_over():
            if not np.array_equal(a.observe(observer), b.observe(observer)):
                break
            assert np.array_equal(a.information_state(observer), b.information_state(observer))
            checked += 1
            (p,) = a.acting_players()
            move = int(rng.choice(np.flatnonzero(a.legal_mask(p))))
            a.apply({p: move})
            b.apply({p: move})
    assert checked > 8 * 30


def test_determinize_marks_the_opponents_private_rows_unknown():
    game = BowerGame()
    state = _until(game, lambda s: _draws(s) >= 2, seed=2)
    rng = np.random.default_rng(2)
    their_draws = 0
    for me in (0, 1):
        world = state.determinize(me, rng)
        assert world.events.redact_for == me  # done when first needed
        world.events.materialize(game.event_table)
        mine = 0
        for e in world.events.events:
            pending = world.phase == PH_KEEP and e is world.events.events[-1]
            if game.event_table.kinds[e[0]].name == "draw" and e[1] != me and not pending:
                assert all(v == -1 for v in e[3:])
                their_draws += 1
            if e[1] == me:
                assert e in state.events.events
                mine += 1
        assert mine >= 10  # the seat's own rows were compared
    assert their_draws >= 1  # at least one opponent's draw was seen redacted


def test_a_save_without_history_and_a_history_that_does_not_fit():
    game = BowerGame()
    state = game.new_state(6)
    data = state.to_dict()
    del data["history"]
    assert np.array_equal(game.state_from_dict(data).information_state(0),
                          state.information_state(0))  # before the first decision: rebuilt
    rng = np.random.default_rng(6)
    for _ in range(10):
        _random_move(state, rng)
    data = state.to_dict()
    rows = data.pop("history")
    old = game.state_from_dict(data)
    with pytest.raises(StateFormatError, match="without its history"):
        old.information_state(0)
    assert np.array_equal(old.observe(0), state.observe(0))
    with pytest.raises(StateFormatError, match="history records"):
        game.state_from_dict({**data, "history": rows[:-1]})
    with pytest.raises(StateFormatError, match="history"):
        game.state_from_dict({**data, "history": [[99, 0, 0, 0, 0, 0]]})
    with pytest.raises(StateFormatError, match="history"):
        game.state_from_dict({**data, "history": None})
