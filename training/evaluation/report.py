"""Write a results table (CSV and Markdown) and, when matplotlib is installed, a plot."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

COLUMNS = ("agent", "games", "mean_reward", "mean_reward_low", "mean_reward_high", "win",
           "draw", "loss", "mu", "sigma", "ordinal")


def _cell(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def write_tables(rows: Sequence[dict[str, Any]], out: Path) -> list[Path]:
    """``results.csv`` and ``results.md`` in ``out``; rows carry the ``COLUMNS`` keys."""
    out.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out / "results.csv", out / "results.md"
    with csv_path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cell(row[c]) for c in COLUMNS) + " |" for row in rows]
    md_path.write_text("\n".join(lines) + "\n")
    return [csv_path, md_path]


def write_plot(rows: Sequence[dict[str, Any]], out: Path, title: str) -> Path | None:
    """``results.png``: mean reward with its 95% interval per agent; ``None`` without
    matplotlib (the tables are the result; the plot is a convenience)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    names = [row["agent"] for row in rows]
    means = [row["mean_reward"] for row in rows]
    errors = [[m - row["mean_reward_low"] for m, row in zip(means, rows)],
              [row["mean_reward_high"] - m for m, row in zip(means, rows)]]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(rows)), 3.5))
    ax.bar(range(len(rows)), means, yerr=errors, capsize=4, color="#4c78a8")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)), names, rotation=20, ha="right")
    ax.set_ylabel("mean reward (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    path = out / "results.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
