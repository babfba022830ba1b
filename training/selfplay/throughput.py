"""Training throughput: MaskablePPO learner steps/s on the batched collector, three set-ups
measured interleaved (round-robin, so machine load hits each alike), with ratios.

    tablezoo bench-training --env bauer_trick_v0 --steps 16384 --rounds 3

- ``random``: every other seat a random agent (the cheapest opponents);
- ``self-play``: a league of 3 frozen snapshots + the heuristic (PFSP), the partner the learner's
  own weights (bauer_trick);
- ``snapshots``: self-play against frozen snapshots (and the latest weights) only: what the
  collector costs without the heuristic, whose own cost per decision differs a lot by game;
- ``self-play --processes 2``: the league of ``self-play`` with the games in two worker
  processes (and two torch threads for the PPO update, while the workers wait);
- ``self-play --learner-forward torch``: ``self-play`` with sb3's own rollout loop (one torch
  forward pass of the learner per step in the main process) instead of the collector answering
  the learner's seats too (``training/selfplay/ppo.py``, the default of every other set-up);
- ``self-play, batched``: the league of ``self-play`` on the batched trainer (``--engine
  compiled``, envs with a compiled engine only: ``training/batched/``, its default rollout
  shape), ``random, batched`` beside it, and ``self-play, batched, sb3's update``: the same
  env and rollouts with sb3-contrib's own ``MaskablePPO`` update (dense first layers) instead of
  ``BatchedPPO``'s. Every other set-up is ``--engine python``.

Each measurement is a whole ``learn`` (collection, the learner's forward passes, the PPO update
and the league callback), on a fresh model; the table gives the median of the rounds, and the
per-round ratios follow it (on a shared machine they spread by +-0.1 or more). The machine's
load average is printed before and after the rounds.
"""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

from tablezoo import envs
from tablezoo.training.selfplay.settings import TrainSettings

SETUPS = ("random", "self-play", "snapshots", "self-play --processes 2",
          "self-play --learner-forward torch")
BATCHED = ("self-play, batched", "random, batched", "self-play, batched, sb3's update")
PAIRED = (("self-play / random", "self-play", "random"),
          ("snapshots / random", "snapshots", "random"),
          ("--processes 2 / one process", "self-play --processes 2", "self-play"),
          ("sb3's loop / the collector's", "self-play --learner-forward torch", "self-play"),
          ("batched / today's trainer (self-play)", "self-play, batched", "self-play"),
          ("BatchedPPO / sb3's MaskablePPO on the batched env", "self-play, batched",
           "self-play, batched, sb3's update"))


def setup_settings(env: str, setup: str, n_envs: int, seed: int) -> TrainSettings:
    """The training settings of one measured ``setup``, resolved as a run starts them."""
    from tablezoo.training.selfplay.train import resolved

    base = TrainSettings(env=env, timesteps=1, out=Path("unused"), seed=seed)
    if setup in BATCHED:  # the batched trainer's own rollout shape (train.ENGINE_DEFAULTS)
        return resolved(dataclasses.replace(
            base, engine="compiled",
            opponent=["random" if setup.startswith("random") else "heuristic"]))
    opponent = {"random": ["random"], "snapshots": []}.get(setup, ["heuristic"])
    return resolved(dataclasses.replace(
        base, n_envs=n_envs, n_steps=128, batch_size=1024, n_epochs=4, engine="python",
        opponent=opponent,  # snapshots: no agent entry, the snapshots and the latest weights
        self_play=setup == "snapshots", processes=2 if setup.endswith("--processes 2") else 1,
        learner_forward="torch" if setup.endswith("--learner-forward torch") else "collector"))


def measure(env: str, setup: str, steps: int, n_envs: int, seed: int) -> float:
    """Learner steps/s of one ``learn(steps)`` for ``setup``."""
    import torch

    from tablezoo.training.selfplay import train
    from tablezoo.training.selfplay.callbacks import LeagueCallback, UpdateThreads

    torch.set_num_threads(1)
    settings = setup_settings(env, setup, n_envs, seed)
    options = dict(envs.spec(env).tool_options)
    vec = train.make_vec_env(settings, options)
    try:
        if setup.endswith("sb3's update"):  # the same env and rollout, sb3's own PPO update
            model = train.new_model(dataclasses.replace(settings, engine="python"), vec, None)
        else:
            model = train.new_model(settings, vec, None)
        model.collector_forward = settings.learner_forward == "collector"
        league = LeagueCallback(vec, envs.make_game(env, **options), not settings.no_obs_scale, 0)
        vec.set_self(league.export(model.policy))
        if not setup.startswith("random"):
            for k in range(3):
                vec.add_snapshot(f"snapshot{k}", league.export(model.policy))
        callback = [league]
        if settings.processes > 1:
            callback.append(UpdateThreads(settings.processes))
        t0 = time.perf_counter()
        model.learn(total_timesteps=steps, callback=callback)
        return model.num_timesteps / (time.perf_counter() - t0)
    finally:
        vec.close()


def load_average() -> str:
    """The 1, 5 and 15 minute load averages and the core count, in words."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"
