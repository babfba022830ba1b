"""The main job (``tablezoo quickstart``) on a tiny budget: it trains, evaluates the
trained numpy policy against random and heuristic, prints the table and leaves eval.json, the
learning curve and the model in its run folder (no strength asserted)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

from tablezoo.training.cli import quickstart
from tests.envcases import shipped_envs


def test_quickstart_leaves_eval_json_and_learning_curve(tmp_path, capsys):
    out = tmp_path / "quick"
    assert quickstart.main(["--env", "bauer_trick_v0", "--out", str(out), "--timesteps", "1024",
                            "--bc-games", "20", "--games", "24", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    result = json.loads((out / "eval.json").read_text())
    assert set(result["results"]) == {"random", "heuristic"}
    for opponent, row in result["results"].items():
        assert row["games"] == 24
        assert row["win"] + row["draw"] + row["loss"] == pytest.approx(1.0)
        assert row["mean_reward_low"] <= row["mean_reward"] <= row["mean_reward_high"]
        assert f"| {opponent} | 24 |" in printed
    assert result["env_options"] == {"episode": "deal"}  # the training tools' default
    png = (out / "learning_curve.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "model.npz").is_file() and (out / "eval.csv").is_file()
    assert not (out / "checkpoints").exists()  # a small run keeps no checkpoints
    trained = json.loads((out / "model.json").read_text())["timesteps"]
    assert trained >= 1024 and result["timesteps"] == trained  # whole rollouts: may be more
    assert f"trained agent after {trained} steps" in printed


@pytest.mark.parametrize("env", shipped_envs())
def test_quickstart_runs_on_every_env(env, tmp_path):
    """The advised warm start and PPO on each env, tiny: the run and its files, no strength."""
    out = tmp_path / "quick"
    assert quickstart.main(["--env", env, "--out", str(out), "--timesteps", "256",
                            "--bc-games", "2", "--games", "4", "--no-progress"]) == 0
    result = json.loads((out / "eval.json").read_text())
    assert result["env"] == env and set(result["results"]) == {"random", "heuristic"}
    assert all(row["games"] == 4 for row in result["results"].values())
    assert json.loads((out / "config.json").read_text())["advice"] == "heuristic"


def test_quickstart_refuses_bad_options(tmp_path):
    with pytest.raises(SystemExit) as stop:
        quickstart.main(["--env", "bower_v0", "--out", str(tmp_path), "--env-option", "x=1"])
    assert stop.value.code == 2
