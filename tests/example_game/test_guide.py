"""``envs/ADDING_A_GAME.md`` cannot rot: it shows the example game's files exactly as they are,
its example runs, and its links resolve."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "envs" / "ADDING_A_GAME.md"
SHOWN = ("tests/example_game/kuhn_poker.py", "tests/example_game/kuhn_poker_agents.py",
         "tests/conftest.py")


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", GUIDE.read_text(encoding="utf-8"), re.S | re.M)


@pytest.mark.parametrize("path", SHOWN)
def test_the_guide_shows_the_file_as_it_is(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    guide = GUIDE.read_text(encoding="utf-8")
    assert f"`{path}`" in guide, f"the guide does not name {path}"
    assert text in _python_blocks(), (
        f"envs/ADDING_A_GAME.md shows an old {path}: paste the file into its code block")


def test_the_guides_example_runs():
    block = next(b for b in _python_blocks() if "random_playthrough(game, seed)" in b)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, "envs/ADDING_A_GAME.md", "exec"), {"__name__": "__guide__"})


def test_the_guides_links_resolve_and_stay_in_the_repository():
    text = GUIDE.read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        file, _, anchor = target.partition("#")
        linked = (GUIDE.parent / file).resolve()
        assert linked.exists() and ROOT in linked.parents, target
        if anchor:
            headings = re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", linked.read_text(
                encoding="utf-8"), flags=re.S | re.M), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                     for h in headings}
            assert anchor in slugs, target
    assert "shared" + "/" not in text and "/work/" not in text  # no path outside the clone
