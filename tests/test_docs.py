"""The documentation stays honest.

- Every README (the top one, ``envs/``, ``agents/``, ``agents/pretrained/``, ``training/``, the
  games', the notebooks', the configs') links only to files and headings a clone has, names no
  file outside the repository (``shared/``) and no machine path (``/work/``), and spells the
  package and the tools as they install (``tablezoo.envs``, ``tablezoo COMMAND``).
- Every ``tablezoo COMMAND`` in a README's code (fenced blocks and inline code) names a real
  subcommand (``COMMANDS`` of ``tablezoo.training.cli.main``), and every ``--flag`` after it is
  a flag of that tool's parser.
- The top README is a short front door (at most ``README_MAX_LINES`` lines) that links every
  env's README and the topic docs, and its Python example runs, as do the examples of the
  envs' and agents' READMEs.
- Each env's README shows its option, observation and state tables exactly as the code declares
  them (regenerate with ``tablezoo docs <env>`` and paste).
- ``agents/pretrained/README.md`` shows the command of each model's card, the whole recipe from
  a fresh clone.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import json
import re
from pathlib import Path
from unittest import mock

import pytest

from tablezoo import envs
from tablezoo.training.cli.docs import information_state_table, readme_path, state_table, tables
from tablezoo.training.cli.main import COMMANDS
from tests.envcases import shipped_envs

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PRETRAINED = ROOT / "agents" / "pretrained"
MODELS_README = PRETRAINED / "README.md"
README_MAX_LINES = 250
TOPIC_DOCS = ("envs/README.md", "agents/README.md", "agents/pretrained/README.md",
              "training/README.md")
# READMEs whose ```python blocks are run (training/README.md's need the optional libraries)
RUNNABLE = ("README.md", "envs/README.md", "agents/README.md", "agents/pretrained/README.md")
_SKIPPED_DIRS = {"build", "shared", "node_modules", "runs"}


def _readmes() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("README.md")):
        parts = path.relative_to(ROOT).parts[:-1]
        if any(p.startswith(".") or p in _SKIPPED_DIRS or p.endswith(".egg-info") for p in parts):
            continue
        found.append(path)
    return found


READMES = _readmes()
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks."""
    return _FENCE.sub("", text)


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", _prose(path.read_text(encoding="utf-8")),
                                         re.M)}


def test_the_readmes_are_found():
    names = {_name(p) for p in READMES}
    for name in ("README.md", *TOPIC_DOCS, "notebooks/README.md"):
        assert name in names, f"no {name}"
    for name in shipped_envs():
        assert _name(readme_path(name)) in names


@pytest.mark.parametrize("path", READMES, ids=_name)
def test_links_resolve(path):
    """Every relative link points at a file of the repository and, with ``#anchor``, at one of
    its headings."""
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", _prose(text)):
        if "://" in target or target.startswith("mailto:"):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{_name(path)}: link to missing {target}"
        assert ROOT in linked.parents or linked == ROOT, f"{_name(path)}: {target} leaves the repo"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{_name(path)}: no heading #{anchor} in {file}"


@pytest.mark.parametrize("path", READMES, ids=_name)
def test_no_paths_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    assert "shared/" not in text, f"{_name(path)} names a file outside the repository"
    assert "/work/" not in text, f"{_name(path)} names a machine path"


@pytest.mark.parametrize("path", READMES, ids=_name)
def test_package_and_tool_names_are_the_installed_ones(path):
    """The folders install as ``tablezoo.envs``/``.agents``/``.training``, and the tools are
    subcommands of ``tablezoo``: no ``import envs`` or ``python -m training.train`` is left."""
    code = "\n".join(_code_segments(path.read_text(encoding="utf-8")))
    stale = re.findall(r"python -m (?:envs|agents|training)\b[.\w]*"
                       r"|(?:^|\s)(?:import|from) (?:envs|agents|training)\b[.\w]*", code, re.M)
    assert not stale, f"{_name(path)}: old names {stale}"


def _code_segments(text: str) -> list[str]:
    """The shell-like lines of a README: each line of a fenced block (backslash continuations
    joined) and each inline code span (line breaks as spaces)."""
    segments = []
    for block in _FENCE.findall(text):
        segments += block.replace("\\\n", " ").splitlines()
    segments += [span.replace("\n", " ") for span in re.findall(r"`([^`]+)`", _prose(text))]
    return segments


def _tool_calls(text: str) -> list[tuple[str, list[str]]]:
    """``(command, its --flags)`` for every ``tablezoo COMMAND ...`` in the README's code."""
    calls = []
    for segment in _code_segments(text):
        for part in re.split(r"&&|;|\|", segment):
            tokens = re.sub(r"(^|\s)#.*", "", part).split()  # a shell comment ends it
            for i, token in enumerate(tokens[:-1]):
                if token != "tablezoo":
                    continue
                rest = tokens[i + 2:]
                end = next((j for j, t in enumerate(rest) if t == "tablezoo"), len(rest))
                flags = [t.split("=")[0] for t in rest[:end] if t.startswith("--")]
                calls.append((tokens[i + 1], flags))
    return calls


class _Parsed(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


@functools.cache
def tool_flags(command: str) -> frozenset[str]:
    """Every option string of ``tablezoo COMMAND``'s parser, read off the parser its ``main``
    builds (stopped at its first parse, before any work)."""
    module = importlib.import_module(COMMANDS[command][0])

    def stop(self, args=None, namespace=None):
        raise _Parsed(self)

    with mock.patch.object(argparse.ArgumentParser, "parse_known_args", stop):
        try:
            module.main(["--help"])
        except _Parsed as parsed:
            return frozenset(o for a in parsed.parser._actions for o in a.option_strings)
    raise AssertionError(f"tablezoo {command}: its main() parsed no arguments")


def test_tool_flags_are_read_off_the_parsers():
    assert {"--env", "--timesteps", "--bc-games", "--rollout-symmetries"} <= tool_flags("train")
    assert "--timesteps" not in tool_flags("evaluate")
    assert _tool_calls("run `tablezoo play --env bower_v0 --seat=1` then\n```\n"
                       "tablezoo evaluate --env X \\\n  --games 4   # --not-a-flag\n```\n") == [
        ("evaluate", ["--env", "--games"]), ("play", ["--env", "--seat"])]


@pytest.mark.parametrize("path", READMES, ids=_name)
def test_tablezoo_commands_and_flags_exist(path):
    calls = _tool_calls(path.read_text(encoding="utf-8"))
    for command, flags in calls:
        if command in ("--help", "-h", "--version", "COMMAND"):
            continue
        assert command in COMMANDS, (f"{_name(path)}: 'tablezoo {command}' is no subcommand; "
                                     f"known: {', '.join(COMMANDS)}")
        unknown = sorted(set(flags) - tool_flags(command))
        assert not unknown, f"{_name(path)}: tablezoo {command} has no flag {', '.join(unknown)}"


def test_readme_lists_every_command():
    text = README.read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"| `tablezoo {command}` |" in text, f"README's command table lacks {command}"


def test_readme_is_a_short_front_door():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
    first_screen = "\n".join(lines[:40])
    assert "tablezoo quickstart --env bauer_trick_v0 --out runs/quick" in first_screen
    assert "python -m pytest -n 2 -q" in first_screen
    assert not re.search(r"\bsession \d+", "\n".join(lines)), "README cites session numbers"


@pytest.mark.parametrize("name", shipped_envs())
def test_readme_links_every_env_readme(name):
    link = readme_path(name).relative_to(ROOT).as_posix()
    assert f"]({link})" in README.read_text(encoding="utf-8"), f"README does not link {link}"


@pytest.mark.parametrize("doc", TOPIC_DOCS)
def test_readme_links_the_topic_docs(doc):
    assert f"]({doc})" in README.read_text(encoding="utf-8"), f"README does not link {doc}"


@pytest.mark.parametrize("doc", RUNNABLE)
def test_python_examples_run(doc, tmp_path, monkeypatch):
    blocks = _python_blocks((ROOT / doc).read_text(encoding="utf-8"))
    if doc == "README.md":
        assert blocks and "import tablezoo.envs as tz" in blocks[0]
        assert "make_agent" in blocks[0] and "action_mask" in blocks[0]
    monkeypatch.chdir(tmp_path)  # an example may write a file (envs/README.md's position.json)
    for i, block in enumerate(blocks):
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"{doc} example {i + 1}", "exec"), {"__name__": "__docs__"})


def test_saved_position_example_plays(tmp_path, monkeypatch):
    """The position envs/README.md saves is one ``tablezoo play --state`` loads."""
    from tablezoo.training.cli import play

    block = next(b for b in _python_blocks((ROOT / "envs" / "README.md").read_text("utf-8"))
                 if "position.json" in b)
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "envs/README.md", "exec"), {})
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
        play.main(["--state", "position.json", "--seat", "2"])
    assert "(you)" in out.getvalue()


@pytest.mark.parametrize("name", shipped_envs())
def test_env_readme_has_current_tables(name):
    path = readme_path(name)
    text = path.read_text(encoding="utf-8")
    assert tables(name) in text, f"{path} tables of {name} are stale: tablezoo docs {name}"


@pytest.mark.parametrize("name", shipped_envs())
def test_state_table_lists_every_state_piece(name):
    """The generated state table has one row per ``state_spec`` piece, in order, and the
    README, once it embeds it (``tablezoo docs <env> --state``), shows the current one."""
    game = envs.make_game(name)
    rows = [line for line in state_table(name).splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [p.name for p in game.state_spec.pieces]
    text = readme_path(name).read_text(encoding="utf-8")
    heading = state_table(name).split(" (")[0]
    if heading in text:
        assert state_table(name) in text, f"README state table of {name} is stale"


@pytest.mark.parametrize("name", shipped_envs())
def test_env_readme_has_current_information_state_table(name):
    """Each env's README shows what its information state adds to the observation and the
    kinds of its history rows exactly as the code declares them (``tablezoo docs <env>
    --information-state``)."""
    text = readme_path(name).read_text(encoding="utf-8")
    assert information_state_table(name) in text, (
        f"README information state table of {name} is stale: tablezoo docs {name} "
        "--information-state")


def _model_row(stem: str) -> str | None:
    """The first table row of ``agents/pretrained/README.md`` whose first cell names ``stem``."""
    rows = [line for line in MODELS_README.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `")]
    return next((row for row in rows if stem in re.findall(r"`([^`]+)`", row.split("|")[1])),
                None)


SHIPPED_CARDS = sorted(PRETRAINED.glob("*_[0-9]p.json"))


def test_every_shipped_model_has_a_card():
    assert {p.stem for p in SHIPPED_CARDS} == {p.stem for p in PRETRAINED.glob("*.npz")}
    assert SHIPPED_CARDS


ALTERNATIVE_CARDS = sorted((PRETRAINED / "alternatives").glob("*.json"))


@pytest.mark.parametrize("card", SHIPPED_CARDS + ALTERNATIVE_CARDS, ids=lambda p: p.stem)
def test_models_readme_shows_the_command_of_each_card(card):
    """Each model's row in ``agents/pretrained/README.md`` (the reproduction table, or the
    alternatives') shows its card's ``training_command`` verbatim: the whole recipe from a fresh
    clone into the user's folder ``DIR``, train or evolve through ship (the cards' own checks:
    ``tests/training/shipping/test_cards.py``). The table once named configs and a tool the
    cards did not, and a step (ship) no card had."""
    command = json.loads(card.read_text())["training_command"]
    row = _model_row(card.stem)
    assert row is not None, f"{_name(MODELS_README)} has no row for {card.stem}"
    assert f"`{command}`" in row, f"row of {card.stem} does not show its card's command"
    assert "tablezoo ship" in command and "--out DIR" in command
