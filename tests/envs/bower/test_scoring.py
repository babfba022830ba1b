"""End scoring (spec §6) and worked examples X2-X6, from built positions.

Scenario tests play the kept token tile on the last turn of the game, so the effect is chosen
through the action mask and the final scoring runs through the engine. Last, the end scoring and
the gem triggers (§5.1) against a small re-implementation written from the rules' text (plain
loops over the components' JSON), over seeded random games.
"""

import numpy as np
import pytest

from tablezoo.envs.bower.actions import ACCEPT, BRANCH, KEEP, PASS, TARGET
from tablezoo.envs.bower.components import (
    BONUS_IDS,
    CODES,
    EGG_CODES,
    TILE_INDEX,
    TOKEN_NAMES,
    load_raw,
)
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.bower.scoring import groups, nest_stats, pink_columns
from tests.envs.bower.positions import GAME, legal, phase


def end(t, e):
    return 2 * TILE_INDEX[t] + e


def last_turn_keep(game, nests, seat, drawn, eggs, kept=None, **kw):
    """``seat`` is in its 12th (last) turn, the opponent is done; it must KEEP from ``drawn``."""
    turns = [11, 12] if seat == 0 else [12, 11]
    kept = kept or [[], []]
    return build_state(
        game,
        nests=nests,
        hands=[[], []],
        hand_limits=[0, 0],
        phase="keep",
        turn_player=seat,
        start_player=1 - seat,
        turns=turns,
        bonus_kept=kept,
        bonus_drawn=drawn,
        eggs=eggs,
        **kw,
    )


def over(game, nests, eggs, kept=None, tokens=None):
    return build_state(
        game,
        nests=nests,
        hands=[[], []],
        hand_limits=[0, 0],
        phase="over",
        turn_player=0,
        turns=[12, 12],
        bonus_kept=kept or [[], []],
        eggs=eggs,
        tokens=tokens,
    )


# ---------------------------------------------------------------- X2 largest group, branch
X2_A = [("T03", 0), ("T21", 44), ("T29", 11), ("T01", 22)]
X2_B = [("T02", 0), ("T04", 4)]


def test_x2_groups_without_branch():
    s = over(GAME, [X2_A, X2_B], eggs={})
    straw = sorted(bin(b).count("1") for m, b in groups(s.top[0]) if m == 0)
    assert straw == [2, 3]
    assert s.score_breakdown()[1]["straw"] == 1  # 4 > 3


@pytest.mark.parametrize("action, straw_a, gravel_a", [(533, 5, 1), (532, 3, 2)])
def test_x2_branch_token(action, straw_a, gravel_a):
    s = last_turn_keep(GAME, [X2_A, X2_B], 0, ["TK5", "EB1", "SP2"], eggs={})
    s.step(KEEP + 0)
    ids = legal(s)
    assert 533 in ids and 532 in ids and PASS in ids
    assert 521 not in ids and 530 not in ids  # (0,1) vertical, (1,0) horizontal: off-grid end
    assert BRANCH + 2 * 7 + 1 == 533
    s.step(action)
    assert s.is_terminal()
    st = nest_stats(s.top[0], branch=action - BRANCH)
    assert st.sizes[0] == straw_a and st.sizes[2] == gravel_a
    bd = s.score_breakdown()
    assert (bd[0]["straw"], bd[1]["straw"]) == ((1, 0) if straw_a == 5 else (0, 1))


# ---------------------------------------------------------------- X3 column, shells, token
X3_A = [("T02", 4), ("T24", 14)]
X3_B = [("T16", 2), ("T35", 57)]


def test_x3_tie_with_equal_shells_goes_to_nobody():
    s = over(GAME, [X3_A, X3_B], eggs={2: "E7"})
    a, b = nest_stats(s.top[0]), nest_stats(s.top[1])
    assert (a.column_count(2, 7), b.column_count(2, 7)) == (2, 2)
    assert (a.column_shells(2), b.column_shells(2)) == (1, 1)
    assert s.score_breakdown()[0]["column_2"] == s.score_breakdown()[1]["column_2"] == 0


def test_x3_shell_token_breaks_the_tie():
    s = last_turn_keep(GAME, [X3_A, X3_B], 1, ["TK4", "EB1"], eggs={2: "E7"})
    s.step(KEEP + 0)
    assert legal(s) == [PASS, TARGET + 8]  # only B's (1,2) holds a shell
    s.step(478)
    assert s.is_terminal()
    assert s.score_breakdown()[1]["column_2"] == 1
    assert s.score_breakdown()[0]["column_2"] == 0


@pytest.mark.parametrize("zero_tie, winner", [("nobody", None), ("tiebreak", 1)])
def test_x3_zero_zero_column(zero_tie, winner):
    game = BowerGame(column_zero_tie=zero_tie)
    s = over(game, [X3_A, X3_B], eggs={2: "E4"}, tokens={"shell": (1, 8)})
    bd = s.score_breakdown()
    got = [q for q in (0, 1) if bd[q]["column_2"]]
    assert got == ([] if winner is None else [winner])


# ---------------------------------------------------------------- X4 pink shell
X4_A = [("NB4", 49), ("T07", 26), ("T08", 36), ("T01", 0), ("T23", 44)]
X4_B = [("T30", 8), ("T29", 5), ("T18", 0), ("T36", 16), ("T19", 10), ("T16", 20),
        ("T32", 25), ("T20", 73)]  # fmt: skip
X4_EGGS = {0: "E2", 1: "E5", 2: "E3", 3: "E8", 4: "E1", 5: "E6", 6: "E4", 7: "E7"}


def test_x4_pink_shell():
    s = over(GAME, [X4_A, X4_B], eggs=X4_EGGS, kept=[[], ["EB5", "EB1"]])
    a, b = nest_stats(s.top[0]), nest_stats(s.top[1])
    assert (a.column_count(4, 0), b.column_count(4, 0)) == (1, 1)
    assert (a.column_shells(4), b.column_shells(4)) == (1, 2)
    assert a.pink and pink_columns(a, "tile") == [4]
    assert (a.sizes, b.sizes) == ([3, 5, 1], [3, 5, 1])
    assert (a.total_shells(), b.total_shells()) == (2, 6)
    bd = s.score_breakdown()
    assert bd[0]["column_4"] == 1 and bd[1]["column_4"] == 0  # pink beats more shells
    assert bd[0]["moss"] == 1 and bd[1]["moss"] == 0  # 5-5: pink
    assert bd[0]["straw"] == bd[1]["straw"] == 0  # 3-3: nobody
    assert bd[1]["EB5"] == 0  # A has the pink shell
    # hand-derived columns: c0 fe-yellow 0-1 B, c1 fl-red 0-2 B, c2 fe-blue 0-0, c3
    # fl-purple 1-0 A, c5 fl-yellow 0-0; EB1: B's red 9 > A's 3
    assert [bd[0][f"column_{c}"] for c in range(6)] == [0, 0, 0, 1, 1, 0]
    assert [bd[1][f"column_{c}"] for c in range(6)] == [1, 1, 0, 0, 0, 0]
    assert bd[1]["EB1"] == 1
    assert s.scores() == [3.0, 3.0]
    assert s.winner() == 0 and s.returns() == [1.0, -1.0]  # equal totals: pink wins


def test_x4_horizontal_nb4_gives_two_pink_columns():
    top = [-1] * 24
    top[9], top[10] = end("NB4", 1), end("NB4", 0)  # f = 8, o = 1: (1,3) gravel, (1,4) pink
    st = nest_stats(top)
    assert pink_columns(st, "tile") == [3, 4]
    assert pink_columns(st, "cell") == [4]
    top[10] = end("T01", 1)  # the pink half covered: no pink at all
    assert pink_columns(nest_stats(top), "tile") == []


def test_eb5_without_pink_counts_doubled_shells():
    # B's EB5: 1 shell doubled by the shell token = 2 > A's 1
    a_nest = [("T01", 0)]
    b_nest = [("T20", 0)]
    s = over(GAME, [a_nest, b_nest], eggs={}, kept=[[], ["EB5"]], tokens={"shell": (1, 1)})
    assert s.score_breakdown()[1]["EB5"] == 1
    s = over(GAME, [a_nest, b_nest], eggs={}, kept=[[], ["EB5"]])
    assert s.score_breakdown()[1]["EB5"] == 0  # 1 vs 1


# ---------------------------------------------------------------- X5 white wildcards
X5_A = [("T23", 6), ("NB1", 14), ("NB2", 27), ("T35", 75)]
X5_B = [("T09", 46), ("T27", 50), ("T20", 0), ("T17", 53)]
X5_EGGS = {3: "E2", 5: "E8"}


def test_x5_white_items_are_wild_for_columns_not_for_egg_tiles():
    s = over(GAME, [X5_A, X5_B], eggs=X5_EGGS, kept=[["EB2"], []])
    a, b = nest_stats(s.top[0]), nest_stats(s.top[1])
    assert (a.column_count(3, 1), b.column_count(3, 1)) == (2, 1)
    assert (a.colour_units(1), b.colour_units(1)) == (3, 3)
    bd = s.score_breakdown()
    assert bd[0]["column_3"] == 1
    assert bd[0]["EB2"] == 0
    assert bd[1]["column_5"] == 1  # 0 < 1 before the token


def test_x5_white_flower_token():
    s = last_turn_keep(GAME, [X5_A, X5_B], 0, ["TK3", "EB1"], eggs=X5_EGGS, kept=[["EB2"], []])
    s.step(KEEP + 0)
    # A's cells with flowers: (2,3) fl-white, (2,4) fl-white, (2,5) fl-blue, (3,5) fl-yellow
    assert legal(s) == [PASS, TARGET + 15, TARGET + 16, TARGET + 17, TARGET + 23]
    s.step(TARGET + 23)
    a = nest_stats(s.top[0], white_flower_cell=23)
    assert a.column_count(5, 8) == 2 and a.colour_units(1) == 1
    bd = s.score_breakdown()
    assert bd[0]["column_5"] == 1 and bd[1]["column_5"] == 0
    assert bd[0]["column_3"] == 1 and bd[0]["EB2"] == 0


def test_white_feather_token_tk2():
    # A's (0,1) straw [fe-red, fe-red] becomes 2 wild feathers: column 1 asks fe-yellow
    a_nest = [("T22", 1)]
    b_nest = [("T23", 10), ("T16", 2)]  # B: (1,0) straw fe-yellow in column 0 only
    s = last_turn_keep(GAME, [a_nest, b_nest], 0, ["TK2"], eggs={1: "E2"}, kept=[["EB1"], []])
    s.step(KEEP + 0)
    assert legal(s) == [PASS, TARGET + 0, TARGET + 1]  # (0,0) fe-blue, (0,1) fe-red x2
    s.step(TARGET + 1)
    bd = s.score_breakdown()
    assert bd[0]["column_1"] == 1  # 2 wild vs B's (0,1) fe-red, (1,1) fe-red: 0 yellow
    assert bd[0]["EB1"] == 0  # A's red now 0 < B's 2


# ---------------------------------------------------------------- X6 X token
X6_A = [("T22", 1), ("T30", 12)]
X6_B = [("T16", 2), ("T23", 10)]


def test_x6_before_the_x():
    s = over(GAME, [X6_A, X6_B], eggs={1: "E1"}, kept=[["EB1"], []])
    bd = s.score_breakdown()
    assert bd[0]["column_1"] == 1 and bd[0]["EB1"] == 1  # 3 > 2 and red 3 > 2


@pytest.mark.parametrize("x_cancels, col1", [("cell", (0, 1)), ("one", (0, 0))])
def test_x6_x_token(x_cancels, col1):
    game = BowerGame(x_cancels=x_cancels)
    s = last_turn_keep(game, [X6_A, X6_B], 1, ["EB3", "TK1"], eggs={1: "E1"}, kept=[["EB1"], []])
    s.step(KEEP + 1)
    own = [TARGET + c for c in (1, 2, 6, 7)]
    other = [TARGET + 24 + c for c in (0, 1, 7, 8)]
    assert legal(s) == [PASS, *own, *other]
    s.step(495)
    bd = s.score_breakdown()
    assert (bd[0]["column_1"], bd[1]["column_1"]) == col1
    a = nest_stats(s.top[0], x_cell=1, x_cancels=x_cancels)
    assert a.colour_units(0) == (1 if x_cancels == "cell" else 2)
    assert bd[0]["EB1"] == 0  # 1 (or 2) red is not more than B's 2


# ------------------------------------------------------------------ more §6 cases
def test_x_cancels_white_feathers_too():
    # Column 0 asks fe-red. A: NB1 H(0,0)-(0,1): (0,0) straw [fe-white]. B: T16 H(0,0)-(0,1):
    # (0,0) straw [fe-red]. 1-1, shells 0-0: nobody. With B's X on A's (0,0): 0-1, B wins.
    nests = [[("NB1", 0)], [("T16", 0)]]
    s = over(GAME, nests, {0: "E1"})
    bd = s.score_breakdown()
    assert bd[0]["column_0"] == bd[1]["column_0"] == 0
    s = over(GAME, nests, {0: "E1"}, kept=[[], ["TK1"]], tokens={"x": (0, 0)})
    bd = s.score_breakdown()
    assert (bd[0]["column_0"], bd[1]["column_0"]) == (0, 1)


def test_eb5_holder_with_pink_gains_despite_fewer_shells():
    # §6.4 EB5: if either player has pink, the holder gains iff it has pink.
    # A: NB4 H(0,0)-(0,1): moss [shell-pink], gravel [gem] -> 1 shell, pink.
    # B: T36 H(0,0)-(0,1): moss [fl-yellow, shell], gravel [gem, shell] -> 2 shells.
    s = over(GAME, [[("NB4", 0)], [("T36", 0)]], {}, kept=[["EB5"], []])
    bd = s.score_breakdown()
    assert bd[0]["EB5"] == 1 and bd[1]["EB5"] == 0


def test_equal_eggs_without_pink_is_a_draw():
    # Empty nests: every material 0-0, every column 0-0 -> 0 eggs each, no pink: draw.
    s = over(GAME, [[], []], {})
    assert s.scores() == [0.0, 0.0] and s.winner() == -1 and s.returns() == [0.0, 0.0]
    s = over(BowerGame(reward="egg_diff"), [[], []], {})
    assert s.returns() == [0.0, 0.0]


def test_earth_gems_count_for_columns_and_earth_never_for_materials():
    # A: NB3 V(0,0)-(1,0): earth [gem], earth [shell]. B: nothing. Materials 0-0: nobody.
    # Column 0 asks fl-red: 0-0, nobody (shells do not matter at 0-0 by default).
    s = over(GAME, [[("NB3", 40)], []], {0: "E5"})
    assert s.scores() == [0.0, 0.0]
    s = over(BowerGame(column_zero_tie="tiebreak"), [[("NB3", 40)], []], {0: "E5"})
    assert s.score_breakdown()[0]["column_0"] == 1  # 0-0 tie broken by A's shell


# ------------------- against an independent reference (§6 scoring, §5.1 gem triggers)
_RAW = load_raw()


_CELLS = [t["cells"] for t in _RAW["nest_tiles"]] + [
    b["cells"] for b in _RAW["bonus_tiles"] if b["kind"] == "nest"
]


_COLOURS = ("red", "yellow", "blue", "purple")


def _near(i):
    r, c = divmod(i, 6)
    return [6 * rr + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < 4 and 0 <= cc < 6]  # fmt: skip


def _groups(top, branch):
    mat = {i: _CELLS[top[i] // 2][top[i] % 2]["mat"] for i in range(24) if top[i] >= 0}
    link = {}
    if branch is not None:
        (r, c), o = divmod(branch[0], 6), branch[1]
        ends = ((r, c - 1), (r, c + 1)) if o == 0 else ((r - 1, c), (r + 1, c))
        if all(0 <= rr < 4 and 0 <= cc < 6 for rr, cc in ends):
            a, b = (6 * rr + cc for rr, cc in ends)
            if a in mat and b in mat and mat[a] == mat[b]:
                link = {a: b, b: a}
    out, seen = [], set()
    for i in sorted(mat):
        if i in seen or mat[i] == "earth":
            continue
        comp, todo = {i}, [i]
        while todo:
            x = todo.pop()
            for y in _near(x) + ([link[x]] if x in link else []):
                if y in mat and mat[y] == mat[i] and y not in comp:
                    comp.add(y)
                    todo.append(y)
        seen |= comp
        out.append((mat[i], comp))
    return out


def _gems(top, i):
    return 0 if top[i] < 0 else _CELLS[top[i] // 2][top[i] % 2]["items"].count("gem")


def _ref_conditions(top, branch, col_flags, cell_flags):
    cols = sum(
        1 << c for c in range(6)
        if not col_flags >> c & 1 and sum(_gems(top, 6 * r + c) for r in range(4)) >= 3
    )  # fmt: skip
    cells = 0
    for _m, g in _groups(top, branch):
        if sum(_gems(top, i) for i in g) >= 3 and not any(cell_flags >> i & 1 for i in g):
            cells |= sum(1 << i for i in g)
    return cols, cells


def _ref_nest(top, tok, x_cancels):
    cells = []
    for i in range(24):
        if top[i] < 0:
            cells.append(None)
            continue
        items = list(_CELLS[top[i] // 2][top[i] % 2]["items"])
        ff = [k for k in items if k[:3] in ("fe-", "fl-")]
        if tok.get("x") == i and ff:
            items = [k for k in items if k not in ff] if x_cancels == "cell" else items
            if x_cancels == "one":
                items.remove(ff[0])
        wfe = tok.get("white_feather") == i
        wfl = tok.get("white_flower") == i
        cell = {"fe": 0, "fl": 0, "col": [], "pink": "shell-pink" in items,
                "nb4": top[i] // 2 == 39}  # fmt: skip
        for k in items:
            wild = (k[:3] == "fe-" and wfe) or (k[:3] == "fl-" and wfl)
            if k in ("fe-white", "fl-white") or wild:
                cell[k[:2]] += 1
            elif k[:3] in ("fe-", "fl-"):
                cell["col"].append(k)
        shells = items.count("shell") + items.count("shell-pink")
        cell["shells"] = 2 * shells if tok.get("shell") == i else shells
        cells.append(cell)
    groups = _groups(top, tok.get("branch"))
    size = {m: max([len(g) for mm, g in groups if mm == m], default=0)
            for m in ("straw", "moss", "gravel")}  # fmt: skip
    largest = {m: [g for mm, g in groups if mm == m and len(g) == size[m]] for m in size}
    pink = [i for i, x in enumerate(cells) if x and x["pink"]]
    nb4 = sorted({i % 6 for i, x in enumerate(cells) if x and x["nb4"]})
    return {"cells": cells, "size": size, "largest": largest, "pink": pink, "nb4": nb4}


def _ref_score(tops, toks, codes, egg_tiles, o):
    n = [_ref_nest(tops[q], toks[q], o["x_cancels"]) for q in (0, 1)]
    out = [{}, {}]

    def give(q, k):
        out[q][k] = out[q].get(k, 0) + 1

    ps = 0 if n[0]["pink"] else 1 if n[1]["pink"] else None
    for m in ("straw", "moss", "gravel"):
        a, b = n[0]["size"][m], n[1]["size"][m]
        if a != b:
            give(0 if a > b else 1, m)
        elif a:
            w = None
            if (
                m == "moss"
                and ps is not None
                and (
                    o["pink_moss_scope"] == "any"
                    or any(n[ps]["pink"][0] in g for g in n[ps]["largest"]["moss"])
                )
            ):
                w = ps
            if w is None and o["material_tie"] == "shells_in_group":
                sa, sb = (max(sum(n[q]["cells"][i]["shells"] for i in g)
                              for g in n[q]["largest"][m]) for q in (0, 1))  # fmt: skip
                w = None if sa == sb else 0 if sa > sb else 1
            if w is not None:
                give(w, m)

    def pcols(q):
        if not n[q]["pink"]:
            return []
        return [n[q]["pink"][0] % 6] if o["pink_column_scope"] == "cell" else n[q]["nb4"]

    for c in range(6):
        code = codes[c]
        cnt, sh = [], []
        for q in (0, 1):
            col = [n[q]["cells"][6 * r + c] for r in range(4) if n[q]["cells"][6 * r + c]]
            cnt.append(sum(x["col"].count(code) + x[code[:2]] for x in col))
            sh.append(sum(x["shells"] for x in col))
        if cnt[0] != cnt[1]:
            w = 0 if cnt[0] > cnt[1] else 1
            give(w, f"column_{c}")
            if o["single_item_bonus"] and sorted(cnt) == [0, 1]:
                give(w, "single_item")
        elif cnt[0] or o["column_zero_tie"] == "tiebreak":
            if c in pcols(0) or c in pcols(1):
                give(0 if c in pcols(0) else 1, f"column_{c}")
            elif sh[0] != sh[1]:
                give(0 if sh[0] > sh[1] else 1, f"column_{c}")
            elif o["pink_column_scope"] == "all" and ps is not None:
                give(ps, f"column_{c}")
    for q in (0, 1):
        for eb in egg_tiles[q]:
            k = int(eb[2]) - 1
            if k < 4:
                h = _COLOURS[k]
                mine, theirs = (sum(x["col"].count("fe-" + h) + x["col"].count("fl-" + h)
                                    for x in n[s]["cells"] if x) for s in (q, 1 - q))  # fmt: skip
                gain = mine > theirs
            elif ps is not None:
                gain = ps == q
            else:
                gain = sum(x["shells"] for x in n[q]["cells"] if x) > sum(
                    x["shells"] for x in n[1 - q]["cells"] if x
                )
            if gain:
                give(q, eb)
    return out, ps


def _tokens(s, q):
    out = {}
    for k, name in enumerate(TOKEN_NAMES):
        if s.tok_status[k] == 1 and s.tok_seat[k] == q:
            out[name] = (s.tok_cell[k], s.branch_orient) if name == "branch" else s.tok_cell[k]
    return out


_VARIANTS = [
    {},
    {"x_cancels": "one", "pink_column_scope": "all", "pink_moss_scope": "in_group",
     "column_zero_tie": "tiebreak", "material_tie": "shells_in_group", "single_item_bonus": True},
    {"pink_column_scope": "cell", "flag_all_triggers": False, "double_turn_mode": "swap"},
]  # fmt: skip


@pytest.mark.parametrize("variant", range(len(_VARIANTS)))
def test_engine_matches_an_independent_reference(variant):
    game = BowerGame(**_VARIANTS[variant])
    o = game.options
    for seed in range(60):
        s = game.new_state(500 + seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            ids = legal(s)
            a = ACCEPT if ACCEPT in ids and rng.random() < 0.9 else int(rng.choice(ids))
            was_play, p = phase(s) == "play", s.turn_player
            if was_play:
                flags = (s.col_flags[p], s.cell_flags[p])
                branch = _tokens(s, p).get("branch")
            s.step(a)
            if was_play:  # §5.1 after the placement, against the flags before it
                cols, cells = _ref_conditions(s.top[p], branch, *flags)
                assert s.conditions == (cols, cells) or not (cols or cells)
                if o["flag_all_triggers"]:
                    assert (s.col_flags[p], s.cell_flags[p]) == (flags[0] | cols, flags[1] | cells)
                drawable = bool(s.bonus_deck or s.bonus_discard or s.drawn)
                assert (phase(s) in ("bonus", "keep")) == bool((cols or cells) and drawable)
        codes = [CODES[EGG_CODES[s.eggs[c]]] for c in range(6)]
        eggs = [[BONUS_IDS[b] for b in s.kept[q] if BONUS_IDS[b][:2] == "EB"] for q in (0, 1)]
        ref, ps = _ref_score(s.top, [_tokens(s, 0), _tokens(s, 1)], codes, eggs, o)
        bd = s.score_breakdown()
        for q in (0, 1):
            assert {k: v for k, v in bd[q].items() if v} == ref[q]
        a, b = (sum(r.values()) for r in ref)
        assert s.winner() == ((0 if a > b else 1) if a != b else (-1 if ps is None else ps))
