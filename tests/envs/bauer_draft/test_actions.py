"""Illegal actions of bauer_draft refused by name, the state unchanged."""

from __future__ import annotations

import json

import pytest

from tablezoo.envs.bauer_draft.actions import NUM_ACTIONS
from tablezoo.envs.core.errors import IllegalActionError
from tests.envs.bauer_draft.positions import codes, play, position


def test_illegal_action_names_the_problem_and_changes_nothing():
    st = position(3, hands={0: ["C01", "E02", "E03"]})
    before = json.dumps(st.to_dict(), sort_keys=True)
    others = {1: play(codes(st.hands[1])[0]), 2: play(codes(st.hands[2])[0])}
    with pytest.raises(IllegalActionError, match=r"player_0.*legal actions: 0 \(play C01"):
        st.apply({0: play("E09"), **others})
    assert json.dumps(st.to_dict(), sort_keys=True) == before
    with pytest.raises(IllegalActionError, match="expected one action for each acting player"):
        st.apply({0: play("C01")})
    with pytest.raises(IllegalActionError, match="not an integer"):
        st.apply({0: "C01", 1: 0, 2: 0})
    with pytest.raises(IllegalActionError):
        st.apply({0: NUM_ACTIONS, 1: 0, 2: 0})
    assert json.dumps(st.to_dict(), sort_keys=True) == before
