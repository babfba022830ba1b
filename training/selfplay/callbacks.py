"""sb3 callbacks of a training run: the league's networks, periodic evaluation, checkpoints.

- ``LeagueCallback``: at every rollout start the learner's current actor goes to the collector as
  the ``self`` network (its partner and self-play seats); at the first rollout end at or after
  every ``snapshot_every`` steps a frozen copy joins the league (the weights of that rollout).
  League statistics (PFSP score per entry) go to TensorBoard.
- ``EvalCallback``: every ``eval_every`` steps the greedy learner plays the same seeded games
  against random and against heuristic seats (its team-mates: itself), seats rotated; win rate
  and mean reward with 95% CIs go to TensorBoard and ``OUT/eval.csv`` (with the draw rate).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

from tablezoo.agents.learned.policy import MLPAgent, NumpyMLP
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.training.evaluation.evaluate import evaluate_seat
from tablezoo.training.evaluation.stats import json_figures, summarize
from tablezoo.training.shipping.export import mlp_from_policy

EVAL_OPPONENTS = ("random", "heuristic")
# the draw columns came last, after ``seconds``: older files have the first ten only
EVAL_FIELDS = ["step", "opponent", "games", "win", "win_low", "win_high", "mean_reward",
               "mean_reward_low", "mean_reward_high", "seconds", "draw", "draw_low", "draw_high"]


def eval_row(step: int, opponent: str, rewards: list[float], seconds: float) -> dict[str, Any]:
    """One ``eval.csv`` row (``EVAL_FIELDS``): win and draw rates (Wilson) and mean reward with
    95% intervals."""
    s = summarize(rewards)
    return {"step": step, "opponent": opponent, "games": s.n, "win": s.win.value,
            "win_low": s.win.low, "win_high": s.win.high,
            "mean_reward": s.mean_reward.value, "mean_reward_low": s.mean_reward.low,
            "mean_reward_high": s.mean_reward.high, "seconds": round(seconds, 2),
            "draw": s.draw.value, "draw_low": s.draw.low, "draw_high": s.draw.high}


def export_policy(policy: Any, game: Game, scaled: bool,
                  card: dict[str, Any] | None = None) -> NumpyMLP:
    """The actor as a ``NumpyMLP`` that plays ``game``; ``scaled``: it reads the observations
    times the spec's scale (``obs_scale_for``; a network wider than the spec is advised, its
    advice one-hot unscaled). ``card`` (e.g. an advised model's ``env`` and ``advice``) goes with
    it."""
    from tablezoo.training.selfplay.collector import obs_scale_for

    advised = policy.observation_space.shape[0] > game.obs_spec.size
    return mlp_from_policy(policy, obs_scale_for(game, advised) if scaled else None, card)


def make_checkpoint_callback(settings: Any) -> CheckpointCallback:
    """Checkpoints every ``settings.checkpoint_every`` learner steps in ``OUT/checkpoints/``."""
    return CheckpointCallback(save_freq=max(1, settings.checkpoint_every // settings.n_envs),
                              save_path=str(settings.out / "checkpoints"), name_prefix="model")


class StopAfter(BaseCallback):
    """Ends training at a wall-clock deadline (``time.perf_counter`` value): ``--max-minutes``,
    the exploration runs' guard; ``fired`` once it has stopped the run."""

    def __init__(self, deadline: float):
        super().__init__()
        self.deadline = deadline
        self.fired = False

    def _on_step(self) -> bool:
        import time

        self.fired = time.perf_counter() >= self.deadline
        return not self.fired


class UpdateThreads(BaseCallback):
    """Gives the PPO update ``threads`` torch threads, and collection one.

    With ``--processes K`` the worker processes wait while the learner updates, so the update may
    use K cores; while the workers play, the main process's own work per step (gathering the
    streamed steps; with sb3's loop, the learner's forward pass) stays on one thread (a second
    one would only spin against the workers).
    """

    def __init__(self, threads: int):
        super().__init__()
        self.threads = max(1, int(threads))

    def _on_rollout_end(self) -> None:  # the update follows
        import torch

        torch.set_num_threads(self.threads)

    def _on_rollout_start(self) -> None:  # collection follows
        import torch

        torch.set_num_threads(1)

    def _on_step(self) -> bool:
        return True


class LeagueCallback(BaseCallback):
    """Keeps the collector's ``self`` network current and freezes snapshots (networks of
    ``game``, reading its observations times the spec's scale where ``scaled``)."""

    def __init__(self, vec_env: Any, game: Game, scaled: bool, snapshot_every: int):
        super().__init__()
        self.vec_env = vec_env
        self.game, self.scaled = game, scaled  # what ``export_policy`` needs
        self.snapshot_every = snapshot_every
        self.next_at = 0
        self.snapshot_names: list[str] = []
        self.counts: dict[str, list[float]] = {}

    def add_saved(self, path: Path) -> None:
        """A saved checkpoint as a frozen league member (on ``--resume``)."""
        from tablezoo.agents.learned.policy import load_model

        name = f"checkpoint:{Path(path).name}"
        self.vec_env.add_snapshot(
            name, self.export(load_model(path, allow_advised=True).policy))
        self.snapshot_names.append(name)

    def export(self, policy: Any) -> NumpyMLP:
        return export_policy(policy, self.game, self.scaled)

    def names(self) -> list[str]:
        return list(self.snapshot_names)

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.snapshot_every

    def _on_rollout_start(self) -> None:
        self.vec_env.set_self(self.export(self.model.policy))

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        # Snapshots join at rollout ends, not mid-rollout: the weights are the same all rollout
        # long, and with --processes the workers are playing ahead, not listening.
        if self.snapshot_every and self.num_timesteps >= self.next_at:
            name = f"self@{self.num_timesteps}"
            self.vec_env.add_snapshot(name, self.export(self.model.policy))
            self.snapshot_names.append(name)
            while self.next_at <= self.num_timesteps:
                self.next_at += self.snapshot_every
        for entry, ret in self.vec_env.pop_finished():
            self.counts.setdefault(entry, []).append(ret)
        for entry, rets in self.counts.items():
            if rets:
                self.logger.record(f"league/{entry}/mean_return", float(np.mean(rets[-200:])))
                self.logger.record(f"league/{entry}/episodes", len(rets))


class EvalCallback(BaseCallback):
    """Fixed seeded games against random and heuristic every ``eval_every`` steps.

    ``filename`` names the run's csv: ``eval.csv`` for PPO (its ``step`` column in learner
    steps), ``rollout_eval.csv`` for the epochs of a rollout fit (``step`` is the epoch).
    ``scaled``: the network reads the observations times the spec's scale."""

    def __init__(self, out: Path, game: Game, env_name: str, scaled: bool,
                 eval_every: int, games: int, seed: int, card: dict[str, Any] | None = None,
                 filename: str = "eval.csv"):
        super().__init__()
        self.card = card  # what the exported network needs to play (an advised model's advice)
        self.path = Path(out) / filename
        self.game, self.env_name, self.scaled = game, env_name, scaled
        self.eval_every, self.games, self.seed = eval_every, games, seed
        self.next_at = 0
        self.last_step = -1
        self.rows: list[dict[str, Any]] = []
        self.last_row: dict[str, Any] | None = None
        self.opponents = {spec: factory_from_spec(spec, env_name) for spec in EVAL_OPPONENTS}

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.eval_every

    def _on_step(self) -> bool:
        if self.games > 0 and self.eval_every and self.num_timesteps >= self.next_at:
            self.evaluate_now(self.model.policy, self.num_timesteps)
            self.next_at += self.eval_every
        return True

    def evaluate_now(self, policy: Any, step: int) -> list[dict[str, Any]]:
        import time

        mlp = export_policy(policy, self.game, self.scaled, self.card)

        def hero(seed: int | None) -> MLPAgent:
            return MLPAgent(mlp, seed)

        rows = []
        for spec, make in self.opponents.items():
            t0 = time.perf_counter()
            rewards = evaluate_seat(self.game, hero, hero, make, self.games, self.seed)
            row = eval_row(step, spec, rewards, time.perf_counter() - t0)
            rows.append(row)
            logger = getattr(self, "logger", None)  # unset before learn() (the step-0 evaluation)
            if logger is not None:
                for key in ("win", "mean_reward", "mean_reward_low", "mean_reward_high"):
                    logger.record(f"eval/{spec}/{key}", row[key])
        self._append(rows)
        self.last_step = step
        self.last_row = {r["opponent"]: json_figures(r) for r in rows} | {"step": step}
        return rows

    def _append(self, rows: list[dict[str, Any]]) -> None:
        new = not self.path.is_file()
        fields = EVAL_FIELDS
        if not new:  # a resumed run's older file keeps its columns
            with self.path.open(newline="") as f:
                fields = next(csv.reader(f), None) or EVAL_FIELDS
        with self.path.open("a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            if new:
                writer.writeheader()
            writer.writerows(rows)
        self.rows.extend(rows)
        for row in rows:
            print(f"eval @{row['step']}: vs {row['opponent']}: win {row['win']:.3f}, mean "
                  f"{row['mean_reward']:+.3f} [{row['mean_reward_low']:+.3f}, "
                  f"{row['mean_reward_high']:+.3f}]", flush=True)
