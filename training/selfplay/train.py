"""Train a MaskablePPO policy for any tablezoo game against a league, on the batched collector.

    tablezoo train --config training/configs/bower.json --out runs/bower
    tablezoo train --env bauer_trick_v0 --timesteps 200000 --out runs/bt

``--config FILE`` (JSON, keys = the long option names with ``_``) sets the defaults; flags on the
command line win. The learner plays one seat of ``--n-envs`` lockstep games
(``tablezoo.training.selfplay.collector``); the other seats come from the league
(``tablezoo.training.selfplay.league``):
``--opponent SPEC`` entries (default ``random`` and ``heuristic``), with ``--self-play`` the
learner's latest weights and a frozen snapshot every ``--snapshot-every`` steps, sampled
PFSP-style. In team games the partner is the learner itself (or a snapshot). ``--bc-games N``
first clones the ``--bc-teacher`` (default ``heuristic``) on N generated games; ``--init
MODEL.zip`` starts from a saved model instead (e.g. ``tablezoo imitate``'s).
``--rollout-games N`` then fits the actor to one step of policy improvement over the teacher,
valued by the teacher's rollouts (``training/imitation/rollout_improvement.py``).
``--processes 2`` runs the games in two worker processes.

Writes ``OUT/model.zip``, ``OUT/model.npz`` + ``OUT/model.json`` (numpy weights and card, what
``trained:path=OUT/model.npz`` plays), ``OUT/config.json``, ``OUT/checkpoints/``, ``OUT/tb/``,
``OUT/eval.csv`` (every ``--eval-every`` steps: ``--eval-games`` fixed seeded games against
random and against heuristic, win rate and mean reward with 95% CIs), ``OUT/learning_curve.png``
and ``OUT/summary.json``. ``--resume`` continues ``OUT/model.zip`` (or the newest checkpoint).

The budget is ``--timesteps`` (whole rollouts: the run ends at the first rollout end at or after
it); the wall time is measured and written to the card, never a stopping rule, unless
``--max-minutes`` asks for one (a guard for exploration runs: where it stops depends on the
machine, so such a run cannot be rerun). Everything else is seeded by ``--seed`` and the network
updates run on one torch thread with torch's deterministic algorithms, so the same command on
the same builds of torch and numpy writes the same ``model.npz``, byte for byte (tested). The
card's ``training_command`` names the run folder ``DIR`` (``training/shipping/commands.py``).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.learned.advice import ADVISORS
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_opponent,
    add_out,
    add_seed,
    clear_run,
    env_options_for,
    eval_options,
    make_parser,
    option_item,
    parse_env_options,
    parse_with_config,
    positive_int,
    refuse_earlier_run,
)
from tablezoo.training.selfplay.settings import hidden_layers, setting_problems
from tablezoo.training.shipping.commands import RUN, portable_command
from tablezoo.training.shipping.machine import machine_record

ACTIVATIONS = ("tanh", "relu")
ENGINES = ("auto", "compiled", "python")
# the rollout shape of each engine where the run does not set it: the compiled engine plays many
# games at once and feeds larger, fewer updates (training/README.md, "Training throughput")
ENGINE_DEFAULTS = {"python": {"n_envs": 16, "n_steps": 256, "batch_size": 1024, "n_epochs": 8},
                   "compiled": {"n_envs": 512, "n_steps": 64, "batch_size": 2048,
                                "n_epochs": 1}}
REQUIRED = ("env", "timesteps", "out")
ROLLOUT_VALUES = "rollout_values.npz"
# --rollout-games plays its games from seed + this: apart from cloning's (seed..), DAgger's
# (seed + k * 1,000,000) and the evaluation seeds (1,000,000.. in training, 5,000,000.. and
# up in the shipped models' measurements)
ROLLOUT_SEED_OFFSET = 50_000_000


def build_parser(prog: str = "train", usage: str | None = None
                 ) -> argparse.ArgumentParser:
    """The training flags; ``prog`` names the command in errors and ``usage`` replaces the
    usage line they start with: ``tablezoo imitate`` and
    ``tablezoo quickstart`` run these flags
    under their own names, and a user of theirs should see their flags, not these."""
    p = make_parser(prog, __doc__)
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
    try:
        args.engine = resolve_engine(args)
    except ValueError as exc:
        parser.error(str(exc))
    for name, value in ENGINE_DEFAULTS[args.engine].items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    return args


# --- the collector -------------------------------------------------------------------------------
def league_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    specs = ["random", "heuristic"] if args.opponent is None else args.opponent
    return {"specs": specs, "self_play": args.self_play,
            "max_snapshots": args.max_snapshots, "pfsp_power": args.pfsp_power,
            "partner_snapshot_prob": args.partner_snapshot_prob,
            "entry_weights": parse_entry_weights(args.entry_weight)}


def parse_entry_weights(items: list[str] | dict[str, float] | None) -> dict[str, float]:
    """``["heuristic=3"]`` (or a config's ``{"heuristic": 3}``) -> ``{"heuristic": 3.0}``."""
    if isinstance(items, dict):
        items = [f"{k}={v}" for k, v in items.items()]
    out = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        try:
            out[name] = float(value)
        except ValueError:
            eq = ""
        if not eq or not name:
            raise ValueError(f"--entry-weight expects NAME=FACTOR, got {item!r}")
        if not (math.isfinite(out[name]) and out[name] >= 0):  # a sampling weight's factor
            raise ValueError(f"--entry-weight {item}: allowed factors: 0 (never) or more")
    return out


def build_shard(env_name: str, env_options: dict[str, Any], league: dict[str, Any],
                obs_scale: bool, reward_scale: float, num_envs: int, seed: int,
                advice: str | None = None) -> Any:
    """One ``MultiSeatVecEnv`` (module-level so worker processes can build theirs)."""
    from tablezoo.training.selfplay.collector import MultiSeatVecEnv, obs_scale_for
    from tablezoo.training.selfplay.league import League

    game = envs.make_game(env_name, **env_options)
    return MultiSeatVecEnv(game, League(game, env_name, **league), num_envs, seed,
                           obs_scale_for(game, advice is not None) if obs_scale else None,
                           reward_scale, advice, env_name)


def engine_problem(args: argparse.Namespace) -> str | None:
    """Why the run cannot train on the compiled batched engine (``None``: it can)."""
    from tablezoo.agents.games import batched_agents

    if "compiled" not in envs.vector_backends(args.env):
        return f"{args.env} has no compiled batched engine here (numba installed?)"
    if args.advice is not None and not batched_agents(args.env):
        return f"--advice needs a batched heuristic, which {args.env} has not"
    return None


def resolve_engine(args: argparse.Namespace) -> str:
    """``args.engine`` made concrete: ``compiled`` or ``python`` (``auto``: compiled where
    ``engine_problem`` finds nothing against it); raises ``ValueError`` for a compiled run
    that cannot be."""
    if args.engine == "python":
        return "python"
    problem = engine_problem(args)
    if problem is None:
        return "compiled"
    if args.engine == "compiled":
        raise ValueError(f"--engine compiled: {problem}; allowed here: --engine python")
    return "python"


def make_vec_env(args: argparse.Namespace, env_options: dict[str, Any]) -> Any:
    if getattr(args, "engine", "python") == "compiled":
        return build_batched(args.env, env_options, league_kwargs(args), not args.no_obs_scale,
                             args.reward_scale, args.n_envs, args.seed, args.advice)
    make = functools.partial(build_shard, args.env, env_options, league_kwargs(args),
                             not args.no_obs_scale, args.reward_scale, advice=args.advice)
    if args.processes <= 1:
        return make(args.n_envs, args.seed)
    from tablezoo.training.selfplay.shards import ShardedVecEnv

    probe = make(1, args.seed)
    return ShardedVecEnv(make, args.n_envs, args.processes, args.seed,
                         probe.observation_space, probe.action_space)


def build_batched(env_name: str, env_options: dict[str, Any], league: dict[str, Any],
                  obs_scale: bool, reward_scale: float, num_envs: int, seed: int,
                  advice: str | None = None) -> Any:
    """The batched trainer's env: ``training/batched/adapter.py``'s ``VectorLeagueEnv`` over
    the compiled engine's ``num_envs`` games (``advice``: observations widened by the batched
    heuristic's move, ``training/batched/advised.py``)."""
    from tablezoo.agents.games import batched_agents
    from tablezoo.training.batched.adapter import VectorLeagueEnv
    from tablezoo.training.batched.advised import AdvisedStepper
    from tablezoo.training.batched.stepping import make_stepper
    from tablezoo.training.selfplay.collector import obs_scale_for
    from tablezoo.training.selfplay.league import League

    game = envs.make_game(env_name, **env_options)
    stepper = make_stepper(env_name, num_envs, seed, backend="compiled", **env_options)
    if advice is not None:
        stepper = AdvisedStepper(stepper, batched_agents(env_name)[advice])
    scale = obs_scale_for(game, advice is not None) if obs_scale else None
    return VectorLeagueEnv(stepper, League(game, env_name, **league), seed, scale, reward_scale,
                           env_name)


def model_class(args: argparse.Namespace) -> Any:
    """The PPO of the run's engine: ``BatchedPPO`` (training/batched/ppo.py) on the compiled
    engine, ``CollectorPPO`` (selfplay/ppo.py) on the one-game collector."""
    if getattr(args, "engine", "python") == "compiled":
        from tablezoo.training.batched.ppo import BatchedPPO

        return BatchedPPO
    from tablezoo.training.selfplay.ppo import CollectorPPO

    return CollectorPPO


def new_model(args: argparse.Namespace, vec_env: Any, tb_dir: Path | None) -> Any:
    import torch

    layers = hidden_layers(args.net_arch)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[args.activation]
    return model_class(args)(
        "MlpPolicy", vec_env, learning_rate=args.lr, n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
        gae_lambda=args.gae_lambda, ent_coef=args.ent_coef, clip_range=args.clip_range,
        target_kl=args.target_kl,
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}, "activation_fn": activation},
        tensorboard_log=None if tb_dir is None else str(tb_dir), seed=args.seed, device="cpu",
        verbose=args.verbose)


def stopped_by(clock: Any, timesteps: int) -> str:
    """The card's ``budget.stopped_by``: what ended the run."""
    if clock is not None and clock.fired:
        return "max_minutes: the wall clock, so a rerun stops elsewhere"
    return "timesteps" if timesteps > 0 else "no PPO steps"


def checkpoints(out: Path) -> list[tuple[int, Path]]:
    """A run's checkpoints as (learner steps, file), fewest steps first (names end in
    ``_<steps>_steps.zip``)."""
    found = (out / "checkpoints").glob("model_*_steps.zip")
    return sorted((int(f.stem.split("_")[-2]), f) for f in found)


def latest_checkpoint(out: Path) -> Path | None:
    """The checkpoint with the most steps."""
    found = checkpoints(out)
    return found[-1][1] if found else None


def resume_path(out: Path) -> Path:
    if (out / "model.zip").is_file():
        return out / "model.zip"
    checkpoint = latest_checkpoint(out)
    if checkpoint is None:
        raise SystemExit(f"--resume: no model.zip or checkpoint in {out}")
    return checkpoint


def session_history(previous_card: dict[str, Any], machine: dict[str, Any], wall_seconds: float,
                    timesteps: int) -> list[dict[str, Any]]:
    """A resumed run's ``budget.sessions``: each session's machine, wall time and the steps it
    ended at, oldest first. A card's single ``machine`` is only the latest session's, and the
    wall time of a run spread over machines means little without each of them."""
    budget = previous_card.get("budget", {})
    earlier = budget.get("sessions") or [{"machine": budget.get("machine"),
                                          "wall_seconds": previous_card.get("wall_seconds"),
                                          "timesteps": previous_card.get("timesteps")}]
    return [*earlier, {"machine": machine, "wall_seconds": round(wall_seconds, 1),
                       "timesteps": int(timesteps)}]


def write_config(args: argparse.Namespace, env_options: dict[str, Any], game: Any,
                 obs_scale: np.ndarray | None, steps: int, argv: list[str] | None) -> None:
    """``OUT/config.json``; a resumed run keeps the original record and appends the resume."""
    path = args.out / "config.json"
    command = "tablezoo train " + shlex.join(sys.argv[1:] if argv is None else argv)
    run = {"opponents": league_kwargs(args)["specs"], "self_play": args.self_play,
           "command": command, "advice": args.advice}
    if args.resume and path.is_file():
        config = json.loads(path.read_text())
        config.setdefault("resumed", []).append(
            {**run, "at_steps": steps, "timesteps": args.timesteps})
    else:
        config = {"env": args.env, "env_options": env_options,
                  "num_players": game.num_players, "obs_size": game.obs_spec.size,
                  "num_actions": game.num_actions,
                  "obs_scale": None if obs_scale is None else obs_scale.tolist(), **run,
                  "hyperparameters": {k: v for k, v in vars(args).items() if k not in
                                      ("env", "env_option", "out", "opponent", "resume")}}
    path.write_text(json.dumps(config, indent=2, default=str))


def improve_by_rollouts(args: argparse.Namespace, game: Any, policy: Any,
                        obs_scale: np.ndarray | None,
                        on_epoch: Callable[[int], Any] | None = None,
                        saved: Any = None) -> dict[str, Any]:
    """``--rollout-games``: value the teacher's moves and their alternatives by rollouts and fit
    the policy to the improvement (``training/imitation/rollout_improvement.py``); returns the
    card's record. ``on_epoch(k)`` runs after epoch ``k`` of the fit (the per-epoch evaluation);
    ``saved`` are the values of ``--rollout-values``, already loaded (and checked) by ``main``."""
    from tablezoo.training.imitation.rollout_improvement import (
        check_symmetries,
        fit,
        generate,
        save_values,
    )

    symmetries = (check_symmetries(game, args.env, obs_scale) if args.rollout_symmetries
                  else None)
    t0 = time.perf_counter()
    if saved is not None:
        values = saved
    else:
        values = generate(game, args.env, args.rollout_games, args.seed + ROLLOUT_SEED_OFFSET,
                          args.bc_teacher, obs_scale, args.rollout_explore, args.reward_scale,
                          args.advice, args.processes, args.rollout_candidates)
    if args.rollout_save:
        save_values(values, args.out / ROLLOUT_VALUES)
    generated = time.perf_counter() - t0
    import torch

    torch.set_num_threads(max(1, args.processes))  # the worker processes are done: their cores
    try:
        # the values are scaled returns (--reward-scale), so the margin is scaled with them
        info = fit(policy, values, args.rollout_margin * args.reward_scale,
                   epochs=args.rollout_epochs, seed=args.seed,
                   log=lambda m: print(m, file=sys.stderr), symmetries=symmetries,
                   on_epoch=on_epoch)
    finally:
        torch.set_num_threads(1)
    info["margin"] = args.rollout_margin
    info.update({"games": args.rollout_games, "teacher": args.bc_teacher,
                 "explore": args.rollout_explore, "first_seed": args.seed + ROLLOUT_SEED_OFFSET,
                 "candidates": args.rollout_candidates,
                 "values_from": None if args.rollout_values is None else str(args.rollout_values),
                 "generate_seconds": round(generated, 1),
                 "seconds": round(time.perf_counter() - t0, 1)})
    return info


def rollout_with_curve(args: argparse.Namespace, game: Any, eval_game: Any, policy: Any,
                       obs_scale: np.ndarray | None, model_card: dict[str, Any] | None,
                       saved: Any = None) -> dict[str, Any]:
    """``improve_by_rollouts``; with ``--eval-games`` the policy also plays the evaluation games
    before the fit and after every epoch (``OUT/rollout_eval.csv``, drawn to
    ``OUT/rollout_curve.png``): the learning curve of a run that has no PPO steps. Playing only
    reads the policy, so the fitted weights are those of a run without it."""
    if args.eval_games <= 0:
        return improve_by_rollouts(args, game, policy, obs_scale, saved=saved)
    from tablezoo.training.figures.learning_curve import ROLLOUT_EVAL, plot_run
    from tablezoo.training.selfplay.callbacks import EvalCallback

    curve = EvalCallback(args.out, eval_game, args.env, obs_scale, 0, args.eval_games,
                         args.eval_seed, model_card, filename=ROLLOUT_EVAL)
    curve.evaluate_now(policy, 0)
    info = improve_by_rollouts(args, game, policy, obs_scale,
                               functools.partial(curve.evaluate_now, policy), saved)
    info["eval_by_epoch"] = ROLLOUT_EVAL
    info["eval_after_fit"] = curve.last_row
    plot_run(args.out, rollout=True)
    return info


def main(argv: list[str] | None = None, prog: str = "train",
         usage: str | None = None) -> int:
    parser = build_parser(prog, usage)
    args = parse_args(parser, argv)
    problems = setting_problems(vars(args))
    if problems:
        parser.error("; ".join(problems))
    try:
        env_options = env_options_for(args.env, parse_env_options(args.env_option))
        game = envs.make_game(args.env, **env_options)
        from tablezoo.training.selfplay.league import League

        League(game, args.env, **league_kwargs(args))  # check the specs before starting
    except ValueError as exc:  # unknown option or bad value: argparse prints it and exits 2
        parser.error(str(exc))
    refuse_earlier_run(parser, args.out, force=args.force, resume=args.resume)
    if args.dagger_rounds < 0 or (args.dagger_rounds > 0 and args.bc_games <= 0):
        parser.error(f"--dagger-rounds {args.dagger_rounds}: DAgger refines a clone, so it needs "
                     "--bc-games N > 0; rounds: 0 (none) or more")
    if args.rollout_games < 0 or args.rollout_epochs < 1:
        parser.error(f"--rollout-games {args.rollout_games} --rollout-epochs "
                     f"{args.rollout_epochs}: allowed: games 0 (none) or more, epochs 1 or more")
    if args.rollout_games > 0 and args.resume:
        parser.error("--rollout-games with --resume: the improvement is fitted before training "
                     "starts, so a resumed run would skip it; allowed: one or the other")
    from tablezoo.training.imitation.rollout_improvement import (
        check_candidates,
        check_game,
        check_options,
        check_symmetries,
        load_values,
    )
    from tablezoo.training.selfplay.collector import network_input_size, obs_scale_for

    saved_values = None  # --rollout-values, loaded once: checked here, fitted later
    try:
        # the margin and the exploring rate are checked even when unused, so a typo shows
        check_options(args.rollout_margin, args.rollout_explore,
                      args.advice if args.rollout_games > 0 else None, args.bc_teacher)
        if args.rollout_games > 0:
            check_game(game, args.env)
            check_candidates(args.rollout_candidates, args.bc_teacher, args.env)
            if args.rollout_values is not None:
                saved_values = load_values(args.rollout_values,
                                           network_input_size(game, args.advice is not None),
                                           game.num_actions)
        elif args.rollout_values is not None or args.rollout_save:
            raise ValueError("--rollout-values/--rollout-save are rollout values, so they need "
                             "--rollout-games N > 0")
        if args.rollout_symmetries:
            if args.rollout_games <= 0:
                raise ValueError("--rollout-symmetries relabels the rollout values, so it needs "
                                 "--rollout-games N > 0")
            check_symmetries(game, args.env, None if args.no_obs_scale else
                             obs_scale_for(game, args.advice is not None))
        if args.rollout_games > 0 or args.bc_games > 0:
            factory_from_spec(args.bc_teacher, args.env, game.num_players)  # before OUT
    except (ValueError, OSError) as exc:  # OSError: a teacher's model file that is not there
        parser.error(str(exc))
    if args.target_kl is not None and not args.target_kl > 0:
        parser.error(f"--target-kl {args.target_kl}: a positive KL (e.g. 0.01), or leave it out")
    if args.processes < 1:
        parser.error(f"--processes {args.processes}: allowed: 1 (one process) or more")
    if args.resume and args.force:
        parser.error("--resume and --force exclude each other")
    if args.resume or args.init is not None:  # another game's model, or not a model.zip
        from tablezoo.agents.learned.policy import load_model

        start = resume_path(args.out) if args.resume else Path(args.init)
        if not start.is_file() and Path(f"{start}.zip").is_file():
            start = Path(f"{start}.zip")  # sb3 adds the suffix itself
        try:
            load_model(start, args.env, network_input_size(game, args.advice is not None),
                       allow_advised=True)
        except (ValueError, FileNotFoundError) as exc:
            parser.error(f"{'--resume' if args.resume else '--init'}: {exc}")
    if args.force:
        clear_run(args.out)
    import torch

    from tablezoo.training.selfplay.callbacks import (
        EvalCallback,
        LeagueCallback,
        StopAfter,
        UpdateThreads,
        export_policy,
        make_checkpoint_callback,
    )
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)  # the same command, the same bytes
    t_start = time.perf_counter()
    machine = machine_record(args.processes, update_threads=args.processes)  # parse checks >= 1
    args.out.mkdir(parents=True, exist_ok=True)
    tb_dir = args.out / "tb"
    obs_scale = None if args.no_obs_scale else obs_scale_for(game, args.advice is not None)
    model_card = {"env": args.env, "advice": args.advice} if args.advice else None
    vec_env = make_vec_env(args, env_options)
    bc_info: dict[str, Any] | None = None
    if args.resume:
        path = resume_path(args.out)
        model = model_class(args).load(str(path), env=vec_env, device="cpu",
                                       tensorboard_log=str(tb_dir))
        print(f"resuming from {path} at {model.num_timesteps} steps", file=sys.stderr)
    elif args.init is not None:
        model = model_class(args).load(str(args.init), env=vec_env, device="cpu",
                                       tensorboard_log=str(tb_dir), learning_rate=args.lr,
                                       ent_coef=args.ent_coef, n_steps=args.n_steps,
                                       batch_size=args.batch_size, n_epochs=args.n_epochs,
                                       clip_range=args.clip_range, target_kl=args.target_kl)
    else:
        model = new_model(args, vec_env, tb_dir)
    model.collector_forward = args.learner_forward == "collector"
    if args.bc_games > 0 and not args.resume:
        from tablezoo.training.imitation.cloning import clone, dagger, generate

        t0 = time.perf_counter()
        demos = generate(game, args.env, args.bc_games, args.seed, args.bc_teacher, obs_scale,
                         args.bc_max_samples, args.reward_scale, args.advice,
                         processes=args.processes)
        bc_info = clone(model.policy, demos, epochs=args.bc_epochs, seed=args.seed,
                        log=lambda m: print(m, file=sys.stderr))
        bc_info.update({"games": args.bc_games, "teacher": args.bc_teacher})
        if args.dagger_rounds > 0:
            bc_info["dagger"] = dagger(
                model.policy, demos, game, args.env, args.dagger_rounds,
                args.dagger_games or args.bc_games, args.seed, args.bc_teacher, obs_scale,
                args.bc_max_samples, args.reward_scale, args.dagger_epochs,
                log=lambda m: print(m, file=sys.stderr), advice=args.advice,
                processes=args.processes)
        bc_info["seconds"] = round(time.perf_counter() - t0, 1)
        del demos
    eval_game = envs.make_game(args.env, **eval_options(env_options))
    rollout_info: dict[str, Any] | None = None
    if args.rollout_games > 0 and not args.resume:
        rollout_info = rollout_with_curve(args, game, eval_game, model.policy, obs_scale,
                                          model_card, saved_values)
        del saved_values
    write_config(args, env_options, game, obs_scale, model.num_timesteps, argv)
    vec_env.set_self(export_policy(model.policy, obs_scale))
    league_cb = LeagueCallback(vec_env, obs_scale, args.snapshot_every if args.self_play else 0)
    if args.resume and args.self_play:
        for _, checkpoint in checkpoints(args.out)[-args.max_snapshots:]:
            league_cb.add_saved(checkpoint)
    eval_cb = EvalCallback(args.out, eval_game, args.env, obs_scale, args.eval_every,
                           args.eval_games, args.eval_seed, model_card)
    callbacks = [league_cb, eval_cb]
    if args.checkpoint_every > 0:
        callbacks.insert(0, make_checkpoint_callback(args))
    if args.processes > 1:
        callbacks.append(UpdateThreads(args.processes))
    clock = None if args.max_minutes is None else StopAfter(t_start + 60 * args.max_minutes)
    if clock is not None:
        callbacks.append(clock)
    start_steps, t0 = model.num_timesteps, time.perf_counter()
    if args.eval_games > 0 and args.timesteps > 0:
        eval_cb.evaluate_now(model.policy, model.num_timesteps)  # the starting point (BC)
    if args.timesteps > 0:
        model.learn(total_timesteps=args.timesteps, callback=callbacks,
                    reset_num_timesteps=not (args.resume or args.init),
                    progress_bar=not args.no_progress, tb_log_name="MaskablePPO")
    seconds = time.perf_counter() - t0
    model.save(str(args.out / "model.zip"))
    steps = model.num_timesteps - start_steps
    if args.eval_games > 0 and args.timesteps > 0 and eval_cb.last_step != model.num_timesteps:
        eval_cb.evaluate_now(model.policy, model.num_timesteps)
    wall = time.perf_counter() - t_start
    config = json.loads((args.out / "config.json").read_text())
    commands = [config["command"], *(r["command"] for r in config.get("resumed", []))]
    earlier = 0.0  # a resumed run's card counts the wall time of every session
    budget: dict[str, Any] = {"timesteps": args.timesteps, "max_minutes": args.max_minutes,
                              "stopped_by": stopped_by(clock, args.timesteps),
                              "machine": machine}
    if args.resume and (args.out / "model.json").is_file():
        previous = json.loads((args.out / "model.json").read_text())
        earlier = float(previous.get("wall_seconds", 0))
        bc_info = bc_info or previous.get("bc")  # the first session's cloning record
        budget["sessions"] = session_history(previous, machine, wall, model.num_timesteps)
    card = {"env": args.env, "env_options": env_options, "num_players": game.num_players,
            "training_command": portable_command(" && ".join(commands), {str(args.out): RUN}),
            "timesteps": int(model.num_timesteps), "wall_seconds": round(earlier + wall, 1),
            "budget": budget,
            "seed": args.seed, "bc": bc_info, "rollout": rollout_info,
            "league": league_kwargs(args)["specs"],
            "self_play": args.self_play, "engine": getattr(args, "engine", "python"),
            "eval_during_training": eval_cb.last_row, **(model_card or {})}
    export_policy(model.policy, obs_scale).save(args.out / "model.npz", card)
    vec_env.close()
    summary = {"timesteps": steps, "total_timesteps": model.num_timesteps,
               "seconds": round(seconds, 2), "wall_seconds": round(wall, 1),
               "steps_per_second": round(steps / seconds, 1) if seconds > 0 and steps else None,
               # the league keeps the newest max_snapshots of the snapshots it was given
               "final_pool": league_cb.names()[-args.max_snapshots:],
               "snapshots_added": len(league_cb.names()), "bc": bc_info,
               "rollout": rollout_info}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2))
    if eval_cb.rows:
        from tablezoo.training.figures.learning_curve import plot_run

        plot_run(args.out)
    print(f"trained {steps} steps in {seconds:.1f} s; saved {args.out / 'model.zip'} and "
          f"{args.out / 'model.npz'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
