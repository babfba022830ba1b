"""Bad paths and counts given to the training tools are one-line errors (exit 2) before any
work, not tracebacks, and not errors after every game was played (bad-input audit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablezoo.training.cli.main import main


def _bad_eval_csv(tmp: Path) -> Path:
    (tmp / "eval.csv").write_text("a,b\n1,2\n")
    return tmp


CASES = {  # id -> (tablezoo command, argv with {tmp}, words of the error)
    "ship: no run": ("ship", ["{tmp}/nothing"], "no model file at"),
    "ship: dest a file": ("ship", ["{tmp}", "--dest", __file__], "is a file, not a"),
    "ship: no games": ("ship", ["{tmp}", "--games", "0"], "expected an integer >= 1"),
    "export: no zip": ("export", ["{tmp}/m.zip", "{tmp}/m.npz"], "no model file at"),
    "export: not a zip": ("export", [__file__, "{tmp}/m.npz"], "not a MaskablePPO model.zip"),
    "plot: other csv": ("plot", ["{bad_csv}"], "not an evaluation log"),
    "evaluate: json a folder": (
        "evaluate",
        ["--env", "bower_v0", "--agent", "random", "--json", "{tmp}"],
        "is a folder, not a",
    ),
    "benchmark: no steps": ("bench-training", ["--steps", "0"], "expected an integer >= 1"),
    "benchmark: no rounds": ("bench-training", ["--rounds", "0"], "expected an integer >= 1"),
    "benchmark: one game": ("bench-training", ["--n-envs", "1"], "needs at least 2 games"),
    "env benchmark: endless": ("bench", ["--seconds", "inf"], "a finite number"),
    "evaluate: games not a number": (
        "evaluate",
        ["--env", "bower_v0", "--agent", "random", "--games", "x"],
        "expected an integer >= 1, got 'x'",
    ),
    "evaluate: seed not whole": (
        "evaluate",
        ["--env", "bower_v0", "--agent", "random", "--seed", "1.5"],
        "expected an integer >= 0, got '1.5'",
    ),
    "plot: out in a file": (
        "plot",
        ["{tmp}", "--out", __file__ + "/x.png"],
        "is a file, not a folder",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_path_or_count_is_a_one_line_error(case, tmp_path, capsys):
    tool, argv, words = CASES[case]
    fields = {"tmp": tmp_path, "bad_csv": _bad_eval_csv(tmp_path) if "csv" in case else ""}
    argv = [a.format(**fields) for a in argv]
    with pytest.raises(SystemExit) as stop:
        main([tool, *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
