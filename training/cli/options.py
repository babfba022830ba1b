"""The command-line vocabulary every tablezoo tool shares, and ``key=value`` option parsing.

Play, train, evaluate, tournament, quickstart, the benchmarks and rllib all spell the same things
the same way: ``--env``, ``--env-option KEY=VALUE`` (repeatable), ``--opponent SPEC``, ``--seed``,
``--games``, ``--out``. The ``add_*`` helpers below define those flags once, with help text; every
parser is built by ``make_parser``, whose formatter shows each flag's default and keeps the line
breaks of the examples in the description. Old spellings stay as hidden aliases.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tablezoo import envs
from tablezoo.training.runs import (
    earlier_run_problem,
    env_options_for,
    option_item,
    parse_env_options,
)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Shows every flag's default and prints the description (the examples) as written.

    A flag whose default is ``None`` says in its help what happens when it is left out, so no
    uninformative "(default: None)" is added to it.
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None:
            return action.help
        return super()._get_help_string(action)


def make_parser(command: str, doc: str | None) -> argparse.ArgumentParser:
    """A parser for ``tablezoo COMMAND`` whose help is the module docstring, examples intact."""
    return argparse.ArgumentParser(prog=f"tablezoo {command}", description=doc,
                                   formatter_class=HelpFormatter)


def usage_of(parser: argparse.ArgumentParser) -> str:
    """``parser``'s usage text, without its ``usage:`` prefix, for a parser that reports errors
    on its behalf (``tablezoo train``'s, run by the tools that wrap it)."""
    return parser.format_usage().removeprefix("usage: ").rstrip("\n")


def add_env(p: argparse.ArgumentParser, *, required: bool = True, default: str | None = None,
            multiple: bool = False, help: str = "the env to use") -> None:
    """``--env NAME`` (one of ``envs.ENVS``); ``multiple=True`` makes it repeatable."""
    names = ", ".join(envs.ENVS)
    p.add_argument("--env", required=required, default=default, type=check_env_name,
                   action="append" if multiple else "store", metavar="NAME",
                   help=f"{help} ({names})")


def add_env_options(p: argparse.ArgumentParser, help: str = "a game option of the env, "
                    "repeatable (e.g. num_players=3); see the env's README") -> None:
    """``--env-option KEY=VALUE`` (repeatable); ``--option`` is a hidden alias."""
    p.add_argument("--env-option", action="append", metavar="KEY=VALUE", default=None,
                   help=help)
    p.add_argument("--option", action="append", dest="env_option", help=argparse.SUPPRESS)


def add_opponent(p: argparse.ArgumentParser, *, default: str | list[str] | None = "random",
                 multiple: bool = False, help: str = "agent spec of the other seats",
                 default_text: str | None = None) -> None:
    """``--opponent SPEC``: any agent spec (``random``, ``heuristic:k=v``, ``policy:PATH``,
    ``trained``, ``ismcts:iterations=300``, ...); ``--opponents`` is a hidden alias."""
    more = (" (repeatable; each seat takes the next one, cycling)" if multiple else "")
    spec_help = (f"{help}{more}: random, heuristic[:k=v,...], ismcts[:k=v], rollout[:worlds=N], "
                 "flat_search[:k=v], "
                 "policy:PATH/model.zip, trained[:PATH], rllib:DIR")
    if default_text:
        spec_help += f" (default: {default_text})"
    action = "append" if multiple else "store"
    p.add_argument("--opponent", action=action, metavar="SPEC", default=default, help=spec_help)
    p.add_argument("--opponents", action=action, dest="opponent", help=argparse.SUPPRESS)


def add_seed(p: argparse.ArgumentParser, default: int | None = 0,
             help: str = "seed of the games (game k uses seed + k)") -> None:
    p.add_argument("--seed", type=non_negative_int, default=default, help=help)


def add_games(p: argparse.ArgumentParser, default: int,
              help: str = "number of seeded games") -> None:
    p.add_argument("--games", type=positive_int, default=default, help=help)


def add_out(p: argparse.ArgumentParser, *, required: bool = True, default: Path | None = None,
            help: str = "run folder for the results") -> None:
    p.add_argument("--out", type=out_dir, required=required, default=default, metavar="DIR",
                   help=help)


def out_dir(text: str) -> Path:
    """``--out``: a folder we can create or write into, checked before any heavy import.

    A path that is a file, or whose nearest existing folder is not writable, is refused here, so
    the user gets one clear line instead of a traceback after torch has loaded.
    """
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
    _check_folder(Path(os.path.realpath(path)), text)
    return path


def _check_folder(path: Path, text: str) -> None:
    """``path`` (a folder) exists and is writable, or can be created: ``text`` names what for."""
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write into {str(existing)!r} (for {text!r})")
    _probe_folder(existing, text)


def _probe_folder(folder: Path, text: str) -> None:
    """Create a nameless temporary file in ``folder``: ``os.access`` says yes to root in folders
    such as /proc where nothing can be created, and such a folder failed only after every game.
    (Where the system has no nameless files, Python names it and deletes it at once.)"""
    try:
        with tempfile.TemporaryFile(prefix=".tablezoo-probe-", dir=folder):
            pass
    except OSError as error:
        raise argparse.ArgumentTypeError(
            f"cannot write into {str(folder)!r} (for {text!r}): {error.strerror}") from None


def out_file(text: str) -> Path:
    """A file to write (``--json FILE``), checked before any game: not a folder, and in a
    folder we can create or write into (a folder here failed only after every game)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if path.exists():  # written in place: its folder need not take new files
        if not os.access(path, os.W_OK):
            raise argparse.ArgumentTypeError(f"cannot write to {text!r} (no write permission)")
        return path
    target = Path(os.path.realpath(path))  # a link to a file still to be made: where it points
    if path.is_symlink() and not target.parent.is_dir():  # writing follows it, making no folder
        raise argparse.ArgumentTypeError(f"{text!r} is a link to {str(target)!r}, whose folder "
                                         "does not exist")
    if target.parent.exists() and not target.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{str(target.parent)!r} is a file, not a folder "
                                         f"(for {text!r})")
    _check_folder(target.parent, text)
    return path


def refuse_earlier_run(parser: argparse.ArgumentParser, out: Path, *, force: bool,
                       resume: bool | None = None, also: tuple[str, ...] = ()) -> None:
    """Stop with a parser error when ``out`` already holds a run that neither ``--force`` nor
    ``--resume`` (where the tool has it) says what to do with (``runs.earlier_run_problem``)."""
    problem = earlier_run_problem(out, force=force, resume=resume, also=also)
    if problem is not None:
        parser.error(problem)


def parse_with_config(parser: argparse.ArgumentParser,
                      argv: list[str] | None) -> argparse.Namespace:
    """Parse ``argv`` over the defaults in its ``--config FILE`` (JSON; keys are the long option
    names with ``_``; flags on the command line win). A missing or malformed file, or a key the
    tool does not have, is an error naming the allowed keys."""
    first, _ = parser.parse_known_args(argv)
    if first.config is not None:
        if not first.config.is_file():
            parser.error(f"--config: no file {first.config}")
        try:
            config = json.loads(first.config.read_text())
        except json.JSONDecodeError as exc:
            parser.error(f"--config {first.config}: not JSON ({exc})")
        if not isinstance(config, dict):
            parser.error(f"--config {first.config}: expected a JSON object of option names and "
                         f"values, got a {type(config).__name__}")
        known = {a.dest for a in parser._actions}
        unknown = sorted(set(config) - known)
        if unknown:
            parser.error(f"--config {first.config}: unknown key(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted(known - {'help', 'config'}))}")
        parser.set_defaults(**_config_defaults(parser, first, config))
    return parser.parse_args(argv)


def _config_defaults(parser: argparse.ArgumentParser, given: argparse.Namespace,
                     config: dict[str, Any]) -> dict[str, Any]:
    """The config's values checked by their flags' own rules (argparse applies ``type=`` only
    to the command line: ``"n_envs": 2.5`` crashed in sb3, ``"self_play": "false"`` turned
    self-play on), with the command line's repeatable flags winning over the file's: a list
    flag given there replaces the file's list, and ``KEY=VALUE`` flags (``--env-option``,
    ``--param``) replace only the file's entries of the same keys."""
    by_dest = {a.dest: a for a in parser._actions}
    out = {}
    for key, value in config.items():
        action = by_dest[key]
        where = f"--config {given.config}: {key}={value!r}"
        if isinstance(action, argparse._StoreTrueAction | argparse._StoreFalseAction):
            if not isinstance(value, bool):
                parser.error(f"{where}; allowed: true, false")
        elif isinstance(action, argparse._AppendAction):
            if not isinstance(value, list | dict):
                parser.error(f"{where}; expected a list (this flag is repeatable)")
            value = _merge_repeated(value, getattr(given, key, None))
        elif action.type is not None and value is not None:
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                parser.error(f"{where}; expected what --{key.replace('_', '-')} takes")
            try:
                action.type(str(value))
            except argparse.ArgumentTypeError as exc:
                parser.error(f"{where}: {exc}")
            except ValueError:
                kind = getattr(action.type, "__name__", "value").replace("_", " ")
                parser.error(f"{where}; expected what --{key.replace('_', '-')} takes ({kind})")
        if action.choices is not None and value is not None and value not in action.choices:
            parser.error(f"{where}; allowed: {', '.join(map(str, action.choices))}")
        out[key] = value
    return out


def _merge_repeated(from_file: list | dict, from_command_line: list | None) -> list | dict:
    """A repeatable flag's config value under the command line's (see ``_config_defaults``)."""
    if not from_command_line:
        return from_file
    entries = ([option_item(k, v) for k, v in from_file.items()] if isinstance(from_file, dict)
               else list(from_file))
    if not all("=" in str(e) for e in [*entries, *from_command_line]):
        return []  # a list flag such as --opponent: the command line's list replaces it
    keys = {str(e).partition("=")[0] for e in from_command_line}
    return [e for e in entries if str(e).partition("=")[0] not in keys]


def positive_int(text: str) -> int:
    value = _integer(text, ">= 1")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def _integer(text: str, allowed: str) -> int:
    """``int(text)``, refused in the flag's own words (argparse would name the converting
    function: "invalid positive_int value")."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer {allowed}, got {text!r}") from None


def non_negative_int(text: str) -> int:
    """A seed or a count that may be 0 (numpy's generators take no negative seed)."""
    value = _integer(text, ">= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def check_env_name(name: str) -> str:
    if name not in envs.ENVS:
        raise argparse.ArgumentTypeError(
            f"unknown env {name!r}; known envs: {', '.join(envs.ENVS)}"
        )
    return name


def given_env_options(parser: argparse.ArgumentParser, items: list[str] | None
                      ) -> dict[str, Any]:
    """The ``--env-option KEY=VALUE`` items as a dict (no tool defaults added); a malformed
    one is a one-line parser error."""
    try:
        return parse_env_options(items)
    except ValueError as exc:
        parser.error(str(exc))


def parse_with_env_options(parser: argparse.ArgumentParser, argv: list[str] | None
                           ) -> tuple[argparse.Namespace, dict[str, Any]]:
    """A tool's arguments and the game options of its ``--env``/``--env-option`` (the tools'
    defaults filled in); options the game does not take are a one-line parser error."""
    args = parser.parse_args(argv)
    try:
        return args, env_options_for(args.env, parse_env_options(args.env_option))
    except ValueError as exc:
        parser.error(str(exc))
