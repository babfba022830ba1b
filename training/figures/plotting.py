"""Plotting helpers for the research notebooks: intervals drawn the same way everywhere.

Every helper draws on a given matplotlib ``Axes`` and takes its axis labels as required
arguments, so no figure leaves the notebooks unlabelled; ``finish`` checks that once more for
every axes of a figure before showing it (a notebook cell that forgets a label fails in the
test suite instead of committing an unreadable figure).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tablezoo.training.evaluation.stats import Interval


def _label(ax, xlabel: str, ylabel: str, title: str | None) -> None:
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)


def bars(ax, labels: Sequence[str], intervals: Sequence[Interval], xlabel: str, ylabel: str,
         title: str | None = None, reference: float | None = None, offset: float = 0.0,
         width: float = 0.8, label: str | None = None, color: str | None = None) -> None:
    """Bars at the estimates with 95% error bars; ``reference`` draws a dashed level (a fair
    share); ``offset``/``width`` place several series side by side."""
    x = np.arange(len(labels)) + offset
    values = np.array([iv.value for iv in intervals], dtype=float)
    # clipped: a Wilson bound can sit a rounding error on the wrong side of a 0% or 100% rate
    low = np.maximum(values - np.array([iv.low for iv in intervals], dtype=float), 0.0)
    high = np.maximum(np.array([iv.high for iv in intervals], dtype=float) - values, 0.0)
    ax.bar(x, values, width=width, yerr=np.vstack([low, high]), capsize=3, label=label,
           color=color)
    ax.set_xticks(np.arange(len(labels)))
    ax.set_xticklabels(labels, rotation=45 if max(map(len, labels), default=0) > 6 else 0,
                       ha="right" if max(map(len, labels), default=0) > 6 else "center")
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    _label(ax, xlabel, ylabel, title)


def grouped_bars(ax, labels: Sequence[str], series: dict[str, Sequence[Interval]], xlabel: str,
                 ylabel: str, title: str | None = None, reference: float | None = None) -> None:
    """One group of bars per label, one bar per series (with a legend)."""
    k = max(len(series), 1)
    width = 0.8 / k
    for i, (name, intervals) in enumerate(series.items()):
        bars(ax, labels, intervals, xlabel, ylabel, title, reference,
             offset=(i - (k - 1) / 2) * width, width=width, label=name)
    ax.legend()


def band(ax, x: Sequence[float], intervals: Sequence[Interval], xlabel: str, ylabel: str,
         label: str | None = None, title: str | None = None) -> None:
    """A line at the estimates with a shaded 95% band."""
    values = np.array([iv.value for iv in intervals], dtype=float)
    low = np.array([iv.low for iv in intervals], dtype=float)
    high = np.array([iv.high for iv in intervals], dtype=float)
    (line,) = ax.plot(x, values, label=label)
    ax.fill_between(x, low, high, alpha=0.25, color=line.get_color())
    if label:
        ax.legend()
    _label(ax, xlabel, ylabel, title)


def histogram(ax, samples: dict[str, Sequence[float]], xlabel: str, ylabel: str = "share of games",
              bins: int | Sequence[float] = 30, title: str | None = None) -> None:
    """Overlaid normalised histograms (each series sums to 1), one per named sample."""
    every = np.concatenate([np.asarray(v, dtype=float) for v in samples.values()])
    edges = np.histogram_bin_edges(every, bins=bins)
    for name, values in samples.items():
        v = np.asarray(values, dtype=float)
        ax.hist(v, bins=edges, weights=np.full(v.size, 1 / max(v.size, 1)), alpha=0.5,
                label=name, histtype="stepfilled")
    if len(samples) > 1:
        ax.legend()
    _label(ax, xlabel, ylabel, title)


def heatmap(ax, matrix: np.ndarray, rows: Sequence[str], cols: Sequence[str], xlabel: str,
            ylabel: str, title: str | None = None, fmt: str = "{:.2f}",
            cmap: str = "RdBu_r", vmin: float | None = None, vmax: float | None = None) -> None:
    """A matrix with its values written in the cells (NaN cells left blank)."""
    image = ax.imshow(matrix, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows)
    for i in range(matrix.shape[0]):
        for j in range(matrix.shape[1]):
            if np.isfinite(matrix[i, j]):
                ax.text(j, i, fmt.format(matrix[i, j]), ha="center", va="center", fontsize=8)
    ax.figure.colorbar(image, ax=ax)
    _label(ax, xlabel, ylabel, title)


def unlabelled_axes(fig) -> list[str]:
    """Descriptions of the axes of ``fig`` that lack an x or y label (colorbars excepted)."""
    missing = []
    for i, ax in enumerate(fig.axes):
        if ax.get_label() == "<colorbar>" or not ax.get_visible() or not ax.has_data():
            continue
        if not ax.get_xlabel() or not ax.get_ylabel():
            missing.append(f"axes {i} ({ax.get_title() or 'untitled'})")
    return missing


def finish(fig) -> None:
    """Check that every axes of ``fig`` is labelled, tighten the layout, show the figure."""
    import matplotlib.pyplot as plt

    missing = unlabelled_axes(fig)
    if missing:
        raise ValueError(f"figure has unlabelled axes: {', '.join(missing)}")
    fig.tight_layout()
    plt.show()
