"""Bad input to a vector env changes nothing and says what is wrong: action arrays of the wrong
shape or dtype, an illegal action in one slot, a position of another game or variant, a finished
position; ``make_vector`` names the allowed values of every argument it refuses."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    ResetNeededError,
    StateFormatError,
)
from tablezoo.envs.vector.loop import LoopVectorEnv
from tests.envs.vector.reference import random_legal

B = 6


def started(name="bower_v0", steps=3, **options):
    env = envs.make_vector(name, B, seed=1, backend="python", **options)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(steps):
        obs, mask, seat, *_ = env.step(random_legal(rng, mask))
    return env


def snapshot(env):
    return [*env.observe(), env.state(), [env.get_state(i).to_dict() for i in range(B)]]


def assert_unchanged(env, before):
    after = snapshot(env)
    for x, y in zip(before[:4], after[:4]):
        assert np.array_equal(x, y)
    assert before[4] == after[4]


@pytest.mark.parametrize("actions", [
    np.zeros(B + 1, np.int64), np.zeros((B, 1), np.int64), np.zeros(B, np.float32),
    np.ones(B, bool), [0.0] * B, [True] * B, [[0], [0, 1]], 3, "0" * B,
])
def test_actions_of_the_wrong_shape_or_dtype_are_refused(actions):
    env = started()
    before = snapshot(env)
    with pytest.raises(IllegalActionError, match=re.escape(f"shape ({B},)")):
        env.step(actions)
    assert_unchanged(env, before)


@pytest.mark.parametrize("kind", ["masked", "negative", "too_large"])
def test_an_illegal_action_in_one_slot_steps_no_slot(kind):
    env = started()
    before = snapshot(env)
    mask, seat = before[1], before[2]
    actions = random_legal(np.random.default_rng(3), mask)
    bad = {"masked": int(np.flatnonzero(~mask[4])[0]), "negative": -1,
           "too_large": env.num_actions}[kind]
    actions[4] = bad
    with pytest.raises(IllegalActionError) as caught:
        env.step(actions.tolist() if kind == "negative" else actions)
    message = str(caught.value)
    assert "slot 4" in message and f"player_{seat[4]}" in message and f"action {bad} " in message
    if kind == "masked":
        assert env.game.action_name(bad) in message
    for legal in np.flatnonzero(mask[4]).tolist():
        assert f"{legal} ({env.game.action_name(legal)})" in message
    assert_unchanged(env, before)
    env.step(random_legal(np.random.default_rng(3), mask))  # and it goes on


def test_every_integer_dtype_and_a_list_of_ints_are_taken():
    env = started()
    mask = env.observe()[1]
    for dtype in (np.int8, np.int32, np.uint16, np.int64):
        env2 = started()
        env2.step(random_legal(np.random.default_rng(3), mask).astype(dtype))
    env.step(random_legal(np.random.default_rng(3), mask).tolist())


def test_positions_of_another_game_or_variant_are_refused():
    env = started()
    before = snapshot(env)
    other_game = envs.make_game("ethnos_v0").new_state(0)
    other_variant = envs.make_game("bower_v0", hands_public=False).new_state(0)
    for state, said in [(other_game, "ethnos"), (other_game.to_dict(), "ethnos"),
                        (other_variant, "hands_public"), (other_variant.to_dict(), "hands_public"),
                        ({"game": "bower", "options": {}}, "other options"),
                        ({"game": "bower"}, "slot 2"), ("bower", "State or its to_dict")]:
        with pytest.raises(StateFormatError, match="slot 2") as caught:
            env.set_state(2, state)
        assert said in str(caught.value)
        assert_unchanged(env, before)
    finished = env.get_state(2)
    rng = np.random.default_rng(0)
    while not finished.is_over():
        p = finished.acting_players()[0]
        finished.apply({p: int(rng.choice(np.flatnonzero(finished.legal_mask(p))))})
    with pytest.raises(StateFormatError, match="over"):
        env.set_state(2, finished)
    with pytest.raises(InvalidOptionError, match=re.escape(f"slots: 0..{B - 1}")):
        env.get_state(B)
    assert_unchanged(env, before)


def test_players_count_is_part_of_the_variant():
    env = started("bauer_draft_v0", num_players=3)
    with pytest.raises(StateFormatError, match="num_players"):
        env.set_state(0, envs.make_game("bauer_draft_v0", num_players=4).new_state(0))


def test_calls_before_reset_are_refused():
    env = envs.make_vector("bower_v0", 2, seed=0, backend="python")
    for call in (lambda: env.step([0, 0]), env.observe, env.state, lambda: env.get_state(0)):
        with pytest.raises(ResetNeededError, match=r"reset\(\)"):
            call()


def test_make_vector_names_the_allowed_values():
    cases = [
        (dict(name="nope_v0", num_envs=2), "known envs: bauer_trick_v0"),
        (dict(name="bower_v0", num_envs=0), "an int >= 1"),
        (dict(name="bower_v0", num_envs=2.0), "an int >= 1"),
        (dict(name="bower_v0", num_envs=2, backend="gpu"), "'auto', 'python', 'compiled'"),
        (dict(name="bower_v0", num_envs=2, bogus=1), "known options: "),
        (dict(name="bower_v0", num_envs=2, reuse_buffers=True), "AEC and parallel envs"),
        (dict(name="kuhn_poker_v0", num_envs=2, backend="compiled"), "no compiled engine"),
        (dict(name="bower_v0", num_envs=2, num_workers=3), "0 (step in this process) to"),
        (dict(name="bower_v0", num_envs=2, seed=-1), "None or an int >= 0"),
        (dict(name="bower_v0", num_envs=2, seed=1.5), "None or an int >= 0"),
    ]
    for kwargs, said in cases:
        with pytest.raises(InvalidOptionError, match=re.escape(said)):
            envs.make_vector(**kwargs)
    env = envs.make_vector("bower_v0", 2, backend="python")
    with pytest.raises(InvalidOptionError, match=re.escape("None or an int >= 0")):
        env.reset(seed=True)


def test_auto_runs_the_loop_where_a_game_has_no_compiled_engine():
    assert envs.vector_backends("kuhn_poker_v0") == ("python",)  # the tests' example game
    env = envs.make_vector("kuhn_poker_v0", 2, seed=0)
    assert isinstance(env, LoopVectorEnv) and env.num_players == 2
    assert env.observation_size == envs.make_game("kuhn_poker_v0").obs_spec.size
    assert "kuhn_poker_v0" in repr(env)


@pytest.fixture
def fake_game(tmp_path, monkeypatch):
    """``bower_v0``'s record naming a compiled engine ``fakegame.batched`` the test writes."""
    import dataclasses
    import sys

    from tablezoo.envs.core import spec

    package = tmp_path / "fakegame"
    package.mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(spec._SPECS, "bower_v0",
                        dataclasses.replace(envs.spec("bower_v0"), compiled="fakegame.batched"))
    yield package
    for name in [m for m in sys.modules if m.startswith("fakegame")]:
        del sys.modules[name]


def test_auto_takes_a_compiled_engine_and_falls_back_only_without_numba(fake_game, monkeypatch):
    import importlib.util

    (fake_game / "batched.py").write_text(
        "def make_vector(num_envs, seed=None, **options):\n"
        "    return ('compiled', num_envs, seed, options)\n")
    assert envs.vector_backends("bower_v0") == ("python", "compiled")
    assert envs.make_vector("bower_v0", 3, 5, hands_public=False) == (
        "compiled", 3, 5, {"hands_public": False})
    assert isinstance(envs.make_vector("bower_v0", 3, backend="python"), LoopVectorEnv)
    assert isinstance(envs.make_vector("bower_v0", 3, num_workers=0, backend="auto"), tuple)
    with pytest.raises(InvalidOptionError, match="worker processes are the 'python' backend's"):
        envs.make_vector("bower_v0", 3, backend="compiled", num_workers=1)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "numba" else real(name, *a))
    assert envs.vector_backends("bower_v0") == ("python",)
    assert isinstance(envs.make_vector("bower_v0", 2), LoopVectorEnv)
    with pytest.raises(InvalidOptionError, match="needs numba, which is not installed"):
        envs.make_vector("bower_v0", 2, backend="compiled")


def test_a_broken_compiled_module_is_an_error_not_a_fallback(fake_game):
    (fake_game / "batched.py").write_text("import a_module_nobody_has_xyz\n")
    with pytest.raises(ModuleNotFoundError, match="a_module_nobody_has_xyz"):
        envs.make_vector("bower_v0", 2)
    (fake_game / "batched.py").write_text("VALUE = 1\n")  # a different size: no stale .pyc
    with pytest.raises(ImportError, match="defines no make_vector"):
        envs.make_vector("bower_v0", 2)
