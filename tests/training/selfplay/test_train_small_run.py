"""A few thousand steps of training (BC warm start, league, periodic evaluation), save, export,
resume, load as ``policy`` and as ``trained``, evaluate (no strength asserted)."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.training.cli.evaluation import evaluate
from tablezoo.training.cli.selfplay import train

ENV = "bauer_trick_v0"
SMALL = ["--n-envs", "4", "--n-steps", "128", "--batch-size", "128", "--n-epochs", "1",
         "--net-arch", "32", "--no-progress", "--eval-games", "24", "--eval-every", "1024"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    code = train.main(["--env", ENV, "--timesteps", "2048", "--out", str(out), "--self-play",
                       "--snapshot-every", "1024", "--checkpoint-every", "1024",
                       "--max-snapshots", "1", "--bc-games", "30", "--bc-epochs", "1", *SMALL])
    assert code == 0
    return out


def test_training_writes_model_checkpoints_logs_and_config(run_dir):
    assert (run_dir / "model.zip").is_file()
    assert len(list((run_dir / "checkpoints").glob("model_*_steps.zip"))) >= 2
    assert any((run_dir / "tb").rglob("events.out.tfevents.*"))
    config = json.loads((run_dir / "config.json").read_text())
    assert config["env"] == ENV and config["env_options"] == {"episode": "deal"}
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["timesteps"] >= 2048
    assert any(name.startswith("self@") for name in summary["final_pool"])
    # the league keeps the newest --max-snapshots 1 of those added: so does the summary
    assert summary["snapshots_added"] > 1
    assert len(summary["final_pool"]) == 1


def test_training_exports_numpy_weights_with_a_card_and_an_eval_log(run_dir):
    import csv

    card = json.loads((run_dir / "model.json").read_text())
    game = envs.make_game(ENV, episode="deal")
    assert card["env"] == ENV and card["num_players"] == 4
    assert card["obs_size"] == game.obs_spec.size and card["num_actions"] == game.num_actions
    assert card["timesteps"] >= 2048 and card["seed"] == 0 and card["bc"]["games"] == 30
    assert card["training_command"].startswith("tablezoo train")
    numba = importlib.util.find_spec("numba") is not None  # auto: the compiled engine with numba
    assert card["engine"] == ("compiled" if numba else "python")
    machine = card["budget"]["machine"]  # read off this machine, not a fixed description
    assert machine["cpus"] == os.cpu_count() and machine["processes"] == 1
    assert machine["update_threads"] == 1 and machine["cpu"]
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert {r["opponent"] for r in rows} == {"random", "heuristic"}
    assert {int(r["step"]) for r in rows} >= {0, 2048}
    assert all(float(r["mean_reward_low"]) <= float(r["mean_reward"])
               <= float(r["mean_reward_high"]) for r in rows)
    assert (run_dir / "learning_curve.png").stat().st_size > 1000
    # the numpy export plays what the torch policy prefers
    torch_agent = make_agent("policy", env_name=ENV, path=str(run_dir / "model.zip"))
    numpy_agent = make_agent("trained", env_name=ENV, path=str(run_dir / "model.npz"))
    rng = np.random.default_rng(1)
    state = game.new_state(3)
    while not state.is_over():
        (p,) = state.acting_players()
        mask, obs = state.legal_mask(p), state.observe(p)
        np.testing.assert_allclose(numpy_agent.action_probabilities(obs, mask),
                                   torch_agent.action_probabilities(obs, mask),
                                   atol=1e-5)
        state.apply({p: int(rng.choice(np.flatnonzero(mask)))})
    assert evaluate.main(["--env", ENV, "--agent", f"trained:path={run_dir / 'model.npz'}",
                          "--games", "8", "--no-progress"]) == 0


def test_resume_continues_the_step_count(run_dir):
    before = json.loads((run_dir / "summary.json").read_text())["total_timesteps"]
    first_card = json.loads((run_dir / "model.json").read_text())
    different_net = [x if x != "32" else "64" for x in SMALL]  # ignored: the model is loaded
    assert train.main(["--env", ENV, "--timesteps", "512", "--out", str(run_dir), "--resume",
                       "--self-play", *different_net]) == 0
    after = json.loads((run_dir / "summary.json").read_text())["total_timesteps"]
    assert after >= before + 512
    config = json.loads((run_dir / "config.json").read_text())
    assert config["hyperparameters"]["net_arch"] == "32"  # the original run's record is kept
    assert config["resumed"][0]["at_steps"] == before
    # the card keeps every session's machine, wall time and the steps it ended at
    card = json.loads((run_dir / "model.json").read_text())
    first, second = card["budget"]["sessions"]
    assert first == {"machine": first_card["budget"]["machine"],
                     "wall_seconds": first_card["wall_seconds"], "timesteps": before}
    assert second["timesteps"] == after == card["timesteps"]
    assert second["machine"]["cpus"] == os.cpu_count()
    assert card["wall_seconds"] == pytest.approx(first["wall_seconds"] + second["wall_seconds"],
                                                 abs=0.11)
    pool = json.loads((run_dir / "summary.json").read_text())["final_pool"]
    assert any(name.startswith("checkpoint:model_") for name in pool)  # saved ones rejoin


def test_saved_model_plays_legal_actions_as_an_agent(run_dir):
    game = envs.make_game(ENV, episode="deal")
    greedy = make_agent("policy", env_name=ENV, path=str(run_dir / "model.zip"))
    sampled = [make_agent("policy", env_name=ENV, seed=5, path=str(run_dir / "model.zip"),
                          deterministic=False) for _ in range(2)]
    rng = np.random.default_rng(0)
    for seed in range(5):
        state = game.new_state(seed)
        while not state.is_over():
            (p,) = state.acting_players()
            mask = state.legal_mask(p).copy()
            obs = state.observe(p)
            a = greedy.act(obs, mask)
            assert mask[a]
            assert greedy.act(obs, mask) == a  # greedy is a function of the input
            assert sampled[0].act(obs, mask) == sampled[1].act(obs, mask)  # same seed
            probs = greedy.action_probabilities(obs, mask)
            assert probs[~mask].sum() == 0 and probs.sum() == pytest.approx(1, abs=1e-5)
            state.apply({p: int(rng.choice(np.flatnonzero(mask)))})


def test_evaluate_prints_and_writes_rates(run_dir, capsys):
    out = run_dir / "eval.json"
    assert evaluate.main(["--env", ENV, "--model", str(run_dir / "model.zip"), "--games", "40",
                          "--json", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "mean reward" in printed and "95% CI" in printed
    result = json.loads(out.read_text())
    assert result["games"] == 40
    assert result["win"] + result["draw"] + result["loss"] == pytest.approx(1.0)
    assert result["mean_reward_low"] <= result["mean_reward"] <= result["mean_reward_high"]


def test_evaluate_measures_a_run_by_the_games_reward_not_its_training_reward(run_dir, tmp_path,
                                                                               capsys):
    """The run's game options are the default of ``--model``, but a reward the learner was
    trained on (``reward=points`` here; ``margin`` in the shipped configs) is not what its
    strength is measured in: that is the game's own reward, as for any ``--agent``."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "model.zip").write_bytes((run_dir / "model.zip").read_bytes())
    config = json.loads((run_dir / "config.json").read_text())
    config["env_options"] = {**config["env_options"], "reward": "points"}
    (run / "config.json").write_text(json.dumps(config))
    measured = []
    for extra in ([], ["--env-option", "episode=deal", "--env-option", "reward=points"]):
        out = tmp_path / f"eval{len(extra)}.json"
        assert evaluate.main(["--env", ENV, "--model", str(run / "model.zip"), "--games", "4",
                              "--json", str(out), "--no-progress", *extra]) == 0
        measured.append(json.loads(out.read_text())["env_options"])
    capsys.readouterr()
    assert measured[0] == {k: v for k, v in config["env_options"].items() if k != "reward"}
    assert measured[1]["reward"] == "points"  # asked for by name: kept


def test_evaluate_any_agent_as_the_hero_partnering_itself_by_default(tmp_path, capsys):
    runs = {}
    for name, extra in (("default", []), ("heuristic", ["--partner", "heuristic"]),
                        ("random", ["--partner", "random"])):
        out = tmp_path / f"{name}.json"
        assert evaluate.main(["--env", ENV, "--agent", "heuristic", "--games", "200", "--json",
                              str(out), "--no-progress", *extra]) == 0
        runs[name] = json.loads(out.read_text())
    assert "vs partner=the agent itself, opponents=random" in capsys.readouterr().out
    assert runs["default"]["hero"] == "heuristic" and runs["default"]["games"] == 200
    assert runs["default"]["partner"] == "the agent itself"
    # without --partner the agent partners itself: the very games of naming it as the partner
    assert {k: runs["default"][k] for k in ("win", "draw", "mean_reward")} == {
        k: runs["heuristic"][k] for k in ("win", "draw", "mean_reward")}
    # and a heuristic team beats random opponents by more than a heuristic with a random partner
    # (measured +0.19 over 2,000 deals)
    assert runs["default"]["mean_reward"] > runs["random"]["mean_reward"] > 0


def test_evaluate_names_no_partner_in_a_game_without_teams(capsys):
    assert evaluate.main(["--env", "bauer_draft_v0", "--agent", "heuristic", "--games", "4",
                          "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "heuristic vs opponents=random" in printed and "partner" not in printed


def test_policy_agent_and_cli_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no model file"):
        make_agent("policy", env_name=ENV, path=str(tmp_path / "missing.zip"))
    with pytest.raises(SystemExit):
        train.main(["--env", "nope_v0", "--timesteps", "10", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="no model.zip or checkpoint"):
        train.main(["--env", ENV, "--timesteps", "10", "--out", str(tmp_path), "--resume",
                    *SMALL])


@pytest.mark.parametrize("tool,extra,message", [
    (train, ["--timesteps", "10", "--env-option", "episode=hand"],
     "allowed values: 'game', 'deal'"),
    (train, ["--timesteps", "10", "--env-option", "colour=red"], "known options: episode"),
    (train, ["--timesteps", "10", "--env-option", "episode"], "expects key=value"),
    (train, ["--timesteps", "10", "--opponent", "randum"], "known agents: random"),
    (evaluate, ["--model", "x.zip", "--opponent", "randum"], "known agents: random"),
    (evaluate, ["--model", "x.zip", "--partner", "heuristic:depth=2"], "allowed: call_threshold"),
    (evaluate, ["--model", "missing/x.zip"], "no model file"),
    (evaluate, ["--agent", "heuristic", "--model", "x.zip"], "not allowed with argument"),
])
def test_bad_command_lines_exit_with_a_clear_message(tool, extra, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        tool.main(["--env", ENV, *(["--out", str(tmp_path)] if tool is train else []), *extra])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_ship_measures_on_its_own_seeds_and_copies_weights_and_card(run_dir, tmp_path):
    from tablezoo.training.cli.shipping import ship

    assert ship.main([str(run_dir), "--games", "8", "--seed", "77", "--dest",
                      str(tmp_path)]) == 0
    card = json.loads((tmp_path / "bauer_trick_4p.json").read_text())
    strength = card["measured_strength"]
    assert strength["heuristic"]["games"] == 8 and strength["heuristic"]["seeds"] == "77..84"
    low, high = strength["random"]["ci95"]
    assert low <= strength["random"]["mean_reward"] <= high
    agent = make_agent("trained", env_name=ENV, path=str(tmp_path / "bauer_trick_4p.npz"))
    assert agent.mlp.card["measured_strength"] == strength
    # trained on single deals, so measured again in the env's default game: whole games, which
    # end only when a team has won (a deal is drawn about half the time)
    whole = card["measured_strength_env_defaults"]
    assert whole["env_options"] == {"episode": "game"}
    assert whole["heuristic"]["games"] == 8 and whole["heuristic"]["seeds"] == "77..84"
    assert whole["heuristic"]["draw"] == 0
    assert whole["heuristic"]["win"] + whole["heuristic"]["loss"] == pytest.approx(1)


@pytest.mark.parametrize(("env", "options", "off"), [
    ("bauer_trick_v0", {"episode": "deal"}, {"episode": "game"}),
    ("bauer_trick_v0", {}, {}),
    ("ethnos_v0", {"num_players": 4, "reward": "margin"}, {}),  # evaluation uses the default reward
    ("bower_v0", {"hands_public": False}, {"hands_public": True}),
])
def test_ship_names_the_options_that_differ_from_the_envs_defaults(env, options, off):
    from tablezoo.training.shipping.ship import options_off_default

    assert options_off_default({"env": env, "env_options": options}) == off


def test_imitation_only_then_ppo_from_it(tmp_path):
    from tablezoo.training.cli import imitate

    bc = tmp_path / "bc"
    assert imitate.main(["--env", ENV, "--out", str(bc), "--games", "20", "--epochs", "1"]) == 0
    summary = json.loads((bc / "summary.json").read_text())
    assert summary["bc"]["games"] == 20 and summary["bc"]["samples"] > 100
    assert summary["total_timesteps"] == 0 and (bc / "model.npz").is_file()
    out = tmp_path / "ppo"
    assert train.main(["--env", ENV, "--timesteps", "256", "--out", str(out), "--init",
                       str(bc / "model.zip"), *SMALL]) == 0
    assert json.loads((out / "summary.json").read_text())["total_timesteps"] >= 256


def test_benchmark_measures_each_setup():
    from tablezoo.training.selfplay import throughput as benchmark

    for setup in benchmark.SETUPS:
        assert benchmark.measure(ENV, setup, 256, 4, 0) > 0
