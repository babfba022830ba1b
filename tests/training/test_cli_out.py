"""``--out`` problems are refused with one clear line before torch loads (issue 10)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from training import train
from training.cli import clear_run, existing_run


def run_train(*args: str) -> subprocess.CompletedProcess:
    code = ("import sys, training.train as t\n"
            "try:\n    t.main(sys.argv[1:])\n"
            "finally:\n    print('TORCH_LOADED', 'torch' in sys.modules, file=sys.stderr)\n")
    return subprocess.run([sys.executable, "-c", code, "--env", "bower_v0", "--timesteps", "10",
                           *args], capture_output=True, text=True, timeout=120)


def test_out_that_is_a_file_is_refused_before_torch(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("x")
    result = run_train("--out", str(target))
    assert result.returncode == 2
    assert "is a file, not a folder" in result.stderr
    assert "Traceback" not in result.stderr
    assert "TORCH_LOADED False" in result.stderr


def test_unwritable_out_is_refused(tmp_path, monkeypatch):
    # CI runs as root, who may write anywhere: fake the permission answer of the folder.
    import training.cli as cli

    monkeypatch.setattr(cli.os, "access", lambda path, mode: str(path) != str(tmp_path))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write into"):
        cli.out_dir(str(tmp_path / "new" / "run"))
    assert cli.out_dir(str(tmp_path.parent / "elsewhere")) == tmp_path.parent / "elsewhere"


def test_existing_run_needs_resume_or_force(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"env": "bower_v0"}))
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "model_100_steps.zip").write_text("old")
    result = run_train("--out", str(tmp_path))
    assert result.returncode == 2
    assert "already holds a run" in result.stderr and "--force" in result.stderr
    assert "TORCH_LOADED False" in result.stderr
    both = run_train("--out", str(tmp_path), "--resume", "--force")
    assert both.returncode == 2 and "exclude each other" in both.stderr


def test_force_clears_only_the_run_files(tmp_path):
    for name in ("config.json", "model.zip", "eval.csv"):
        (tmp_path / name).write_text("old")
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "model_100_steps.zip").write_text("old")
    (tmp_path / "my_notes.md").write_text("keep me")
    assert set(existing_run(tmp_path)) == {"config.json", "model.zip", "eval.csv", "checkpoints/"}
    clear_run(tmp_path)
    assert existing_run(tmp_path) == []
    assert (tmp_path / "my_notes.md").read_text() == "keep me"


def test_max_snapshots_below_one_is_refused_by_name(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train.main(["--env", "bauer_trick_v0", "--out", str(tmp_path / "x"), "--timesteps", "1",
                    "--self-play", "--max-snapshots", "0"])
    err = capsys.readouterr().err
    assert "--max-snapshots" in err and "expected an integer >= 1, got '0'" in err
    assert not (tmp_path / "x").exists()
