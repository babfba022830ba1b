"""The action table of bower_v0 (ids and names) and illegal actions refused by name."""

from __future__ import annotations

import pytest

from tablezoo.envs.bower.actions import NUM_ACTIONS, action_name
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.errors import IllegalActionError


def test_action_space_and_names():
    game = BowerGame()
    assert game.num_actions == NUM_ACTIONS == 648
    names = game.action_names()
    assert len(set(names)) == 648
    assert names[0] == "DISPLAY 0" and names[459] == "PASS" and names[460] == "ACCEPT"
    assert names[533] == "BRANCH (1,1) V" and names[608].startswith("COVER V(0,1)-(1,1)")
    assert names[642] == "HAND 0" and names[495] == "TARGET other (0,1)"
    with pytest.raises(ValueError, match="outside"):
        action_name(648)


def test_illegal_actions_name_the_legal_ones():
    s = BowerGame().new_state(0)
    with pytest.raises(IllegalActionError, match=r"legal actions: 0 \(DISPLAY 0\)"):
        s.step(459)
    with pytest.raises(IllegalActionError, match="expected one action"):
        s.apply({1 - s.actor: 0})
    with pytest.raises(IllegalActionError, match="not an integer"):
        s.step(1.5)
