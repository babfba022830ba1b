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
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Container
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_games,
    add_opponent,
    add_out,
    add_seed,
    env_options_for,
    eval_options,
    make_parser,
    out_file,
    parse_env_options,
    read_run_config,
)
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.records import GameRecords, RecordsError
from tablezoo.training.evaluation.stats import OutcomeSummary, interval_caveat, summarize
from tablezoo.training.evaluation.teams import partners_of

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
) -> list[float]:
    """The hero's return in each of ``games`` seeded games, its seat rotating every game.
    Games whose index is in ``skip`` (already recorded by a resumed run) are not played and
    have no entry in the result; ``on_game(k, seat, reward)`` hears of each game played."""
    rewards = []
    n = game.num_players
    for k in range(games):
        if k in skip:
            continue
        seat = k % n
        partners = partners_of(game, seat)
        agents = []
        for p in range(n):
            make = make_hero if p == seat else make_partner if p in partners else make_opponent
            agents.append(make(None))  # play_game seeds every agent from the game's seed
        result = play_game(game, agents, seed + k)
        rewards.append(result.returns[seat])
        if on_game is not None:
            on_game(k, seat, result.returns[seat])
        if progress is not None:
            progress(k + 1)
    return rewards


def format_summary(summary: OutcomeSummary) -> str:
    lines = [f"games: {summary.n}"]
    for key in ("win", "draw", "loss"):
        iv = getattr(summary, key)
        lines.append(f"{key:>5}: {iv.value:6.2%}  95% CI [{iv.low:6.2%}, {iv.high:6.2%}]")
    m = summary.mean_reward
    lines.append(f"mean reward: {m.value:+.4f}  95% CI [{m.low:+.4f}, {m.high:+.4f}]"
                 + interval_caveat(m, summary.n))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = make_parser("evaluate", __doc__)
    add_env(p, help="the env to evaluate on")
    hero = p.add_mutually_exclusive_group(required=True)
    hero.add_argument("--model", type=Path, help="a model.zip from tablezoo train")
    hero.add_argument("--agent", metavar="SPEC",
                      help="evaluate any agent spec instead (e.g. heuristic, trained), for "
                           "baselines")
    add_opponent(p, help="agent spec of the opponents")
    p.add_argument("--partner", metavar="SPEC",
                   help="agent spec of the evaluated agent's team-mates (team games); without "
                        "it the evaluated agent partners itself, so its team plays as one")
    add_games(p, default=2000, help="seeded games, seats rotated")
    add_seed(p)
    add_env_options(p, help="a game option, repeatable (default: the options in the run's "
                            "config.json, else the tool defaults)")
    p.add_argument("--stochastic", action="store_true",
                   help="sample the policy's actions instead of taking the most likely one")
    add_out(p, required=False, help="also write the results to DIR/eval.json (default: print "
                                    "only)")
    p.add_argument("--json", type=out_file, metavar="FILE",
                   help="also write the results to this file (default: print only)")
    p.add_argument("--records", type=Path, metavar="FILE",
                   help="append one JSON line per finished game to FILE; run the same command "
                        "again to resume: games already in FILE are not played again "
                        "(training/evaluation/records.py)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--timing", action="store_true",
                   help="also report the evaluated agent's CPU time per decision (median, p90) "
                        "and, for search agents, iterations per second")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = read_run_config(args.model) if args.model else {}
        if args.env_option is None and config.get("env") == args.env:  # the run's game,
            given: dict[str, Any] = eval_options(config.get("env_options", {}))  # usual reward
        else:
            given = parse_env_options(args.env_option)
        options = env_options_for(args.env, given)
        probe = envs.make_game(args.env, **options)
        players = probe.num_players
        if args.partner is not None and not partners_of(probe, 0):
            raise ValueError(f"--partner {args.partner}: {args.env} has no teams, so no seat "
                             "would play it (every other seat plays --opponent)")
        make_opponent = factory_from_spec(args.opponent, args.env, players)
        named_partner = (None if args.partner is None  # checked before a model file is loaded
                         else factory_from_spec(args.partner, args.env, players))
        if args.agent is not None:
            make_hero = factory_from_spec(args.agent, args.env, players)
        else:
            import torch

            from tablezoo.agents.learned.policy import PolicyAgent, load_model

            torch.set_num_threads(1)
            model = load_model(args.model, args.env, probe.obs_spec.size)  # or another env's

            def make_hero(seed: int | None) -> BaseAgent:
                return PolicyAgent(model=model, seed=seed, deterministic=not args.stochastic)
        make_partner = make_hero if named_partner is None else named_partner
    except (ValueError, FileNotFoundError) as exc:  # argparse prints it and exits with 2
        parser.error(str(exc))
    game = probe  # the game the specs were checked against
    cpu_seconds: list[float] = []
    iterations: list[int] = []
    if args.timing:
        from tablezoo.training.evaluation.timing import TimedAgent

        make_untimed = make_hero

        def make_hero(seed: int | None) -> Any:
            return TimedAgent(make_untimed(seed), cpu_seconds, iterations)

    has_partners = any(partners_of(game, seat) for seat in range(game.num_players))
    run = {"env": args.env, "env_options": options, "hero": args.agent or str(args.model),
           "partner": (args.partner or SELF_PARTNER) if has_partners else None,
           "opponent": args.opponent,
           "seed": args.seed}
    records = None
    if args.records is not None:
        try:
            records = GameRecords(args.records, run)
        except (RecordsError, OSError) as exc:
            parser.error(str(exc))
    done = {k: r for k, r in (records.games if records else {}).items() if k < args.games}
    if done:
        print(f"{args.records}: {len(done)} of the {args.games} games already recorded; "
              f"playing the other {args.games - len(done)}", file=sys.stderr)
        for r in done.values():  # the resumed games' decisions count in the timing too
            cpu_seconds.extend(r.get("cpu_s", []))
            iterations.extend(r.get("iterations", []))

    timed = len(cpu_seconds)  # the timing entries already written to the records

    def record(k: int, seat: int, reward: float) -> None:
        nonlocal timed
        if records is None:
            return
        if not args.timing:
            records.add(k, seat, reward)
            return
        records.add(k, seat, reward, cpu_seconds[timed:], iterations[timed:])  # this game's
        timed = len(cpu_seconds)

    bar = None
    if not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=args.games, initial=len(done), file=sys.stderr, desc="evaluating")
    t0 = time.perf_counter()
    played = evaluate_seat(game, make_hero, make_partner, make_opponent, args.games, args.seed,
                           progress=(lambda _: bar.update(1)) if bar else None, skip=done,
                           on_game=record)
    if bar is not None:
        bar.close()
    new_rewards = iter(played)
    rewards = [done[k]["reward"] if k in done else next(new_rewards) for k in range(args.games)]
    summary = summarize(rewards)
    last_seed = args.seed + args.games - 1
    hero_name = args.agent or f"model {args.model}"
    partner = f"partner={run['partner']}, " if has_partners else ""  # only team games have one
    print(f"{args.env} {options}: {hero_name} vs {partner}"
          f"opponents={args.opponent}, seats rotated, seeds {args.seed}..{last_seed}")
    print(format_summary(summary))
    print(f"({time.perf_counter() - t0:.1f} s)")
    payload = {**run, **summary.as_dict()}
    if args.timing:
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
    targets = [args.json] if args.json else []
    targets += [args.out / "eval.json"] if args.out else []
    for path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
