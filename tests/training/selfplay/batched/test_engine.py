"""``tablezoo train --engine``: which engine a run gets, its rollout defaults, the refusals, and
the benchmark's batched set-ups."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")
pytest.importorskip("sb3_contrib")

from tablezoo.agents import games as agent_parts
from tablezoo.training.cli.selfplay import train
from tablezoo.training.selfplay import throughput
from tablezoo.training.selfplay import train as train_module
from tablezoo.training.selfplay.train import resolved


def parsed(*argv):
    """The settings of these flags as a run starts them (engine made concrete)."""
    args = train.parse_args(train.build_parser(), ["--timesteps", "1", "--out", "unused", *argv])
    return resolved(train.settings_from_args(args))


def test_auto_takes_the_compiled_engine_where_there_is_one_and_its_defaults():
    args = parsed("--env", "bauer_trick_v0")
    assert args.engine == "compiled"
    assert (args.n_envs, args.n_steps, args.batch_size, args.n_epochs) == (512, 64, 2048, 1)
    args = parsed("--env", "bauer_trick_v0", "--n-envs", "32", "--n-epochs", "3")
    assert (args.n_envs, args.n_steps, args.n_epochs) == (32, 64, 3)  # flags win
    assert parsed("--env", "bower_v0", "--advice", "heuristic").engine == "compiled"
    # the example game has no compiled engine
    for argv in (["--env", "kuhn_poker_v0"], ["--env", "bauer_trick_v0", "--engine", "python"]):
        args = parsed(*argv)
        assert args.engine == "python"
        assert (args.n_envs, args.n_steps, args.batch_size, args.n_epochs) == (16, 256, 1024, 8)


def test_advice_without_a_batched_heuristic_takes_the_python_engine(monkeypatch):
    """A game whose heuristic is not compiled cannot advise inside the batch: ``auto`` falls
    back to the Python engine, and ``--engine compiled`` is refused naming why."""
    monkeypatch.setattr(agent_parts, "batched_agents", lambda env, options=None: {})
    assert parsed("--env", "bower_v0", "--advice", "heuristic").engine == "python"
    assert "--advice needs a batched heuristic, which bower_v0 has not" in str(
        train_module.engine_problem("bower_v0", "heuristic"))


@pytest.mark.parametrize("argv,why", [
    (["--env", "kuhn_poker_v0"], "kuhn_poker_v0 has no compiled batched engine"),
])
def test_engine_compiled_is_refused_where_it_cannot_run(argv, why, capsys):
    with pytest.raises(SystemExit) as stop:
        train.main([*argv, "--engine", "compiled", "--timesteps", "1", "--out", "unused"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert why in err and "allowed here: --engine python" in err


@pytest.mark.parametrize("setup", throughput.BATCHED)
def test_the_benchmark_measures_the_batched_set_ups(setup):
    assert throughput.measure("bauer_trick_v0", setup, 1024, 4, 0) > 0
