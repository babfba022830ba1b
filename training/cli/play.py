"""Play one seat of a tablezoo game in the terminal against any agents.

    tablezoo play --env bauer_trick_v0 --seat 0 --opponent heuristic
    tablezoo play --env bauer_trick_v0 --env-option episode=deal
    tablezoo play --env ethnos_v0 --env-option num_players=3 --opponent ismcts:iterations=200
    tablezoo play --env bower_v0 --opponent policy:runs/bower/model.zip
    tablezoo play --env bauer_draft_v0 --state position.json --seat 2

You see only what your seat may see (the game's per-seat view); the menu lists your legal
actions. Type a listed id (the whole number), a full action name or the card/tile code of a legal
move (``Jh``, ``E03``, ``T15``, ``blue Elf``); ``?`` shows the legend, ``help ID`` the full text
of a menu line or of a card/tile code, ``q`` quits (exit status 0, the game unfinished). A move
with a single legal option is played for you (``--confirm-forced`` asks anyway).
``--state FILE.json`` starts from a saved position (``state.to_dict()`` written as JSON).
"""

from __future__ import annotations

import itertools
import json
import os
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.core.views import TextViews
from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_opponent,
    add_seed,
    make_parser,
    parse_env_options,
)
from tablezoo.training.cli.play_menu import Asker, Menu, Reader, Writer


class SeatView:
    """The text one seat may see, the legend and the card texts of one game (its
    ``envs.core.views.TextViews``)."""

    def __init__(self, game: Game, colour: bool = False):
        self.game = game
        self.views: TextViews = game.text_views()
        self.colour = colour
        self.legend: str = self.views.LEGEND
        self.explain: Callable[[str], str | None] = self.views.explain

    def screen(self, state: State, seat: int) -> str:
        return self.views.render_seat(state, seat, colour=self.colour)

    def menu(self, state: State, seat: int, legal: list[int]) -> Menu:
        labels = {a: self.views.menu_label(state, a) for a in legal}
        return Menu(labels, self.views.menu_groups(state, seat, legal))

    def public_move(self, state: State, player: int, action: int) -> str:
        return self.views.public_move(state, player, action)


def play(game: Game, state: State, seat: int, bots: dict[int, Any], read: Reader = input,
         write: Writer = print, confirm_forced: bool = False, colour: bool = False,
         loaded: bool = False) -> list[float] | None:
    """Play ``state`` to the end with a person in ``seat``; returns the returns per seat, or
    ``None`` when the person quits. ``loaded``: the position came from a file, so it is shown
    (and the person asked to go on) before any other seat moves."""
    view = SeatView(game, colour)
    asker = Asker(read, write, view.legend, view.explain, game.action_names())
    me = game.player_name(seat)
    write(f"{game.name}: you are {me}. Type a listed id, a full action name or a card/tile "
          "name; ? legend, help ID, q quits.")
    decisions = 0
    while not state.is_over() and decisions < game.max_decisions:
        acting = state.acting_players()
        legal = state.legal_actions(seat) if seat in acting else []
        asked = len(legal) > 1 or (legal and confirm_forced)
        if loaded and not asked:
            write("\n" + view.screen(state, seat))
            who = ", ".join(game.player_name(p) for p in acting)
            if not asker.pause(f"{who} to move; Enter to go on, q quits> "):
                return None
        loaded = False
        joint: dict[int, int] = {}
        if asked:
            write("\n" + view.screen(state, seat))
            action = asker.choose(view.menu(state, seat, legal))
            if action is None:
                return None
            joint[seat] = action
        elif legal:
            joint[seat] = legal[0]
            write(f"you: {game.action_name(legal[0])} (your only legal move)")
        for p in acting:
            if p != seat:
                joint[p] = bots[p].act(state.observe(p), state.legal_mask(p), state=state,
                                       player=p)
        told = [f"{game.player_name(p)}: {view.public_move(state, p, a)}"
                for p, a in joint.items() if p != seat]
        state.apply(joint)
        decisions += 1
        for line in told:
            write(line)
    write("\n" + view.screen(state, seat))
    write(summary(game, state, seat))
    return [float(r) for r in state.returns()]


def summary(game: Game, state: State, seat: int) -> str:
    """The end-of-game table: score, return and each scoring category per seat."""
    scores, returns = state.scores(), state.returns()
    breakdown = state.score_breakdown()
    cats = list(dict.fromkeys(k for row in breakdown for k in row))
    names = [game.player_name(p) + (" (you)" if p == seat else "") for p in range(game.num_players)]
    width = max(12, *(len(n) + 1 for n in names))
    head = "".ljust(16) + "".join(n.rjust(width) for n in names)
    lines = ["game over" + (" (cut at max decisions)" if not state.is_terminal() else ""), head]
    rows = [("score", scores), ("return", returns)]
    rows += [(c, [row.get(c, 0) for row in breakdown]) for c in cats]
    for name, values in rows:
        lines.append(name[:15].ljust(16) + "".join(f"{v:>{width}g}" for v in values))
    return "\n".join(lines)


STATE_BYTES = 16_000_000  # a saved position is a few kB; a --state file past this is refused
STATE_DEPTH = 64  # nesting of a saved position's JSON (a few levels)


def read_saved(path: Path) -> Any:
    """The JSON of a ``--state`` file, or a ``StateFormatError`` in one line that names the
    file: only a regular file (not a device or a pipe, which may never end) of at most
    ``STATE_BYTES``, UTF-8 JSON nested at most ``STATE_DEPTH`` deep."""
    try:
        info = path.stat()
    except OSError as exc:
        raise StateFormatError(f"--state {path}: cannot read it ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StateFormatError(f"--state {path}: not a regular file; give a saved position's "
                               "JSON file (state.to_dict())")
    try:
        with path.open("rb") as f:
            raw = f.read(STATE_BYTES + 1)
    except OSError as exc:
        raise StateFormatError(f"--state {path}: cannot read it ({exc.strerror})") from None
    if len(raw) > STATE_BYTES:
        raise StateFormatError(f"--state {path}: over {STATE_BYTES} bytes; a saved position "
                               "is a few kB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:  # bytes that are no text: the bare error named no file
        raise StateFormatError(f"--state {path}: not UTF-8 text, so not a saved state's JSON "
                               f"({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise StateFormatError(f"--state {path}: not a saved position (JSON nested deeper "
                               f"than {STATE_DEPTH} levels)") from None
    except ValueError as exc:  # not JSON, or an integer too long to read
        raise StateFormatError(f"--state {path}: not JSON ({str(exc)[:200]})") from None
    if _depth(data) > STATE_DEPTH:
        raise StateFormatError(f"--state {path}: not a saved position (JSON nested deeper than "
                               f"{STATE_DEPTH} levels)")
    return data


def _depth(data: Any) -> int:
    """How deep arrays and objects nest in ``data`` (counted without recursion)."""
    deepest, todo = 0, [(data, 0)]
    while todo:
        item, level = todo.pop()
        deepest = max(deepest, level)
        if level <= STATE_DEPTH and isinstance(item, dict | list):
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict)
                                                 else item))
    return deepest


def require_position(data: Any) -> None:
    """A ``--state`` file's JSON must be a saved position (a list or a number is not)."""
    if not isinstance(data, dict):
        raise ValueError(f"--state: expected a saved position (a JSON object from "
                         f"state.to_dict()), got a {type(data).__name__}")


def env_of_saved(data: dict[str, Any]) -> str:
    """The env whose game wrote ``data`` (its ``"game"`` entry)."""
    require_position(data)
    for name in envs.ENVS:
        if envs.make_game(name).name == data.get("game"):
            return name
    raise ValueError(f"the saved state names no known game ({data.get('game')!r}); pass --env")


def load_state(env: str, data: dict[str, Any], options: dict[str, Any]) -> tuple[Game, State]:
    """A saved position (``state.to_dict()``); its options unless given on the command line."""
    require_position(data)
    game_name = envs.make_game(env).name
    if "game" in data and data["game"] != game_name:
        raise ValueError(f"--state holds a {data['game']!r} position, not one of {env} "
                         f"({game_name!r}); leave out --env to play it in its own game")
    if not isinstance(data.get("options") or {}, dict):
        raise ValueError(f"--state: 'options' must be an object of option names and values, got "
                         f"{type(data['options']).__name__}")
    saved = dict(data.get("options") or {})
    if "num_players" in data and "num_players" not in saved:
        saved["num_players"] = data["num_players"]
    game = envs.make_game(env, **{**saved, **options})
    return game, game.state_from_dict(data)


def make_bots(env: str, game: Game, seat: int, specs: Sequence[str], seed: int | None
              ) -> dict[int, Any]:
    """One agent per other seat, specs taken in turn; seeded from ``seed`` (``None``: fresh
    entropy, like the deal)."""
    from tablezoo.agents.registry import factory_from_spec
    from tablezoo.training.evaluation.match import seeds_for

    factories = [factory_from_spec(spec, env, game.num_players) for spec in specs]
    seeds: list[int | None] = ([None] * game.num_players if seed is None
                               else list(seeds_for(seed, game.num_players)))
    others = [p for p in range(game.num_players) if p != seat]
    return {p: make(seeds[p]) for p, make in zip(others, itertools.cycle(factories))}


def use_colour(choice: str) -> bool:
    """``auto``: colour only on a terminal, and not when ``NO_COLOR`` is set."""
    if choice == "auto":
        forced = os.environ.get("TABLEZOO_COLOR", "")
        if forced:
            return forced not in ("0", "never", "no")
        return sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    return choice == "always"


def build_parser():
    p = make_parser("play", __doc__)
    add_env(p, required=False, help="the game to play (required unless --state names it)")
    p.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    add_opponent(p, default=None, multiple=True, default_text="random")
    add_env_options(p)
    add_seed(p, default=None, help="seed of the deal and of the opponents (default: random)")
    p.add_argument("--state", type=Path, metavar="FILE.json",
                   help="start from this saved position (state.to_dict() as JSON) instead of a "
                        "new deal")
    p.add_argument("--confirm-forced", action="store_true",
                   help="ask for moves that have a single legal option instead of playing them")
    p.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                   help="ANSI colours (auto: only on a terminal; env TABLEZOO_COLOR=1 forces)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        options = parse_env_options(args.env_option)
        saved = read_saved(args.state) if args.state is not None else None
        env = args.env or (env_of_saved(saved) if saved is not None else None)
        if env is None:
            raise ValueError("--env is required (or --state FILE.json)")
        if saved is not None:
            game, state = load_state(env, saved, options)
        else:
            game = envs.make_game(env, **options)
            state = game.new_state(args.seed)
        if not 0 <= args.seat < game.num_players:
            raise ValueError(f"--seat must be in 0..{game.num_players - 1}, got {args.seat}")
        if args.opponent and len(args.opponent) > game.num_players - 1:
            others = game.num_players - 1
            raise ValueError(f"{len(args.opponent)} --opponent agents for the {others} other "
                             f"seat{'s' * (others != 1)} of {env}; give at most "
                             f"{game.num_players - 1} (they are taken in turn, cycling)")
        bots = make_bots(env, game, args.seat, args.opponent or ["random"], args.seed)
    except (ValueError, OSError, KeyError) as exc:
        parser.error(str(exc))
    try:
        result = play(game, state, args.seat, bots, confirm_forced=args.confirm_forced,
                      colour=use_colour(args.color), loaded=args.state is not None)
    except KeyboardInterrupt:
        print("\ninterrupted")
        return 1
    if result is None:  # q or the end of the answers: the person's choice, not a failure
        print("quit: game not finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
