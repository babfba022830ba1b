"""Turn a MaskablePPO policy into a ``NumpyMLP`` (``agents.learned.policy``): the shipped format.

The shipped format holds only the actor (features -> policy MLP -> action head).
``value_mlp_from_policy`` exports the critic the same way, for the collector that answers the
learner's seats during training (``training/selfplay/ppo.py``); it is never shipped. The policy must
be sb3's ``MlpPolicy`` on a flat ``Box`` observation (the features extractor is then a plain
flatten), with ``ReLU`` or ``Tanh`` hidden layers.

    tablezoo export RUN/model.zip OUT.npz   # card from RUN/config.json

The card's ``training_command`` is the run's, followed by this export, with the run folder
written ``DIR`` (``training/shipping/commands.py``): ``tablezoo export DIR/model.zip
DIR/export/model.npz && tablezoo ship DIR/export`` extends it to a whole recipe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.learned.policy import NumpyMLP, run_config
from tablezoo.training.shipping.commands import OTHER, RUN, join, placeholder, portable_command

TORCH_ACTIVATIONS = {"ReLU": "relu", "Tanh": "tanh"}


def mlp_from_policy(policy: Any, obs_scale: np.ndarray | None = None,
                    card: dict[str, Any] | None = None) -> NumpyMLP:
    """The actor of an sb3 ``ActorCriticPolicy`` as numpy float32 arrays (weights copied)."""
    _check_extractor(policy)
    return _mlp_of(policy.mlp_extractor.policy_net, policy.action_net, obs_scale, card)


def value_mlp_from_policy(policy: Any, obs_scale: np.ndarray | None = None) -> NumpyMLP:
    """The critic (features -> value MLP -> value head, one output) as numpy float32 arrays: a
    collector that answers the learner's own seats needs its values for the rollout buffer."""
    _check_extractor(policy)
    return _mlp_of(policy.mlp_extractor.value_net, policy.value_net, obs_scale, None)


def _check_extractor(policy: Any) -> None:
    extractor = type(policy.pi_features_extractor).__name__
    if extractor != "FlattenExtractor":
        raise ValueError(f"export: only MlpPolicy (FlattenExtractor) is supported, "
                         f"got {extractor}")


def _mlp_of(body: Any, head: Any, obs_scale: np.ndarray | None,
            card: dict[str, Any] | None) -> NumpyMLP:
    import torch

    weights, biases, activation = [], [], None
    for module in body:
        if isinstance(module, torch.nn.Linear):
            weights.append(module.weight.detach().cpu().numpy().T.copy())
            biases.append(module.bias.detach().cpu().numpy().copy())
        elif type(module).__name__ in TORCH_ACTIVATIONS:
            activation = TORCH_ACTIVATIONS[type(module).__name__]
        else:
            raise ValueError(f"export: unsupported layer {type(module).__name__}; "
                             f"allowed: Linear, {', '.join(TORCH_ACTIVATIONS)}")
    weights.append(head.weight.detach().cpu().numpy().T.copy())
    biases.append(head.bias.detach().cpu().numpy().copy())
    return NumpyMLP(weights, biases, activation or "relu", obs_scale, card=dict(card or {}))


def export_command(model_path: str | Path, out: str | Path,
                   config: dict[str, Any]) -> str:
    """The card's ``training_command``: the run's own commands (``config.json``), then this
    export, every folder of the run written ``DIR`` and any other as ``OUT``."""
    path = Path(model_path)
    run = next((c.parent for c in (path.parent / "config.json", path.parent.parent / "config.json")
                if c.is_file()), path.parent)
    folders = {str(run): RUN}
    args = [placeholder(a, folders) or f"{OTHER}/{Path(a).name}" for a in (model_path, out)]
    recorded = [config["command"], *(r["command"] for r in config.get("resumed", []))] \
        if config.get("command") else []
    return " && ".join([*(portable_command(c, folders) for c in recorded), join("export", args)])


def export_model(model_path: str | Path, out: str | Path,
                 card: dict[str, Any] | None = None) -> Path:
    """``model.zip`` -> ``out.npz`` + card; env, options and input scaling from ``config.json``."""
    from tablezoo.agents.learned.policy import load_model

    config = run_config(model_path)
    model = load_model(model_path, config.get("env"), allow_advised=True)
    scale = config.get("obs_scale")
    mlp = mlp_from_policy(model.policy, None if scale is None else np.asarray(scale, np.float32))
    base = {"env": config.get("env"), "env_options": config.get("env_options", {}),
            "num_players": config.get("num_players"),
            "training_command": export_command(model_path, Path(out).with_suffix(".npz"), config),
            "timesteps": int(model.num_timesteps),
            **({"advice": config["advice"]} if config.get("advice") else {})}
    return mlp.save(out, {**base, **(card or {})})
