"""``--out`` problems are refused with one clear line before torch loads (issue 10)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablezoo.training.cli.selfplay import train
from tablezoo.training.runs import clear_run, existing_run


def run_train(*args: str) -> subprocess.CompletedProcess:
    code = ("import sys, tablezoo.training.cli.selfplay.train as t\n"
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
    import tablezoo.training.cli.options as cli

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


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("flag", ["--json", "--out"])
def test_folder_where_nothing_can_be_created_is_refused_before_any_game(flag, capsys):
    # os.access says root may write into /proc; creating a file there fails all the same.
    from tablezoo.training.cli.evaluation import evaluate

    target = "/proc/tablezoo-eval.json" if flag == "--json" else "/proc/tablezoo-run"
    with pytest.raises(SystemExit) as stop:
        evaluate.main(["--env", "bower_v0", "--agent", "random", "--opponent", "random",
                       "--games", "2", flag, target])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "cannot write into '/proc'" in err and target in err


def test_probe_leaves_nothing_behind(tmp_path):
    import tablezoo.training.cli.options as cli

    assert cli.out_file(str(tmp_path / "results.json")) == tmp_path / "results.json"
    assert cli.out_dir(str(tmp_path / "a" / "b")) == tmp_path / "a" / "b"
    assert list(tmp_path.iterdir()) == []


def test_existing_file_without_write_permission_is_refused(tmp_path, monkeypatch):
    import tablezoo.training.cli.options as cli

    target = tmp_path / "eval.json"
    target.write_text("{}")
    # CI runs as root, who may write anywhere: fake the permission answer of the file.
    monkeypatch.setattr(cli.os, "access", lambda path, mode: str(path) != str(target))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write to .*eval.json"):
        cli.out_file(str(target))


def test_links_are_judged_by_where_they_point(tmp_path):
    import tablezoo.training.cli.options as cli

    (tmp_path / "results").mkdir()
    fine = tmp_path / "fine.json"
    fine.symlink_to(tmp_path / "results" / "eval.json")  # dangling, its folder exists
    assert cli.out_file(str(fine)) == fine
    broken = tmp_path / "broken.json"
    broken.symlink_to(tmp_path / "missing" / "eval.json")  # writing it would fail after the games
    with pytest.raises(argparse.ArgumentTypeError, match="is a link to .*whose folder does not"):
        cli.out_file(str(broken))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc")
def test_an_existing_writable_file_is_accepted_where_its_folder_takes_no_new_files(tmp_path):
    import tablezoo.training.cli.options as cli

    with (tmp_path / "out.txt").open("w") as handle:  # /proc/self/fd/N: writable, folder is not
        target = f"/proc/self/fd/{handle.fileno()}"
        assert cli.out_file(target) == Path(target)
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write into '/proc/.*/fd'"):
        cli.out_file("/proc/self/fd/new.json")
