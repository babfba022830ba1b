"""Average a training run's actor weights over the last part of the run (tail averaging).

    tablezoo average runs/ethnos_2p --tail 0.5 --out runs/ethnos_2p_tail

Why: late in a PPO run with a small learning rate the weights keep wandering around a good
region, and each checkpoint is one draw of that walk; their measured strength against the
heuristic moves by +-0.1 from one evaluation to the next. The uniform average of the weights
over the walk's tail (Polyak-Ruppert averaging, as SWA does for supervised nets; Nikishin et al.
2018 for RL) sits nearer the region's centre than any one draw. ``tablezoo evolve
--tail-average`` does the same for the CMA-ES mean.

``--tail F`` averages the checkpoints in ``RUN/checkpoints/`` taken in the last fraction F of
the run's learner steps, together with the final weights (``RUN/model.zip``); a tail that holds
no checkpoint averages the final weights alone. Only the actor is averaged: it is what a
shipped model plays. Writes ``OUT/model.npz`` + ``OUT/model.json``: the run's card, its
training command followed by this one (the run written ``DIR``, ``OUT`` as ``DIR/NAME`` when
inside it, ``DIR_SUFFIX`` beside it: ``training/shipping/commands.py``), and an ``averaged``
section naming the steps averaged; the run's ``learning_curve.png`` (the learner's own weights)
comes along. ``tablezoo ship OUT`` and ``trained:path=OUT/model.npz`` take it like a run's own
model. The mean is taken in a fixed order, so the same run gives the same bytes.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.learned.policy import NumpyMLP
from tablezoo.training.selfplay.train import checkpoints
from tablezoo.training.shipping.commands import RUN, join, portable


def tail_steps(steps: list[int], final_steps: int, fraction: float) -> list[int]:
    """The checkpoint steps in the last ``fraction`` of a run that ended at ``final_steps``:
    those at or after ``(1 - fraction) * final_steps`` (and before the end)."""
    start = math.ceil((1.0 - fraction) * final_steps)
    return [s for s in steps if start <= s < final_steps]


def average_mlps(mlps: list[NumpyMLP], card: dict[str, Any]) -> NumpyMLP:
    """The element-wise mean of networks of one shape (and one input scaling)."""
    first = mlps[0]
    for mlp in mlps[1:]:
        shapes = [w.shape for w in mlp.weights]
        if shapes != [w.shape for w in first.weights]:
            raise ValueError(f"average: the networks differ in shape ({shapes} vs "
                             f"{[w.shape for w in first.weights]}); average one run's models")
        if mlp.activation != first.activation:
            raise ValueError(f"average: the networks differ in activation ({mlp.activation} vs "
                             f"{first.activation}); average one run's models")
        if not np.array_equal(mlp.obs_scale, first.obs_scale):
            raise ValueError("average: the networks scale their inputs differently; average "
                             "one run's models")
    weights = [np.mean([m.weights[i] for m in mlps], axis=0) for i in range(len(first.weights))]
    biases = [np.mean([m.biases[i] for m in mlps], axis=0) for i in range(len(first.biases))]
    return NumpyMLP(weights, biases, first.activation, first.obs_scale, card=card)


def average_run(run: Path, fraction: float, out: Path,
                command: list[str] | None = None) -> tuple[Path, dict[str, Any]]:
    """Average ``run``'s tail (see the module doc) into ``out/model.npz``; the path and the
    card's ``averaged`` section. ``command``: the arguments of the ``tablezoo average`` line the
    card records (default: the ones this call amounts to)."""
    from tablezoo.agents.learned.policy import load_model
    from tablezoo.training.shipping.export import mlp_from_policy

    card_path, final_path = run / "model.json", run / "model.zip"
    for needed in (card_path, final_path, run / "config.json"):
        if not needed.is_file():
            raise FileNotFoundError(f"average: {run} is not a finished tablezoo train run "
                                    f"(no {needed.name}); pass the --out folder of one")
    if out.resolve() == run.resolve():
        raise ValueError(f"average: --out {out} is the run itself, whose model.npz holds the "
                         "final weights; pass another folder")
    card = json.loads(card_path.read_text())
    config = json.loads((run / "config.json").read_text())
    scale = config.get("obs_scale")
    obs_scale = None if scale is None else np.asarray(scale, np.float32)
    final = load_model(final_path, card["env"], allow_advised=True)
    final_steps = int(final.num_timesteps)
    saved = dict(checkpoints(run))
    chosen = tail_steps(sorted(saved), final_steps, fraction)
    mlps = [mlp_from_policy(load_model(saved[s], card["env"], allow_advised=True).policy,
                            obs_scale) for s in chosen]
    mlps.append(mlp_from_policy(final.policy, obs_scale))
    averaged = {"tail": fraction, "checkpoint_steps": chosen, "final_steps": final_steps,
                "networks": len(mlps),
                "note": "eval_during_training is the learner's (final weights), not the average's"}
    argv = command or [str(run), "--tail", str(fraction), "--out", str(out)]
    command = join("average", portable(argv, {str(run): RUN}))
    new_card = {**card, "training_command": f"{card['training_command']} && {command}",
                "averaged": averaged}
    path = average_mlps(mlps, new_card).save(out / "model.npz")
    if (run / "learning_curve.png").is_file():
        shutil.copyfile(run / "learning_curve.png", out / "learning_curve.png")
    return path, averaged
