"""``tablezoo average``: the tail of a run's checkpoints averaged into one playable model."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tablezoo.agents import make_agent
from tablezoo.agents.learned.policy import NumpyMLP
from tablezoo.training.cli.selfplay import train
from tablezoo.training.cli.shipping import average
from tablezoo.training.shipping.average import average_mlps, tail_steps

ENV = "bauer_trick_v0"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("avg_run")
    code = train.main(["--env", ENV, "--timesteps", "2048", "--out", str(out),
                       "--checkpoint-every", "512", "--n-envs", "4", "--n-steps", "128",
                       "--batch-size", "128", "--n-epochs", "1", "--net-arch", "16",
                       "--lr", "0.01", "--no-progress", "--eval-games", "0"])
    assert code == 0
    return out


def actor_arrays(zip_path) -> list[np.ndarray]:
    """The actor's weights and biases read straight from sb3's ``policy.pth`` inside the zip,
    as (in, out) matrices: independent of ``tablezoo.training.shipping.export``."""
    import torch

    with zipfile.ZipFile(zip_path) as z:
        state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu")
    layers = sorted({int(k.split(".")[2]) for k in state
                     if k.startswith("mlp_extractor.policy_net.")})
    names = [f"mlp_extractor.policy_net.{i}.{kind}" for i in layers for kind in ("weight", "bias")]
    names += ["action_net.weight", "action_net.bias"]
    return [state[k].numpy().T if k.endswith("weight") else state[k].numpy() for k in names]


@pytest.mark.parametrize("steps, final, fraction, expected", [
    ([512, 1024, 1536, 2048], 2048, 0.5, [1024, 1536]),
    ([512, 1024, 1536, 2048], 2048, 1.0, [512, 1024, 1536]),
    ([512, 1024, 1536, 2048], 2560, 0.2, [2048]),
    ([512, 1024], 2048, 0.25, []),
    ([], 2048, 0.5, []),
])
def test_tail_keeps_the_checkpoints_of_the_last_fraction_before_the_end(steps, final,
                                                                       fraction, expected):
    assert tail_steps(steps, final, fraction) == expected


def test_average_is_the_mean_of_the_tail_checkpoints_and_the_final_weights(run_dir, tmp_path):
    assert average.main([str(run_dir), "--tail", "0.5", "--out", str(tmp_path)]) == 0
    card = json.loads((tmp_path / "model.json").read_text())
    chosen = card["averaged"]["checkpoint_steps"]
    final = card["averaged"]["final_steps"]
    on_disk = sorted(int(f.stem.split("_")[1]) for f in (run_dir / "checkpoints").glob("*.zip"))
    assert chosen and chosen == [s for s in on_disk if final / 2 <= s < final]
    zips = [run_dir / "checkpoints" / f"model_{s}_steps.zip" for s in chosen]
    sources = [actor_arrays(z) for z in [*zips, run_dir / "model.zip"]]
    expected = [np.mean([s[i] for s in sources], axis=0) for i in range(len(sources[0]))]
    with np.load(tmp_path / "model.npz") as saved:
        got = [saved[f"{kind}{i}"] for i in range(len(expected) // 2) for kind in "wb"]
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    final_arrays = sources[-1]
    assert any(not np.allclose(g, f) for g, f in zip(got, final_arrays))  # not the final alone
    assert card["training_command"].startswith("tablezoo train")
    assert "&& tablezoo average" in card["training_command"]
    agent = make_agent("trained", env_name=ENV, path=str(tmp_path / "model.npz"))
    assert agent.mlp.card["averaged"]["networks"] == len(chosen) + 1


@pytest.mark.parametrize("extra, message", [
    (["--tail", "0"], "above 0 and at most 1"),
    (["--tail", "1.5"], "above 0 and at most 1"),
])
def test_bad_tail_is_refused_with_the_allowed_range(run_dir, tmp_path, extra, message, capsys):
    with pytest.raises(SystemExit) as exc:
        average.main([str(run_dir), *extra, "--out", str(tmp_path)])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_a_folder_that_is_no_run_or_the_run_itself_is_refused(run_dir, tmp_path, capsys):
    with pytest.raises(SystemExit):
        average.main([str(tmp_path), "--tail", "0.5", "--out", str(tmp_path / "o")])
    assert "not a finished tablezoo train run (no model.json)" in capsys.readouterr().err
    before = (run_dir / "model.npz").read_bytes()
    with pytest.raises(SystemExit):
        average.main([str(run_dir), "--tail", "0.5", "--out", str(run_dir)])
    assert "is the run itself" in capsys.readouterr().err
    assert (run_dir / "model.npz").read_bytes() == before


def test_networks_of_another_shape_or_activation_are_refused():
    def mlp(hidden: int, activation: str = "relu") -> NumpyMLP:
        return NumpyMLP([np.zeros((3, hidden)), np.zeros((hidden, 2))],
                        [np.zeros(hidden), np.zeros(2)], activation)

    assert average_mlps([mlp(4), mlp(4)], {}).hidden == [4]
    with pytest.raises(ValueError, match="differ in shape"):
        average_mlps([mlp(4), mlp(5)], {})
    with pytest.raises(ValueError, match="differ in activation"):
        average_mlps([mlp(4), mlp(4, "tanh")], {})
