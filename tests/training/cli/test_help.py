"""Every command-line tool speaks one vocabulary and explains each flag (``--help``).

The parser of each tool is taken from its real entry point (``main(["--help"])``), so what is
checked is what a user sees: every flag has help text, defaults are shown, the examples of the
module docstring keep their line breaks, and the shared flags are spelled the same everywhere.
"""

from __future__ import annotations

import argparse
import importlib

import pytest
from tablezoo import envs

TOOLS = ["tablezoo.training.cli.play", "tablezoo.training.cli.env_speed", "tablezoo.training.selfplay.train", "tablezoo.training.evaluation.evaluate",
         "tablezoo.training.evaluation.tournament", "tablezoo.training.selfplay.throughput", "tablezoo.training.selfplay.rllib", "tablezoo.training.cli.quickstart",
         "tablezoo.training.cli.soak", "tablezoo.training.imitation.cloning", "tablezoo.training.evolution.cma_es", "tablezoo.training.evaluation.ladder"]
# the tools without an --env flag (a run, a model file, or tablezoo.training.cli.docs' ENV argument)
FILE_TOOLS = ["tablezoo.training.cli.docs", "tablezoo.training.shipping.ship", "tablezoo.training.shipping.export", "tablezoo.training.figures.learning_curve",
              "tablezoo.training.shipping.average"]
SHARED = {"--env", "--env-option", "--opponent", "--seed", "--games", "--out"}
OLD_SPELLINGS = {"--option", "--opponents"}


def parser_of(module_name: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser the tool builds, caught when it is asked for its help."""
    seen: list[argparse.ArgumentParser] = []
    monkeypatch.setattr(argparse.ArgumentParser, "print_help",
                        lambda self, file=None: seen.append(self))
    module = importlib.import_module(module_name)
    entry = getattr(module, "main", None) or module.parse_args
    with pytest.raises(SystemExit) as stop:
        entry(["--help"])
    assert stop.value.code in (0, None)
    monkeypatch.undo()
    assert len(seen) == 1, module_name
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
    doc = importlib.import_module(name).__doc__ or ""
    examples = [line for line in doc.splitlines() if line.strip().startswith("python -m")]
    assert examples, f"{name}: the docstring has no example command"
    text = parser.format_help()
    for line in examples:
        assert line in text.splitlines(), f"{name}: example line lost its layout: {line!r}"
        assert line.strip().split()[2] == name, f"{name}: example runs {line.split()[2]}"


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
    "tablezoo.training.cli.play": ["--env", "bower_v0"],
    "tablezoo.training.cli.env_speed": ["--env", "bower_v0", "--seconds", "0.1"],
    "tablezoo.training.selfplay.train": ["--env", "bower_v0", "--timesteps", "1", "--out", "{tmp}/train"],
    "tablezoo.training.evaluation.evaluate": ["--env", "bower_v0", "--agent", "random", "--games", "1"],
    "tablezoo.training.evaluation.tournament": ["--env", "bower_v0", "--agents", "random", "heuristic", "--games",
                            "2", "--out", "{tmp}/t"],
    "tablezoo.training.cli.quickstart": ["--env", "bower_v0", "--out", "{tmp}/q"],
}


def error_of(name: str, extra: list[str], tmp_path, capsys) -> str:
    """What the tool prints when run with its minimal flags and ``extra``; it must stop with
    exit code 2 (argparse's one-line error)."""
    argv = [a.format(tmp=tmp_path) for a in MINIMAL_ARGV[name]]
    with pytest.raises(SystemExit) as stop:
        importlib.import_module(name).main([*argv, *extra])
    assert stop.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(MINIMAL_ARGV))
def test_an_env_option_without_a_value_is_a_one_line_error(name, tmp_path, capsys):
    """``--env-option reward`` (no ``=``) was a traceback in evaluate and tablezoo.training.cli.env_speed."""
    err = error_of(name, ["--env-option", "reward"], tmp_path, capsys)
    assert "--env-option expects key=value, got 'reward'" in err


@pytest.mark.parametrize("name", sorted(set(MINIMAL_ARGV) - {"tablezoo.training.cli.env_speed"}))
def test_a_negative_seed_is_a_one_line_error(name, tmp_path, capsys):
    """numpy takes no negative seed: it crashed four tools and hung tablezoo.training.cli.soak."""
    err = error_of(name, ["--seed", "-1"], tmp_path, capsys)
    assert "--seed: expected an integer >= 0, got '-1'" in err


def test_benchmark_names_the_env_an_option_does_not_fit(capsys):
    with pytest.raises(SystemExit) as stop:
        importlib.import_module("tablezoo.training.cli.env_speed").main(["--env-option", "num_players=3"])
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
        importlib.import_module("tablezoo.training.evaluation.evaluate").main(
            ["--env", "bower_v0", "--agent", f"rllib:{tmp_path}", "--games", "1"])
    assert stop.value.code == 2
    assert 'pip install -e ".[rllib]"' in capsys.readouterr().err
    with pytest.raises(SystemExit, match=r'pip install -e "\.\[rllib\]"'):
        importlib.import_module("tablezoo.training.selfplay.rllib").main(["--env", "bower_v0", "--out",
                                                       str(tmp_path / "r")])


@pytest.mark.parametrize("name,argv,words", [
    ("tablezoo.training.evaluation.evaluate", ["--env", "bower_v0", "--agent", "random", "--partner", "heuristic"],
     "bower_v0 has no teams, so no seat would play it"),
    ("tablezoo.training.cli.play", ["--env", "bower_v0", "--opponent", "random", "--opponent", "heuristic"],
     "2 --opponent agents for the 1 other seats"),
])
def test_agents_no_seat_would_play_are_refused(name, argv, words, capsys):
    """They were silently ignored."""
    with pytest.raises(SystemExit) as stop:
        importlib.import_module(name).main(argv)
    assert stop.value.code == 2 and words in capsys.readouterr().err
