"""Train a MaskablePPO policy for one seat of a tablezoo game against an opponent pool.

    python -m training.train --env bauer_trick_v0 --timesteps 200000 --out /work/runs/bt

Writes ``OUT/model.zip`` (final model), ``OUT/config.json`` (env, options, hyperparameters),
``OUT/checkpoints/`` (periodic saves), ``OUT/tb/`` (TensorBoard) and ``OUT/summary.json`` (wall
time, steps/s). ``--resume`` continues from ``OUT/model.zip`` (or the newest checkpoint) for
``--timesteps`` more steps. ``--self-play`` adds frozen snapshots of the learner to the pool
every ``--snapshot-every`` steps (and, on resume, the run's checkpoints). bauer_trick trains on
single deals by default (``episode=deal``); ``--env-option key=value`` overrides any option.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from training.cli import check_env_name, env_options_for, parse_env_options
from training.pool import OpponentPool
from training.single_agent import SeatEnv

ACTIVATIONS = ("tanh", "relu")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m training.train", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--env", required=True, type=check_env_name)
    p.add_argument("--timesteps", required=True, type=int, help="learner decisions to train")
    p.add_argument("--out", required=True, type=Path, help="run directory")
    p.add_argument("--env-option", action="append", metavar="KEY=VALUE", default=[])
    p.add_argument("--opponent", action="append", metavar="SPEC", default=None,
                   help="agent spec for the opponent pool (repeatable; default: random)")
    p.add_argument("--self-play", action="store_true",
                   help="add frozen snapshots of the learner to the opponent pool")
    p.add_argument("--snapshot-every", type=int, default=50_000)
    p.add_argument("--max-snapshots", type=int, default=5)
    p.add_argument("--checkpoint-every", type=int, default=50_000)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--n-steps", type=int, default=512, help="steps per env per rollout")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--n-epochs", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--gamma", type=float, default=1.0,
                   help="1.0: the reward comes at the end of a short episode")
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--net-arch", default="128,128", help="hidden layer sizes, comma-separated")
    p.add_argument("--activation", default="relu", choices=ACTIVATIONS)
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--verbose", type=int, default=0)
    return p


def make_vec_env(args: argparse.Namespace, env_options: dict[str, Any], pool: OpponentPool):
    """``n_envs`` seat envs in one process sharing the pool (so snapshots reach all of them)."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    def one() -> Monitor:
        return Monitor(SeatEnv(args.env, env_options, opponents=pool))

    vec = DummyVecEnv([one] * args.n_envs)
    vec.seed(args.seed)
    return vec


def new_model(args: argparse.Namespace, vec_env: Any, tb_dir: Path) -> Any:
    import torch
    from sb3_contrib import MaskablePPO

    layers = [int(x) for x in args.net_arch.split(",") if x.strip()]
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[args.activation]
    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=args.lr,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}, "activation_fn": activation},
        tensorboard_log=str(tb_dir),
        seed=args.seed,
        device="cpu",
        verbose=args.verbose,
    )


def latest_checkpoint(out: Path) -> Path | None:
    """The checkpoint with the most steps (names end in ``_<steps>_steps.zip``)."""
    found = list((out / "checkpoints").glob("model_*_steps.zip"))
    return max(found, key=lambda f: int(f.stem.split("_")[-2])) if found else None


def resume_path(out: Path) -> Path:
    if (out / "model.zip").is_file():
        return out / "model.zip"
    checkpoint = latest_checkpoint(out)
    if checkpoint is None:
        raise SystemExit(f"--resume: no model.zip or checkpoint in {out}")
    return checkpoint


def make_callbacks(args: argparse.Namespace, pool: OpponentPool) -> list[Any]:
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

    class SnapshotCallback(BaseCallback):
        """Every ``snapshot_every`` steps, freeze the learner into the opponent pool."""

        def __init__(self) -> None:
            super().__init__()
            self.next_at = 0

        def _on_training_start(self) -> None:
            self.next_at = self.num_timesteps + args.snapshot_every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_at:
                pool.add_policy_snapshot(f"self@{self.num_timesteps}", self.model.policy)
                self.next_at += args.snapshot_every
            return True

    callbacks: list[Any] = [
        CheckpointCallback(save_freq=max(1, args.checkpoint_every // args.n_envs),
                           save_path=str(args.out / "checkpoints"), name_prefix="model")
    ]
    if args.self_play:
        callbacks.append(SnapshotCallback())
    return callbacks


def write_config(args: argparse.Namespace, env_options: dict[str, Any], pool: OpponentPool,
                 steps: int) -> None:
    """``OUT/config.json``; a resumed run keeps the original (its hyperparameters are the saved
    model's, not this command line's) and appends what was resumed."""
    path = args.out / "config.json"
    run = {"opponents": pool.names(), "self_play": args.self_play}
    if args.resume and path.is_file():
        config = json.loads(path.read_text())
        config.setdefault("resumed", []).append(
            {**run, "at_steps": steps, "timesteps": args.timesteps})
    else:
        config = {"env": args.env, "env_options": env_options, **run,
                  "hyperparameters": {k: v for k, v in vars(args).items() if k not in
                                      ("env", "env_option", "out", "opponent", "resume")}}
    path.write_text(json.dumps(config, indent=2, default=str))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        env_options = env_options_for(args.env, parse_env_options(args.env_option))
        pool = OpponentPool(args.env, args.opponent or ["random"],
                            max_snapshots=args.max_snapshots)
    except ValueError as exc:  # unknown option or bad value: argparse prints it and exits 2
        parser.error(str(exc))
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    tb_dir = args.out / "tb"
    vec_env = make_vec_env(args, env_options, pool)
    if args.resume:
        path = resume_path(args.out)
        model = MaskablePPO.load(str(path), env=vec_env, device="cpu",
                                 tensorboard_log=str(tb_dir))
        if args.self_play:
            checkpoints = sorted((args.out / "checkpoints").glob("model_*_steps.zip"),
                                 key=lambda f: int(f.stem.split("_")[-2]))
            for checkpoint in checkpoints[-args.max_snapshots:]:
                pool.add_checkpoint(checkpoint)
        print(f"resuming from {path} at {model.num_timesteps} steps", file=sys.stderr)
    else:
        model = new_model(args, vec_env, tb_dir)
    write_config(args, env_options, pool, model.num_timesteps)
    start_steps, t0 = model.num_timesteps, time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=make_callbacks(args, pool),
                reset_num_timesteps=not args.resume, progress_bar=not args.no_progress,
                tb_log_name="MaskablePPO")
    seconds = time.perf_counter() - t0
    model.save(str(args.out / "model.zip"))
    steps = model.num_timesteps - start_steps
    summary = {"timesteps": steps, "total_timesteps": model.num_timesteps,
               "seconds": round(seconds, 2), "steps_per_second": round(steps / seconds, 1),
               "final_pool": pool.names()}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(f"trained {steps} steps in {seconds:.1f} s ({steps / seconds:.0f} steps/s); "
          f"saved {args.out / 'model.zip'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
