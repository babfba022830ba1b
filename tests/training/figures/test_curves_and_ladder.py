"""Learning curves pooled over seeds (``figures.pooled_curves``) and the head-to-head ladder
(``evaluation.ladder``)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tablezoo.training.evaluation.ladder import play_pair, run_ladder
from tablezoo.training.figures import pooled_curves as curves

# the columns tablezoo.training.selfplay.callbacks wrote before the draw rate (spelled out:
# importing it needs stable-baselines3); DRAWS came after them
FIELDS = ["step", "opponent", "games", "win", "win_low", "win_high", "mean_reward",
          "mean_reward_low", "mean_reward_high", "seconds"]
DRAWS = ["draw", "draw_low", "draw_high"]


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
    from tablezoo.training.cli.evaluation import ladder

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
    from tablezoo.training.cli.evaluation import ladder

    with pytest.raises(SystemExit) as stop:
        ladder.main(["--env", "bower_v0", "--agents", *agents, "--games-per-pair", games])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_ladder_json_into_a_folder_still_to_be_made(tmp_path, capsys):
    from tablezoo.training.cli.evaluation import ladder

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


def _write_run(run, draws: bool, bc: dict | None, config: bool = True):
    """A small run folder: eval.csv (50 games a point, draws when asked), config.json and
    summary.json as tablezoo train writes them."""
    from tablezoo.training.evaluation.stats import wilson_interval

    run.mkdir(parents=True)
    with (run / "eval.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS + DRAWS * draws)
        writer.writeheader()
        for step, wins, ties in ((0, 10, 20), (1000, 20, 15), (2000, 30, 10)):
            for opponent, more in (("random", 10), ("heuristic", 0)):
                win = wilson_interval(wins + more, 50)
                draw = wilson_interval(ties, 50)
                row = {"step": step, "opponent": opponent, "games": 50, "win": win.value,
                       "win_low": win.low, "win_high": win.high,
                       "mean_reward": 2 * win.value + draw.value - 1, "mean_reward_low": -1,
                       "mean_reward_high": 1, "seconds": 0.1}
                if draws:
                    row.update(draw=draw.value, draw_low=draw.low, draw_high=draw.high)
                writer.writerow(row)
    if config:
        (run / "config.json").write_text(json.dumps(
            {"env": "bauer_trick_v0", "env_options": {"episode": "deal"}}))
        (run / "summary.json").write_text(json.dumps({"bc": bc, "rollout": None}))


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.texts]


def test_learning_curve_names_the_env_and_shows_win_and_draw_rates_with_intervals(tmp_path):
    """The quickstart picture: titled by the env and its options (the run folder below), a
    legend in both panels, the win rate's 95% Wilson band, the draw rate, and a note that the
    first point comes after the behaviour-cloning warm start."""
    import matplotlib.pyplot as plt

    from tablezoo.training.evaluation.stats import wilson_interval
    from tablezoo.training.figures.learning_curve import draw_run, plot_run

    run = tmp_path / "quick"
    _write_run(run, draws=True, bc={"games": 20, "teacher": "heuristic", "samples": 400})
    fig = draw_run(run)
    assert fig._suptitle.get_text() == "bauer_trick_v0  (episode=deal)"
    assert any(f"run folder: {run}" in t and "50 games per point" in t for t in _texts(fig))
    assert ("Step 0 (the first point) is measured after the behaviour-cloning warm start on 20 "
            "heuristic games, before PPO.") in _texts(fig)
    reward, rates = fig.axes
    assert [t.get_text() for t in reward.get_legend().get_texts()] == [
        "vs heuristic", "vs random"]
    assert [t.get_text() for t in rates.get_legend().get_texts()] == [
        "vs heuristic: win", "vs heuristic: draw", "vs random: win", "vs random: draw"]
    assert rates.get_legend().get_title().get_text().startswith("shaded: 95% Wilson interval")
    assert rates.get_title() == "win rate and draw rate"
    draw_line = rates.get_lines()[1]
    assert list(draw_line.get_ydata()) == pytest.approx([0.4, 0.3, 0.2])
    heuristic_win_band = rates.collections[0].get_paths()[0].vertices[:, 1]
    for wins in (10, 20, 30):
        bound = wilson_interval(wins, 50)
        assert min(abs(heuristic_win_band - bound.low)) < 1e-9
        assert min(abs(heuristic_win_band - bound.high)) < 1e-9
    assert len(rates.collections) == 4  # a band for each rate of each opponent
    plt.close(fig)
    assert plot_run(run).stat().st_size > 10_000


def test_learning_curve_of_an_older_or_unrecorded_run_says_what_it_lacks(tmp_path):
    """No config.json: the folder names the figure; no draw columns: the panel says so; no
    warm start recorded (or none run): no note about one."""
    import matplotlib.pyplot as plt

    from tablezoo.training.figures.learning_curve import draw_run

    _write_run(tmp_path / "old", draws=False, bc=None, config=False)
    fig = draw_run(tmp_path / "old")
    assert fig._suptitle.get_text() == "old"
    rates = fig.axes[1]
    assert rates.get_title() == "win rate (draw rate not recorded in this eval.csv)"
    assert [t.get_text() for t in rates.get_legend().get_texts()] == [
        "vs heuristic: win", "vs random: win"]
    assert not any("warm start" in t for t in _texts(fig))
    plt.close(fig)
    _write_run(tmp_path / "cold", draws=True, bc=None)
    fig = draw_run(tmp_path / "cold")
    assert not any("warm start" in t for t in _texts(fig))
    plt.close(fig)


def test_eval_rows_record_the_draw_rate_and_a_resumed_run_keeps_its_older_columns(tmp_path):
    pytest.importorskip("stable_baselines3")
    from tablezoo.training.selfplay.callbacks import EVAL_FIELDS, EvalCallback, eval_row

    row = eval_row(0, "random", [1.0, 0.0, 0.0, -1.0], 0.1)
    assert EVAL_FIELDS[-3:] == DRAWS and row["draw"] == 0.5
    assert row["draw_low"] < 0.5 < row["draw_high"]
    run = tmp_path / "resumed"
    _write_run(run, draws=False, bc=None)
    callback = EvalCallback.__new__(EvalCallback)  # only its csv writer is needed
    callback.path, callback.rows = run / "eval.csv", []
    callback._append([row])
    with (run / "eval.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert list(rows[-1]) == FIELDS and rows[-1]["win"] == "0.25"
