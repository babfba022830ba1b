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

import dataclasses
import functools
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.runs import (
    SettingsError,
    clear_run,
    earlier_run_problem,
    env_options_for,
    eval_options,
)
from tablezoo.training.selfplay.settings import TrainSettings, hidden_layers, setting_problems
from tablezoo.training.shipping.commands import RUN, portable_command
from tablezoo.training.shipping.machine import machine_record

if TYPE_CHECKING:
    from tablezoo.training.selfplay.league import LeagueSettings

ACTIVATIONS = ("tanh", "relu")
ENGINES = ("auto", "compiled", "python")
# the rollout shape of each engine where the run does not set it: the compiled engine plays many
# games at once and feeds larger, fewer updates (training/README.md, "Training throughput")
ENGINE_DEFAULTS = {"python": {"n_envs": 16, "n_steps": 256, "batch_size": 1024, "n_epochs": 8},
                   "compiled": {"n_envs": 512, "n_steps": 64, "batch_size": 2048,
                                "n_epochs": 1}}
ROLLOUT_VALUES = "rollout_values.npz"
# --rollout-games plays its games from seed + this: apart from cloning's (seed..), DAgger's
# (seed + k * 1,000,000) and the evaluation seeds (1,000,000.. in training, 5,000,000.. and
# up in the shipped models' measurements)
ROLLOUT_SEED_OFFSET = 50_000_000


# --- the collector -------------------------------------------------------------------------------
def league_settings(settings: TrainSettings) -> LeagueSettings:
    """The run's ``LeagueSettings`` (``opponent`` default: random and heuristic)."""
    from tablezoo.training.selfplay.league import LeagueSettings

    specs = ["random", "heuristic"] if settings.opponent is None else settings.opponent
    return LeagueSettings(specs=specs, self_play=settings.self_play,
                          max_snapshots=settings.max_snapshots, pfsp_power=settings.pfsp_power,
                          partner_snapshot_prob=settings.partner_snapshot_prob,
                          entry_weights=parse_entry_weights(settings.entry_weight))


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


def build_shard(env_name: str, env_options: dict[str, Any], league: LeagueSettings,
                scaled: bool, reward_scale: float, num_envs: int, seed: int,
                advice: str | None = None) -> Any:
    """One ``MultiSeatVecEnv`` (module-level so worker processes can build theirs)."""
    from tablezoo.training.selfplay.collector import MultiSeatVecEnv
    from tablezoo.training.selfplay.league import League

    game = envs.make_game(env_name, **env_options)
    return MultiSeatVecEnv(game, League(game, env_name, league), num_envs, seed, scaled,
                           reward_scale, advice, env_name)


def engine_problem(env: str, advice: str | None) -> str | None:
    """Why a run on ``env`` (with ``advice``) cannot train on the compiled batched engine
    (``None``: it can)."""
    from tablezoo.agents.games import batched_agents

    if "compiled" not in envs.vector_backends(env):
        return f"{env} has no compiled batched engine here (numba installed?)"
    if advice is not None and not batched_agents(env):
        return f"--advice needs a batched heuristic, which {env} has not"
    return None


def resolve_engine(env: str, engine: str, advice: str | None = None) -> str:
    """``engine`` made concrete: ``compiled`` or ``python`` (``auto``: compiled where
    ``engine_problem`` finds nothing against it); raises ``ValueError`` for a compiled run
    that cannot be."""
    if engine == "python":
        return "python"
    problem = engine_problem(env, advice)
    if problem is None:
        return "compiled"
    if engine == "compiled":
        raise ValueError(f"--engine compiled: {problem}; allowed here: --engine python")
    return "python"


def make_vec_env(settings: TrainSettings, env_options: dict[str, Any]) -> Any:
    if settings.engine == "compiled":
        return build_batched(settings.env, env_options, league_settings(settings),
                             not settings.no_obs_scale, settings.reward_scale, settings.n_envs,
                             settings.seed, settings.advice)
    make = functools.partial(build_shard, settings.env, env_options, league_settings(settings),
                             not settings.no_obs_scale, settings.reward_scale,
                             advice=settings.advice)
    if settings.processes <= 1:
        return make(settings.n_envs, settings.seed)
    from tablezoo.training.selfplay.shards import ShardedVecEnv

    probe = make(1, settings.seed)
    return ShardedVecEnv(make, settings.n_envs, settings.processes, settings.seed,
                         probe.observation_space, probe.action_space)


def build_batched(env_name: str, env_options: dict[str, Any], league: LeagueSettings,
                  scaled: bool, reward_scale: float, num_envs: int, seed: int,
                  advice: str | None = None) -> Any:
    """The batched trainer's env: ``training/batched/adapter.py``'s ``VectorLeagueEnv`` over
    the compiled engine's ``num_envs`` games (``advice``: observations widened by the batched
    heuristic's move, ``training/batched/advised.py``)."""
    from tablezoo.agents.games import batched_agents
    from tablezoo.training.batched.adapter import VectorLeagueEnv
    from tablezoo.training.batched.advised import AdvisedStepper
    from tablezoo.training.batched.stepping import make_stepper
    from tablezoo.training.selfplay.league import League

    game = envs.make_game(env_name, **env_options)
    stepper = make_stepper(env_name, num_envs, seed, backend="compiled", **env_options)
    if advice is not None:
        stepper = AdvisedStepper(stepper, batched_agents(env_name, game.options)[advice])
    return VectorLeagueEnv(stepper, League(game, env_name, league), seed, scaled, reward_scale,
                           env_name)


def model_class(settings: TrainSettings) -> Any:
    """The PPO of the run's engine: ``BatchedPPO`` (training/batched/ppo.py) on the compiled
    engine, ``CollectorPPO`` (selfplay/ppo.py) on the one-game collector."""
    if settings.engine == "compiled":
        from tablezoo.training.batched.ppo import BatchedPPO

        return BatchedPPO
    from tablezoo.training.selfplay.ppo import CollectorPPO

    return CollectorPPO


def new_model(settings: TrainSettings, vec_env: Any, tb_dir: Path | None) -> Any:
    import torch

    layers = hidden_layers(settings.net_arch)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[settings.activation]
    return model_class(settings)(
        "MlpPolicy", vec_env, learning_rate=settings.lr, n_steps=settings.n_steps,
        batch_size=settings.batch_size, n_epochs=settings.n_epochs, gamma=settings.gamma,
        gae_lambda=settings.gae_lambda, ent_coef=settings.ent_coef, clip_range=settings.clip_range,
        target_kl=settings.target_kl,
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}, "activation_fn": activation},
        tensorboard_log=None if tb_dir is None else str(tb_dir), seed=settings.seed, device="cpu",
        verbose=settings.verbose)


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


def write_config(settings: TrainSettings, env_options: dict[str, Any], game: Any, steps: int,
                 command: str) -> None:
    """``OUT/config.json``; a resumed run keeps the original record and appends the resume.
    Its ``obs_scale`` is the network's input scaling (``obs_scale_for``), ``None`` where the
    run has none (``no_obs_scale``)."""
    from tablezoo.training.selfplay.collector import obs_scale_for

    path = settings.out / "config.json"
    run = {"opponents": league_settings(settings).specs, "self_play": settings.self_play,
           "command": command, "advice": settings.advice}
    if settings.resume and path.is_file():
        config = json.loads(path.read_text())
        config.setdefault("resumed", []).append(
            {**run, "at_steps": steps, "timesteps": settings.timesteps})
    else:
        config = {"env": settings.env, "env_options": env_options,
                  "num_players": game.num_players, "obs_size": game.obs_spec.size,
                  "num_actions": game.num_actions,
                  "obs_scale": None if settings.no_obs_scale else
                  obs_scale_for(game, settings.advice is not None).tolist(), **run,
                  "hyperparameters": {k: v for k, v in vars(settings).items() if k not in
                                      ("env", "env_options", "out", "opponent", "resume")}}
    path.write_text(json.dumps(config, indent=2, default=str))


def improve_by_rollouts(settings: TrainSettings, game: Any, policy: Any,
                        on_epoch: Callable[[int], Any] | None = None,
                        saved: Any = None) -> dict[str, Any]:
    """``--rollout-games``: value the teacher's moves and their alternatives by rollouts and fit
    the policy to the improvement (``training/imitation/rollout_improvement.py``); returns the
    card's record. ``on_epoch(k)`` runs after epoch ``k`` of the fit (the per-epoch evaluation);
    ``saved`` are the values of ``--rollout-values``, already loaded (and checked) by
    ``check_settings``."""
    from tablezoo.training.imitation.rollout_improvement import (
        FitSettings,
        RolloutSettings,
        check_symmetries,
        fit,
        generate,
        save_values,
    )

    symmetries = (check_symmetries(game, settings.env, not settings.no_obs_scale,
                                   settings.advice is not None)
                  if settings.rollout_symmetries else None)
    t0 = time.perf_counter()
    if saved is not None:
        values = saved
    else:
        values = generate(game, RolloutSettings(
            env=settings.env, games=settings.rollout_games, teacher=settings.bc_teacher,
            seed=settings.seed + ROLLOUT_SEED_OFFSET, explore=settings.rollout_explore,
            candidates=settings.rollout_candidates, reward_scale=settings.reward_scale,
            advice=settings.advice, processes=settings.processes,
            scaled=not settings.no_obs_scale))
    if settings.rollout_save:
        save_values(values, settings.out / ROLLOUT_VALUES)
    generated = time.perf_counter() - t0
    import torch

    torch.set_num_threads(max(1, settings.processes))  # the workers are done: their cores
    try:
        # the values are scaled returns (--reward-scale), so the margin is scaled with them
        fitting = FitSettings(margin=settings.rollout_margin * settings.reward_scale,
                              epochs=settings.rollout_epochs, seed=settings.seed)
        info = fit(policy, values, fitting, log=lambda m: print(m, file=sys.stderr),
                   symmetries=symmetries, on_epoch=on_epoch)
    finally:
        torch.set_num_threads(1)
    info["margin"] = settings.rollout_margin
    saved_from = settings.rollout_values
    info.update({"games": settings.rollout_games, "teacher": settings.bc_teacher,
                 "explore": settings.rollout_explore,
                 "first_seed": settings.seed + ROLLOUT_SEED_OFFSET,
                 "candidates": settings.rollout_candidates,
                 "values_from": None if saved_from is None else str(saved_from),
                 "generate_seconds": round(generated, 1),
                 "seconds": round(time.perf_counter() - t0, 1)})
    return info


def rollout_with_curve(settings: TrainSettings, game: Any, eval_game: Any, policy: Any,
                       model_card: dict[str, Any] | None, saved: Any = None) -> dict[str, Any]:
    """``improve_by_rollouts``; with ``--eval-games`` the policy also plays the evaluation games
    before the fit and after every epoch (``OUT/rollout_eval.csv``, drawn to
    ``OUT/rollout_curve.png``): the learning curve of a run that has no PPO steps. Playing only
    reads the policy, so the fitted weights are those of a run without it."""
    if settings.eval_games <= 0:
        return improve_by_rollouts(settings, game, policy, saved=saved)
    from tablezoo.training.figures.learning_curve import ROLLOUT_EVAL, plot_run
    from tablezoo.training.selfplay.callbacks import EvalCallback

    curve = EvalCallback(settings.out, eval_game, settings.env, not settings.no_obs_scale, 0,
                         settings.eval_games, settings.eval_seed, model_card,
                         filename=ROLLOUT_EVAL)
    curve.evaluate_now(policy, 0)
    info = improve_by_rollouts(settings, game, policy,
                               functools.partial(curve.evaluate_now, policy), saved)
    info["eval_by_epoch"] = ROLLOUT_EVAL
    info["eval_after_fit"] = curve.last_row
    plot_run(settings.out, rollout=True)
    return info


# --- the run, step by step -----------------------------------------------------------------------
@dataclass
class RunSetup:
    """What the checks of a run build on the way, kept for the run: the game and its options,
    and the ``rollout_values`` file's values (loaded once: checked, then fitted)."""

    game: Any
    env_options: dict[str, Any]
    saved_values: Any = None


def resolved(settings: TrainSettings) -> TrainSettings:
    """``settings`` with the engine made concrete and the engine's rollout shape where the run
    leaves it unset (``ENGINE_DEFAULTS``); raises ``SettingsError`` for a compiled run that
    cannot be."""
    try:
        engine = resolve_engine(settings.env, settings.engine, settings.advice)
    except ValueError as exc:
        raise SettingsError(str(exc)) from exc
    shape = {name: value for name, value in ENGINE_DEFAULTS[engine].items()
             if getattr(settings, name) is None}
    return dataclasses.replace(settings, engine=engine, **shape)


def check_settings(settings: TrainSettings) -> RunSetup:
    """Every check a run passes before it writes anything (ranges, the game's options, the
    league's specs, the run folder, the warm start's and the improvement's settings, the model
    it starts from); raises ``SettingsError`` naming the first problem by its flag."""
    problems = setting_problems(vars(settings))
    if problems:
        raise SettingsError("; ".join(problems))
    try:
        env_options = env_options_for(settings.env, settings.env_options or {})
        game = envs.make_game(settings.env, **env_options)
        from tablezoo.training.selfplay.league import League

        League(game, settings.env, league_settings(settings))  # check the specs before starting
    except ValueError as exc:  # unknown option or bad value
        raise SettingsError(str(exc)) from exc
    problem = earlier_run_problem(settings.out, force=settings.force, resume=settings.resume)
    if problem is not None:
        raise SettingsError(problem)
    _check_counts(settings)
    setup = RunSetup(game, env_options, _check_improvement(settings, game))
    _check_start(settings, game)
    return setup


def _check_counts(settings: TrainSettings) -> None:
    """The warm start's and the improvement's counts, and the flags that exclude each other."""
    if settings.dagger_rounds < 0 or (settings.dagger_rounds > 0 and settings.bc_games <= 0):
        raise SettingsError(f"--dagger-rounds {settings.dagger_rounds}: DAgger refines a clone, "
                            "so it needs --bc-games N > 0; rounds: 0 (none) or more")
    if settings.rollout_games < 0 or settings.rollout_epochs < 1:
        raise SettingsError(f"--rollout-games {settings.rollout_games} --rollout-epochs "
                            f"{settings.rollout_epochs}: allowed: games 0 (none) or more, "
                            "epochs 1 or more")
    if settings.rollout_games > 0 and settings.resume:
        raise SettingsError("--rollout-games with --resume: the improvement is fitted before "
                            "training starts, so a resumed run would skip it; allowed: one or "
                            "the other")


def _check_improvement(settings: TrainSettings, game: Any) -> Any:
    """The rollout improvement's and the teacher's settings; returns the values of
    ``rollout_values`` (loaded once, fitted later) or ``None``."""
    from tablezoo.training.imitation.cloning import values_moves
    from tablezoo.training.imitation.rollout_improvement import (
        check_candidates,
        check_game,
        check_options,
        check_symmetries,
        load_values,
    )
    from tablezoo.training.selfplay.collector import network_input_size

    saved_values = None
    try:
        # the margin and the exploring rate are checked even when unused, so a typo shows
        check_options(settings.rollout_margin, settings.rollout_explore,
                      settings.advice if settings.rollout_games > 0 else None,
                      settings.bc_teacher)
        if settings.rollout_games > 0:
            check_game(game, settings.env)
            check_candidates(settings.rollout_candidates, settings.bc_teacher, settings.env)
            if settings.rollout_values is not None:
                saved_values = load_values(settings.rollout_values,
                                           network_input_size(game, settings.advice is not None),
                                           game.num_actions)
        elif settings.rollout_values is not None or settings.rollout_save:
            raise ValueError("--rollout-values/--rollout-save are rollout values, so they need "
                             "--rollout-games N > 0")
        if settings.rollout_symmetries:
            if settings.rollout_games <= 0:
                raise ValueError("--rollout-symmetries relabels the rollout values, so it needs "
                                 "--rollout-games N > 0")
            check_symmetries(game, settings.env, not settings.no_obs_scale,
                             settings.advice is not None)
        if settings.rollout_games > 0 or settings.bc_games > 0:
            teacher = factory_from_spec(settings.bc_teacher, settings.env, game.num_players)(0)
            if (settings.bc_games > 0 and not values_moves(teacher)
                    and (settings.bc_temperature is not None
                         or settings.bc_value_target != "return")):
                raise ValueError(f"--bc-temperature/--bc-value-target search need a teacher "
                                 f"that values its moves (action_values, e.g. rollout); "
                                 f"--bc-teacher {settings.bc_teacher!r} does not")
    except (ValueError, OSError) as exc:  # OSError: a teacher's model file that is not there
        raise SettingsError(str(exc)) from exc
    return saved_values


def _check_start(settings: TrainSettings, game: Any) -> None:
    """The PPO settings that exclude each other, and the model a resumed or ``init`` run starts
    from (another game's model, or not a model.zip, is refused)."""
    if settings.target_kl is not None and not settings.target_kl > 0:
        raise SettingsError(f"--target-kl {settings.target_kl}: a positive KL (e.g. 0.01), or "
                            "leave it out")
    if settings.processes < 1:
        raise SettingsError(f"--processes {settings.processes}: allowed: 1 (one process) or more")
    if settings.resume and settings.force:
        raise SettingsError("--resume and --force exclude each other")
    if settings.resume or settings.init is not None:
        from tablezoo.agents.learned.policy import load_model
        from tablezoo.training.selfplay.collector import network_input_size

        start = resume_path(settings.out) if settings.resume else Path(settings.init)
        if not start.is_file() and Path(f"{start}.zip").is_file():
            start = Path(f"{start}.zip")  # sb3 adds the suffix itself
        try:
            load_model(start, settings.env,
                       network_input_size(game, settings.advice is not None),
                       allow_advised=True)
        except (ValueError, FileNotFoundError) as exc:
            raise SettingsError(f"{'--resume' if settings.resume else '--init'}: {exc}") from exc


def start_model(settings: TrainSettings, vec_env: Any) -> Any:
    """The PPO model the run trains: the resumed run's, the ``init`` model, or fresh weights."""
    tb_dir = settings.out / "tb"
    if settings.resume:
        path = resume_path(settings.out)
        model = model_class(settings).load(str(path), env=vec_env, device="cpu",
                                           tensorboard_log=str(tb_dir))
        print(f"resuming from {path} at {model.num_timesteps} steps", file=sys.stderr)
    elif settings.init is not None:
        model = model_class(settings).load(
            str(settings.init), env=vec_env, device="cpu", tensorboard_log=str(tb_dir),
            learning_rate=settings.lr, ent_coef=settings.ent_coef, n_steps=settings.n_steps,
            batch_size=settings.batch_size, n_epochs=settings.n_epochs,
            clip_range=settings.clip_range, target_kl=settings.target_kl)
    else:
        model = new_model(settings, vec_env, tb_dir)
    model.collector_forward = settings.learner_forward == "collector"
    return model


def warm_start(settings: TrainSettings, game: Any, policy: Any) -> dict[str, Any] | None:
    """``bc_games``: clone the teacher into ``policy`` (then DAgger rounds); returns the card's
    ``bc`` record, ``None`` where the run clones nothing (or resumes)."""
    if settings.bc_games <= 0 or settings.resume:
        return None
    from tablezoo.training.imitation.cloning import warm_start as imitate

    return imitate(policy, game, settings.imitation, log=lambda m: print(m, file=sys.stderr))


def make_callbacks(settings: TrainSettings, vec_env: Any, game: Any, eval_game: Any,
                   model_card: dict[str, Any] | None,
                   t_start: float) -> tuple[Any, Any, Any, list[Any]]:
    """The league's, the evaluation's and the wall clock's callbacks (the clock ``None``
    without ``max_minutes``), and the list ``learn`` runs (checkpoints and update threads too)."""
    from tablezoo.training.selfplay.callbacks import (
        EvalCallback,
        LeagueCallback,
        StopAfter,
        UpdateThreads,
        make_checkpoint_callback,
    )

    league_cb = LeagueCallback(vec_env, game, not settings.no_obs_scale,
                               settings.snapshot_every if settings.self_play else 0)
    if settings.resume and settings.self_play:
        for _, checkpoint in checkpoints(settings.out)[-settings.max_snapshots:]:
            league_cb.add_saved(checkpoint)
    eval_cb = EvalCallback(settings.out, eval_game, settings.env, not settings.no_obs_scale,
                           settings.eval_every, settings.eval_games, settings.eval_seed,
                           model_card)
    callbacks = [league_cb, eval_cb]
    if settings.checkpoint_every > 0:
        callbacks.insert(0, make_checkpoint_callback(settings))
    if settings.processes > 1:
        callbacks.append(UpdateThreads(settings.processes))
    clock = (None if settings.max_minutes is None
             else StopAfter(t_start + 60 * settings.max_minutes))
    if clock is not None:
        callbacks.append(clock)
    return league_cb, eval_cb, clock, callbacks


def learn(settings: TrainSettings, model: Any, callbacks: list[Any], eval_cb: Any) -> float:
    """The PPO steps, evaluated at the start and at the end; saves ``OUT/model.zip`` and returns
    the seconds the steps took."""
    t0 = time.perf_counter()
    if settings.eval_games > 0 and settings.timesteps > 0:
        eval_cb.evaluate_now(model.policy, model.num_timesteps)  # the starting point (BC)
    if settings.timesteps > 0:
        model.learn(total_timesteps=settings.timesteps, callback=callbacks,
                    reset_num_timesteps=not (settings.resume or settings.init),
                    progress_bar=not settings.no_progress, tb_log_name="MaskablePPO")
    seconds = time.perf_counter() - t0
    model.save(str(settings.out / "model.zip"))
    if (settings.eval_games > 0 and settings.timesteps > 0
            and eval_cb.last_step != model.num_timesteps):
        eval_cb.evaluate_now(model.policy, model.num_timesteps)
    return seconds


def model_card_of(settings: TrainSettings, setup: RunSetup, model: Any, machine: dict[str, Any],
                  wall: float, clock: Any, records: dict[str, Any]) -> dict[str, Any]:
    """The card of ``OUT/model.npz``: the game, the command, the budget, the warm start and
    improvement (``records``: ``bc``, ``rollout``, ``eval_during_training``, the advice)."""
    config = json.loads((settings.out / "config.json").read_text())
    commands = [config["command"], *(r["command"] for r in config.get("resumed", []))]
    earlier = 0.0  # a resumed run's card counts the wall time of every session
    budget: dict[str, Any] = {"timesteps": settings.timesteps,
                              "max_minutes": settings.max_minutes,
                              "stopped_by": stopped_by(clock, settings.timesteps),
                              "machine": machine}
    if settings.resume and (settings.out / "model.json").is_file():
        previous = json.loads((settings.out / "model.json").read_text())
        earlier = float(previous.get("wall_seconds", 0))
        records["bc"] = records["bc"] or previous.get("bc")  # the first session's cloning record
        budget["sessions"] = session_history(previous, machine, wall, model.num_timesteps)
    advice = records.pop("model_card") or {}
    return {"env": settings.env, "env_options": setup.env_options,
            "num_players": setup.game.num_players,
            "training_command": portable_command(" && ".join(commands),
                                                 {str(settings.out): RUN}),
            "timesteps": int(model.num_timesteps), "wall_seconds": round(earlier + wall, 1),
            "budget": budget, "seed": settings.seed, "bc": records["bc"],
            "rollout": records["rollout"], "league": league_settings(settings).specs,
            "self_play": settings.self_play, "engine": settings.engine,
            "eval_during_training": records["eval_during_training"], **advice}


def write_summary(settings: TrainSettings, total_steps: int, steps: int, seconds: float,
                  wall: float, snapshots: list[str], records: dict[str, Any],
                  plot: bool) -> dict[str, Any]:
    """``OUT/summary.json`` (and, with evaluations to draw, the learning curve); returns it."""
    summary = {"timesteps": steps, "total_timesteps": total_steps,
               "seconds": round(seconds, 2), "wall_seconds": round(wall, 1),
               "steps_per_second": round(steps / seconds, 1) if seconds > 0 and steps else None,
               # the league keeps the newest max_snapshots of the snapshots it was given
               "final_pool": snapshots[-settings.max_snapshots:],
               "snapshots_added": len(snapshots), "bc": records["bc"],
               "rollout": records["rollout"]}
    (settings.out / "summary.json").write_text(json.dumps(summary, indent=2))
    if plot:
        from tablezoo.training.figures.learning_curve import plot_run

        plot_run(settings.out)
    print(f"trained {steps} steps in {seconds:.1f} s; saved {settings.out / 'model.zip'} and "
          f"{settings.out / 'model.npz'}")
    return summary


def train(settings: TrainSettings, command: str | None = None) -> dict[str, Any]:
    """Run ``settings``: check them, warm-start, improve, train, and write the run folder
    (module docstring); returns ``OUT/summary.json``'s record. ``command`` is what
    ``config.json`` and the card record as the run's command (default: the settings' repr).
    Settings that cannot run raise ``SettingsError`` before anything is written."""
    settings = resolved(settings)
    setup = check_settings(settings)
    command = command if command is not None else repr(settings)
    if settings.force:
        clear_run(settings.out)
    import torch

    from tablezoo.training.selfplay.callbacks import export_policy

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)  # the same command, the same bytes
    t_start = time.perf_counter()
    machine = machine_record(settings.processes, update_threads=settings.processes)
    settings.out.mkdir(parents=True, exist_ok=True)
    game = setup.game
    scaled = not settings.no_obs_scale
    model_card = {"env": settings.env, "advice": settings.advice} if settings.advice else None
    vec_env = make_vec_env(settings, setup.env_options)
    model = start_model(settings, vec_env)
    bc_info = warm_start(settings, game, model.policy)
    eval_game = envs.make_game(settings.env, **eval_options(setup.env_options))
    rollout_info: dict[str, Any] | None = None
    if settings.rollout_games > 0 and not settings.resume:
        rollout_info = rollout_with_curve(settings, game, eval_game, model.policy, model_card,
                                          setup.saved_values)
    setup.saved_values = None
    write_config(settings, setup.env_options, game, model.num_timesteps, command)
    vec_env.set_self(export_policy(model.policy, game, scaled))
    league_cb, eval_cb, clock, callbacks = make_callbacks(settings, vec_env, game, eval_game,
                                                          model_card, t_start)
    start_steps = model.num_timesteps
    seconds = learn(settings, model, callbacks, eval_cb)
    steps = model.num_timesteps - start_steps
    wall = time.perf_counter() - t_start
    records = {"bc": bc_info, "rollout": rollout_info, "model_card": model_card,
               "eval_during_training": eval_cb.last_row}
    card = model_card_of(settings, setup, model, machine, wall, clock, records)
    export_policy(model.policy, game, scaled).save(settings.out / "model.npz", card)
    vec_env.close()
    return write_summary(settings, model.num_timesteps, steps, seconds, wall, league_cb.names(),
                         records, plot=bool(eval_cb.rows))
