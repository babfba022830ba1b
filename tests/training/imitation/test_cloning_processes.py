"""Cloning and DAgger data played in worker processes are the samples of one process."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.imitation.cloning import ImitationSettings, generate, generate_dagger

FIELDS = ("obs", "masks", "actions", "returns")


def assert_same(a, b):
    for field in FIELDS:
        x, y = getattr(a, field), getattr(b, field)
        assert x.shape == y.shape and x.dtype == y.dtype, field
        np.testing.assert_array_equal(x, y, err_msg=field)


@pytest.mark.parametrize("env_name, options, advice", [
    ("bauer_trick_v0", {"episode": "deal"}, None),          # teams
    ("bauer_draft_v0", {"num_players": 3}, "heuristic"),    # simultaneous picks, advice = label
    ("ethnos_v0", {"num_players": 2}, None),
])
def test_teacher_games_in_three_processes_are_the_samples_of_one(env_name, options, advice):
    game = envs.make_game(env_name, **options)
    kwargs = dict(env=env_name, games=7, seed=11, scaled=True, reward_scale=0.5, advice=advice)
    one = generate(game, ImitationSettings(**kwargs))
    # blocks of 3, 2 and 2 games
    three = generate(game, ImitationSettings(processes=3, **kwargs))
    assert len(one) > 50
    assert_same(one, three)


@pytest.mark.parametrize("max_samples", [1, 37, 120, 10_000])
def test_the_sample_cap_ends_at_the_same_game_in_processes(max_samples):
    env_name = "bauer_trick_v0"
    game = envs.make_game(env_name, episode="deal")
    learner = factory_from_spec("random", env_name)(5)
    settings = ImitationSettings(env=env_name, games=9, scaled=False, max_samples=max_samples)
    one = generate_dagger(game, settings, learner, seed=3)
    two = generate_dagger(game, dataclasses.replace(settings, processes=2), learner, seed=3)
    assert_same(one.demos, two.demos)
    uncapped = generate_dagger(game, dataclasses.replace(settings, max_samples=10**9), learner,
                               seed=3)
    assert len(uncapped.demos) > 120  # so the caps 1, 37 and 120 cut inside the games
    for field in FIELDS:  # the cap keeps the first samples of the same games
        np.testing.assert_array_equal(getattr(two.demos, field),
                                      getattr(uncapped.demos, field)[:max_samples])
    assert (one.game_samples, one.game_decisions, one.game_hits) == (
        two.game_samples, two.game_decisions, two.game_hits)
    assert one.learner_decisions > 0 and one.learner_agreement == two.learner_agreement


def test_zero_processes_is_refused_with_the_allowed_values():
    game = envs.make_game("bower_v0")
    with pytest.raises(ValueError, match="processes=0; allowed: >= 1"):
        generate(game, ImitationSettings(env="bower_v0", games=2, processes=0))


@pytest.mark.parametrize("value", ["0", "-2"])
def test_training_refuses_fewer_than_one_process_by_name(tmp_path, capsys, value):
    from tablezoo.training.cli import imitate

    with pytest.raises(SystemExit):
        imitate.main(["--env", "bower_v0", "--out", str(tmp_path / "x"), "--games", "1",
                      "--processes", value])
    err = capsys.readouterr().err
    assert f"--processes {value}" in err and "allowed: 1" in err
    assert not (tmp_path / "x").exists()  # refused before anything was written
