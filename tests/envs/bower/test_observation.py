"""What each seat of bower_v0 observes (§7): the effect being decided, covered tiles."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.bower.actions import ACCEPT, KEEP, TARGET
from tablezoo.envs.bower.components import BONUS_INDEX
from tests.envs.bower.positions import T, keep_position, phase, piece

B = BONUS_INDEX


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
