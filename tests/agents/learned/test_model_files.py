"""Damaged trained-model files are refused when loaded, naming the file and what is wrong, and
the command-line tools turn that into a one-line error (they gave tracebacks from numpy or json,
and a model with NaN weights loaded and then played illegal moves)."""

from __future__ import annotations

import json
import shutil
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.learned.model_files import ModelFileError, ModelMismatchError
from tablezoo.agents.learned.policy import (
    FORMAT,
    MAX_NETWORK_NUMBERS,
    PRETRAINED_DIR,
    NumpyMLP,
    load_model_file,
)

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


def _set_array(name: str, change: Callable[[np.ndarray], np.ndarray]) -> Callable[[Path], None]:
    def damage(p: Path) -> None:
        arrays = _arrays(p)
        arrays[name] = change(arrays[name])
        np.savez(p, **arrays)
    return damage


def _with_value(value: float) -> Callable[[np.ndarray], np.ndarray]:
    def change(a: np.ndarray) -> np.ndarray:
        a[3] = value
        return a
    return change


def _extra_array(p: Path) -> None:
    np.savez(p, **_arrays(p), notes=np.zeros(3, np.float32))


def _edit_card(**changes: object) -> Callable[[Path], None]:
    """The card with ``changes`` (a value None: the key removed)."""
    def damage(p: Path) -> None:
        card = json.loads(p.with_suffix(".json").read_text())
        card.update(changes)
        p.with_suffix(".json").write_text(
            json.dumps({k: v for k, v in card.items() if v is not None}))
    return damage


def _no_card(p: Path) -> None:
    p.with_suffix(".json").unlink()


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
    # the input scaling is part of the network: NaN there made 195 of 300 moves illegal
    "NaN obs_scale": (_set_array("obs_scale", _with_value(np.nan)), "obs_scale .*not finite"),
    "inf obs_scale": (_set_array("obs_scale", _with_value(np.inf)), "obs_scale .*not finite"),
    # numpy converted these silently (dropping the imaginary part, parsing the strings)
    "complex weights": (_set_array("w0", lambda a: a.astype(np.complex64)),
                        r"'w0' is <c8 .*expected float32, shape \(1440, 256\)"),
    "string weights": (_set_array("b1", lambda a: a.astype(str)), "'b1' is <U.*expected float32"),
    "float64 weights": (_set_array("w1", lambda a: a.astype(np.float64)),
                        "'w1' is <f8 .*expected float32"),
    "a wider layer": (_set_array("w1", lambda a: np.zeros((256, 300), np.float32)),
                      r"'w1' is <f4 of shape \(256, 300\); expected float32, shape \(256, 256\)"),
    "extra array": (_extra_array, r"arrays \[.*'notes'.*\]; expected w0, b0, w1, b1, w2, b2, "
                                  "obs_scale"),
    "no card": (_no_card, r"its card .*model\.json is missing"),
    "card names no env": (_edit_card(env=None), "card names no env; allowed: bauer_trick_v0"),
    "card of 7 players": (_edit_card(num_players=7, env_options={}),
                          "num_players=7 is not allowed; expected an int >= 2 and <= 6"),
    "card num_players a word": (_edit_card(num_players="two"), "num_players='two'; expected an"),
    "card without sizes": (_edit_card(obs_size=None), "must give the network's sizes"),
    "card of a huge network": (_edit_card(architecture={"hidden": [100_000, 100_000],
                                                        "activation": "relu", "obs_scale": True}),
                               "allowed: at most 32 hidden layers and 16,777,216 numbers"),
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
    from tablezoo.training.cli.evaluation import evaluate

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


def test_a_card_of_a_player_count_its_env_is_not_played_by_is_refused_when_loaded(tmp_path):
    """bauer_trick is played by 4: a card saying 3 loaded, and no env or no card failed only at
    the first act()."""
    path = tmp_path / "trick.npz"
    for suffix in (".npz", ".json"):
        shutil.copy((PRETRAINED_DIR / "bauer_trick_4p").with_suffix(suffix),
                    path.with_suffix(suffix))
    _edit_card(num_players=3)(path)
    with pytest.raises(ModelFileError, match=r"trick\.json: num_players=3, but bauer_trick_v0 "
                       "with the card's options .* is played by 4 players; allowed: 4"):
        make_agent("trained", env_name="bauer_trick_v0", path=str(path))
    _edit_card(num_players=4)(path)
    make_agent("trained", env_name="bauer_trick_v0", path=str(path))
    _edit_card(env="chess_v0")(path)  # loaded without an env to compare with
    with pytest.raises(ModelFileError, match="names env 'chess_v0'; allowed: bauer_trick_v0"):
        load_model_file(path)


def test_a_card_whose_network_does_not_fit_its_own_game_is_refused(tmp_path):
    """A 2-player network whose card says 4 players: refused when loaded, naming both sizes."""
    path = tmp_path / "model.npz"
    shutil.copy(SHIPPED, path)
    shutil.copy(SHIPPED.with_suffix(".json"), path.with_suffix(".json"))
    _edit_card(num_players=4, env_options={"num_players": 4})(path)
    with pytest.raises(ModelMismatchError, match="observations of size 1151, but the game its "
                       "card names .*4 players.*observations of size 1845"):
        load_model_file(path)


def _zip_member(archive: zipfile.ZipFile, name: str, shape: tuple[int, ...],
                data_bytes: int) -> None:
    """A ``.npy`` member whose header says ``shape`` (float32), followed by ``data_bytes``
    zeros written in chunks (the test itself never holds them)."""
    with archive.open(f"{name}.npy", "w", force_zip64=True) as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<f4", "fortran_order": False, "shape": shape})
        chunk = bytes(1 << 20)
        for start in range(0, data_bytes, len(chunk)):
            f.write(chunk[: min(len(chunk), data_bytes - start)])


def _bomb(path: Path, name: str, megabytes: int) -> None:
    """The shipped model's arrays plus (or, for an expected name, in place of it) ``name``: an
    array of ``megabytes`` MB of zeros, which compress about 1000:1."""
    arrays = _arrays(SHIPPED)
    arrays.pop(name, None)
    np.savez_compressed(path, **arrays)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        _zip_member(archive, name, (megabytes << 18,), megabytes << 20)


@pytest.mark.parametrize("name", ["padding", "w1"])
def test_a_decompression_bomb_is_refused_from_the_npz_headers_before_reading(tmp_path, name):
    """A 0.87 MB file carrying 200 MB of zeros loaded, decompressing everything (+187 MB peak).
    Now the member names and each .npy header are checked first: nothing big is read."""
    path = tmp_path / "model.npz"
    shutil.copy(SHIPPED.with_suffix(".json"), path.with_suffix(".json"))
    _bomb(path, name, 200)
    assert path.stat().st_size < 3 << 20
    tracemalloc.start()
    try:
        with pytest.raises(ModelFileError, match=f"{path}: .*'{name}'"):
            load_model_file(path, "ethnos_v0")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, f"{peak / 2**20:.0f} MiB peak while refusing the file"


def test_a_header_is_checked_before_its_array_is_read(tmp_path):
    """A header claiming a terabyte with no data behind it: refused by its shape, not by
    running out of data (which would mean it was being read)."""
    path = tmp_path / "model.npz"
    shutil.copy(SHIPPED.with_suffix(".json"), path.with_suffix(".json"))
    arrays = _arrays(SHIPPED)
    del arrays["w0"]
    np.savez(path, **arrays)
    with zipfile.ZipFile(path, "a") as archive:
        _zip_member(archive, "w0", (1 << 30, 256), 0)
    with pytest.raises(ModelFileError, match=r"'w0' is <f4 of shape \(1073741824, 256\); "
                       r"expected float32, shape \(1440, 256\)"):
        load_model_file(path)


def test_the_size_bound_admits_every_shipped_network_with_room():
    """Every shipped model loads under the bound; the biggest shipped network is ~1M numbers,
    and the bound admits two hidden layers of 2048 on the largest input of any env."""
    shipped = sorted(PRETRAINED_DIR.glob("*.npz")) + sorted(PRETRAINED_DIR.glob("*/*.npz"))
    assert len(shipped) >= 10
    for path in shipped:
        card = json.loads(path.with_suffix(".json").read_text())
        load_model_file(path, card["env"])
        if card["format"] == FORMAT:
            numbers = sum(a.size for a in _arrays(path).values())
            assert numbers * 16 < MAX_NETWORK_NUMBERS, path
    widest = max(n + envs.make_game(name, **o).num_actions * 2
                 for name in envs.ENVS for o in envs.VARIANTS[name]
                 for n in [envs.make_game(name, **o).obs_spec.size])
    assert widest * 2048 + 2048 * 2048 + 2048 * 648 < MAX_NETWORK_NUMBERS


def test_network_arrays_of_other_dtypes_are_refused_in_memory_too():
    with pytest.raises(ValueError, match="weight 0 has dtype complex128; allowed: real"):
        NumpyMLP([np.zeros((3, 2), complex)], [np.zeros(2)])
    with pytest.raises(ValueError, match="bias 0 has dtype <U3"):
        NumpyMLP([np.zeros((3, 2))], [np.array(["1.0", "2.0"])])
    with pytest.raises(ValueError, match="obs_scale values that are not finite"):
        NumpyMLP([np.zeros((3, 2))], [np.zeros(2)], obs_scale=np.array([1.0, np.nan, 1.0]))
