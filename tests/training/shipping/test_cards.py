"""Every model card in ``agents/pretrained/`` holds one command that rebuilds its model from a
fresh clone, in a folder the user names (``DIR``), on a budget that does not depend on the clock.

- the command is ``tablezoo train`` or ``tablezoo evolve`` with a config of
  ``training/configs/``, ``tablezoo average`` where the model is a tail average, then ``tablezoo
  ship`` on the folder holding the model; every folder it names is ``DIR`` or inside it;
- no card names a place on the machine it was made on (``/work/``, an absolute path, ``~``);
- the config stops on steps or generations: no ``max_minutes`` in it or on the command line,
  and its step budget is the step count the card reached, in whole rollouts; a training config
  names its engine (``auto`` would depend on whether numba is installed);
- the card says whether the command was rerun under these rules (``reproduction``).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tablezoo.training.shipping.commands import RUN, unsafe_paths

ROOT = Path(__file__).resolve().parents[3]
PRETRAINED = ROOT / "agents" / "pretrained"
CARDS = sorted(PRETRAINED.glob("*.json")) + sorted((PRETRAINED / "alternatives").glob("*.json"))
# rebuilt: the file is what the command writes now (run twice, the same bytes); rebuilt, older
# file kept: so was the command, but its model was the weaker on held-out games; not rebuilt:
# the file predates the step budget and what the command writes now is not checked
STATUSES = ("rebuilt", "rebuilt, older file kept", "not rebuilt")


def _name(card: Path) -> str:
    return card.relative_to(PRETRAINED).with_suffix("").as_posix()


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _steps(command: str) -> list[tuple[str, list[str]]]:
    """``(tool, its arguments)`` for each ``tablezoo`` command of a ``&&`` chain."""
    steps = []
    for part in command.split(" && "):
        tokens = shlex.split(part)
        assert tokens[:1] == ["tablezoo"] and len(tokens) >= 2, f"not a tablezoo command: {part}"
        steps.append((tokens[1], tokens[2:]))
    return steps


def _value(args: list[str], flag: str) -> str | None:
    for i, token in enumerate(args):
        if token == flag and i + 1 < len(args):
            return args[i + 1]
        if token.startswith(flag + "="):
            return token.partition("=")[2]
    return None


def test_cards_are_found():
    names = {_name(c) for c in CARDS}
    assert {"bauer_draft_2p", "ethnos_4p", "alternatives/bower_2p_clone"} <= names


@pytest.mark.parametrize("card", CARDS, ids=_name)
def test_card_names_no_place_of_the_machine_it_was_made_on(card):
    text = card.read_text()
    assert "/work/" not in text, f"{_name(card)} names a machine path"
    for string in _strings(json.loads(text)):
        assert not unsafe_paths(string), f"{_name(card)}: {unsafe_paths(string)} in {string!r}"


@pytest.mark.parametrize("card", CARDS, ids=_name)
def test_card_command_rebuilds_the_model_in_the_users_folder(card):
    steps = _steps(json.loads(card.read_text())["training_command"])
    tools = [tool for tool, _ in steps]
    assert tools[0] in ("train", "evolve") and tools[-1] == "ship", tools
    assert set(tools[1:-1]) <= {"average", "export"}, tools
    assert _value(steps[0][1], "--out") == RUN
    folder = RUN
    for tool, args in steps[1:]:
        if tool == "average":
            assert args[0] == folder
            folder = _value(args, "--out")
            assert folder.startswith(RUN + "/"), f"{_name(card)}: {folder} is not inside {RUN}"
        elif tool == "ship":
            assert args[0] == folder, f"{_name(card)} ships {args[0]}, the model is in {folder}"
            assert "--install" not in args and _value(args, "--dest") is None
    assert _value(steps[0][1], "--seed") is not None  # seeded, never the default by accident


@pytest.mark.parametrize("card", CARDS, ids=_name)
def test_card_config_stops_on_steps_not_on_the_clock(card):
    data = json.loads(card.read_text())
    tool, args = _steps(data["training_command"])[0]
    assert "--max-minutes" not in " ".join(args)
    config = json.loads((ROOT / _value(args, "--config")).read_text())
    assert "max_minutes" not in config, f"{_value(args, '--config')} stops on the clock"
    if tool == "evolve":
        assert config["generations"] == data["generations"]
        return
    # "auto" picks the compiled engine where numba is installed: the same command would train
    # another model on another machine
    assert (_value(args, "--engine") or config.get("engine")) == "python"
    budget = int(_value(args, "--timesteps") or config["timesteps"])
    if budget == 0:  # cloning or rollout improvement only
        assert data["timesteps"] == 0
        return
    rollout = config["n_envs"] * config["n_steps"]
    # the steps the card reached, in whole rollouts: a run the clock stopped inside a rollout
    # never trained on its steps
    assert budget == data["timesteps"] // rollout * rollout, (budget, data["timesteps"])


@pytest.mark.parametrize("card", CARDS, ids=_name)
def test_card_says_whether_its_command_was_rerun(card):
    data = json.loads(card.read_text())
    reproduction = data.get("reproduction")
    assert reproduction and reproduction["status"] in STATUSES, _name(card)
    assert reproduction["note"]
    if reproduction["status"].startswith("rebuilt"):
        assert reproduction["identical_bytes"] is True
        assert len(reproduction["runs"]) >= 2


@pytest.mark.parametrize(("text", "found"), [
    ("tablezoo train --out /work/runs/x --seed 0", ["/work/runs/x"]),
    ("trained:path=/home/me/model.npz", ["trained:path=/home/me/model.npz"]),
    ("--init=~/runs/bc/model.zip", ["--init=~/runs/bc/model.zip"]),
    ("tablezoo train --out DIR && tablezoo ship DIR/tail", []),
    ("points / deals played, 1/2 of the games, runs/x relative", []),
])
def test_unsafe_paths_finds_the_places_of_one_machine(text, found):
    assert unsafe_paths(text) == found
