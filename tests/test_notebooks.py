"""Every notebook in notebooks/ runs headless with the small budget, and the committed ones carry
their figures.

The notebooks are executed in memory (``notebooks/regenerate.py``'s ``execute``) and never written
back, so the committed full-budget outputs stay as they are; only ``regenerate.py`` rewrites them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# Figures each research notebook must show (the acceptance); others need none.
MIN_FIGURES = {"baselines": 2, "training": 2}
GAMES = ("bauer_trick", "bauer_draft", "bower", "ethnos")


def _regenerate():
    script = ROOT / "notebooks" / "regenerate.py"
    spec = importlib.util.spec_from_file_location("regenerate", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def min_figures(path: Path) -> int:
    return 3 if path.stem.endswith("_analysis") else MIN_FIGURES.get(path.stem, 0)


def figure_cells(nb) -> list[int]:
    """Indices of the code cells that display at least one image."""
    return [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and any(
        "image/png" in out.get("data", {}) for out in cell.get("outputs", []))]


def test_the_research_notebooks_exist():
    stems = {p.stem for p in NOTEBOOKS}
    expected = {f"{g}_analysis" for g in GAMES} | {"quickstart", "baselines", "training"}
    assert expected <= stems, f"missing notebooks: {sorted(expected - stems)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebook_has_its_figures_and_captions(path):
    nb = nbformat.read(path, as_version=4)
    cells = figure_cells(nb)
    assert len(cells) >= min_figures(path), (
        f"{path.name}: {len(cells)} figure cells committed; regenerate with "
        "`python notebooks/regenerate.py`")
    for i in cells:  # the cell after a figure is its caption
        nxt = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
        captioned = nxt is not None and nxt.cell_type == "markdown" and \
            nxt.source.lstrip().startswith("*Figure")
        assert captioned, f"{path.name}: the figure of cell {i} has no caption after it"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_with_the_small_budget(path, monkeypatch):
    # execute() sets these for the kernel; monkeypatch puts the test process's values back after
    monkeypatch.setenv("TABLEZOO_WORKERS", "1")
    monkeypatch.setenv("TABLEZOO_NOTEBOOK_BUDGET", "small")
    nb = _regenerate().execute(path, "small", timeout=300)
    errors = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors
    assert len(figure_cells(nb)) >= min_figures(path)
