"""``--target-kl`` is sb3's early stop of a rollout's PPO epochs: it reaches the model, it stops
the epochs when the policy has moved that far, and a non-positive value is refused by name."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO

from tablezoo.training.cli.selfplay import train

TINY = ["--env", "bauer_trick_v0", "--timesteps", "256", "--n-envs", "2", "--n-steps", "128",
        "--batch-size", "64", "--n-epochs", "6", "--net-arch", "16", "--lr", "0.01",
        "--eval-games", "0", "--no-progress"]


def updates_after_one_rollout(out, *extra: str) -> MaskablePPO:
    assert train.main([*TINY, "--out", str(out), *extra]) == 0
    return MaskablePPO.load(str(out / "model.zip"), device="cpu")


def test_a_tiny_target_kl_stops_the_epochs_early(tmp_path):
    free = updates_after_one_rollout(tmp_path / "free")
    held = updates_after_one_rollout(tmp_path / "held", "--target-kl", "1e-9")
    assert free.target_kl is None and free._n_updates == 6  # every epoch of the one rollout
    assert held.target_kl == pytest.approx(1e-9)
    assert held._n_updates < free._n_updates  # sb3 broke off after the first minibatch


@pytest.mark.parametrize("value", ["0", "-0.01"])
def test_a_non_positive_target_kl_is_refused(tmp_path, capsys, value):
    with pytest.raises(SystemExit):
        train.main([*TINY, "--out", str(tmp_path / "x"), "--target-kl", value])
    assert "--target-kl" in capsys.readouterr().err
