"""Draw a run's learning curve from ``OUT/eval.csv``: mean reward (95% CI band) against random
and heuristic opponents over training steps, written to ``OUT/learning_curve.png``.

    tablezoo plot /work/runs/bower        # any time, also while the run trains
    tablezoo plot /work/runs/trick --rollout   # over the epochs of a rollout fit

``--rollout`` draws ``OUT/rollout_eval.csv`` (a run with ``--rollout-games`` and
``--eval-games``: the policy played after every epoch of the fit) to ``OUT/rollout_curve.png``.
"""

from __future__ import annotations

import csv
from pathlib import Path

from tablezoo.training.cli.options import make_parser, out_file

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


def plot_run(run: Path, out: Path | None = None, rollout: bool = False,
             xlabel: str | None = None) -> Path:
    """``learning_curve.png`` over learner steps, or with ``rollout`` ``rollout_curve.png`` over
    the epochs of the rollout fit (``out`` overrides the file, ``xlabel`` the x axis' name: an
    evolved model's curve is over games played)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import EngFormatter, MaxNLocator

    csv_name, figure_name, default_xlabel = CURVES[rollout]
    xlabel = xlabel or default_xlabel
    data = read_eval(run, csv_name)
    fig, (ax_r, ax_w) = plt.subplots(1, 2, figsize=(10, 4))
    for opponent, rows in sorted(data.items()):
        rows.sort(key=lambda r: r["step"])
        steps = [r["step"] for r in rows]
        line, = ax_r.plot(steps, [r["mean_reward"] for r in rows], marker="o", label=opponent)
        ax_r.fill_between(steps, [r["mean_reward_low"] for r in rows],
                          [r["mean_reward_high"] for r in rows], alpha=0.2,
                          color=line.get_color())
        ax_w.plot(steps, [r["win"] for r in rows], marker="o", label=opponent)
    ax_r.axhline(0, color="grey", lw=0.8)
    ax_r.set(xlabel=xlabel, ylabel="mean reward (95% CI)", title="vs opponents")
    ax_w.set(xlabel=xlabel, ylabel="win rate", title="win rate", ylim=(0, 1))
    for ax in (ax_r, ax_w):  # epochs are whole; 100k, 1M: full step counts run into each other
        if rollout:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            ax.xaxis.set_major_formatter(EngFormatter())
    ax_r.legend()
    fig.suptitle(Path(run).name)
    fig.tight_layout()
    out = Path(run) / figure_name if out is None else Path(out)
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    p = make_parser("plot", __doc__)
    p.add_argument("run", type=Path, help="a run directory of tablezoo train")
    p.add_argument("--out", type=out_file,
                   help="default: RUN/learning_curve.png (--rollout: RUN/rollout_curve.png)")
    p.add_argument("--rollout", action="store_true",
                   help="the rollout fit's curve over its epochs (RUN/rollout_eval.csv)")
    args = p.parse_args(argv)
    try:
        print(f"wrote {plot_run(args.run, args.out, args.rollout)}")
    except (FileNotFoundError, ValueError) as problem:  # a folder without the csv, or a
        p.error(str(problem))  # damaged one: say so, no traceback
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
