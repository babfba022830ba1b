"""``tablezoo plot``: the flags of ``training/figures/learning_curve.py``."""

from __future__ import annotations

from pathlib import Path

from tablezoo.training.cli.options import make_parser, out_file
from tablezoo.training.figures import learning_curve
from tablezoo.training.figures.learning_curve import plot_run


def main(argv: list[str] | None = None) -> int:
    p = make_parser("plot", learning_curve.__doc__)
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
