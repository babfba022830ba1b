r"""Evaluate a saved model (or any agent) in one seat, over seeded games with seats rotated.

    tablezoo evaluate --env bauer_trick_v0 --model RUN/model.zip --opponent random \
        --games 2000

Game ``k`` is dealt from seed ``--seed + k`` and the model sits in seat ``k mod num_players``, so
every seat is played equally often. Its team-mates (bauer_trick: the partner) are the evaluated
agent itself unless ``--partner`` names another agent, every other seat an ``--opponent``
agent. Prints win/draw/loss rates (Wilson 95% intervals) and the mean reward with its 95%
interval; ``--out DIR`` also writes them to ``DIR/eval.json`` (``--json FILE`` to any file).
``--records FILE`` appends each game as it ends, and the same command run again resumes where it
stopped (``training/evaluation/records.py``). Env options default to the run's ``config.json`` next
to the model, its training reward aside (a run trained on ``reward=margin`` is measured by the
game's own reward, like any agent), else to the training tools' defaults (bauer_trick: single deals,
``episode=deal``).

``--duplicate`` plays every deal once from every side instead (``evaluation/duplicate.py``): deal
``j`` (seed ``--seed + j``) once with the model's team on each team's cards in a team game, in
each seat of a 2-player game, in every seat in turn of an n-player game, so ``--games`` must be a
multiple of the sides. The luck of the deal cancels in a deal's mean, which is the sample of the
mean reward's interval; the rates stay per game.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Container
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.learned.policy import run_config
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.training.evaluation.duplicate import check_duplicate, hero_seats, plays_per_deal
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.records import GameRecords, RecordsError
from tablezoo.training.evaluation.stats import OutcomeSummary, interval_caveat, summarize
from tablezoo.training.evaluation.teams import partners_of
from tablezoo.training.runs import SettingsError, env_options_for, eval_options

AgentFactory = Callable[[int | None], BaseAgent]


SELF_PARTNER = "the agent itself"  # the records' and the output's name of the default partner


def evaluate_seat(
    game: Game,
    make_hero: AgentFactory,
    make_partner: AgentFactory,
    make_opponent: AgentFactory,
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    skip: Container[int] = (),
    on_game: Callable[[int, int, float], None] | None = None,
    duplicate: bool = False,
) -> list[float]:
    """The hero's return in each of ``games`` seeded games, its seat rotating every game.
    Games whose index is in ``skip`` (already recorded by a resumed run) are not played and
    have no entry in the result; ``on_game(k, seat, reward)`` hears of each game played.

    Plain: game ``k`` is seed ``seed + k`` with the hero in seat ``k mod players``. With
    ``duplicate``, ``games`` is a whole number of deals of ``plays_per_deal`` games each: game
    ``k`` plays deal ``k // plays`` (seed ``seed + deal``) with the hero on side ``k mod plays``
    (``duplicate.hero_seats``)."""
    rewards = []
    n = game.num_players
    plays = plays_per_deal(game) if duplicate else 1
    check_duplicate(duplicate, games, plays)
    for k in range(games):
        if k in skip:
            continue
        if duplicate:
            deal = k // plays
            seat, game_seed = hero_seats(game, deal)[k % plays], seed + deal
        else:
            seat, game_seed = k % n, seed + k
        partners = partners_of(game, seat)
        agents = []
        for p in range(n):
            make = make_hero if p == seat else make_partner if p in partners else make_opponent
            agents.append(make(None))  # play_game seeds every agent from the game's seed
        result = play_game(game, agents, game_seed)
        rewards.append(result.returns[seat])
        if on_game is not None:
            on_game(k, seat, result.returns[seat])
        if progress is not None:
            progress(k + 1)
    return rewards


def format_summary(summary: OutcomeSummary) -> str:
    lines = [f"games: {summary.n}"]
    if summary.deals is not None:
        lines[0] += (f" ({summary.deals} deals, each played from every side; the mean's "
                     "interval is over the deals' means)")
    for key in ("win", "draw", "loss"):
        iv = getattr(summary, key)
        lines.append(f"{key:>5}: {iv.value:6.2%}  95% CI [{iv.low:6.2%}, {iv.high:6.2%}]")
    m = summary.mean_reward
    caveat = (interval_caveat(m, summary.n) if summary.deals is None
              else interval_caveat(m, summary.deals, "deal"))
    lines.append(f"mean reward: {m.value:+.4f}  95% CI [{m.low:+.4f}, {m.high:+.4f}]" + caveat)
    return "\n".join(lines)


@dataclass
class EvaluationSettings:
    """One evaluation (``tablezoo evaluate``'s flags): the evaluated agent (``model``, a
    model.zip, or ``agent``, any agent spec: exactly one), who sits beside and against it, the
    games and where the results go."""

    env: str
    model: Path | None = None
    agent: str | None = None
    opponent: str = "random"
    partner: str | None = None  # None: the evaluated agent partners itself
    games: int = 2000
    seed: int = 0
    env_options: dict[str, Any] | None = None  # None: the model's run's, else the tool defaults
    stochastic: bool = False
    out: Path | None = None  # also write OUT/eval.json
    json: Path | None = None  # also write this file
    records: Path | None = None  # one JSON line per game; resumes where it stopped
    progress: bool = True
    timing: bool = False
    duplicate: bool = False  # each deal once from every side (evaluation/duplicate.py)


def _hero_and_game(settings: EvaluationSettings) -> tuple[Game, dict[str, Any], AgentFactory,
                                                           AgentFactory, AgentFactory]:
    """The game, its options and the factories of the evaluated agent, its partners and its
    opponents; raises ``SettingsError`` for settings that cannot run."""
    if (settings.model is None) == (settings.agent is None):
        raise SettingsError("one of the arguments --model --agent is required")
    try:
        config = run_config(settings.model) if settings.model else {}
        if settings.env_options is None and config.get("env") == settings.env:  # the run's
            given: dict[str, Any] = eval_options(config.get("env_options", {}))  # usual reward
        else:
            given = settings.env_options or {}
        options = env_options_for(settings.env, given)
        game = envs.make_game(settings.env, **options)
        players = game.num_players
        check_duplicate(settings.duplicate, settings.games, plays_per_deal(game))
        if settings.partner is not None and not partners_of(game, 0):
            raise ValueError(f"--partner {settings.partner}: {settings.env} has no teams, so no "
                             "seat would play it (every other seat plays --opponent)")
        make_opponent = factory_from_spec(settings.opponent, settings.env, players)
        named_partner = (None if settings.partner is None  # checked before a model is loaded
                         else factory_from_spec(settings.partner, settings.env, players))
        if settings.agent is not None:
            make_hero = factory_from_spec(settings.agent, settings.env, players)
        else:
            import torch

            from tablezoo.agents.learned.policy import PolicyAgent, load_policy

            torch.set_num_threads(1)
            model = load_policy(settings.model, settings.env, game.obs_spec.size)  # or another's

            def make_hero(seed: int | None) -> BaseAgent:
                return PolicyAgent(model=model, seed=seed,
                                   deterministic=not settings.stochastic)
    except (ValueError, FileNotFoundError) as exc:
        raise SettingsError(str(exc)) from exc
    return game, options, make_hero, make_hero if named_partner is None else named_partner, \
        make_opponent


def run_evaluation(settings: EvaluationSettings) -> dict[str, Any]:
    """Play the games, print the summary, write it where ``settings`` says; returns what is
    written (the set-up, the rates with their intervals, the timing). Settings that cannot run
    raise ``SettingsError`` before any game."""
    game, options, make_hero, make_partner, make_opponent = _hero_and_game(settings)
    cpu_seconds: list[float] = []
    iterations: list[int] = []
    if settings.timing:
        from tablezoo.training.evaluation.timing import TimedAgent

        make_untimed = make_hero

        def make_hero(seed: int | None) -> Any:
            return TimedAgent(make_untimed(seed), cpu_seconds, iterations)

    has_partners = any(partners_of(game, seat) for seat in range(game.num_players))
    run = {"env": settings.env, "env_options": options,
           "hero": settings.agent or str(settings.model),
           "partner": (settings.partner or SELF_PARTNER) if has_partners else None,
           "opponent": settings.opponent,
           "seed": settings.seed}
    plays = 1
    if settings.duplicate:  # absent otherwise: a plain run's files stay as they were
        plays = plays_per_deal(game)
        run.update(duplicate=True, plays_per_deal=plays)
    records = None
    if settings.records is not None:
        try:
            records = GameRecords(settings.records, run)
        except (RecordsError, OSError) as exc:
            raise SettingsError(str(exc)) from exc
    done = {k: r for k, r in (records.games if records else {}).items() if k < settings.games}
    if done:
        print(f"{settings.records}: {len(done)} of the {settings.games} games already recorded; "
              f"playing the other {settings.games - len(done)}", file=sys.stderr)
        for r in done.values():  # the resumed games' decisions count in the timing too
            cpu_seconds.extend(r.get("cpu_s", []))
            iterations.extend(r.get("iterations", []))

    timed = len(cpu_seconds)  # the timing entries already written to the records

    def record(k: int, seat: int, reward: float) -> None:
        nonlocal timed
        if records is None:
            return
        if not settings.timing:
            records.add(k, seat, reward)
            return
        records.add(k, seat, reward, cpu_seconds[timed:], iterations[timed:])  # this game's
        timed = len(cpu_seconds)

    bar = None
    if settings.progress:
        from tqdm import tqdm

        bar = tqdm(total=settings.games, initial=len(done), file=sys.stderr, desc="evaluating")
    t0 = time.perf_counter()
    played = evaluate_seat(game, make_hero, make_partner, make_opponent, settings.games,
                           settings.seed, progress=(lambda _: bar.update(1)) if bar else None,
                           skip=done, on_game=record, duplicate=settings.duplicate)
    if bar is not None:
        bar.close()
    new_rewards = iter(played)
    rewards = [done[k]["reward"] if k in done else next(new_rewards) for k in range(settings.games)]
    deals = [k // plays for k in range(settings.games)] if settings.duplicate else None
    summary = summarize(rewards, deals)
    last_seed = settings.seed + (settings.games - 1) // plays
    hero_name = settings.agent or f"model {settings.model}"
    partner = f"partner={run['partner']}, " if has_partners else ""  # only team games have one
    print(f"{settings.env} {options}: {hero_name} vs {partner}"
          f"opponents={settings.opponent}, "
          + (f"duplicate deals ({plays} plays each, every side once)" if settings.duplicate
             else "seats rotated")
          + f", seeds {settings.seed}..{last_seed}")
    print(format_summary(summary))
    print(f"({time.perf_counter() - t0:.1f} s)")
    payload = {**run, **summary.as_dict()}
    if settings.timing:
        from tablezoo.training.evaluation.timing import format_ms, timing_summary

        timing = timing_summary(cpu_seconds, iterations)
        payload["timing"] = timing
        if timing:
            line = (f"CPU per decision (real choices only, {timing['decisions']}): median "
                    f"{format_ms(timing['cpu_ms_median'])} ms, p90 "
                    f"{format_ms(timing['cpu_ms_p90'])} ms")
            if "iterations_per_s" in timing:
                line += f"; {timing['iterations_per_s']:.0f} iterations/s"
            print(line)
    targets = [settings.json] if settings.json else []
    targets += [settings.out / "eval.json"] if settings.out else []
    for path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(payload, indent=2))
    return payload
