"""Settings outside their range are refused before anything trains, from the command line and
from a ``--config`` file alike (argparse's types never see a config's values). Before, these
trained a meaningless model without a word, or stopped with a traceback from torch or sb3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training import train
from training.settings import hidden_layers, setting_problems

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
        if "population" in keys:  # training.evolve's
            continue
        args = train.parse_args(train.build_parser(), ["--config", str(path), "--out", "/x"])
        assert setting_problems(vars(args)) == [], path


def test_hidden_layers_reads_sizes_and_refuses_the_rest():
    assert hidden_layers("256, 256") == [256, 256]
    assert hidden_layers(64) == [64]
    for text in ("", ",", "-1", "1.5"):
        with pytest.raises(ValueError, match="--net-arch"):
            hidden_layers(text)
