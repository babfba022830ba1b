"""Measure a run's numpy model and ship it, with its strength, as ``<env>_<n>p.npz`` + card.

    tablezoo ship runs/bower                 # runs/bower/bower_2p.npz, .json, _curve.png
    tablezoo ship runs/bower --install       # the same into agents/pretrained/

The model (``RUN/model.npz``: a numpy network of ``tablezoo train`` or the
heuristic weights of
``tablezoo evolve``) plays one seat (in team games: its whole team, itself as the
partner) against heuristic seats and against random seats, seats rotated, on seeds
``--seed .. --seed + games - 1`` (keep them apart from the ``--eval-seed`` range training looked
at). The game is scored with its default reward (rank / win-loss), whatever reward training
used. The card gets ``measured_strength`` (mean reward with 95% CI, W/D/L), and its
``training_command`` gets this step (``&& tablezoo ship DIR``, the folder named as the card
already names it), so it is the whole recipe from a fresh clone. The files are written as
``<env>_<n>p.npz`` / ``.json`` (and the run's learning curve as ``<env>_<n>p_curve.png``) into
``--dest`` (default: the run folder itself); only ``--install`` writes them into the
repository's ``agents/pretrained/``, where ``make_agent("trained", ...)`` finds them. The
``.npz`` is the run's, byte for byte.

A model trained under options other than the env's defaults (bauer_trick's single deals,
``episode="deal"``) is measured a second time, on the same seeds, in the game that
``envs.make(env)`` plays (whole games): the card's ``measured_strength_env_defaults`` names the
options that differ. Users play the defaults, and a deal's small edge can add up over a game (or
vanish), so the training setting's figure alone does not tell them what they get.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.learned.heuristic_weights import HeuristicWeights
from tablezoo.agents.learned.policy import NumpyMLP, load_model_file, model_agent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.evaluation.evaluate import evaluate_seat
from tablezoo.training.evaluation.stats import finite_or_none, interval_caveat, summarize
from tablezoo.training.runs import eval_options
from tablezoo.training.shipping.commands import join, model_folder

DEFAULT_GAMES, DEFAULT_SEED = 400, 5_000_000
CURVES = ("learning_curve.png", "rollout_curve.png")  # the first the run has is shipped
PROTOCOL = ("model in one seat (team games: both team seats), the other seats the named agent, "
            "seats rotated (seat = game mod players), default reward")


def measure(run: Path, games: int, seed: int,
            opponents: tuple[str, ...] = ("heuristic", "random"),
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The model against each of ``opponents``; under its card's options (the reward aside)
    unless ``options`` are given."""
    model = load_model_file(run / "model.npz")
    env = model.card["env"]
    if options is None:
        options = eval_options(model.card.get("env_options", {}))
    game = envs.make_game(env, **options)
    model = load_model_file(run / "model.npz", env, game.obs_spec.size)

    def hero(s: int | None) -> BaseAgent:
        return model_agent(model, s)

    out: dict[str, Any] = {}
    for spec in opponents:
        t0 = time.perf_counter()
        rewards = evaluate_seat(game, hero, hero, factory_from_spec(spec, env), games, seed)
        s = summarize(rewards)
        out[spec] = {"games": games, "seeds": f"{seed}..{seed + games - 1}",
                     "mean_reward": round(s.mean_reward.value, 4),
                     "ci95": [None if bound is None else round(bound, 4) for bound in
                              map(finite_or_none, (s.mean_reward.low, s.mean_reward.high))],
                     "win": round(s.win.value, 4), "draw": round(s.draw.value, 4),
                     "loss": round(s.loss.value, 4),
                     "seconds": round(time.perf_counter() - t0, 1)}
        print(f"{env} {game.num_players}p vs {spec}: {s.mean_reward} win {s.win.value:.3f} "
              f"[{s.win.low:.3f}, {s.win.high:.3f}]{interval_caveat(s.mean_reward, games)}",
              flush=True)
    return out


def env_default_options(card: dict[str, Any]) -> dict[str, Any]:
    """The options of ``envs.make(env, num_players=n)`` for the card's player count."""
    return {k: v for k, v in card.get("env_options", {}).items() if k == "num_players"}


def options_off_default(card: dict[str, Any]) -> dict[str, Any]:
    """The env's default value of each option the model was evaluated under that differs from
    it (the reward aside: evaluation always uses the default); ``{}`` if none does."""
    trained = envs.make_game(card["env"], **eval_options(card.get("env_options", {}))).options
    default = envs.make_game(card["env"], **env_default_options(card)).options
    return {k: v for k, v in default.items() if trained[k] != v}


def measure_env_defaults(run: Path, games: int, seed: int) -> dict[str, Any] | None:
    """``measure`` in the game under the env's defaults, for a model evaluated under other
    options; ``None`` when there are none, or when the defaults' observation does not fit the
    model (said on stdout)."""
    model = load_model_file(run / "model.npz")
    off = options_off_default(model.card)
    if not off:
        return None
    size = envs.make_game(model.card["env"], **env_default_options(model.card)).obs_spec.size
    if isinstance(model, NumpyMLP) and model.env_obs_size != size:
        print(f"not measured under the env's defaults {off}: their observation has {size} "
              f"entries, the model reads {model.env_obs_size}")
        return None
    print(f"under the env's defaults ({off}):")
    strength = measure(run, games, seed, options=env_default_options(model.card))
    return {"env_options": off, **strength}


def ship_command(card: dict[str, Any], games: int = DEFAULT_GAMES,
                 seed: int = DEFAULT_SEED) -> str:
    """The card's ``training_command`` with ``tablezoo ship`` on the model's folder appended
    (once: a card shipped before keeps its command). Where the copy goes (``--dest``,
    ``--install``) is left out: it changes no byte of the model or its figures."""
    command = card.get("training_command", "")
    if not command or "tablezoo ship" in command:
        return command
    argv = [model_folder(command)]
    if games != DEFAULT_GAMES:
        argv += ["--games", str(games)]
    if seed != DEFAULT_SEED:
        argv += ["--seed", str(seed)]
    return f"{command} && {join('ship', argv)}"


def ship(run: Path, strength: dict[str, Any], dest: Path | None = None,
         env_defaults: dict[str, Any] | None = None, games: int = DEFAULT_GAMES,
         seed: int = DEFAULT_SEED) -> Path:
    """Write ``run``'s model and its card (with ``strength``) into ``dest`` (default: ``run``)
    as ``<env>_<n>p.npz`` / ``.json``, with the run's curve; returns the ``.npz``'s path."""
    dest = run if dest is None else dest
    model = load_model_file(run / "model.npz")
    card = json.loads((run / "model.json").read_text())
    if "training_command" in card:
        card["training_command"] = ship_command(card, games, seed)
    card["measured_strength"] = {"protocol": PROTOCOL, **strength}
    if env_defaults is not None:
        card["measured_strength_env_defaults"] = {
            "protocol": PROTOCOL + "; the env's default options, where these differ from the "
                                   "model's (env_options: their default values)",
            **env_defaults}
    target = dest / f"{card['env'].removesuffix('_v0')}_{card['num_players']}p.npz"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(run / "model.npz", target)
    (target.with_suffix(".json")).write_text(json.dumps(card, indent=2, default=str) + "\n")
    curve = next((run / name for name in CURVES if (run / name).is_file()), None)
    if curve is not None:
        shutil.copyfile(curve, target.with_name(f"{target.stem}_curve.png"))
    size = None if isinstance(model, HeuristicWeights) else model.env_obs_size
    load_model_file(target, card["env"], size)  # the shipped pair reads back
    return target
