"""The tools that run ``tablezoo train`` for the user (``tablezoo quickstart``, ``tablezoo
imitate``) speak in their own names: their errors show their own usage and name only flags they
have, and a ``--config`` given to ``tablezoo imitate`` counts."""

from __future__ import annotations

import json

import pytest

from tablezoo.training.cli.main import main

TRAIN_ONLY_FLAG = "--self-play"  # in tablezoo train's usage, in neither wrapper's
WRAPPERS = ("quickstart", "imitate")


def _error(tool: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main([tool, *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("tool", WRAPPERS)
def test_an_earlier_run_is_refused_naming_only_the_tools_own_flag(tool, tmp_path, capsys):
    (tmp_path / "config.json").write_text("{}")
    err = _error(tool, ["--env", "bower_v0", "--out", str(tmp_path)], capsys)
    assert f"tablezoo {tool}: error: --out {tmp_path} already holds a run" in err
    assert "--force" in err and "--resume" not in err.splitlines()[-1]


@pytest.mark.parametrize("argv, words", [
    (["--env", "bower_v0", "--teacher", "nobody"], "unknown agent 'nobody'"),
    (["--config", "{config}"], "unknown key(s) ppo_magic"),
])
def test_imitates_errors_found_by_train_show_imitates_usage(argv, words, tmp_path, capsys):
    config = tmp_path / "bad.json"
    config.write_text(json.dumps({"env": "bower_v0", "ppo_magic": 1}))
    argv = [a.format(config=config) for a in argv]
    err = _error("imitate", [*argv, "--out", str(tmp_path / "run")], capsys)
    assert "usage: tablezoo imitate" in err and words in err
    assert TRAIN_ONLY_FLAG not in err


def test_imitate_runs_the_configs_warm_start_unless_a_flag_overrides_it(tmp_path, capsys):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"env": "bower_v0", "bc_games": 2, "bc_epochs": 3,
                                  "bc_teacher": "random"}))
    from tablezoo.training.cli import imitate

    assert imitate.main(["--config", str(config), "--out", str(tmp_path / "a")]) == 0
    assert imitate.main(["--config", str(config), "--out", str(tmp_path / "b"),
                         "--epochs", "2", "--games", "1", "--teacher", "heuristic"]) == 0
    bc = [json.loads((tmp_path / run / "summary.json").read_text())["bc"] for run in "ab"]
    assert [(r["games"], r["epochs"], r["teacher"]) for r in bc] == [
        (2, 3, "random"), (1, 2, "heuristic")]


@pytest.mark.parametrize("value, words", [
    (0, "bc_games=0 clones nothing"), ("0", "bc_games='0' clones nothing"),
    (-3, "bc_games=-3 clones nothing"),
    ("many", "bc_games='many'"),  # train's check of the file, naming it
])
def test_imitate_refuses_a_configs_bad_cloning_budget_naming_the_file(value, words, tmp_path,
                                                                      capsys):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"env": "bower_v0", "bc_games": value}))
    err = _error("imitate", ["--config", str(config), "--out", str(tmp_path / "r")],
                 capsys)
    assert words in err and str(config) in err


def test_train_checks_a_search_teacher_against_the_player_count_played(tmp_path, capsys):
    err = _error("train", ["--env", "bauer_draft_v0", "--timesteps", "1", "--bc-games",
                                    "2", "--bc-teacher", "ismcts:keys=own", "--out",
                                    str(tmp_path / "run")], capsys)
    assert "paired=True needs keys='root'" in err
    assert not (tmp_path / "run").exists()  # refused before the run folder
