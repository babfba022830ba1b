"""``tablezoo train``: its flags and ``--config`` file into ``TrainSettings``, then the run.

The run itself is ``tablezoo.training.selfplay.train.train``; ``tablezoo imitate`` and
``tablezoo quickstart`` run these flags under their own names (``main``'s ``prog`` and ``usage``).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from tablezoo.agents.learned.advice import ADVISORS
from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_opponent,
    add_out,
    add_seed,
    make_parser,
    option_item,
    parse_env_options,
    parse_with_config,
    positive_int,
)
from tablezoo.training.imitation.cloning import VALUE_TARGETS
from tablezoo.training.runs import SettingsError
from tablezoo.training.selfplay import train
from tablezoo.training.selfplay.settings import TrainSettings
from tablezoo.training.selfplay.train import ACTIVATIONS, ENGINE_DEFAULTS, ENGINES

REQUIRED = ("env", "timesteps", "out")


def build_parser(prog: str = "train", usage: str | None = None
                 ) -> argparse.ArgumentParser:
    """The training flags; ``prog`` names the command in errors and ``usage`` replaces the
    usage line they start with: ``tablezoo imitate`` and
    ``tablezoo quickstart`` run these flags
    under their own names, and a user of theirs should see their flags, not these."""
    p = make_parser(prog, train.__doc__)
    if usage is not None:
        p.usage = usage
    p.add_argument("--config", type=Path, help="JSON file of defaults for these options "
                   "(training/configs/*.json); flags on the command line win")
    add_env(p, required=False, help="the env to train on (required here or in --config)")
    p.add_argument("--timesteps", type=int,
                   help="learner decisions to train; with --resume, this many more than the "
                        "run has (required here or in --config)")
    add_out(p, required=False, help="run folder (required here or in --config)")
    add_env_options(p)
    add_opponent(p, default=None, multiple=True, help="league entry",
                 default_text="random and heuristic")
    p.add_argument("--self-play", action="store_true",
                   help="the learner's own weights and frozen snapshots join the league")
    p.add_argument("--snapshot-every", type=int, default=50_000,
                   help="learner steps between frozen self-play snapshots (taken at the "
                        "first rollout end at or after each multiple)")
    p.add_argument("--max-snapshots", type=positive_int, default=5,
                   help="snapshots kept in the league (the newest)")
    p.add_argument("--pfsp-power", type=float, default=2.0,
                   help="PFSP weighting: opponents the learner loses to are drawn more often")
    p.add_argument("--partner-snapshot-prob", type=float, default=0.2,
                   help="team games: chance that the partner is a snapshot instead of the learner")
    p.add_argument("--entry-weight", action="append", metavar="NAME=FACTOR", default=None,
                   help="multiply a league entry's PFSP weight (NAME: a spec, self, snapshots)")
    p.add_argument("--checkpoint-every", type=int, default=50_000,
                   help="learner steps between checkpoints in OUT/checkpoints/ (0: none, so "
                        "a --resume of a --self-play run has no snapshots to bring back)")
    p.add_argument("--eval-every", type=int, default=50_000,
                   help="learner steps between evaluations (OUT/eval.csv)")
    p.add_argument("--eval-games", type=int, default=200,
                   help="seeded games per evaluation and opponent")
    p.add_argument("--eval-seed", type=int, default=1_000_000,
                   help="first seed of the evaluation games (kept apart from training seeds)")
    p.add_argument("--bc-games", type=int, default=0,
                   help="behaviour-clone the teacher on this many games first (0: no BC)")
    p.add_argument("--bc-teacher", default="heuristic", help="agent spec the BC warm start copies")
    p.add_argument("--bc-epochs", type=int, default=10, help="BC training epochs")
    p.add_argument("--bc-max-samples", type=int, default=200_000,
                   help="BC decisions kept at most (per DAgger round too)")
    p.add_argument("--bc-temperature", type=float, default=None,
                   help="soft targets: the actor fits the softmax of the teacher's move values "
                        "(action_values, e.g. the rollout search's) at this temperature instead "
                        "of its chosen move (default: the chosen move)")
    p.add_argument("--bc-value-target", default="return", choices=VALUE_TARGETS,
                   help="the critic's target in cloning: the game's final return, or the "
                        "search's value of the position (a teacher that values its moves)")
    p.add_argument("--advice", default=None, choices=ADVISORS,
                   help="the network also reads this agent's move in each position "
                        "(tablezoo.agents.learned.advice: residual learning on top of the "
                        "heuristic)")
    p.add_argument("--dagger-rounds", type=int, default=0,
                   help="after cloning, DAgger rounds: the clone plays against the teacher, "
                        "the teacher labels the clone's positions, the policy is refitted")
    p.add_argument("--dagger-games", type=int, default=None,
                   help="games per DAgger round (default: --bc-games)")
    p.add_argument("--dagger-epochs", type=int, default=4,
                   help="passes over the aggregated samples after each DAgger round")
    p.add_argument("--rollout-games", type=int, default=0,
                   help="one step of policy improvement (imitation/rollout_improvement.py): "
                        "the teacher (--bc-teacher) plays this many games, every legal action of "
                        "each choice is valued by the teacher's rollout, and the actor is fitted "
                        "to play the teacher's move unless another is predicted to pay more "
                        "(0: none)")
    p.add_argument("--rollout-margin", type=float, default=0.1,
                   help="predicted gain over the teacher's move an alternative needs")
    p.add_argument("--rollout-explore", type=float, default=0.05,
                   help="chance that a seat leaves the teacher's path with a random move while "
                        "the rollout games are played")
    p.add_argument("--rollout-candidates", type=int, default=None,
                   help="value only the teacher's move and its next best moves by the "
                        "teacher's own ranking, this many in all (default: every legal move); "
                        "for games with dozens of moves a turn (bower)")
    p.add_argument("--rollout-save", action="store_true",
                   help="also write the rollout values to OUT/rollout_values.npz")
    p.add_argument("--rollout-values", type=Path, default=None,
                   help="fit these saved rollout values (--rollout-save) instead of playing "
                        "the games again; --rollout-games must still name how many they were")
    p.add_argument("--rollout-epochs", type=int, default=10,
                   help="passes over the rollout values")
    p.add_argument("--rollout-symmetries", action="store_true",
                   help="fit each rollout value under a random symmetry of the game "
                        "(bauer_trick: the 8 colour-keeping suit renamings), drawn afresh each "
                        "pass: more data without more games")
    p.add_argument("--init", type=Path,
                   help="start from this model.zip (e.g. a BC model) instead of fresh weights")
    p.add_argument("--force", action="store_true",
                   help="start afresh in an --out folder that holds an earlier run (its model, "
                        "checkpoints and eval log are removed)")
    p.add_argument("--resume", action="store_true",
                   help="continue OUT/model.zip or the newest checkpoint for --timesteps "
                        "more decisions")
    p.add_argument("--processes", type=int, default=1,
                   help="worker processes playing the games (training, and the teacher's games "
                        "of --bc-games and DAgger)")
    p.add_argument("--reward-scale", type=float, default=1.0,
                   help="multiply rewards (e.g. 0.1 for score-margin rewards)")
    p.add_argument("--max-minutes", type=float, default=None,
                   help="stop training after this much wall time, a guard for exploration runs: "
                        "where it stops depends on the machine, so the run cannot be rerun "
                        "(default: none; the configs of shipped models have none)")
    p.add_argument("--no-obs-scale", action="store_true",
                   help="feed raw observations (else: divided by the spec's upper bounds)")
    add_seed(p, help="seed of the games, the league and the network initialisation")
    for flag, name, what in (("--n-envs", "n_envs", "games played in lockstep"),
                             ("--n-steps", "n_steps", "steps per env per rollout"),
                             ("--batch-size", "batch_size", "PPO minibatch size"),
                             ("--n-epochs", "n_epochs", "PPO epochs per rollout")):
        p.add_argument(flag, type=int, default=None,
                       help=f"{what} (default: {ENGINE_DEFAULTS['python'][name]}; "
                            f"{ENGINE_DEFAULTS['compiled'][name]} on the compiled engine)")
    p.add_argument("--lr", type=float, default=1e-3, help="learning rate")
    p.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus coefficient")
    p.add_argument("--clip-range", type=float, default=0.2, help="PPO clip range")
    p.add_argument("--target-kl", type=float, default=None,
                   help="stop a rollout's PPO epochs once the approximate KL from the rollout's "
                        "policy passes this (sb3's target_kl; keeps a cloned policy near itself)")
    p.add_argument("--gamma", type=float, default=1.0,
                   help="discount; 1.0: the reward comes at the end of the episode")
    p.add_argument("--gae-lambda", type=float, default=0.95, help="GAE lambda")
    p.add_argument("--net-arch", default="128,128", help="hidden layer sizes, comma-separated")
    p.add_argument("--activation", default="relu", choices=ACTIVATIONS,
                   help="hidden layer activation")
    p.add_argument("--engine", default="auto", choices=ENGINES,
                   help="who plays the training games: compiled: the env's compiled batched "
                        "engine (training/batched/, bauer_trick_v0, --advice too); python: the "
                        "Python engines in the one-game collector (training/selfplay/"
                        "collector.py); auto: compiled where the env has it and the run "
                        "allows it, else python")
    p.add_argument("--learner-forward", default="collector", choices=("collector", "torch"),
                   help="collector: the collector answers the learner's seats with a numpy copy "
                        "of the rollout's weights (in the workers with --processes; "
                        "training/selfplay/ppo.py); torch: sb3's own loop, one torch call per step")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--verbose", type=int, default=0, help="MaskablePPO verbosity (0, 1, 2)")
    return p


def parse_args(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """Command line over ``--config`` defaults; unknown config keys are an error."""
    args = parse_with_config(parser, argv)
    for name in REQUIRED:
        if getattr(args, name) is None:
            parser.error(f"--{name} is required (on the command line or in --config)")
    if isinstance(args.out, str):
        args.out = Path(args.out)
    if args.env_option is None:
        args.env_option = []
    if isinstance(args.env_option, dict):
        args.env_option = [option_item(k, v) for k, v in args.env_option.items()]
    return args


def settings_from_args(args: argparse.Namespace) -> TrainSettings:
    """The run the flags ask for (``--env-option KEY=VALUE`` items read into a dict)."""
    values = {k: v for k, v in vars(args).items() if k != "env_option"}
    return TrainSettings(**values, env_options=parse_env_options(args.env_option))


def main(argv: list[str] | None = None, prog: str = "train",
         usage: str | None = None) -> int:
    parser = build_parser(prog, usage)
    args = parse_args(parser, argv)
    try:
        settings = settings_from_args(args)
    except ValueError as exc:  # a malformed --env-option
        parser.error(str(exc))
    command = "tablezoo train " + shlex.join(sys.argv[1:] if argv is None else argv)
    try:
        train.train(settings, command)
    except SettingsError as exc:  # argparse prints it and exits with 2
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
