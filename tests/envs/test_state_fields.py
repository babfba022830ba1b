"""Every game's State declares its fields once (``envs.core.fields``): after random play a state
has exactly the declared attributes (slots, no ``__dict__``, so no helper can add one), a clone
shares no mutable field with its original, ``to_dict`` writes exactly the declared keys, and a
loaded state's fields hold what their copy kinds need."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.fields import COPY, SHARED, Fields
from tablezoo.envs.core.game import State
from tests.envcases import case_id

GAMES = 4  # seeded random games per variant


def _cases() -> list:
    return [pytest.param(name, options, id=case_id(name, options))
            for name in envs.ENVS for options in envs.VARIANTS[name]]


def _slots(cls: type) -> set[str]:
    return {s for klass in cls.__mro__ for s in klass.__dict__.get("__slots__", ())}


def _check(state: State, fields: Fields) -> None:
    assert not hasattr(state, "__dict__"), "a State keeps its fields in slots only"
    clone = state.clone()
    assert fields.check_clone(state, clone) == []
    saved = state.to_dict()
    assert all(k in fields.keys for k in saved)
    assert [k for k in fields.keys if k in saved] == list(saved), "keys in declared order"
    assert all(k in saved for k in fields.required_keys)
    # the clone is a separate position: playing it on leaves the original as it was
    before = json.dumps(saved)
    if not clone.is_over():
        rng = np.random.default_rng(0)
        clone.apply({p: int(rng.choice(np.flatnonzero(clone.legal_mask(p))))
                     for p in clone.acting_players()})
        assert json.dumps(state.to_dict()) == before


@pytest.mark.parametrize(("name", "options"), _cases())
def test_declared_fields(name, options):
    game = envs.make_game(name, **options)
    for seed in range(GAMES):
        state = game.new_state(seed)
        cls = type(state)
        fields = cls.FIELDS
        assert isinstance(fields, Fields)
        assert _slots(cls) == set(fields.slots), "every slot is a declared field"
        rng = np.random.default_rng(seed)
        step = 0
        while True:
            if step % 5 == 0 or state.is_over():
                _check(state, fields)
                loaded = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
                _check(loaded, fields)
            if state.is_over():
                break
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))
                         for p in state.acting_players()})
            step += 1


def test_the_checks_catch_a_wrong_declaration():
    """A list declared SHARED (aliased between clones) or a list of lists declared COPY (its
    items aliased) is reported; a field holding what its kind cannot copy is refused on load."""
    game = envs.make_game("bauer_trick_v0")
    state = game.new_state(1)
    for _ in range(12):
        state.step(state.legal_actions(state.acting_players()[0])[0])
    declared = type(state).FIELDS
    kinds = {"points": SHARED, "trick_history": COPY}
    wrong = Fields(*(replace(f, copy=kinds.get(f.name, f.copy)) for f in declared.fields))
    problems = wrong.check_clone(state, wrong.clone_method()(state))
    assert problems == ["points is SHARED but holds a mutable list",
                        "trick_history is COPY but holds mutable items (use ITEMS)"]
    state.tricks = tuple(state.tricks)
    with pytest.raises(StateFormatError, match="field tricks holds a tuple"):
        declared.check_types(state, "bauer_trick state")
