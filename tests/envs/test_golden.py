"""Each env case replays its golden playthrough exactly (regenerate on purpose with
``python -m tests.envs.golden.regenerate``)."""

from __future__ import annotations

import difflib

import pytest

from tests.envcases import cases
from tests.envs.golden_io import golden_path, playthrough_text


@pytest.mark.parametrize(("name", "options"), cases())
def test_golden_playthrough(name, options):
    path = golden_path(name, options)
    assert path.exists(), f"missing {path}; run python -m tests.envs.golden.regenerate --env {name}"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough_text(name, options)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), str(path), "now", n=2))[:60])
        pytest.fail(f"{name} {options} no longer replays its golden playthrough:\n{diff}")
