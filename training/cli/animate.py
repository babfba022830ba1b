"""Write a whole game as an animated GIF or MP4: a seeded game between agents, or a recorded one.

    tablezoo animate --env bower_v0 --agent heuristic --agent random --seed 3 --out bower.gif
    tablezoo animate --env bauer_trick_v0 --env-option episode=deal --seat 0 --out deal.mp4
    tablezoo animate --records evals.jsonl --game 5 --out game5.gif
    tablezoo animate --records RUN/tournament.json --game 0 --out final.gif

Seats take the ``--agent`` specs in turn, cycling (one spec, the default ``heuristic``, plays
every seat); the game is the one ``tablezoo evaluate`` plays from ``--seed``. ``--records``
plays a game of ``tablezoo evaluate --records FILE`` or of a ``tablezoo tournament`` run's
``tournament.json`` again, exactly (its agents' model files where the run found them). Every
frame is the position after a move, with the move highlighted; ``--seat P`` draws what player P
sees, the default draws every hand. The format follows ``--out``'s suffix (.gif or .mp4). Needs
the ``pictures`` extra (cairosvg, imageio, imageio-ffmpeg).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tablezoo.envs.pictures.animation import FORMATS
from tablezoo.training.cli.options import (
    add_env,
    add_env_options,
    add_seed,
    make_parser,
    non_negative_int,
    out_file,
    parse_env_options,
)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a positive number of seconds (e.g. 0.5)")
    return value


def _animation_file(text: str) -> Path:
    path = out_file(text)
    if path.suffix.lower() not in FORMATS:
        raise argparse.ArgumentTypeError(f"{text!r}: unknown animation format "
                                         f"{path.suffix or '(none)'!r}; allowed: "
                                         f"{', '.join(FORMATS)}")
    return path


def _check_seat(p: argparse.ArgumentParser, seat: int | None, num_players: int) -> None:
    if seat is not None and seat >= num_players:
        p.error(f"--seat {seat}: this game has seats 0..{num_players - 1}")


def parser() -> argparse.ArgumentParser:
    p = make_parser("animate", __doc__)
    p.add_argument("--out", type=_animation_file, required=True, metavar="FILE",
                   help=f"the animation to write ({', '.join(FORMATS)})")
    add_env(p, required=False, help="the env of a seeded game (not with --records)")
    add_env_options(p)
    p.add_argument("--agent", action="append", metavar="SPEC", default=None,
                   help="agent spec of the next seat, repeatable, cycling over the seats "
                        "(default: heuristic in every seat)")
    add_seed(p, help="seed of the game, as tablezoo evaluate deals game 0 from --seed")
    p.add_argument("--records", type=Path, default=None, metavar="FILE",
                   help="play a recorded game again: a records file of tablezoo evaluate "
                        "--records or a tournament.json")
    p.add_argument("--game", type=non_negative_int, default=0,
                   help="the recorded game's index (with --records)")
    p.add_argument("--seat", type=non_negative_int, default=None,
                   help="draw what this player sees (default: every hand)")
    p.add_argument("--seconds-per-frame", type=_seconds, default=1.0,
                   help="how long each position stays")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if (args.records is None) == (args.env is None):
        p.error("give either --env (a seeded game between agents) or --records FILE "
                "(a recorded game)")
    if args.records is not None and (args.agent or args.env_option):
        p.error("--records replays the recorded game with its own agents and options; "
                "--agent and --env-option are for a seeded game (--env)")
    from tablezoo.envs.pictures.raster import PicturesUnavailableError
    from tablezoo.training.web.replay import recorded_game, seeded_game, write_game

    try:
        if args.records is not None:
            try:
                text = args.records.read_text()
            except (OSError, UnicodeDecodeError) as exc:
                p.error(f"--records {args.records}: cannot read it ({exc})")
            _, game, _, frames, title, _ = recorded_game(text, args.game)
        else:
            from tablezoo import envs

            options = parse_env_options(args.env_option)
            game = envs.make_game(args.env, **options)
            specs = args.agent or ["heuristic"]
            seats = [specs[p % len(specs)] for p in range(game.num_players)]
            _check_seat(p, args.seat, game.num_players)
            frames = seeded_game(args.env, options, seats, args.seed)
            title = ", ".join(f"{game.player_name(i)} {s}" for i, s in enumerate(seats))
        _check_seat(p, args.seat, game.num_players)
        path = write_game(args.out, frames, args.seat, args.seconds_per_frame)
    except PicturesUnavailableError as exc:
        p.error(str(exc))
    except ValueError as exc:  # unknown agent specs and options, bad records
        p.error(str(exc))
    print(f"wrote {path}: {len(frames)} positions ({title})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
