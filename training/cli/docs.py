"""Print the generated documentation tables of an env (options and observation pieces; with
``--state`` the pieces of the global state ``env.state()``; with ``--information-state`` the
pieces the information state adds to the observation, ``observation="information_state"``, and
the kinds of its history rows).

    tablezoo docs bauer_trick_v0
    tablezoo docs bauer_trick_v0 --state
    tablezoo docs ethnos_v0 --information-state

Each env's own README (``envs/<game>/README.md``, ``readme_path(name)``) embeds these tables
verbatim; ``tests/test_docs.py`` fails when they drift from the code, so regenerate and paste
after changing an option or an observation piece.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from tablezoo import envs
from tablezoo.envs.core.options import options_markdown
from tablezoo.training.cli.options import make_parser


def readme_path(name: str) -> Path:
    """``envs/<game>/README.md`` of env ``name``: where its rules and tables live."""
    package = type(envs.make_game(name)).__module__.rsplit(".", 1)[0]
    return Path(importlib.import_module(package).__file__).with_name("README.md")


def tables(name: str, **options) -> str:
    game = envs.make_game(name, **options)
    return "\n\n".join([
        f"Options of `{name}`:\n\n{options_markdown(type(game).OPTIONS)}",
        f"Observation of `{name}` ({game.obs_spec.size} float32 values"
        f"{', with the default options' if not options else ''}):\n\n"
        f"{game.obs_spec.markdown_table()}",
    ])


def state_table(name: str, **options) -> str:
    """The pieces of ``env.state()`` (``game.state_spec``), as the observation table."""
    game = envs.make_game(name, **options)
    return (f"Global state `env.state()` of `{name}` ({game.state_spec.size} float32 values"
            f"{', with the default options' if not options else ''}):\n\n"
            f"{game.state_spec.markdown_table()}")


def information_state_table(name: str, **options) -> str:
    """The pieces ``game.information_state_spec`` adds after the observation's, and the event
    kinds of its ``history`` rows where the game records events."""
    game = envs.make_game(name, **options)
    spec = game.information_state_spec
    text = (f"Information state of `{name}` (`observation=\"information_state\"`, {spec.size} "
            f"float32 values{', with the default options' if not options else ''}): the "
            f"observation's pieces at the same offsets (0 to {game.obs_spec.size - 1}), then:"
            f"\n\n{spec.markdown_table(len(game.obs_spec.pieces))}")
    if game.event_table is not None:
        text += f"\n\nEvent kinds of the `history` rows:\n\n{game.event_table.markdown()}"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = make_parser("docs", __doc__)
    parser.add_argument("env", choices=envs.ENVS, metavar="ENV",
                        help=f"the env to document ({', '.join(envs.ENVS)})")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--state", action="store_true",
                       help="print the global state table instead")
    which.add_argument("--information-state", action="store_true",
                       help="print what the information state adds to the observation instead")
    args = parser.parse_args(argv)
    if args.information_state:
        print(information_state_table(args.env))
    else:
        print(state_table(args.env) if args.state else tables(args.env))
    return 0


if __name__ == "__main__":
    sys.exit(main())
