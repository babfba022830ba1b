"""Settings outside their range are refused before anything trains, from the command line and
from a ``--config`` file alike (argparse's types never see a config's values). Before, these
trained a meaningless model without a word, or stopped with a traceback from torch or sb3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablezoo.training.cli.selfplay import train
from tablezoo.training.selfplay.settings import hidden_layers, setting_problems

BAD = [  # flag, value, words of the error
    ("--gamma", "2", "--gamma 2.0: allowed: more than 0, at most 1"),
    ("--gamma", "0", "--gamma 0.0: allowed"),
    ("--clip-range", "-0.1", "--clip-range -0.1: allowed: more than 0"),
    ("--partner-snapshot-prob", "2", "--partner-snapshot-prob 2.0: allowed: 0 to 1"),
    ("--pfsp-power", "-1", "--pfsp-power -1.0: allowed: 0 or more"),
    ("--max-minutes", "-1", "--max-minutes -1.0: allowed: more than 0"),
    ("--timesteps", "-5", "--timesteps -5: allowed: 0 or more"),
    ("--n-envs", "0", "--n-envs 0: allowed: 1 or more"),
    ("--batch-size", "0", "--batch-size 0: allowed: 2 or more"),
    ("--lr", "-1", "--lr -1.0: allowed: more than 0"),
    ("--lr", "nan", "--lr nan: allowed"),
    ("--bc-epochs", "0", "--bc-epochs 0: allowed: 1 or more"),
    ("--net-arch", "0", "'0' is not a layer size"),
    ("--net-arch", "128,abc", "'abc' is not a layer size"),
    ("--init", "/nonexistent.zip", "--init /nonexistent.zip: no such model file"),
    ("--seed", "-1", "--seed: expected an integer >= 0"),
]


@pytest.mark.parametrize("flag,value,words", BAD, ids=[f"{f} {v}" for f, v, _ in BAD])
def test_a_setting_out_of_range_is_refused_on_the_command_line(flag, value, words, tmp_path,
                                                               capsys):
    with pytest.raises(SystemExit) as exc:
        train.main(["--env", "bower_v0", "--timesteps", "64", "--out", str(tmp_path / "run"),
                    flag, value])
    assert exc.value.code == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # nothing written


def test_a_config_files_values_are_checked_too(tmp_path, capsys):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"env": "bower_v0", "timesteps": 64, "gamma": 2,
                                  "n_envs": 0, "net_arch": "0"}))
    with pytest.raises(SystemExit):
        train.main(["--config", str(config), "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert all(w in err for w in ("--gamma 2", "--n-envs 0", "--net-arch '0'"))  # all at once
    config.write_text("[1]")
    with pytest.raises(SystemExit):
        train.main(["--config", str(config), "--out", str(tmp_path / "run")])
    assert "expected a JSON object" in capsys.readouterr().err


def test_every_shipped_config_is_within_range():
    for path in sorted(Path("training/configs").glob("*.json")):
        keys = json.loads(path.read_text())
        if "population" in keys:  # tablezoo.training.evolution.cma_es's
            continue
        args = train.parse_args(train.build_parser(), ["--config", str(path), "--out", "/x"])
        assert setting_problems(vars(args)) == [], path


def test_hidden_layers_reads_sizes_and_refuses_the_rest():
    assert hidden_layers("256, 256") == [256, 256]
    assert hidden_layers(64) == [64]
    for text in ("", ",", "-1", "1.5"):
        with pytest.raises(ValueError, match="--net-arch"):
            hidden_layers(text)


@pytest.mark.parametrize("config,words", [
    ({"n_envs": 2.5}, "n_envs=2.5; expected what --n-envs takes (int)"),
    ({"seed": -3}, "seed=-3: expected an integer >= 0"),
    ({"self_play": "false"}, "self_play='false'; allowed: true, false"),  # it turned self-play on
    ({"opponent": "heuristic"}, "opponent='heuristic'; expected a list"),  # "unknown agent 'h'"
    ({"activation": "sigmoid"}, "activation='sigmoid'; allowed: tanh, relu"),
    ({"entry_weight": {"heuristic": -1}}, "--entry-weight heuristic=-1: allowed factors"),
])
def test_a_config_value_of_the_wrong_kind_is_refused_like_the_same_flag(config, words, tmp_path,
                                                                        capsys):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"env": "bower_v0", "timesteps": 64, **config}))
    with pytest.raises(SystemExit) as exc:
        train.main(["--config", str(path), "--out", str(tmp_path / "run")])
    assert exc.value.code == 2 and words in capsys.readouterr().err


def test_repeatable_flags_on_the_command_line_win_over_the_config():
    """A list flag replaces the file's list; KEY=VALUE flags replace the file's same keys (an
    --env-option next to a config's options was an AttributeError)."""
    config = "training/configs/bauer_trick_rollout_sym.json"  # env_option {"episode": "deal"}
    args = train.parse_args(train.build_parser(), ["--config", config, "--out", "/x",
                                                   "--env-option", "reward=margin",
                                                   "--opponent", "random"])
    assert args.env_option == ["episode=deal", "reward=margin"] and args.opponent == ["random"]
    args = train.parse_args(train.build_parser(), ["--config", config, "--out", "/x",
                                                   "--env-option", "episode=game"])
    assert args.env_option == ["episode=game"]
    args = train.parse_args(train.build_parser(), ["--config", config, "--out", "/x"])
    assert args.env_option == ["episode=deal"] and args.opponent == ["heuristic"]


def test_evolve_params_on_the_command_line_replace_the_configs_same_parameter():
    from tablezoo.training.cli import evolve as evolve_cli
    from tablezoo.training.cli.options import parse_with_config
    from tablezoo.training.evolution import cma_es as evolve

    args = parse_with_config(evolve_cli.build_parser(), [
        "--config", "training/configs/bower_evolve.json", "--out", "/x",
        "--param", "bonus_value=0:3"])
    bounds = evolve.parse_bounds(args.param, "bower_v0")
    assert bounds["bonus_value"] == (0.0, 3.0) and "read_opponent" in bounds


def test_a_start_model_of_another_game_or_not_a_zip_is_refused_before_training(tmp_path,
                                                                             capsys):
    """They were tracebacks from sb3 ("Observation spaces do not match") after OUT was made."""
    run = tmp_path / "bower"
    assert train.main(["--env", "bower_v0", "--timesteps", "32", "--n-envs", "2", "--n-steps",
                       "16", "--batch-size", "16", "--eval-games", "0", "--out", str(run),
                       "--no-progress"]) == 0
    (tmp_path / "alone").mkdir()  # away from its run's config.json, which names the env
    (tmp_path / "alone" / "model.npz").write_bytes((run / "model.npz").read_bytes())
    for start, words in ((run / "model", "trained for env 'bower_v0', not for env 'ethnos_v0'"),
                         (tmp_path / "alone" / "model.npz", "not a MaskablePPO model.zip")):
        with pytest.raises(SystemExit) as exc:
            train.main(["--env", "ethnos_v0", "--timesteps", "32", "--out",
                        str(tmp_path / "e"), "--init", str(start)])
        assert exc.value.code == 2 and words in capsys.readouterr().err
        assert not (tmp_path / "e").exists()
    with pytest.raises(SystemExit):
        train.main(["--env", "ethnos_v0", "--timesteps", "64", "--out", str(run), "--resume"])
    assert "--resume: " in capsys.readouterr().err


def test_imitate_names_itself_in_its_errors(tmp_path, capsys):
    """``tablezoo imitate`` runs the training flags, but its errors name the command the user
    typed (they said ``tablezoo train:``)."""
    from tablezoo.training.cli import imitate

    config = tmp_path / "c.json"
    config.write_text(json.dumps({"env": "bower_v0", "gamma": 2}))
    with pytest.raises(SystemExit) as exc:
        imitate.main(["--config", str(config), "--out", str(tmp_path / "run")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "tablezoo imitate: error:" in err and "--gamma 2" in err
    assert "tablezoo.training.selfplay.train" not in err
