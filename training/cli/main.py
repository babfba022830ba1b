"""``tablezoo``: one command with a subcommand per tool.

    tablezoo quickstart --env bauer_trick_v0 --out runs/quick
    tablezoo play --env bower_v0 --opponent heuristic
    tablezoo evaluate --help

Each subcommand is a module's ``main(argv)`` in this package, which turns the flags into the
tool's settings and runs the library function that takes them; it is imported only when asked
for, so ``tablezoo play`` never loads torch. ``python -m tablezoo.training.cli.<module>`` (e.g.
``cli.selfplay.train``) runs the same tools.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# subcommand -> (module, what it does); the order is the order of ``tablezoo --help``
COMMANDS: dict[str, tuple[str, str]] = {
    "quickstart": ("tablezoo.training.cli.quickstart",
                   "the main job: train a small agent, evaluate it, leave the results"),
    "train": ("tablezoo.training.cli.selfplay.train",
              "train a MaskablePPO policy in self-play against a league"),
    "imitate": ("tablezoo.training.cli.imitate",
                "behaviour-clone a teacher agent into a policy (a warm start)"),
    "evolve": ("tablezoo.training.cli.evolve",
               "evolve a heuristic's parameters with CMA-ES"),
    "evaluate": ("tablezoo.training.cli.evaluation.evaluate",
                 "evaluate a model or agent in one seat, seats rotated, with 95% intervals"),
    "tournament": ("tablezoo.training.cli.evaluation.tournament",
                   "seeded tournament between agents, with ratings, a table and a plot"),
    "ladder": ("tablezoo.training.cli.evaluation.ladder",
               "head-to-head win-rate matrix, ratings and time per move"),
    "play": ("tablezoo.training.cli.play", "play one seat in the terminal against agents"),
    "serve": ("tablezoo.training.cli.serve",
              "watch and play the games in a browser (a local web app)"),
    "animate": ("tablezoo.training.cli.animate",
                "write a game as an animated GIF or MP4 (seeded or recorded)"),
    "plot": ("tablezoo.training.cli.plot", "draw a run's learning curve"),
    "export": ("tablezoo.training.cli.shipping.export",
               "turn a MaskablePPO zip into a numpy model (.npz + card)"),
    "average": ("tablezoo.training.cli.shipping.average",
                "average a run's weights over the last part of the run"),
    "ship": ("tablezoo.training.cli.shipping.ship",
             "measure a run's model and ship it with its card"),
    "rllib": ("tablezoo.training.cli.selfplay.rllib", "self-play PPO on Ray RLlib"),
    "bench": ("tablezoo.training.cli.env_speed",
              "speed of every env through the AEC API (--vector: the vector API)"),
    "bench-training": ("tablezoo.training.cli.selfplay.throughput",
                       "learner steps/s of the training loop"),
    "soak": ("tablezoo.training.cli.soak", "play every env for minutes: steps, errors, memory"),
    "docs": ("tablezoo.training.cli.docs", "print an env's generated documentation tables"),
}


def _parser() -> argparse.ArgumentParser:
    width = max(map(len, COMMANDS))
    listing = "\n".join(f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items())
    p = argparse.ArgumentParser(
        prog="tablezoo", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Multi-agent RL environments for four tabletop games, their agents, "
                    "training and evaluation.",
        epilog=f"commands:\n{listing}\n\n'tablezoo COMMAND --help' explains a command's flags.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    p.add_argument("command", metavar="COMMAND", choices=list(COMMANDS),
                   help="one of the commands below")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the command's own flags")
    return p


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tablezoo")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    """Run ``tablezoo COMMAND ARGS``; returns the command's exit status."""
    # One BLAS thread, set before numpy loads: the tools' forward passes are small matrix
    # products, and a multi-threaded BLAS on a busy 2-core machine made each ~200x slower.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    module = importlib.import_module(COMMANDS[args.command][0])
    return module.main(args.args) or 0


if __name__ == "__main__":
    raise SystemExit(main())
