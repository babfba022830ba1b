"""``tablezoo rllib``: its flags into ``RllibSettings`` (``training/selfplay/rllib.py``)."""

from __future__ import annotations

import argparse

from tablezoo.training.cli.options import add_env, add_env_options, add_out, add_seed, make_parser
from tablezoo.training.runs import parse_env_options
from tablezoo.training.selfplay import rllib
from tablezoo.training.selfplay.rllib import RllibSettings, check_settings, run_rllib


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = make_parser("rllib", rllib.__doc__)
    add_env(p, help="the env to train on")
    p.add_argument("--iterations", type=int, default=10, help="PPO training iterations")
    p.add_argument("--num-env-runners", type=int, default=1,
                   help="Ray actors that sample episodes (0: sample in this process)")
    add_out(p, help="folder for checkpoints and metrics")
    p.add_argument("--address", default=None,
                   help="join this Ray cluster (e.g. auto or HOST:6379); default: a local Ray")
    add_seed(p, help="seed of the Ray run and its environments")
    add_env_options(p)
    p.add_argument("--train-batch-size", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch-size", type=int, default=512, help="PPO minibatch size")
    p.add_argument("--num-epochs", type=int, default=8, help="PPO epochs per iteration")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch threads of the learner in this process (1: much faster on a busy "
                        "machine; env runners get 1 from Ray)")
    p.add_argument("--checkpoint-every", type=int, default=10,
                   help="also keep a checkpoint every N iterations (0: only the newest)")
    args = p.parse_args(argv)
    try:
        args.settings = settings_from_args(args)
        check_settings(args.settings)
    except ValueError as exc:  # SettingsError, or a malformed --env-option
        p.error(str(exc))
    return args


def settings_from_args(args: argparse.Namespace) -> RllibSettings:
    """The run the flags ask for (``--env-option KEY=VALUE`` items read into a dict)."""
    values = {k: v for k, v in vars(args).items() if k != "env_option"}
    return RllibSettings(**values, env_options=parse_env_options(args.env_option))


def main(argv: list[str] | None = None) -> int:
    run_rllib(parse_args(argv).settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
