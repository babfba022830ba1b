"""The bower heuristic's fast bookkeeping gives what a plain recomputation gives: the nest's
running sums, the memoised decodings and group facts, and the position value to the bit
(the value's column sum follows numpy's summation order; the choices must not change)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games.bower.heuristic import HeuristicAgent, evaluation
from tablezoo.agents.games.bower.heuristic.evaluation import Context, contest_value, nest_stats
from tablezoo.agents.games.bower.heuristic.pieces import Nest, _decode_nest, cell_stats, decode_nest
from tablezoo.envs.bower.geometry import NUM_CELLS, NUM_PLACEMENTS, PLACEMENT_CELLS, placement_mask
from tablezoo.envs.bower.observation import (
    CH_BRANCH,
    CH_FLAG,
    CH_MAT,
    CH_PINK_TILE,
    CH_TOKEN,
    CH_UNITS,
    OBS_SPEC,
)

VARIANTS = envs.VARIANTS["bower_v0"]  # x_cancels="one", bonus_tiles=False, ...


def positions(games: int, seed: int, options: dict | None = None):
    """Every 5th decision of seeded random games, with its actor."""
    game = envs.make_game("bower_v0", **(options or {}))
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_state(seed * 100 + g)
        k = 0
        while not state.is_over():
            if k % 5 == 0:
                yield state, state.actor
            legal = np.flatnonzero(state.legal_mask(state.actor))
            state.apply({state.actor: int(rng.choice(legal))})
            k += 1


def fresh_sums(nest):
    """The nest's column and total sums recomputed from its cells, the slow way."""
    req = np.zeros((NUM_CELLS, 8), dtype=np.int64)
    colour = np.zeros((NUM_CELLS, 4), dtype=np.int64)
    shells = np.zeros(NUM_CELLS, dtype=np.int64)
    for cell in range(NUM_CELLS):
        if nest.mat[cell] < 0:
            continue
        t = nest.tok
        toks = sum(1 << k for k in range(4) if t[k] == cell)
        r, c, s, _gems = cell_stats(nest.units[cell], toks, nest.x_one)
        req[cell], colour[cell], shells[cell] = r, c, s
    return (req.reshape(4, 6, 8).sum(axis=0).tolist(), shells.reshape(4, 6).sum(axis=0).tolist(),
            colour.sum(axis=0).tolist(), int(shells.sum()))


def reference_contest(me, them, ctx) -> float:
    """The position value's contest term as numpy computes it on whole arrays (the formula
    the heuristic was tuned with). Bit equality relies on numpy's pairwise summation of 48
    values (8 running sums); should a numpy release change that order, this reference moves
    by an ulp while no decision changes (ties are taken within 1e-9)."""
    v = 0.0
    for m in range(3):
        d = me.sizes[m] - them.sizes[m]
        if d == 0 and m == 1 and me.sizes[1] > 0 and (me.pink or them.pink):
            d = 0.5 if me.pink else -0.5
        v += math.tanh(d / ctx.s_mat)
    mine, theirs = np.array(me.req, dtype=float), np.array(them.req, dtype=float)
    diff = mine - theirs
    tie = (diff == 0) & (mine > 0)
    if tie.any():
        tb = np.zeros(6)
        for c in range(6):
            if c in me.pink_cols:
                tb[c] = 0.5
            elif c in them.pink_cols:
                tb[c] = -0.5
            elif me.col_shells[c] != them.col_shells[c]:
                tb[c] = 0.5 if me.col_shells[c] > them.col_shells[c] else -0.5
        diff = diff + tie * tb[:, None]
    v += float((ctx.probs * np.tanh(diff / ctx.s_col)).sum())
    v += (evaluation._eb_value(me, them, ctx.eb_mine, ctx)
          - evaluation._eb_value(them, me, ctx.eb_theirs, ctx))
    return v


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_running_sums_match_a_recount_after_placements_covers_and_tokens(options):
    rng = np.random.default_rng(4)
    x_one = options.get("x_cancels") == "one"
    checked = 0
    for state, seat in positions(games=4, seed=1, options=options):
        obs = OBS_SPEC.split(state.observe(seat))
        planes = obs["nests"].reshape(2, -1, NUM_CELLS)
        for s in (0, 1):
            nest = decode_nest(planes[s], obs["column_flags"][s], x_one)
            for _ in range(3):
                occ = nest.occ
                free = np.flatnonzero(placement_mask(occ))
                p = int(rng.choice(free)) if free.size else int(rng.integers(NUM_PLACEMENTS))
                a, b = PLACEMENT_CELLS[p]
                units = tuple(int(x) for x in rng.integers(0, 2, size=13))
                nest.put(a, (int(rng.integers(3)), units, False), cover=True)
                nest.put(b, (int(rng.integers(3)), (0,) * 13, False), cover=True)
                occupied = [c for c in range(NUM_CELLS) if nest.mat[c] >= 0]
                nest.set_token(int(rng.integers(4)), int(rng.choice(occupied)))
                col_req, col_shells, colour, shells = fresh_sums(nest)
                assert [list(r) for r in nest.col_req] == col_req
                assert list(nest.col_shells) == col_shells
                assert list(nest.colour) == colour and nest.shells == shells
                checked += 1
    assert checked > 60


def test_contest_value_equals_the_numpy_formula_to_the_bit():
    rng = np.random.default_rng(5)
    compared = 0
    for state, seat in positions(games=6, seed=2):
        agent = HeuristicAgent(seed=0)
        agent._read(state.observe(seat), state)
        mine = agent.nests[0]
        free = np.flatnonzero(placement_mask(mine.occ))
        for p in free[:6]:
            tile = ((int(rng.integers(3)), tuple(int(x) for x in rng.integers(0, 3, 13)), False),
                    (int(rng.integers(3)), tuple(int(x) for x in rng.integers(0, 3, 13)), False))
            me = nest_stats(agent._placed(mine, tile, int(p)))
            for ctx in (agent.ctx, Context(agent.ctx.probs, [0, 4], [2], 0.3, 0.5)):
                assert contest_value(me, agent.opp_stats, ctx) == reference_contest(
                    me, agent.opp_stats, ctx)
                compared += 1
    assert compared > 200


def numpy_decode(planes: np.ndarray, col_flags: np.ndarray):
    """The nest's cells, tokens, branch and flags read with numpy, as the decoder once did
    (the reference for the list-based decoder)."""
    mat_planes = planes[CH_MAT : CH_MAT + 4]
    occupied = mat_planes.sum(axis=0) > 0
    mats = np.where(occupied, np.argmax(mat_planes, axis=0), -1)
    units = planes[CH_UNITS : CH_UNITS + 13].T.astype(np.int64)
    toks = [int(np.flatnonzero(planes[CH_TOKEN + k])[0]) if planes[CH_TOKEN + k].any() else -1
            for k in range(4)]
    branch = -1
    for o in (0, 1):
        cells = np.flatnonzero(planes[CH_BRANCH + o])
        if cells.size:
            branch = 2 * int(cells[0]) + o

    def bits(row):
        return sum(1 << int(i) for i in np.flatnonzero(row))

    cells = [tuple(u) if m >= 0 else (0,) * 13 for m, u in zip(mats, units.tolist())]
    flags = bits(planes[CH_FLAG]), bits(planes[CH_PINK_TILE]), bits(col_flags)
    return (mats.tolist(), cells, toks, branch, *flags)


def decoded_fields(n: Nest):
    return (n.mat, n.units, n.tok, n.branch, n.cell_flags, n.pink_cells, n.col_flags)


def same_nest(a: Nest, b: Nest) -> bool:
    return all(getattr(a, name) == getattr(b, name) for name in Nest.__slots__)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: str(o) or "default")
def test_decoding_matches_the_numpy_reading_and_the_memo_hands_out_copies(options):
    seen = 0
    for state, seat in positions(games=3, seed=3, options=options):
        obs = OBS_SPEC.split(state.observe(seat))
        planes = obs["nests"].reshape(2, -1, NUM_CELLS)
        for s in (0, 1):
            first = decode_nest(planes[s], obs["column_flags"][s])
            assert decoded_fields(first) == numpy_decode(planes[s], obs["column_flags"][s])
            first.put(0, (0, (1,) * 13, False), cover=True)  # a caller's what-if must not leak
            again = decode_nest(planes[s], obs["column_flags"][s])
            assert same_nest(again, _decode_nest(planes[s], obs["column_flags"][s], False))
            assert not same_nest(again, first)
            seen += 1
    assert seen > 30


def test_memoised_group_facts_tell_apart_nests_that_differ_in_one_input():
    """Warm the memo on many nests and on variants of each that differ only in the cell
    flags, column flags, two-gem cells or branch; every answer must be the direct one."""
    rng = np.random.default_rng(6)
    nests = []
    for state, seat in positions(games=4, seed=4):
        obs = OBS_SPEC.split(state.observe(seat))
        planes = obs["nests"].reshape(2, -1, NUM_CELLS)
        nests += [decode_nest(planes[s], obs["column_flags"][s]) for s in (0, 1)]
    variants = []
    for n in nests:
        for field in ("cell_flags", "col_flags", "g2", "branch"):
            v = n.copy()
            if field == "branch":
                v.branch = int(rng.integers(2 * NUM_CELLS))
            else:
                width = 6 if field == "col_flags" else NUM_CELLS
                setattr(v, field, getattr(n, field) ^ (1 << int(rng.integers(width))))
            variants.append(v)
    evaluation._GROUP_FACTS.clear()
    differing = 0
    for n in nests + variants + nests:
        for gems_matter in (True, False):
            got = nest_stats(n, gems_matter)
            sizes, new_condition, potential = evaluation._group_facts(n, gems_matter)
            assert (got.sizes, got.new_condition, got.gem_potential) == (
                list(sizes), new_condition, potential)
    for n, v in zip([n for n in nests for _ in range(4)], variants):
        differing += evaluation._group_facts(n, True) != evaluation._group_facts(v, True)
    assert differing > 20  # the variants do change the facts, so a missing key would show


def test_a_tied_column_leans_by_the_current_pink_columns_and_shells():
    """Same request counts, different shells or pink columns: the memoised column terms must
    follow the lean (a shell token changes the shells and not the counts)."""
    compared = 0
    for state, seat in positions(games=4, seed=5):
        agent = HeuristicAgent(seed=0)
        agent._read(state.observe(seat), state)
        me = nest_stats(agent.nests[0])
        if not any(any(row) for row in me.req):
            continue
        them = nest_stats(agent.nests[0])  # the same nest: every slot I have items of is tied
        for shells, pinks in (((0,) * 6, set()), ((9,) * 6, set()), ((0,) * 6, {0, 1, 2}),
                              ((0,) * 6, set(range(6)))):
            them.col_shells, them.pink_cols = shells, pinks
            them.pink = bool(pinks)
            for ctx in (agent.ctx, Context(agent.ctx.probs, [1], [3], 0.6, 0.5)):
                assert contest_value(me, them, ctx) == reference_contest(me, them, ctx)
                compared += 1
    assert compared > 40
