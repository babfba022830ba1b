"""The README shows each env's option and observation tables exactly as the code declares them
(regenerate with ``python -m envs.docs <env>`` and paste)."""

from __future__ import annotations

from pathlib import Path

import pytest
from envcases import available

import envs
from envs.docs import tables

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("name", [n for n in envs.ENVS if available(n)])
def test_readme_has_current_tables(name):
    text = README.read_text(encoding="utf-8")
    assert tables(name) in text, f"README tables of {name} are stale: python -m envs.docs {name}"
