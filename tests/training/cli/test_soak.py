"""The soak tool runs, reports every env it was given, and counts exceptions."""

from tablezoo.training.cli.soak import main


def test_soak_reports_steps_and_rss_per_env(capsys):
    assert main(["--minutes", "0.02", "--env", "bower_v0", "--env", "bauer_trick_v0"]) == 0
    out = capsys.readouterr().out
    summary = out.split("summary")[1]
    for name in ("bower_v0", "bauer_trick_v0"):
        line = next(line for line in summary.splitlines() if name in line)
        assert "0 exceptions" in line and "MiB" in line
        steps = int(line.split()[1].replace(",", ""))
        assert steps > 0


def test_bad_settings_are_refused_before_any_worker_starts(capsys):
    """A negative seed killed the worker inside numpy, and the tool then waited for it forever."""
    import pytest

    for argv, words in ((["--seed", "-1"], "--seed: expected an integer >= 0"),
                        (["--minutes", "0"], "--minutes 0.0: allowed: a finite number"),
                        (["--minutes", "inf"], "--minutes inf: allowed: a finite number")):
        with pytest.raises(SystemExit) as exc:
            main(["--env", "bower_v0", *argv])
        assert exc.value.code == 2 and words in capsys.readouterr().err
