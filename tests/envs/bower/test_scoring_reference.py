"""bower_v0's end scoring (§6) and gem triggers (§5.1) against a small re-implementation written
from the rules' text (plain loops over the components' JSON), over seeded random games."""

import numpy as np
import pytest

from tablezoo.envs.bower.actions import ACCEPT
from tablezoo.envs.bower.components import BONUS_IDS, CODES, EGG_CODES, TOKEN_NAMES, load_raw
from tablezoo.envs.bower.rules import BowerGame
from tests.envs.bower.helpers import legal, phase

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
