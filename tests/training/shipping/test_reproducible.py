"""A card's command rebuilds its model byte for byte, in a folder the user names.

The documented shape (``agents/pretrained/README.md``): ``tablezoo train --config CONFIG --out
DIR --seed 0``, ``tablezoo average DIR --tail F --out DIR/tail`` where the model is a tail
average, then ``tablezoo ship``, which writes into the folder it is given and touches
``agents/pretrained/`` only with ``--install``. Run twice on a tiny budget, it writes the same
``model.npz`` bytes at every step, and the card names no folder of the machine.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from tablezoo.training.cli import evolve as cma_es
from tablezoo.training.cli.selfplay import train
from tablezoo.training.cli.shipping import average, ship
from tablezoo.training.shipping.commands import unsafe_paths

# a shipped config's shape: a step budget and no clock (cloning, league with self-play,
# snapshots, checkpoints, evaluation), on bauer_trick's single deals
TINY = {"env": "bauer_trick_v0", "timesteps": 2048, "opponent": ["heuristic", "random"],
        "self_play": True, "snapshot_every": 512, "checkpoint_every": 512, "bc_games": 20,
        "bc_epochs": 1, "n_envs": 4, "n_steps": 128, "batch_size": 128, "n_epochs": 2,
        "net_arch": "32,32", "eval_every": 1024, "eval_games": 8,
        "entry_weight": {"heuristic": 3}}
COMMAND = ("tablezoo train --config tiny.json --out DIR --seed 0 --no-progress && "
           "tablezoo average DIR --tail 0.5 --out DIR/tail && tablezoo ship DIR/tail --games 4")


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rebuild(folder: str) -> dict[str, str]:
    """The card's command with ``DIR`` = ``folder`` (relative to the working folder, which holds
    ``tiny.json``); the sha256 of each ``.npz`` it wrote."""
    assert train.main(["--config", "tiny.json", "--out", folder, "--seed", "0",
                       "--no-progress"]) == 0
    assert average.main([folder, "--tail", "0.5", "--out", f"{folder}/tail"]) == 0
    assert ship.main([f"{folder}/tail", "--games", "4"]) == 0
    return {name: digest(Path(path)) for name, path in (
        ("run", f"{folder}/model.npz"), ("tail", f"{folder}/tail/model.npz"),
        ("shipped", f"{folder}/tail/bauer_trick_4p.npz"))}


@pytest.fixture
def pretrained(tmp_path, monkeypatch):
    """``agents/pretrained/`` as ``ship`` sees it, moved to a temporary folder."""
    folder = tmp_path / "pretrained"
    monkeypatch.setattr(ship, "PRETRAINED_DIR", folder)
    return folder


def test_the_same_command_writes_the_same_bytes(tmp_path, monkeypatch, pretrained):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.json").write_text(json.dumps(TINY))
    first = rebuild("first")
    second = rebuild("elsewhere/second")
    assert first == second
    assert first["tail"] == first["shipped"]  # ship copies the model as it is
    card = json.loads((tmp_path / "elsewhere/second/tail/bauer_trick_4p.json").read_text())
    assert card["training_command"] == COMMAND  # the folder is DIR, wherever it was
    assert card["budget"]["stopped_by"] == "timesteps" and card["budget"]["max_minutes"] is None
    assert card["budget"]["machine"]["software"]["torch"]
    assert not pretrained.exists()  # nothing went to agents/pretrained/
    assert (tmp_path / "first/tail/bauer_trick_4p_curve.png").is_file()  # the run's curve


def test_an_absolute_run_folder_is_dir_on_the_card(tmp_path, monkeypatch):
    run = tmp_path / "abs" / "run"
    config = {**TINY, "timesteps": 512, "bc_games": 0, "eval_games": 0, "self_play": False}
    (tmp_path / "c.json").write_text(json.dumps(config))
    monkeypatch.chdir(tmp_path)
    assert train.main(["--config", "c.json", "--out", str(run), "--seed", "0",
                       "--no-progress"]) == 0
    assert average.main([str(run), "--tail", "1", "--out", f"{run}_tail"]) == 0
    assert ship.main([f"{run}_tail", "--games", "2", "--dest", str(tmp_path / "mine")]) == 0
    card = json.loads((tmp_path / "mine" / "bauer_trick_4p.json").read_text())
    assert card["training_command"] == (
        "tablezoo train --config c.json --out DIR --seed 0 --no-progress && "
        "tablezoo average DIR --tail 1 --out DIR_tail && tablezoo ship DIR_tail --games 2")
    assert not unsafe_paths(card["training_command"])
    assert str(tmp_path) not in json.dumps(card)


def test_ship_writes_into_the_run_unless_told_where(tmp_path, monkeypatch, pretrained):
    run = tmp_path / "run"
    assert train.main(["--env", "bauer_trick_v0", "--timesteps", "0", "--out", str(run),
                       "--net-arch", "8", "--no-progress", "--eval-games", "0"]) == 0
    assert ship.main([str(run), "--games", "2"]) == 0
    assert (run / "bauer_trick_4p.npz").read_bytes() == (run / "model.npz").read_bytes()
    assert not pretrained.exists()
    assert ship.main([str(run), "--games", "2", "--install"]) == 0
    assert (pretrained / "bauer_trick_4p.npz").is_file()
    assert (pretrained / "bauer_trick_4p.json").is_file()
    with pytest.raises(SystemExit):  # one place or the other
        ship.main([str(run), "--games", "2", "--install", "--dest", str(tmp_path / "x")])


def test_evolution_reruns_game_for_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    flags = ["--env", "bower_v0", "--param", "bonus_value=0:2", "--population", "4",
             "--pairs", "1", "--generations", "2", "--eval-every", "0", "--eval-games", "2",
             "--processes", "1", "--seed", "0"]
    for folder in ("a", "b"):
        assert cma_es.main([*flags, "--out", folder]) == 0
    assert digest(tmp_path / "a/model.npz") == digest(tmp_path / "b/model.npz")
    card = json.loads((tmp_path / "b/model.json").read_text())
    assert card["training_command"] == "tablezoo evolve " + " ".join(flags).replace(
        "--seed 0", "--seed 0 --out DIR")
    assert card["budget"]["stopped_by"] == "generations"
    assert card["budget"]["max_minutes"] is None


def test_export_then_ship_extends_the_cards_command(tmp_path, monkeypatch):
    from tablezoo.training.cli.shipping import export

    monkeypatch.chdir(tmp_path)
    config = {**TINY, "timesteps": 512, "bc_games": 0, "eval_games": 0, "self_play": False}
    (tmp_path / "c.json").write_text(json.dumps(config))
    assert train.main(["--config", "c.json", "--out", "run", "--seed", "0", "--no-progress"]) == 0
    assert export.main([str(tmp_path / "run" / "model.zip"), "run/export/model.npz"]) == 0
    assert digest(tmp_path / "run/export/model.npz") == digest(tmp_path / "run/model.npz")
    assert ship.main(["run/export", "--games", "2"]) == 0
    card = json.loads((tmp_path / "run/export/bauer_trick_4p.json").read_text())
    assert card["training_command"] == (
        "tablezoo train --config c.json --out DIR --seed 0 --no-progress && "
        "tablezoo export DIR/model.zip DIR/export/model.npz && tablezoo ship DIR/export --games 2")
