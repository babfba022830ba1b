"""Every command-line tool speaks one vocabulary and explains each flag (``--help``).

The parser of each tool is taken from its real entry point (``main(["--help"])``), so what is
checked is what a user sees: every flag has help text, defaults are shown, the examples of the
module docstring keep their line breaks, and the shared flags are spelled the same everywhere.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

from tablezoo import envs
from tablezoo.training.cli.main import COMMANDS

TOOLS = ["play", "bench", "train", "evaluate", "tournament", "bench-training", "rllib",
         "quickstart", "soak", "imitate", "evolve", "ladder", "animate"]
# the tools without an --env flag (a run, a model file, docs' ENV argument, the web app)
FILE_TOOLS = ["docs", "ship", "export", "plot", "average", "serve"]
SHARED = {"--env", "--env-option", "--opponent", "--seed", "--games", "--out"}
OLD_SPELLINGS = {"--option", "--opponents"}


def tool(command: str):
    """The module behind ``tablezoo COMMAND``."""
    return importlib.import_module(COMMANDS[command][0])


def parser_of(command: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser the tool builds, caught when it is asked for its help."""
    seen: list[argparse.ArgumentParser] = []
    monkeypatch.setattr(argparse.ArgumentParser, "print_help",
                        lambda self, file=None: seen.append(self))
    with pytest.raises(SystemExit) as stop:
        tool(command).main(["--help"])
    assert stop.value.code in (0, None)
    monkeypatch.undo()
    assert len(seen) == 1, command
    return seen[0]


@pytest.mark.parametrize("name", TOOLS + FILE_TOOLS)
def test_every_flag_has_help_and_shows_its_default(name, monkeypatch):
    parser = parser_of(name, monkeypatch)
    assert issubclass(parser.formatter_class, argparse.ArgumentDefaultsHelpFormatter)
    assert issubclass(parser.formatter_class, argparse.RawDescriptionHelpFormatter)
    text = parser.format_help()
    visible_dests = {a.dest for a in parser._actions if a.help != argparse.SUPPRESS}
    for action in parser._actions:
        flags = "/".join(action.option_strings) or action.dest
        if action.help == argparse.SUPPRESS:  # a hidden alias of a visible flag
            assert action.dest in visible_dests, f"{name} {flags}: hidden and no visible twin"
            assert set(action.option_strings) <= OLD_SPELLINGS, f"{name} {flags}"
            continue
        assert action.help and action.help.strip(), f"{name} {flags}: no help text"
        if action.default not in (None, argparse.SUPPRESS) and action.option_strings:
            assert "%(default)" in parser.formatter_class("x")._get_help_string(action), (
                f"{name} {flags}: default not shown")
    if any(a.option_strings and a.default not in (None, argparse.SUPPRESS)
           for a in parser._actions if a.help != argparse.SUPPRESS):
        assert "(default: " in text


@pytest.mark.parametrize("name", TOOLS + FILE_TOOLS)
def test_examples_keep_their_line_breaks(name, monkeypatch):
    parser = parser_of(name, monkeypatch)
    doc = parser.description or ""  # the tool's docstring (the library module's, for most)
    examples = [line for line in doc.splitlines() if line.strip().startswith("tablezoo ")]
    assert examples, f"{name}: the docstring has no example command"
    text = parser.format_help()
    for line in examples:
        assert line in text.splitlines(), f"{name}: example line lost its layout: {line!r}"
        assert line.strip().split()[1] == name, f"{name}: example runs {line.split()[1]}"


@pytest.mark.parametrize("name", TOOLS)
def test_shared_flags_are_spelled_the_same(name, monkeypatch):
    parser = parser_of(name, monkeypatch)
    visible = {s for a in parser._actions if a.help != argparse.SUPPRESS
               for s in a.option_strings}
    assert not visible & OLD_SPELLINGS, f"{name}: old spelling shown: {visible & OLD_SPELLINGS}"
    assert "--env" in visible
    env = next(a for a in parser._actions if "--env" in a.option_strings)
    for env_name in envs.ENVS:
        assert env_name in env.help, f"{name} --env help does not name {env_name}"
    for action in parser._actions:  # a shared concept never hides under another name
        for flag in action.option_strings:
            for shared in SHARED:
                if flag != shared and flag.startswith(shared + "s"):
                    assert action.help == argparse.SUPPRESS, f"{name}: {flag} next to {shared}"


MINIMAL_ARGV = {  # enough for each tool to get past its required flags
    "play": ["--env", "bower_v0"],
    "bench": ["--env", "bower_v0", "--seconds", "0.1"],
    "train": ["--env", "bower_v0", "--timesteps", "1", "--out", "{tmp}/train"],
    "evaluate": ["--env", "bower_v0", "--agent", "random", "--games", "1"],
    "tournament": ["--env", "bower_v0", "--agents", "random", "heuristic", "--games",
                            "2", "--out", "{tmp}/t"],
    "quickstart": ["--env", "bower_v0", "--out", "{tmp}/q"],
}


def error_of(name: str, extra: list[str], tmp_path, capsys) -> str:
    """What the tool prints when run with its minimal flags and ``extra``; it must stop with
    exit code 2 (argparse's one-line error)."""
    argv = [a.format(tmp=tmp_path) for a in MINIMAL_ARGV[name]]
    with pytest.raises(SystemExit) as stop:
        tool(name).main([*argv, *extra])
    assert stop.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(MINIMAL_ARGV))
def test_an_env_option_without_a_value_is_a_one_line_error(name, tmp_path, capsys):
    """``--env-option reward`` (no ``=``) was a traceback in evaluate and bench."""
    err = error_of(name, ["--env-option", "reward"], tmp_path, capsys)
    assert "--env-option expects key=value, got 'reward'" in err


@pytest.mark.parametrize("name", sorted(set(MINIMAL_ARGV) - {"bench"}))
def test_a_negative_seed_is_a_one_line_error(name, tmp_path, capsys):
    """numpy takes no negative seed: it crashed four tools and hung soak."""
    err = error_of(name, ["--seed", "-1"], tmp_path, capsys)
    assert "--seed: expected an integer >= 0, got '-1'" in err


def test_benchmark_names_the_env_an_option_does_not_fit(capsys):
    with pytest.raises(SystemExit) as stop:
        tool("bench").main(["--env-option", "num_players=3"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "bauer_trick_v0: bauer_trick: unknown option(s) num_players" in err
    assert "name one with --env" in err


def test_rllib_tools_without_ray_say_how_to_install_it(tmp_path, capsys):
    try:
        import ray  # noqa: F401
        pytest.skip("Ray is installed here")
    except ModuleNotFoundError:
        pass
    (tmp_path / "checkpoint").mkdir()
    with pytest.raises(SystemExit) as stop:
        tool("evaluate").main(
            ["--env", "bower_v0", "--agent", f"rllib:{tmp_path}", "--games", "1"])
    assert stop.value.code == 2
    assert 'pip install -e ".[rllib]"' in capsys.readouterr().err
    with pytest.raises(SystemExit, match=r'pip install -e "\.\[rllib\]"'):
        tool("rllib").main(["--env", "bower_v0", "--out",
                                                       str(tmp_path / "r")])


@pytest.mark.parametrize("name,argv,words", [
    ("evaluate", ["--env", "bower_v0", "--agent", "random", "--partner", "heuristic"],
     "bower_v0 has no teams, so no seat would play it"),
    ("play", ["--env", "bower_v0", "--opponent", "random", "--opponent", "heuristic"],
     "2 --opponent agents for the 1 other seat of"),
])
def test_agents_no_seat_would_play_are_refused(name, argv, words, capsys):
    """They were silently ignored."""
    with pytest.raises(SystemExit) as stop:
        tool(name).main(argv)
    assert stop.value.code == 2 and words in capsys.readouterr().err


def test_every_tool_is_a_subcommand_listed_by_tablezoo_help():
    """``tablezoo --help`` (the installed console script) lists every tool with a line of text."""
    assert sorted(COMMANDS) == sorted(TOOLS + FILE_TOOLS)
    out = subprocess.run(["tablezoo", "--help"], capture_output=True, text=True, timeout=60,
                         check=True).stdout
    for command, (_, text) in COMMANDS.items():
        assert f"  {command}  " in out and text in out, command


def test_an_unknown_subcommand_names_the_allowed_ones():
    out = subprocess.run([sys.executable, "-m", "tablezoo.training.cli.main", "trian"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "invalid choice: 'trian'" in out.stderr and "'train'" in out.stderr


def test_a_subcommand_runs_its_tool_with_the_remaining_flags():
    """``tablezoo docs ENV`` reaches the docs tool with its own arguments (no torch needed)."""
    out = subprocess.run(["tablezoo", "docs", "bower_v0"], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert "hands_public" in out
