"""training.curves (eval.csv learning curves, checkpoint evaluation) and training.ladder."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from training import curves
from training.ladder import play_pair, run_ladder


def _write_eval(run, rows):
    run.mkdir(parents=True)
    with (run / "eval.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=curves.EVAL_FIELDS)
        writer.writeheader()
        for step, opponent, win in rows:
            writer.writerow({"step": step, "opponent": opponent, "games": 10, "win": win,
                             "win_low": 0, "win_high": 1, "mean_reward": 2 * win - 1,
                             "mean_reward_low": -1, "mean_reward_high": 1, "seconds": 0.1})


def test_find_runs_and_seed_band_pool_the_seeds(tmp_path):
    _write_eval(tmp_path / "fixed" / "s0", [(100, "random", 0.5), (200, "random", 0.7),
                                             (100, "heuristic", 0.1)])
    _write_eval(tmp_path / "fixed" / "s1", [(200, "random", 0.9), (100, "random", 0.3),
                                             (300, "random", 1.0), (100, "heuristic", 0.3)])
    _write_eval(tmp_path / "league" / "s0", [(100, "random", 0.2)])
    (tmp_path / "notes").mkdir()
    runs = curves.find_runs(tmp_path)
    assert {k: len(v) for k, v in runs.items()} == {"fixed": 2, "league": 1}
    steps, band = curves.seed_band(runs["fixed"], "random")
    assert steps == [100, 200]  # only steps every seed evaluated
    assert [iv.value for iv in band] == pytest.approx([0.4, 0.8])
    assert band[0].low < 0.4 < band[0].high
    steps, band = curves.seed_band(runs["fixed"], "random", "mean_reward")
    assert [iv.value for iv in band] == pytest.approx([-0.2, 0.6])
    with pytest.raises(ValueError, match="missing"):
        curves.seed_band(runs["league"], "heuristic")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        curves.find_runs(tmp_path / "nowhere")


def test_checkpoints_are_found_by_step(tmp_path):
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for name in ("model_4096_steps.zip", "model_512_steps.zip", "model.zip", "notes.txt"):
        (folder / name).write_text("")
    assert [s for s, _ in curves.checkpoints(tmp_path)] == [512, 4096]


def test_evaluate_checkpoints_writes_the_eval_csv_format(tmp_path):
    pytest.importorskip("sb3_contrib")
    from training import train

    run = tmp_path / "run"
    train.main(["--env", "bauer_draft_v0", "--env-option", "num_players=2", "--timesteps", "256",
                "--out", str(run), "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
                "--n-epochs", "1", "--net-arch", "16", "--checkpoint-every", "128",
                "--no-progress"])
    assert json.loads((run / "config.json").read_text())["env"] == "bauer_draft_v0"
    path = curves.evaluate_checkpoints(run, games=4)
    with path.open() as f:
        header = next(csv.reader(f))
    assert header == curves.EVAL_FIELDS
    table = curves.read_eval(run)
    assert set(table) == {"random", "heuristic"}
    expected_steps = [float(s) for s, _ in curves.checkpoints(run)]
    for rows in table.values():
        assert [r["step"] for r in rows] == expected_steps
        assert all(r["games"] == 4 and r["win_low"] <= r["win"] <= r["win_high"] for r in rows)


def test_pair_games_swap_seats_on_the_same_deal_and_score_the_better_side():
    result = play_pair("bower_v0", {}, "heuristic", "random", games=6, seed=2)
    assert result.seat_specs[0] == ["heuristic", "random"]
    assert result.seat_specs[1] == ["random", "heuristic"]
    for specs, returns, outcome in zip(result.seat_specs, result.returns, result.outcomes):
        mine = returns[specs.index("heuristic")]
        theirs = returns[specs.index("random")]
        assert outcome == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    assert result.moves["heuristic"] > 0 and result.seconds["heuristic"] >= 0


def test_ladder_matrix_is_complementary_and_ratings_cover_every_agent():
    ladder = run_ladder("bauer_trick_v0", ["random", "heuristic", "flat_search:rollouts=2"],
                        games_per_pair=4, seed=1, options={"episode": "deal"})
    n = len(ladder.specs)
    off = ~np.eye(n, dtype=bool)
    assert np.allclose(ladder.win[off] + ladder.win.T[off], 1.0)
    assert np.isnan(np.diag(ladder.win)).all()
    assert set(ladder.ratings) == set(ladder.specs)
    assert all(iv.low >= 0.0 and iv.high <= 1.0 for iv in ladder.win_intervals.values())
    assert all(ms >= 0 for ms in ladder.ms_per_move.values())
    with pytest.raises(ValueError, match="even int"):
        run_ladder("bower_v0", ["random", "heuristic"], games_per_pair=3)
    with pytest.raises(ValueError, match="distinct"):
        run_ladder("bower_v0", ["random", "random"], games_per_pair=2)
