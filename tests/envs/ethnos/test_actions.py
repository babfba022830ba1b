"""Illegal actions of ethnos_v0 refused by name, the state unchanged."""

from __future__ import annotations

import pytest

from tablezoo.envs.core.errors import IllegalActionError
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import SKELETON, TYPE_NAMES
from tests.envs.ethnos.positions import A, B, build, make_game


def test_illegal_action_names_problem_and_leaves_state_unchanged():
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"])
    s = build(g, hands={A: ["red Orc"]})
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=r"LEADER\[blue Elf\].*legal actions"):
        s.step(enc.LEADER + TYPE_NAMES.index("blue Elf"))
    with pytest.raises(IllegalActionError):
        s.apply({B: enc.RECRUIT_DECK})
    with pytest.raises(IllegalActionError):
        s.step(enc.LEADER + SKELETON)
    with pytest.raises(IllegalActionError):
        s.step(999)
    assert s.to_dict() == before
