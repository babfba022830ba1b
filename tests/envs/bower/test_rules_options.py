"""Every option of spec §9 changes what the spec says it changes (built positions)."""

import numpy as np
import pytest

from tablezoo.envs.bower.actions import DISPLAY, KEEP
from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame


def over(game, nests, eggs, kept=None):
    return build_state(
        game, nests=nests, hands=[[], []], hand_limits=[0, 0], phase="over", turn_player=0,
        turns=[12, 12], bonus_kept=kept or [[], []], eggs=eggs,
    )  # fmt: skip


# A: (0,2) straw fl-blue, (0,3) straw fl-yellow, NB4 horizontal: (1,3) gravel gem, (1,4) pink.
# B: (0,1) straw fe-red, (0,2) moss fl-blue, (0,3) moss [fl-yellow, shell], (0,4) gravel.
PINK_A = [("T03", 4), ("NB4", 17)]
PINK_B = [("T16", 2), ("T36", 6)]
PINK_EGGS = {2: "E7", 3: "E6"}


@pytest.mark.parametrize(
    "scope, col2, col3",
    [("tile", None, 0), ("cell", None, 1), ("all", 0, 0)],
)
def test_pink_column_scope(scope, col2, col3):
    s = over(BowerGame(pink_column_scope=scope), [PINK_A, PINK_B], PINK_EGGS)
    bd = s.score_breakdown()
    # column 2: fl-blue 1-1, shells 0-0; column 3: fl-yellow 1-1, shells A 0 < B 1
    got2 = [q for q in (0, 1) if bd[q]["column_2"]]
    got3 = [q for q in (0, 1) if bd[q]["column_3"]]
    assert got2 == ([] if col2 is None else [col2])
    assert got3 == [col3]


@pytest.mark.parametrize("scope, moss", [("any", [1, 0]), ("in_group", [0, 0])])
def test_pink_moss_scope(scope, moss):
    a = [("NB4", 49), ("T05", 0)]  # pink (1,4) alone; moss group (0,0)-(0,1) of 2
    b = [("T06", 0)]  # moss group of 2
    s = over(BowerGame(pink_moss_scope=scope), [a, b], {})
    bd = s.score_breakdown()
    assert [bd[0]["moss"], bd[1]["moss"]] == moss


@pytest.mark.parametrize("rule, straw", [("nobody", [0, 0]), ("shells_in_group", [0, 1])])
def test_material_tie(rule, straw):
    s = over(BowerGame(material_tie=rule), [[("T03", 0)], [("T01", 0)]], {})
    bd = s.score_breakdown()
    assert [bd[0]["straw"], bd[1]["straw"]] == straw


@pytest.mark.parametrize("on", [False, True])
def test_single_item_bonus(on):
    game = BowerGame(single_item_bonus=on)
    s = over(game, [[("T03", 0)], []], {0: "E7", 1: "E6"})  # c0 fl-blue 1-0, c1 fl-yellow 1-0
    assert s.score_breakdown()[0]["column_0"] == 1
    assert s.score_breakdown()[0]["single_item"] == (2 if on else 0)
    s = over(game, [[("T02", 0)], []], {0: "E7"})  # fl-blue 2-0: no extra egg
    assert s.score_breakdown()[0]["single_item"] == 0


def test_egg_columns_alternate():
    game = BowerGame(egg_columns="alternate")
    for seed in range(20):
        s = game.new_state(seed)
        assert s.col_owner == [s.start if c % 2 == 0 else 1 - s.start for c in range(6)]


def test_reward_egg_diff():
    s = over(BowerGame(reward="egg_diff"), [[("T03", 0)], []], {0: "E7", 1: "E6"})
    eggs = s.scores()
    assert eggs[0] - eggs[1] == 3  # c0, c1 and straw
    assert s.returns() == [3.0, -3.0]
    s = over(BowerGame(), [[("T03", 0)], []], {0: "E7", 1: "E6"})
    assert s.returns() == [1.0, -1.0]


def test_hands_public_false_hides_opponent_tiles_only():
    for public in (True, False):
        s = build_state(
            BowerGame(hands_public=public),
            hands=[["T05"], ["T06", "T07"]],
            hand_limits=[1, 2],
            phase="take",
            turn_player=0,
        )
        hands = OBS_SPEC.view(s.observe(0), "hands")
        assert hands[0, 0, 0] == 1 and hands[0, 0, 2:].sum() > 0  # my tile, always
        assert hands[1, :, 0].tolist() == [1, 1, 0, 0, 0, 0]  # opponent's count, always
        assert (hands[1, :, 2:].sum() > 0) == public


def test_forced_fallback_none_behaves_like_any_tile():
    for mode in ("any_tile", "none"):
        s = build_state(
            BowerGame(forced_fallback=mode),
            phase="keep",
            turn_player=1,
            bonus_drawn=["IA2"],
            hands=[["T05"], []],
            hand_limits=[1, 0],
            start_player=0,
            turns=[4, 4],
            display=["T10", "T11", "T12"],
        )
        s.step(KEEP)
        s.step(DISPLAY + 1)
        ids = np.flatnonzero(s.legal_mask(0))
        assert ids.size and ((79 <= ids) & (ids <= 154)).all()
