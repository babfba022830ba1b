"""Re-execute the notebooks and write them back with their outputs (figures embedded).

    python notebooks/regenerate.py                      # every notebook, full budget
    python notebooks/regenerate.py bower_analysis --budget small
    nice -n 10 python notebooks/regenerate.py --workers 2

The committed notebooks carry the outputs of a full-budget run, so they read on a repository page
without running. Run this on purpose after a change to a game or an agent; the test suite only
executes the notebooks in memory with the small budget and never writes them back.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
BUDGETS = ("small", "full")


def notebook_paths(names: list[str]) -> list[Path]:
    """The notebooks named (stem, with or without ``.ipynb``), or all of them."""
    every = sorted(NOTEBOOKS.glob("*.ipynb"))
    if not names:
        return every
    by_stem = {p.stem: p for p in every}
    wanted = [n.removesuffix(".ipynb") for n in names]
    unknown = [n for n in wanted if n not in by_stem]
    if unknown:
        raise SystemExit(f"unknown notebook(s) {', '.join(unknown)}; known: {', '.join(by_stem)}")
    return [by_stem[n] for n in wanted]


def execute(path: Path, budget: str, timeout: int | None = None) -> nbformat.NotebookNode:
    """Run ``path`` top to bottom from the repository root with ``budget``; return the notebook."""
    if budget not in BUDGETS:
        raise ValueError(f"budget={budget!r}; allowed: {', '.join(BUDGETS)}")
    os.environ["TABLEZOO_NOTEBOOK_BUDGET"] = budget
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebook stems (default: all)")
    parser.add_argument("--budget", choices=BUDGETS, default="full")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes for the game collection (TABLEZOO_WORKERS)")
    args = parser.parse_args(argv)
    if args.workers is not None:
        os.environ["TABLEZOO_WORKERS"] = str(args.workers)
    for path in notebook_paths(args.names):
        start = time.perf_counter()
        nb = execute(path, args.budget)
        nbformat.write(nb, path)
        print(f"{path.name}: {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
