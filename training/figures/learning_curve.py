"""Draw a run's learning curve from ``OUT/eval.csv``: mean reward (95% CI band) against random
and heuristic opponents over training steps, written to ``OUT/learning_curve.png``.

    tablezoo plot runs/bower        # any time, also while the run trains
    tablezoo plot runs/trick --rollout   # over the epochs of a rollout fit

``--rollout`` draws ``OUT/rollout_eval.csv`` (a run with ``--rollout-games`` and
``--eval-games``: the policy played after every epoch of the fit) to ``OUT/rollout_curve.png``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from tablezoo.training.evaluation.stats import wilson_interval

ROLLOUT_EVAL = "rollout_eval.csv"  # the rollout fit's evaluations, one per epoch
# (csv read, figure written, x axis) of a PPO run's curve and of a rollout fit's
CURVES = {False: ("eval.csv", "learning_curve.png", "learner steps"),
          True: (ROLLOUT_EVAL, "rollout_curve.png", "rollout fit epoch (0: before the fit)")}


def read_eval(run: Path, name: str = "eval.csv") -> dict[str, list[dict[str, float]]]:
    """Rows of the run's ``name`` csv per opponent, as floats."""
    path = Path(run) / name
    if not path.is_file():
        how = ("--rollout-games N and --eval-games > 0" if name == ROLLOUT_EVAL
               else "--eval-games > 0")
        raise FileNotFoundError(f"no {name} in {run} (train with {how})")
    by_opponent: dict[str, list[dict[str, float]]] = {}
    needed = {"opponent", "step", "mean_reward", "mean_reward_low", "mean_reward_high", "win"}
    with path.open() as f:
        reader = csv.DictReader(f)
        missing = needed - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path}: not an evaluation log of tablezoo train (no column "
                             f"{', '.join(sorted(missing))}; expected {', '.join(sorted(needed))})")
        for line, row in enumerate(reader, start=2):
            opponent = row.pop("opponent")
            try:
                values = {k: float(v) for k, v in row.items()}
            except (TypeError, ValueError):
                raise ValueError(f"{path} line {line}: a value that is not a number") from None
            by_opponent.setdefault(opponent, []).append(values)
    return by_opponent


def run_title(run: Path) -> tuple[str, str]:
    """The figure's title, the env and its options (``config.json``; without it the folder's
    name), and its subtitle, the run folder."""
    run = Path(run)
    folder = run.resolve().name or str(run)
    try:
        config = json.loads((run / "config.json").read_text())
        env, options = config["env"], config.get("env_options") or {}
    except (OSError, ValueError, KeyError, TypeError):  # no config (yet): the folder says it
        return folder, ""
    shown = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "default options"
    return f"{env}  ({shown})", f"run folder: {run}"


def warm_start_note(run: Path, first_step: float, rollout: bool = False) -> str:
    """What the first point measured: the policy after the behaviour-cloning warm start (and the
    rollout fit) when ``summary.json`` (else ``model.json``) records one, else ``""``."""
    record: dict[str, Any] = {}
    for name in ("summary.json", "model.json"):
        try:
            record = json.loads((Path(run) / name).read_text())
            break
        except (OSError, ValueError):
            continue
    bc = record.get("bc") if isinstance(record, dict) else None
    if not isinstance(bc, dict):
        return ""
    games = bc.get("games")
    teacher = bc.get("teacher", "teacher")
    what = (f"the behaviour-cloning warm start on {games:g} {teacher} games"
            if isinstance(games, (int, float)) else "the behaviour-cloning warm start")
    if rollout:
        return f"epoch 0 is measured after {what}, before the rollout fit"
    if record.get("rollout"):
        what += " and the rollout fit"
    return f"step {first_step:,.0f} (the first point) is measured after {what}, before PPO"


def _rate_band(rows: list[dict[str, float]], key: str) -> tuple[list[float], list[float]] | None:
    """95% Wilson interval of a rate column per row (from ``games``; the csv's own bounds where
    a file has no ``games``), or None when neither is there."""
    if all("games" in r and r["games"] > 0 for r in rows):
        bounds = [wilson_interval(round(r[key] * r["games"]), int(r["games"])) for r in rows]
        return [b.low for b in bounds], [b.high for b in bounds]
    if all(f"{key}_low" in r and f"{key}_high" in r for r in rows):
        return [r[f"{key}_low"] for r in rows], [r[f"{key}_high"] for r in rows]
    return None


def draw_run(run: Path, rollout: bool = False, xlabel: str | None = None) -> Any:
    """The matplotlib figure of ``plot_run``: mean reward with its 95% interval (left), win
    rate with its 95% Wilson interval and the draw rate (right), per opponent; titled by the
    env and its options, with a note of what the first point measured."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import EngFormatter, MaxNLocator, PercentFormatter

    csv_name, _, default_xlabel = CURVES[rollout]
    xlabel = xlabel or default_xlabel
    data = read_eval(run, csv_name)
    fig, (ax_r, ax_w) = plt.subplots(1, 2, figsize=(11, 5.2))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    drawn = True
    first = min((r["step"] for rows in data.values() for r in rows), default=0.0)
    games = sorted({int(r["games"]) for rows in data.values() for r in rows if "games" in r})
    for n, (opponent, rows) in enumerate(sorted(data.items())):
        colour = colours[n % len(colours)]
        rows.sort(key=lambda r: r["step"])
        steps = [r["step"] for r in rows]
        ax_r.plot(steps, [r["mean_reward"] for r in rows], marker="o", color=colour,
                  label=f"vs {opponent}")
        ax_r.fill_between(steps, [r["mean_reward_low"] for r in rows],
                          [r["mean_reward_high"] for r in rows], alpha=0.2, color=colour)
        ax_w.plot(steps, [r["win"] for r in rows], marker="o", color=colour,
                  label=f"vs {opponent}: win")
        band = _rate_band(rows, "win")
        if band:
            ax_w.fill_between(steps, *band, alpha=0.2, color=colour)
        if all("draw" in r for r in rows):
            ax_w.plot(steps, [r["draw"] for r in rows], marker="s", ls="--", color=colour,
                      markerfacecolor="white", label=f"vs {opponent}: draw")
            band = _rate_band(rows, "draw")
            if band:
                ax_w.fill_between(steps, *band, alpha=0.08, color=colour, hatch="//",
                                  edgecolor=colour, linewidth=0)
        else:
            drawn = False
    ax_r.axhline(0, color="grey", lw=0.8)
    ax_r.set(xlabel=xlabel, ylabel="mean reward per game", title="mean reward")
    ax_w.set(xlabel=xlabel, ylabel="share of games", ylim=(0, 1),
             title="win rate and draw rate" if drawn else
             f"win rate (draw rate not recorded in this {csv_name})")
    ax_w.yaxis.set_major_formatter(PercentFormatter(1.0))
    for ax in (ax_r, ax_w):  # epochs are whole; 100k, 1M: full step counts run into each other
        if rollout:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            ax.xaxis.set_major_formatter(EngFormatter())
        ax.grid(alpha=0.3)
    below = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.15), "fontsize": "small",
             "title_fontsize": "small", "frameon": False}  # under the axes: never on a curve
    ax_r.legend(title="shaded: 95% interval of the mean", ncols=len(data), **below)
    ax_w.legend(title="shaded: 95% Wilson interval  (win: reward > 0, draw: reward = 0)",
                ncols=len(data), **below)
    title, subtitle = run_title(run)
    fig.suptitle(title, fontsize=14)
    per_point = (f"{games[0]} games per point against each opponent, seats rotated"
                 if len(games) == 1 else "")
    fig.text(0.5, 0.92, "  ·  ".join(t for t in (subtitle, per_point) if t), ha="center",
             fontsize=9, color="dimgrey")
    note = warm_start_note(run, first, rollout)
    if note:
        fig.text(0.5, 0.015, note[0].upper() + note[1:] + ".", ha="center", fontsize=9,
                 style="italic")
    fig.tight_layout(rect=(0, 0.03 if note else 0, 1, 0.93))
    return fig


def plot_run(run: Path, out: Path | None = None, rollout: bool = False,
             xlabel: str | None = None) -> Path:
    """``learning_curve.png`` over learner steps, or with ``rollout`` ``rollout_curve.png`` over
    the epochs of the rollout fit (``out`` overrides the file, ``xlabel`` the x axis' name: an
    evolved model's curve is over games played)."""
    import matplotlib.pyplot as plt

    fig = draw_run(run, rollout, xlabel)
    out = Path(run) / CURVES[rollout][1] if out is None else Path(out)
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return out
