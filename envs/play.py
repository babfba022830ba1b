"""Play one seat of a tablezoo game in the terminal against baseline agents.

    python -m envs.play bauer_trick_v0 --seat 0 --opponents random
    python -m envs.play ethnos_v0 --option num_players=3

The position is shown as the game's text rendering from your seat (other players' hidden cards
stay hidden when the game supports it); the menu lists your legal actions by name. Type the
number in front of an action, or part of its name when that is unique; ``q`` quits.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import envs


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with a Python literal value (strings may be bare)."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"--option expects key=value, got {text!r}")
    key, raw = text.split("=", 1)
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        value = raw
    return key, value


def choose(names: list[tuple[int, str]], read: Callable[[str], str]) -> int | None:
    """Ask until the answer names exactly one legal action; ``None`` means quit."""
    while True:
        answer = read("your action> ").strip()
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.isdigit() and any(int(answer) == a for a, _ in names):
            return int(answer)
        hits = [a for a, name in names if answer and answer.lower() in name.lower()]
        if len(hits) == 1:
            return hits[0]
        print(f"  {'no' if not hits else 'more than one'} legal action matches {answer!r}; "
              "type a number from the menu")


def view(env, seat: int) -> str:
    state = env.game_state
    render = getattr(state, "render_text", None)
    return render(seat) if render is not None else str(state)


def play(name: str, seat: int, opponents: str, options: dict[str, Any], seed: int | None,
         read: Callable[[str], str] = input) -> list[float] | None:
    """Run one game; returns the final returns per seat, or ``None`` if the person quit."""
    from agents import make_agent

    env = envs.make(name, **options)
    env.reset(seed=seed)
    me = env.possible_agents[seat]
    bots = {a: make_agent(opponents, env_name=name, seed=i)
            for i, a in enumerate(env.possible_agents) if a != me}
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if agent == me:
            print("\n" + view(env, seat))
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            menu = [(a, env.game.action_name(a)) for a in legal]
            for a, label in menu:
                print(f"  {a:>4}  {label}")
            action = choose(menu, read)
            if action is None:
                return None
        else:
            action = bots[agent].act(obs["observation"], obs["action_mask"], env.game_state)
            print(f"{agent}: {env.game.action_name(action)}")
        env.step(action)
    print("\n" + str(env.game_state))
    returns = [totals[a] for a in env.possible_agents]
    print(f"game over: your return {totals[me]:+g}; all returns {returns}")
    return returns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env", choices=envs.ENVS)
    parser.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    parser.add_argument("--opponents", default="random", help="agent name for the other seats")
    parser.add_argument("--option", action="append", type=parse_option, default=[],
                        help="game option key=value (repeatable)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    options = dict(args.option)
    game = envs.make_game(args.env, **options)
    if not 0 <= args.seat < game.num_players:
        parser.error(f"--seat must be in 0..{game.num_players - 1}")
    try:
        result = play(args.env, args.seat, args.opponents, options, args.seed)
    except (EOFError, KeyboardInterrupt):
        result = None
    return 0 if result is not None else 1


if __name__ == "__main__":
    sys.exit(main())
