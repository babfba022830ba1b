"""``tablezoo train``'s settings (``TrainSettings``) and the allowed ranges of its numbers.

A run is described by one ``TrainSettings``: Python users build it directly, ``tablezoo train``
from its flags and ``--config`` file (``training/cli/selfplay/train.py``); its field names are the
flags' (``--bc-games`` is ``bc_games``), and ``config.json`` records them under
``hyperparameters``. The ranges are checked on the settings, wherever they came from. Without this,
``--gamma 2`` or ``--net-arch 0`` trained a meaningless model without a word, and ``--n-envs 0``
or ``--batch-size 0`` stopped with a traceback from inside torch or sb3.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablezoo.training.imitation.cloning import ImitationSettings


@dataclass(kw_only=True)
class TrainSettings:
    """One training run (``tablezoo train --help`` explains each field under its flag's name).

    ``env``, ``timesteps`` and ``out`` are required. ``None`` means "not set": ``opponent`` (the
    league's agent entries: random and heuristic), ``dagger_games`` (``bc_games``),
    ``rollout_candidates`` (every legal move), ``n_envs``/``n_steps``/``batch_size``/``n_epochs``
    (the engine's rollout shape, ``train.ENGINE_DEFAULTS``). ``engine="auto"`` becomes
    ``compiled`` or ``python`` when the run starts (``train.resolved``). The order of the fields
    is the order ``config.json`` records them in.
    """

    config: Path | None = None  # the --config file the settings were read from (recorded only)
    env: str
    timesteps: int
    out: Path
    env_options: dict[str, Any] | None = None  # over the env's tool defaults
    opponent: list[str] | None = None
    self_play: bool = False
    snapshot_every: int = 50_000
    max_snapshots: int = 5
    pfsp_power: float = 2.0
    partner_snapshot_prob: float = 0.2
    entry_weight: list[str] | dict[str, float] | None = None  # NAME=FACTOR, or {NAME: FACTOR}
    checkpoint_every: int = 50_000
    eval_every: int = 50_000
    eval_games: int = 200
    eval_seed: int = 1_000_000
    bc_games: int = 0
    bc_teacher: str = "heuristic"
    bc_epochs: int = 10
    bc_max_samples: int = 200_000
    bc_temperature: float | None = None
    bc_value_target: str = "return"
    advice: str | None = None
    dagger_rounds: int = 0
    dagger_games: int | None = None
    dagger_epochs: int = 4
    rollout_games: int = 0
    rollout_margin: float = 0.1
    rollout_explore: float = 0.05
    rollout_candidates: int | None = None
    rollout_save: bool = False
    rollout_values: Path | None = None
    rollout_epochs: int = 10
    rollout_symmetries: bool = False
    init: Path | None = None
    force: bool = False
    resume: bool = False
    processes: int = 1
    reward_scale: float = 1.0
    max_minutes: float | None = None
    no_obs_scale: bool = False
    seed: int = 0
    n_envs: int | None = None
    n_steps: int | None = None
    batch_size: int | None = None
    n_epochs: int | None = None
    lr: float = 1e-3
    ent_coef: float = 0.01
    clip_range: float = 0.2
    target_kl: float | None = None
    gamma: float = 1.0
    gae_lambda: float = 0.95
    net_arch: str = "128,128"
    activation: str = "relu"
    engine: str = "auto"
    learner_forward: str = "collector"
    no_progress: bool = False
    verbose: int = 0

    @property
    def imitation(self) -> ImitationSettings:
        """The warm start's settings (``bc_*``, ``dagger_*``) as the imitation tools take them."""
        from tablezoo.training.imitation.cloning import ImitationSettings

        return ImitationSettings(
            env=self.env, games=self.bc_games, teacher=self.bc_teacher, seed=self.seed,
            epochs=self.bc_epochs, max_samples=self.bc_max_samples,
            reward_scale=self.reward_scale, advice=self.advice, processes=self.processes,
            dagger_rounds=self.dagger_rounds, dagger_games=self.dagger_games,
            dagger_epochs=self.dagger_epochs, temperature=self.bc_temperature,
            value_target=self.bc_value_target, scaled=not self.no_obs_scale)

# setting -> (the test a value must pass, the allowed values in words); ``None`` is always
# allowed where the option's default is ``None`` (it means "not set")
Check = tuple[Callable[[float], bool], str]


def _at_least(low: float) -> Check:
    return (lambda v: v >= low, f"{low:g} or more")


def _above(low: float) -> Check:
    return (lambda v: v > low, f"more than {low:g}")


def _between(low: float, high: float, *, open_low: bool = False) -> Check:
    if open_low:
        return (lambda v: low < v <= high, f"more than {low:g}, at most {high:g}")
    return (lambda v: low <= v <= high, f"{low:g} to {high:g}")


RANGES: dict[str, Check] = {
    "timesteps": _at_least(0),
    "snapshot_every": _at_least(1),
    "max_snapshots": _at_least(1),
    "pfsp_power": _at_least(0),
    "partner_snapshot_prob": _between(0, 1),
    "checkpoint_every": _at_least(0),  # 0: no checkpoints
    "eval_every": _at_least(1),
    "eval_games": _at_least(0),
    "eval_seed": _at_least(0),
    "bc_games": _at_least(0),
    "bc_epochs": _at_least(1),
    "bc_max_samples": _at_least(1),
    "bc_temperature": _above(0),
    "dagger_games": _at_least(1),
    "dagger_epochs": _at_least(1),
    "rollout_candidates": _at_least(1),
    "reward_scale": _above(0),
    "max_minutes": _above(0),
    "seed": _at_least(0),
    "n_envs": _at_least(1),
    "n_steps": _at_least(1),
    "batch_size": _at_least(2),  # sb3 normalises each minibatch's advantages
    "n_epochs": _at_least(1),
    "lr": _above(0),
    "ent_coef": _at_least(0),
    "clip_range": _above(0),
    "gamma": _between(0, 1, open_low=True),
    "gae_lambda": _between(0, 1),
    "verbose": _between(0, 2),
}


def setting_problems(settings: dict[str, Any]) -> list[str]:
    """Every setting outside its range, each naming the option, its value and what is allowed
    (empty when all are fine). Settings this module does not know are left to their tools."""
    problems = []
    for name, (ok, allowed) in RANGES.items():
        value = settings.get(name)
        if value is None:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool) or not isinstance(value, int | float):
            problems.append(f"{flag} {value!r}: not a number (allowed: {allowed})")
        elif not math.isfinite(value) or not ok(value):
            problems.append(f"{flag} {value!r}: allowed: {allowed}")
    if "net_arch" in settings:
        try:
            hidden_layers(settings["net_arch"])
        except ValueError as exc:
            problems.append(str(exc))
    init = settings.get("init")
    if init is not None and not (Path(init).is_file() or Path(f"{init}.zip").is_file()):
        problems.append(f"--init {init}: no such model file (a model.zip from tablezoo train)")
    return problems


def hidden_layers(text: str | int) -> list[int]:
    """``"256,256"`` -> ``[256, 256]``: the hidden layer sizes, each a whole number >= 1."""
    layers = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        if not item.isdigit() or int(item) < 1:
            raise ValueError(f"--net-arch {text!r}: {item!r} is not a layer size (allowed: "
                             "whole numbers 1 or more, comma-separated, e.g. 256,256)")
        layers.append(int(item))
    if not layers:
        raise ValueError(f"--net-arch {text!r}: no layer (allowed: e.g. 128,128)")
    return layers
