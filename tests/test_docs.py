"""Each env's README (``envs/<game>/README.md``) shows its option and observation tables exactly
as the code declares them (regenerate with ``tablezoo docs <env>`` and paste); the top
README links every env's README and points at no file a clone does not have."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.envcases import available
from tablezoo import envs
from tablezoo.training.cli.docs import readme_path, state_table, tables

ROOT = Path(__file__).resolve().parents[0]
README = ROOT / "README.md"


@pytest.mark.parametrize("name", [n for n in envs.ENVS if available(n)])
def test_env_readme_has_current_tables(name):
    path = readme_path(name)
    text = path.read_text(encoding="utf-8")
    assert tables(name) in text, f"{path} tables of {name} are stale: tablezoo docs {name}"


@pytest.mark.parametrize("name", list(envs.ENVS))
def test_readme_links_every_env_readme(name):
    link = readme_path(name).relative_to(ROOT).as_posix()
    assert f"]({link})" in README.read_text(encoding="utf-8"), f"README does not link {link}"


def test_readmes_name_only_files_a_clone_has():
    """Every relative link target and every ``shared/...`` path in the READMEs must exist."""
    import re

    for path in [README, *ROOT.glob("envs/*/README.md"), ROOT / "training" / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text, f"{path.name} names a file outside the repository"
        for target in re.findall(r"\]\(([^)#:]+)\)", text):
            assert (path.parent / target).exists(), f"{path}: link to missing {target}"


@pytest.mark.parametrize("name", [n for n in envs.ENVS if available(n)])
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


@pytest.mark.parametrize("card", sorted((ROOT / "agents" / "pretrained").glob("*_[0-9]p.json")),
                         ids=lambda p: p.stem)
def test_readme_names_the_command_and_config_each_shipped_model_came_from(card):
    """The README's table of how to reproduce the shipped models once named configs and a tool
    the cards did not (``<model>_advised.json`` for all advised models, ``tablezoo.training.selfplay.train`` for
    bower's evolved weights)."""
    import json
    import re

    command = json.loads(card.read_text())["training_command"]
    row = next((line for line in README.read_text(encoding="utf-8").splitlines()
                if line.startswith("| `") and card.stem in line.split("|")[1]), None)
    assert row is not None, f"README has no reproduction row for {card.stem}"
    tool = re.search(r"python -m (training\.\w+)", command).group(1)
    config = re.search(r"training/configs/[\w.]+\.json", command).group(0)
    assert f"python -m {tool}" in row
    assert config in row, f"README row of {card.stem} does not name {config}"
