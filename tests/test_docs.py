"""The README shows each env's option and observation tables exactly as the code declares them
(regenerate with ``python -m envs.docs <env>`` and paste)."""

from __future__ import annotations

from pathlib import Path

import pytest
from envcases import available

import envs
from envs.docs import state_table, tables

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("name", [n for n in envs.ENVS if available(n)])
def test_readme_has_current_tables(name):
    text = README.read_text(encoding="utf-8")
    assert tables(name) in text, f"README tables of {name} are stale: python -m envs.docs {name}"


@pytest.mark.parametrize("name", [n for n in envs.ENVS if available(n)])
def test_state_table_lists_every_state_piece(name):
    """The generated state table has one row per ``state_spec`` piece, in order, and the
    README, once it embeds it (``python -m envs.docs <env> --state``), shows the current one."""
    game = envs.make_game(name)
    rows = [line for line in state_table(name).splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [p.name for p in game.state_spec.pieces]
    text = README.read_text(encoding="utf-8")
    heading = state_table(name).split(" (")[0]
    if heading in text:
        assert state_table(name) in text, f"README state table of {name} is stale"
