"""``tablezoo evolve``: CMA-ES over a heuristic's parameters (bounds, pairing, direction, a run)."""

from __future__ import annotations

import csv
import json
import os

import pytest

import tablezoo.training.evolution.cma_es as evolve
from tablezoo.agents import make_agent
from tablezoo.agents.learned.heuristic_weights import WeightedHeuristicAgent
from tablezoo.training.cli import evolve as evolve_cli

ENV = "bower_v0"


def test_bounds_are_checked_against_the_heuristic():
    bounds = evolve.parse_bounds(["bonus_value=0:2", "read_opponent=0.5:4"], ENV)
    assert bounds == {"bonus_value": (0.0, 2.0), "read_opponent": (0.5, 4.0)}
    params = {"bonus_value": 0.5, "read_opponent": 1.0}
    assert evolve.to_params(evolve.to_unit(params, bounds), bounds) == params
    with pytest.raises(ValueError, match="no parameter 'bogus'; allowed: bonus_value"):
        evolve.parse_bounds(["bogus=0:1"], ENV)
    with pytest.raises(ValueError, match="NAME=LOW:HIGH"):
        evolve.parse_bounds(["bonus_value=0-2"], ENV)
    with pytest.raises(ValueError, match="around the default bonus_value=0.5"):
        evolve.parse_bounds(["bonus_value=1:2"], ENV)
    with pytest.raises(ValueError, match="at least one --param"):
        evolve.parse_bounds([], ENV)
    with pytest.raises(ValueError, match="bonus_value is given twice"):  # the last one won
        evolve.parse_bounds(["bonus_value=0:2", "bonus_value=0:1"], ENV)
    with pytest.raises(ValueError, match="must be finite"):  # failed after config.json
        evolve.parse_bounds(["bonus_value=0:inf"], ENV)


@pytest.mark.parametrize("flag,value", [("--sigma", "-1"), ("--sigma", "2"),
                                        ("--generations", "0"), ("--max-minutes", "0"),
                                        ("--max-minutes", "nan"), ("--eval-every", "-2")])
def test_a_step_size_or_generation_count_out_of_range_is_named(flag, value, tmp_path, capsys):
    """A negative sigma stopped with an AssertionError from inside cmaes."""
    with pytest.raises(SystemExit) as stop:
        evolve_cli.main(["--env", ENV, "--param", "bonus_value=0:2", "--out", str(tmp_path),
                     flag, value])
    shown = value if flag in ("--generations", "--eval-every") else float(value)
    assert stop.value.code == 2 and f"{flag} {shown}" in capsys.readouterr().err


def _settings(**kw):
    base = dict(env=ENV, out="unused", seed=0, population=6, pairs=3, sigma=0.2, processes=1,
                eval_games=4)
    return evolve.EvolutionSettings(**{**base, **kw})


def test_generation_pairs_every_candidate_on_the_same_deals_and_climbs(monkeypatch):
    """Fitness here is a known function of bonus_value (best at 1.6); CMA-ES must move its
    mean there (a sign error in what it is told would move it away), and every candidate of a
    generation must see the same deals, fresh ones each generation."""
    seen: list[tuple[int, tuple[int, ...]]] = []

    def fake_pairs(task):
        env, options, params, seeds = task
        seen.append((len(seen), tuple(seeds)))
        reward = -abs(params["bonus_value"] - 1.6)
        return [reward] * (2 * len(seeds))

    monkeypatch.setattr(evolve, "_play_pairs", fake_pairs)
    bounds = evolve.parse_bounds(["bonus_value=0:2", "keep_weight=0:1"], ENV)
    evo = evolve.Evolution(_settings(), bounds, {})
    deals = []
    for g in range(25):
        start = len(seen)
        evo.generation(g)
        deals.append({s for _, s in seen[start:]})
    assert all(len(d) == 1 for d in deals)  # one set of deals per generation
    assert len({next(iter(d)) for d in deals}) == 25  # and a new one every generation
    assert evo.games == 25 * 6 * 2 * 3
    assert abs(evo.mean_params()["bonus_value"] - 1.6) < 0.1


def test_small_run_writes_a_model_the_trained_spec_plays(tmp_path):
    out = tmp_path / "run"
    argv = ["--env", ENV, "--param", "read_opponent=0:4", "--param", "bonus_value=0:2",
            "--out", str(out), "--pairs", "2", "--population", "4", "--generations", "2",
            "--eval-every", "1", "--eval-games", "4", "--processes", "1"]
    assert evolve_cli.main(argv) == 0
    rows = list(csv.DictReader((out / "eval.csv").open()))
    assert [int(r["step"]) for r in rows] == [0, 16, 32]  # 4 candidates x 2 deals x 2 seats
    assert (out / "learning_curve.png").stat().st_size > 0
    card = json.loads((out / "model.json").read_text())
    assert card["games"] == 32 and card["generations"] == 2
    assert card["budget"]["machine"]["cpus"] == os.cpu_count()
    assert card["budget"]["machine"]["update_threads"] is None  # no network trained
    assert set(card["parameters"]) == {"read_opponent", "bonus_value"}
    agent = make_agent("trained", env_name=ENV, path=str(out / "model.npz"), seed=0)
    assert isinstance(agent, WeightedHeuristicAgent)
    assert agent.heuristic.read_opponent == pytest.approx(card["parameters"]["read_opponent"])
    with pytest.raises(SystemExit):  # an existing run is not overwritten without --force
        evolve_cli.main(argv)
    assert evolve_cli.main([*argv, "--force"]) == 0
    assert len(list(csv.DictReader((out / "eval.csv").open()))) == 3


def test_tail_average_takes_the_last_fraction_of_the_generations():
    evo = evolve.Evolution.__new__(evolve.Evolution)
    for played, fraction, tail in ((26, 0.5, range(14, 27)), (3, 0.5, range(2, 4)),
                                   (1, 0.5, [1]), (26, 0.0, [26]), (4, 1.0, range(1, 5))):
        evo.settings = _settings(tail_average=fraction)
        evo.means = [None] * played
        assert evo.tail() == list(tail)


def test_tail_averaged_run_saves_the_average_of_the_logged_means(tmp_path):
    """The model of a ``--tail-average 0.5`` run over 4 generations is the average of the
    means that evolution.csv logged after generations 3 and 4, not the last mean."""
    out = tmp_path / "run"
    assert evolve_cli.main(["--env", ENV, "--param", "read_opponent=0:4", "--param",
                        "bonus_value=0:2", "--out", str(out), "--pairs", "1", "--population",
                        "4", "--generations", "4", "--eval-every", "0", "--eval-games", "2",
                        "--processes", "1", "--sigma", "0.3", "--tail-average", "0.5"]) == 0
    logged = [json.loads(r["mean_params"]) for r in csv.DictReader((out / "evolution.csv").open())]
    card = json.loads((out / "model.json").read_text())
    assert card["evolution"]["model"].endswith("generations 3..4")
    for name, value in card["parameters"].items():
        assert value == pytest.approx((logged[2][name] + logged[3][name]) / 2, abs=2e-6)
    assert card["parameters"] != logged[3]


def test_config_with_an_unknown_key_is_refused(tmp_path, capsys):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"param": ["bonus_value=0:2"], "popsize": 4}))
    with pytest.raises(SystemExit):
        evolve_cli.main(["--config", str(config), "--out", str(tmp_path / "o")])
    assert "unknown key(s) popsize" in capsys.readouterr().err
    config.write_text("{population: 8")
    with pytest.raises(SystemExit):
        evolve_cli.main(["--config", str(config), "--out", str(tmp_path / "o")])
    assert "not JSON" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evolve_cli.main(["--param", "bonus_value=0:2", "--population", "3", "--out",
                     str(tmp_path / "o")])
    assert "--population must be at least 4" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evolve_cli.main(["--param", "bonus_value=0:2", "--tail-average", "1.5", "--out",
                     str(tmp_path / "o")])
    assert "--tail-average must be between 0 and 1, got 1.5" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evolve_cli.main(["--param", "bonus_value=0:2", "--env-option", "colour=blue", "--out",
                     str(tmp_path / "o")])
    assert "colour" in capsys.readouterr().err


def test_team_games_seat_the_candidate_with_its_partners():
    from tablezoo import envs

    game = envs.make_game("bauer_trick_v0")
    agents = evolve._seating("bauer_trick_v0", game, {"call_threshold": 5.0}, seat=1)
    assert [a.call_threshold for a in agents] == [3.0, 5.0, 3.0, 5.0]  # seats 1 and 3: a team


def test_a_card_from_one_evaluation_game_is_strict_json(tmp_path):
    """One game's mean has no interval: its bounds are null in the card, not Infinity."""
    out = tmp_path / "run"
    assert evolve_cli.main(["--env", ENV, "--param", "read_opponent=0:4", "--out", str(out),
                        "--pairs", "1", "--population", "4", "--generations", "1",
                        "--eval-every", "1", "--eval-games", "1", "--processes", "1"]) == 0

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    card = json.loads((out / "model.json").read_text(), parse_constant=refuse)
    assert card["eval_during_training"]["games"] == 1
    assert card["eval_during_training"]["mean_reward_low"] is None
