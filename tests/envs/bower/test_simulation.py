"""Random simulation (issue 4 acceptance): 3,000 seeded games with Bower's own invariants.

Checked at every decision: 36 nest tiles conserved across stack, display, hands, nests (covered
ones included), discards and the revealed cover tile; NB tiles in play exactly when kept; every
placed tile legal when placed (no overlap, contact with row 0 or a tile); triggers pay at most
once per column/group (flags only grow, a bonus needs a new unflagged condition, at most one
bonus draw per turn); the sampled legal action is accepted and a random unmasked one rejected
without a state change; each player takes exactly 12 turns. At the end: scores equal the
breakdown. Deeper checks (full snapshots, clone and JSON round-trips, determinize) run on a
subset of decisions.
"""

import json

import numpy as np

from tablezoo.envs.bower.actions import PHASES, PLAY
from tablezoo.envs.bower.components import NB_FIRST, NUM_NEST_TILES, TILE_INDEX
from tablezoo.envs.bower.geometry import NEIGHBOURS, PLACEMENT_CELLS
from tablezoo.envs.bower.observation import S_ALL
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.errors import IllegalActionError

NUM_GAMES = 3000
KEEP_PHASE = PHASES.index("keep")
PLAY_PHASE = PHASES.index("play")


def tiles_everywhere(s):
    where = list(s.stack) + [t for t in s.display if t >= 0] + s.hands[0] + s.hands[1]
    where += s.tile_discards + [t for q in (0, 1) for t, _p, _c in s.placed[q]]
    if s.cover_tile >= 0:
        where.append(s.cover_tile)
    return where


def check_conservation(s):
    where = tiles_everywhere(s)
    nest = sorted(t for t in where if t < NUM_NEST_TILES)
    assert nest == list(range(NUM_NEST_TILES)), "nest tiles not conserved"
    nb = sorted(t for t in where if t >= NB_FIRST)
    kept_nb = sorted(TILE_INDEX[f"NB{b + 1}"] for q in (0, 1) for b in s.kept[q] if b < 4)
    assert nb == kept_nb, "NB tiles must be in play exactly when kept"
    bonus = sorted(s.bonus_deck + s.bonus_discard + s.drawn + s.kept[0] + s.kept[1])
    assert bonus == list(range(20)), "bonus tiles not conserved"


def check_placement_legal(s, action):
    """Independent re-check of §4 for a PLAY action: both cells empty and touching."""
    p = s.turn_player
    a, b = PLACEMENT_CELLS[(action - PLAY) % 76]
    top = s.top[p]
    assert top[a] < 0 and top[b] < 0, "overlap"
    touch = a < 6 or b < 6 or any(top[n] >= 0 for x in (a, b) for n in NEIGHBOURS[x])
    assert touch, "placement without contact"


def fingerprint(s):
    return (
        s.phase,
        s.actor,
        s.decisions,
        len(s.stack),
        tuple(s.display),
        len(s.hands[0]),
        len(s.hands[1]),
        tuple(s.turns),
        s.occ[0],
        s.occ[1],
        tuple(s.drawn),
    )


def play_checked(game, seed, deep):
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    draws_this_turn = 0
    turn_key = None
    while not s.is_terminal():
        p = s.actor
        assert s.acting_players() == (p,)
        mask = s.legal_mask(p)
        assert mask.any()
        assert not s.legal_mask(1 - p).any()
        legal = np.flatnonzero(mask)
        a = int(legal[rng.integers(len(legal))])
        illegal = int(rng.integers(game.num_actions))
        if not mask[illegal]:
            before = json.dumps(s.to_dict()) if deep else fingerprint(s)
            try:
                s.apply({p: illegal})
                raise AssertionError("unmasked action accepted")
            except IllegalActionError:
                pass
            assert (json.dumps(s.to_dict()) if deep else fingerprint(s)) == before
        if deep and rng.random() < 0.05:
            d = s.to_dict()
            assert game.state_from_dict(json.loads(json.dumps(d))).to_dict() == d
            assert s.clone().to_dict() == d
            for q in (0, 1):
                obs = s.observe(q)
                det = s.determinize(q, rng)
                assert np.array_equal(det.observe(q), obs), "determinize leaked"
                if q == p:
                    assert np.array_equal(det.legal_mask(q), mask)
        if deep:  # incremental observation buffers == a full re-encode, both seats
            fresh = s.clone()
            fresh._dirty = [S_ALL, S_ALL]
            for q in (0, 1):
                assert np.array_equal(fresh.observe(q), s.observe(q)), "stale observation"
        if s.phase == PLAY_PHASE:
            check_placement_legal(s, a)
        flags_before = (s.col_flags[:], s.cell_flags[:])
        was_play = s.phase == PLAY_PHASE
        phase_before = s.phase
        key = (s.turn_player, s.turns[s.turn_player])
        if key != turn_key:
            turn_key, draws_this_turn = key, 0
        turns_before = list(s.turns)
        s.apply({p: a})
        # turn counters move by one turn at a time
        moved = [s.turns[q] - turns_before[q] for q in (0, 1)]
        assert sorted(moved) in ([0, 0], [0, 1])
        assert max(s.turns) <= 12
        # flags only grow; a bonus step needs a new, unflagged condition
        for q in (0, 1):
            assert s.col_flags[q] & flags_before[0][q] == flags_before[0][q]
            assert s.cell_flags[q] & flags_before[1][q] == flags_before[1][q]
        if was_play and PHASES[s.phase] in ("bonus", "keep") and s.turn_player == p:
            cols, cells = s.conditions
            assert cols or cells
            assert not cols & flags_before[0][p] and not cells & flags_before[1][p]
        if s.phase == KEEP_PHASE and phase_before != KEEP_PHASE:
            draws_this_turn += 1
        assert draws_this_turn <= 1, "two bonus draws in one turn"
        check_conservation(s)
        assert s.decisions <= game.max_decisions
    assert s.turns == [12, 12]
    assert s.acting_players() == ()
    for q in (0, 1):
        assert sum(s.score_breakdown()[q].values()) == s.scores()[q]
    r = s.returns()
    diff = s.scores()[0] - s.scores()[1]
    if game.options["reward"] == "egg_diff":
        assert r == [diff, -diff]
    else:
        assert r[0] == -r[1] and r[0] in (-1.0, 0.0, 1.0)
        assert r[0] == (
            np.sign(diff) if diff else (0 if s.pink_seat() < 0 else 1 - 2 * s.pink_seat())
        )
    return s


def test_random_games_default_options():
    game = BowerGame()
    kept_any = [0] * 20
    for seed in range(NUM_GAMES):
        s = play_checked(game, seed, deep=seed % 10 == 0)
        for q in (0, 1):
            for b in s.kept[q]:
                kept_any[b] += 1
    assert min(kept_any) > 0, "every bonus tile should be kept in some game"


def test_random_games_other_options():
    variants = [
        {"double_turn_mode": "swap"}, {"flag_all_triggers": False},
        {"bonus_optional": False}, {"hands_public": False}, {"bonus_tiles": False},
        {"egg_columns": "alternate", "reward": "egg_diff", "x_cancels": "one",
         "pink_column_scope": "all", "pink_moss_scope": "in_group", "column_zero_tie": "tiebreak",
         "material_tie": "shells_in_group", "single_item_bonus": True},
        {"forced_fallback": "none", "pink_column_scope": "cell"},
    ]  # fmt: skip
    for opts in variants:
        game = BowerGame(**opts)
        for seed in range(60):
            play_checked(game, 10_000 + seed, deep=seed % 5 == 0)
