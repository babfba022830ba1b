"""Rules-fidelity review of ``bower_v0`` against ``shared/rules/bower.md``.

Every expected number here was worked out by hand from the spec (the section is named in each
test), not by running the engine. The last test compares the engine's end scoring and gem
triggers with a small independent re-implementation of §5.1 and §6 written from the spec text
(straight loops over the components' JSON, no engine tables) over seeded random games.
"""

import numpy as np
import pytest
from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COVER,
    DISPLAY,
    HAND,
    KEEP,
    PASS,
    PHASES,
    PLAY,
    TARGET,
)
from tablezoo.envs.bower.components import (
    BONUS_IDS,
    BONUS_INDEX,
    CODES,
    EGG_CODES,
    TILE_INDEX,
    TOKEN_NAMES,
    load_raw,
)
from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame

GAME = BowerGame()
T = TILE_INDEX
B = BONUS_INDEX


def legal(state):
    return np.flatnonzero(state.legal_mask(state.actor)).tolist()


def phase(state):
    return PHASES[state.phase]


def piece(state, seat, name):
    return OBS_SPEC.view(state.observe(seat), name)


def keep_position(drawn, seat=0, game=GAME, **kw):
    """``seat`` triggered a bonus and drew ``drawn``; it must KEEP one now."""
    kw.setdefault("hands", [["T05"], ["T34"]])
    kw.setdefault("hand_limits", [1, 1])
    kw.setdefault("turns", [4, 4] if seat == 0 else [5, 4])
    kw.setdefault("start_player", 0)
    kw.setdefault("nests", [[("T01", 0)], [("T02", 0)]])
    return build_state(game, phase="keep", turn_player=seat, bonus_drawn=drawn, **kw)


def finish_turns_of(state, seat):
    """Play ``seat``'s current turn(s) with the first legal action, declining every option."""
    while not state.is_terminal() and state.turn_player == seat:
        ids = legal(state)
        state.step(PASS if PASS in ids else ids[0])


# ------------------------------------------------------------------ §2 setup and draft
def test_new_state_setup():
    starts = set()
    for seed in range(40):
        s = GAME.new_state(seed)
        starts.add(s.start)
        assert sorted(s.eggs) == list(range(8))  # 6 on the columns, 2 removed
        assert sorted(s.col_owner) == [0, 0, 0, 1, 1, 1]
        assert len(set(s.display)) == 3 and min(s.display) >= 0
        assert len(s.stack) == 33 and len(set(s.stack) | set(s.display)) == 36
        assert sorted(s.bonus_deck) == list(range(20)) and s.bonus_discard == []
        assert s.tok_status == [0] * 5
        assert s.hands == [[], []] and s.limits == [1, 1] and s.turns == [0, 0]
        assert s.extra == [False, False] and s.forced == [-1, -1]
        assert phase(s) == "draft" and s.acting_players() == (s.start,)
        assert legal(s) == [DISPLAY, DISPLAY + 1, DISPLAY + 2]
    assert starts == {0, 1}


def test_draft_then_refill_in_increasing_slot_order():
    # §2.5: start player (seat 1) takes slot 2, the other takes slot 0 of the remaining two;
    # then slot 0 is refilled first (stack top T11), slot 2 second (T10).
    s = build_state(
        GAME,
        nests=[[], []],
        hands=[[], []],
        display=["T01", "T02", "T03"],
        stack_top=["T10", "T11"],
        phase="draft",
        turn_player=1,
        start_player=1,
        turns=[0, 0],
        hand_limits=[1, 1],
    )
    s.step(DISPLAY + 2)
    assert s.hands[1] == [T["T03"]] and s.actor == 0
    assert legal(s) == [DISPLAY, DISPLAY + 1]
    s.step(DISPLAY + 0)
    assert s.hands[0] == [T["T01"]]
    assert s.display == [T["T11"], T["T02"], T["T10"]]
    assert phase(s) == "take" and s.turn_player == 1 and s.turns == [0, 0]  # §3.1 start first


def test_take_refills_the_slot_from_the_stack_top():
    s = build_state(
        GAME,
        nests=[[], []],
        hands=[["T05"], ["T06"]],
        display=["T01", "T02", "T03"],
        stack_top=["T10", "T11"],
        phase="take",
        turn_player=0,
        start_player=0,
        turns=[1, 1],
    )
    s.step(DISPLAY + 1)
    assert s.hands[0] == [T["T05"], T["T02"]]  # new tile in the newest slot
    assert s.display == [T["T01"], T["T11"], T["T03"]]
    assert phase(s) == "play"


# ------------------------------------------------------------------ §3.1 turn order
def test_plain_alternation_from_the_start_player():
    game = BowerGame(bonus_tiles=False)  # no IA3 can change the order
    for seed in range(6):
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        order = []
        while not s.is_terminal():
            before = list(s.turns)
            s.step(int(rng.choice(legal(s))))
            order += [q for q in (0, 1) if s.turns[q] != before[q]]
        first = s.start
        assert order == [first, 1 - first] * 12


@pytest.mark.parametrize("opp_turns, asks", [(10, True), (11, False)])
def test_double_turn_boundary(opp_turns, asks):
    # §5.3 IA3: no effect if O has played 11 or 12 turns; at 10 it still applies.
    s = keep_position(
        ["IA3"], turns=[opp_turns, opp_turns], start_player=1, hands=[[], []], hand_limits=[0, 0]
    )
    s.step(KEEP)
    assert (phase(s) == "double_ask") == asks
    if asks:
        s.step(ACCEPT)
        assert s.turn_player == 1
        finish_turns_of(s, 1)
        assert s.turns == [opp_turns + 1, opp_turns + 2]  # B played two turns in a row


@pytest.mark.parametrize("opp_turns, asks", [(11, True), (12, False)])
def test_force_boundary(opp_turns, asks):
    # §5.3 IA2: no effect only when O has played 12 turns.
    s = keep_position(["IA2"], seat=1, turns=[opp_turns, 11], hands=[["T05"], []],
                      hand_limits=[1, 0], start_player=1)  # fmt: skip
    s.step(KEEP)
    assert (phase(s) == "force") == asks


# ------------------------------------------------------------------ §3.3 hands
def test_discarded_forced_tile_leaves_limit_plus_one_until_next_hand_check():
    # §3.3 exception: A holds [T05, T11 forced] with limit 1; B (two turns in a row) keeps
    # IA4 and A discards the forced T11: A holds 1 tile with limit 0. On A's next turn A takes
    # normally (2 tiles), plays one (1 tile) and must discard the last one (1 > 0).
    s = keep_position(
        ["IA4"],
        seat=1,
        hands=[["T05", "T11"], []],
        hand_limits=[1, 0],
        forced=["T11", None],
        extra_turn=[False, True],
    )
    s.step(KEEP)
    s.step(ACCEPT)
    s.step(HAND + 1)
    assert s.hands[0] == [T["T05"]] and s.limits[0] == 0 and s.forced[0] == -1
    finish_turns_of(s, 1)  # B's extra turn
    assert s.turn_player == 0 and phase(s) == "take"
    s.step(DISPLAY)
    assert len(s.hands[0]) == 2
    s.step(legal(s)[0])
    if phase(s) == "bonus":
        s.step(PASS)
    assert phase(s) == "hand" and s.actor == 0 and legal(s) == [HAND]
    s.step(HAND)
    assert s.hands[0] == [] and s.turn_player == 1


def test_nest_bonus_limit_and_discard_limit_floor():
    # §3.3: +1 per nest bonus tile kept, -1 per discard suffered, never below 0.
    s = keep_position(["IA4"], seat=1, hands=[["T05"], []], hand_limits=[1, 0])
    s.step(KEEP)
    s.step(ACCEPT)
    s.step(HAND)
    assert s.limits[0] == 0
    s = keep_position(["NB3"], hands=[["T05"], ["T34"]], hand_limits=[1, 1])
    s.step(KEEP)
    assert s.limits == [2, 1] and s.hands[0] == [T["T05"], T["NB3"]]


# ------------------------------------------------------------------ §5.1 triggers
def test_cover_is_not_a_trigger_the_next_placement_is():
    # A: T12 V(0,2)-(1,2): (0,2) gravel [fl-red, gem], (1,2) gravel [gem]; T03 H(2,2)-(2,3):
    # straw [fl-blue], straw [fl-yellow]. Column 2 holds 2 gems. A keeps IA1 and covers
    # (1,2)-(2,2) with T07, o = 1: (2,2) moss [gem, gem], (1,2) moss [fe-red]. Column 2 now
    # holds 1 + 0 + 2 = 3 gems, but a Cover triggers nothing; A's next placement pays.
    s = keep_position(
        ["IA1"],
        nests=[[("T12", 44), ("T03", 24)], [("T02", 0)]],
        hands=[["T20"], ["T34"]],
        stack_top=["T07"],
        bonus_deck_top=["EB1", "EB2", "EB3"],
    )
    s.step(KEEP)
    s.step(ACCEPT)
    assert s.cover_tile == T["T07"]
    s.step(COVER + 2 * 28 + 1)
    assert s.col_flags[0] == 0 and s.turn_player == 1  # no bonus step
    finish_turns_of(s, 1)
    assert s.turn_player == 0
    s.step(DISPLAY)
    # T20 (straw [fl-yellow] / moss [shell]) on H(0,0)-(0,1): no gem, column 2 untouched
    s.step(PLAY + 0)
    assert phase(s) == "bonus"
    assert s.col_flags[0] == 1 << 2


def test_branch_with_an_empty_end_links_once_the_end_is_filled():
    # A: T01 V(0,0)-(1,0): straw [fe-red, gem], straw [shell]; T05 V(0,1)-(1,1): moss
    # [fe-blue, gem], moss [fe-purple]; branch on (1,1) horizontal: ends (1,0) straw and (1,2)
    # empty. A plays T04 V(1,2)-(2,2): straw [fl-red, gem], straw [fl-purple, gem]. Through the
    # branch the straw group {(0,0),(1,0),(1,2),(2,2)} holds 3 gems: one bonus. Without the
    # branch the groups hold 1 and 2 gems and no column reaches 3: nothing.
    for branch, expect in ((True, "bonus"), (False, "take")):
        s = build_state(
            GAME,
            nests=[[("T01", 40), ("T05", 42)], [("T02", 0)]],
            hands=[["T04"], ["T34"]],
            hand_limits=[0, 1],
            phase="play",
            turn_player=0,
            start_player=0,
            turns=[3, 3],
            bonus_kept=[["TK5"] if branch else [], []],
            tokens={"branch": (0, 7, 0)} if branch else None,
        )
        s.step(PLAY + 2 * 28)
        assert phase(s) == expect
        if branch:
            assert s.cell_flags[0] == (1 << 0) | (1 << 6) | (1 << 8) | (1 << 14)
            assert s.col_flags[0] == 0


def test_branch_targets_need_an_occupied_base_and_both_ends_inside():
    # §5.3 TK5 on A's nest T01 H(0,0)-(0,1): (0,0) has no left end and no upper end; (0,1)
    # horizontal has ends (0,0) and (0,2) (empty is allowed); vertical on row 0 is off-grid.
    s = keep_position(["TK5"])
    s.step(KEEP)
    assert phase(s) == "branch"
    assert legal(s) == [PASS, BRANCH + 2 * 1 + 0]


def test_x_targets_white_items_in_either_nest_but_not_gem_only_cells():
    # §5.3 TK1: a visible cell holding >= 1 feather/flower unit, white included.
    # A: NB1 H(0,0)-(0,1): straw [fe-white], moss [fe-white]; T12 V(0,2)-(1,2): gravel
    # [fl-red, gem], gravel [gem]. B: T25 H(0,0)-(0,1): straw [gem], gravel [fe-blue, gem].
    s = keep_position(
        ["TK1"],
        nests=[[("NB1", 0), ("T12", 44)], [("T25", 0)]],
        bonus_kept=[["NB1"], []],
        hand_limits=[2, 1],
    )
    s.step(KEEP)
    assert legal(s) == [PASS, TARGET + 0, TARGET + 1, TARGET + 2, TARGET + 24 + 1]


# ------------------------------------------------------------------ §6 scoring
def over(game, nests, eggs, kept=None, tokens=None):
    return build_state(
        game, nests=nests, hands=[[], []], hand_limits=[0, 0], phase="over", turn_player=0,
        turns=[12, 12], bonus_kept=kept or [[], []], eggs=eggs, tokens=tokens,
    )  # fmt: skip


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


# ------------------------------------------------------------------ §7 observation
def test_the_effect_being_decided_is_observed_by_both():
    # A kept TK2 earlier and passed (the white-feather token is still in the supply); now A
    # keeps TK3. Both tokens are unused, so only the effect piece says which one A places.
    s = keep_position(
        ["TK3", "EB1"],
        nests=[[("T03", 0)], [("T02", 0)]],  # A: straw [fl-blue], straw [fl-yellow]
        bonus_kept=[["TK2"], []],
    )
    assert piece(s, 0, "effect").sum() == 0
    s.step(KEEP)
    assert phase(s) == "token"
    for seat in (0, 1):
        eff = piece(s, seat, "effect")
        assert np.flatnonzero(eff).tolist() == [B["TK3"]]
    s.step(TARGET + 0)
    assert piece(s, 0, "effect").sum() == 0 and piece(s, 1, "effect").sum() == 0


def test_covered_tiles_are_observed():
    # X7: T01 at p 0 and T07 at p 10; cover (0,1)-(1,1) with T34: T01's (0,1) and T07's
    # (1,1) disappear under T34, so T01 and T07 are covered tiles (public: both were seen).
    s = keep_position(
        ["IA1"],
        nests=[[("T01", 0), ("T07", 10)], [("T02", 0)]],
        hands=[["T05"], ["T31"]],
        stack_top=["T34"],
    )
    s.step(KEEP)
    s.step(ACCEPT)
    for seat in (0, 1):
        assert piece(s, seat, "covered_tiles").sum() == 0
    s.step(608)
    for seat in (0, 1):
        covered = np.flatnonzero(piece(s, seat, "covered_tiles")).tolist()
        assert covered == [T["T01"], T["T07"]]


def test_determinize_keeps_own_discards_and_draw_resamples_the_opponents():
    # §7: the bonus discard pile is face down; each player knows only its own discards; the 3
    # tiles of a draw are seen by the drawer only.
    s = keep_position(
        ["EB1", "EB2", "EB3"],
        seat=1,
        bonus_discard=[["SP1", 0], ["SP2", 0], ["TK1", 1], ["TK2", 1]],
    )
    hidden_a = sorted(s.bonus_deck + s.drawn + [B["TK1"], B["TK2"]])
    draws = set()
    for k in range(25):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.bonus_discard[:2] == [B["SP1"], B["SP2"]] and d.discard_by == s.discard_by
        assert sorted(d.bonus_deck + d.drawn + d.bonus_discard[2:]) == hidden_a
        assert len(d.drawn) == 3 and len(d.bonus_deck) == len(s.bonus_deck)
        draws.add(tuple(d.drawn))
        e = s.determinize(1, np.random.default_rng(k))
        assert e.drawn == s.drawn and e.bonus_discard[2:] == [B["TK1"], B["TK2"]]
    assert len(draws) > 1


@pytest.mark.parametrize("public", [True, False])
def test_determinize_redeals_hidden_opponent_hands(public):
    # §9 hands_public=False: only hand sizes are public, so A's determinization re-deals B's
    # nest tiles (T05, forced T11) with the stack; B's NB2 is known (kept record, not placed).
    # A's own hand never changes; with public hands nothing in the hands changes.
    s = build_state(
        BowerGame(hands_public=public),
        nests=[[("T01", 0)], [("T02", 0)]],
        hands=[["T06"], ["T05", "NB2", "T11"]],
        forced=[None, "T11"],
        hand_limits=[1, 2],
        phase="take",
        turn_player=0,
        start_player=0,
        turns=[5, 5],
    )
    unseen = sorted(s.stack + [T["T05"], T["T11"]])
    hands_seen = set()
    for k in range(25):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.hands[0] == [T["T06"]] and len(d.hands[1]) == 3
        assert d.hands[1][1] == T["NB2"] and d.forced[1] == d.hands[1][2]
        assert np.array_equal(d.observe(0), s.observe(0))
        if public:
            assert d.hands[1] == s.hands[1] and d.forced == s.forced
        else:
            assert sorted(d.stack + [d.hands[1][0], d.hands[1][2]]) == unseen
        hands_seen.add(tuple(d.hands[1]))
    assert (len(hands_seen) > 1) == (not public)


# ------------------------------------------------------------------ independent reference
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
