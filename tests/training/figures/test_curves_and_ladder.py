"""Learning curves pooled over seeds (``figures.pooled_curves``) and the head-to-head ladder
(``evaluation.ladder``)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tablezoo.training.evaluation.ladder import play_pair, run_ladder
from tablezoo.training.figures import pooled_curves as curves

# the columns tablezoo.training.selfplay.callbacks writes (spelled out: importing it needs
# stable-baselines3)
FIELDS = ["step", "opponent", "games", "win", "win_low", "win_high", "mean_reward",
          "mean_reward_low", "mean_reward_high", "seconds"]


def _write_eval(run, rows):
    run.mkdir(parents=True)
    with (run / "eval.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
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
    # a numpy count, as a sweep over np.arange gives it, is a count
    assert run_ladder("bower_v0", ["random", "heuristic"],
                      games_per_pair=np.int64(2)).games_per_pair == 2


def test_ladder_command_prints_and_writes_the_matrix(tmp_path, capsys):
    from tablezoo.training.evaluation import ladder

    out = tmp_path / "ladder.json"
    assert ladder.main(["--env", "bower_v0", "--agents", "random", "heuristic",
                        "--games-per-pair", "6", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    table = [line for line in printed.splitlines() if line.startswith("| heuristic")]
    assert len(table) == 2  # its ratings row and its matrix row
    saved = json.loads(out.read_text())
    assert saved["agents"] == ["random", "heuristic"] and saved["games_per_pair"] == 6
    assert saved["win"][0][0] is None and saved["win"][1][1] is None
    # the heuristic beats random in every bower game: the matrix says so from both sides
    assert saved["win"][1][0]["value"] == 1.0 and saved["win"][0][1]["value"] == 0.0
    assert printed.index("| heuristic") < printed.index("| random")  # best mu first


@pytest.mark.parametrize(("agents", "games", "message"), [
    (["random", "heuristic"], "5", "expected an even int"),
    (["random", "random"], "4", "two distinct agent specs"),
    (["random", "wizard"], "4", "wizard"),
])
def test_ladder_command_refuses_bad_input_by_name(agents, games, message, capsys):
    from tablezoo.training.evaluation import ladder

    with pytest.raises(SystemExit) as stop:
        ladder.main(["--env", "bower_v0", "--agents", *agents, "--games-per-pair", games])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_ladder_json_into_a_folder_still_to_be_made(tmp_path, capsys):
    from tablezoo.training.evaluation import ladder

    out = tmp_path / "new" / "sub" / "ladder.json"
    assert ladder.main(["--env", "bower_v0", "--agents", "random", "heuristic",
                        "--games-per-pair", "2", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["games_per_pair"] == 2


def test_a_perfect_record_gets_an_interval_with_width():
    from tablezoo.training.evaluation.ladder import share_interval

    perfect = share_interval([1.0] * 6)
    assert perfect.value == 1.0 and perfect.high == 1.0 and 0.5 < perfect.low < 0.75
    assert share_interval([0.0] * 6).high == pytest.approx(1 - perfect.low)
    mixed = share_interval([1.0, 0.5, 0.0, 1.0])
    assert mixed.value == pytest.approx(0.625) and 0.0 <= mixed.low < mixed.high <= 1.0
