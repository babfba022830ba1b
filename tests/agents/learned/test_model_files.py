"""Damaged trained-model files are refused when loaded, naming the file and what is wrong, and
the command-line tools turn that into a one-line error (they gave tracebacks from numpy or json,
and a model with NaN weights loaded and then played illegal moves)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tablezoo.agents import make_agent
from tablezoo.agents.learned.model_files import ModelFileError
from tablezoo.agents.learned.policy import PRETRAINED_DIR, load_model_file

SHIPPED = PRETRAINED_DIR / "ethnos_2p.npz"


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def _card_list(p: Path) -> None:
    p.with_suffix(".json").write_text("[1, 2]")


def _card_not_json(p: Path) -> None:
    p.with_suffix(".json").write_text('{"env": "ethnos_v0')


def _architecture_null(p: Path) -> None:
    card = json.loads(p.with_suffix(".json").read_text())
    p.with_suffix(".json").write_text(json.dumps({**card, "architecture": None}))


def _empty(p: Path) -> None:
    p.write_bytes(b"")


def _truncated(p: Path) -> None:
    p.write_bytes(p.read_bytes()[:200])


def _random_bytes(p: Path) -> None:
    p.write_bytes(np.random.default_rng(0).bytes(4000))


def _bias_missing(p: Path) -> None:
    arrays = _arrays(p)
    del arrays["b1"]
    np.savez(p, **arrays)


def _nan_weights(p: Path) -> None:
    arrays = _arrays(p)
    arrays["w0"][0, 0] = np.nan
    np.savez(p, **arrays)


def _single_array(p: Path) -> None:
    with p.open("wb") as f:
        np.save(f, np.zeros(3))


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "card is a list": (_card_list, "card must be a JSON object"),
    "card is not JSON": (_card_not_json, "card is not JSON"),
    "architecture null": (_architecture_null, "'architecture' must be an object"),
    "empty npz": (_empty, "not a readable model .npz"),
    "truncated npz": (_truncated, "not a readable model .npz"),
    "random bytes": (_random_bytes, "not a readable model .npz"),
    "bias missing": (_bias_missing, "expected w0, b0, w1, b1"),
    "NaN weights": (_nan_weights, "not finite"),
    "single array": (_single_array, "not a model's .npz archive"),
}


@pytest.fixture
def damaged(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    damage, message = DAMAGE[request.param]
    path = tmp_path / "model.npz"
    shutil.copy(SHIPPED, path)
    shutil.copy(SHIPPED.with_suffix(".json"), path.with_suffix(".json"))
    load_model_file(path, "ethnos_v0")  # the undamaged copy loads
    damage(path)
    return path, message


@pytest.mark.parametrize("damaged", list(DAMAGE), indirect=True)
def test_a_damaged_model_file_is_refused_naming_the_file_and_the_problem(damaged):
    path, message = damaged
    with pytest.raises(ModelFileError, match=message) as err:
        make_agent("trained", env_name="ethnos_v0", path=str(path))
    assert str(path.parent) in str(err.value)


@pytest.mark.parametrize("damaged", ["card is a list", "truncated npz", "NaN weights"],
                         indirect=True)
def test_evaluate_reports_a_damaged_model_in_one_line(damaged, capsys):
    from tablezoo.training.evaluation import evaluate

    path, message = damaged
    with pytest.raises(SystemExit) as exc:
        evaluate.main(["--env", "ethnos_v0", "--env-option", "num_players=2", "--agent",
                       f"trained:{path}", "--games", "2", "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and message in err


def test_a_run_folder_given_as_the_model_points_to_its_model_file(tmp_path):
    """``trained:RUN`` used to report "no model file at RUN.npz"."""
    with pytest.raises(FileNotFoundError, match=f"is a folder.*{tmp_path / 'model.npz'}"):
        load_model_file(tmp_path)
    (tmp_path / "foo").mkdir()  # a folder beside a model file of its name: the file is meant
    for suffix in (".npz", ".json"):
        shutil.copy(SHIPPED.with_suffix(suffix), (tmp_path / "foo").with_suffix(suffix))
    load_model_file(tmp_path / "foo", "ethnos_v0")
    (tmp_path / "foo.v2").mkdir()  # a run folder with a dot: not foo.npz, whose stem it shares
    with pytest.raises(FileNotFoundError, match="is a folder"):
        load_model_file(tmp_path / "foo.v2")


def test_a_model_without_its_card_is_refused_naming_the_missing_card(tmp_path):
    """Evolved heuristic weights are told from a network by their card: without it the file was
    only "not a tablezoo-mlp-v1 file", which sent the user looking at the arrays."""
    weights = tmp_path / "bower.npz"
    shutil.copy(PRETRAINED_DIR / "bower_2p.npz", weights)
    with pytest.raises(ModelFileError, match=r"its card .*bower\.json is missing"):
        load_model_file(weights)
    shutil.copy(PRETRAINED_DIR / "bower_2p.json", weights.with_suffix(".json"))
    load_model_file(weights, "bower_v0")  # with its card it loads
