"""``tablezoo average``: the flags of ``training/shipping/average.py``."""

from __future__ import annotations

import sys
from pathlib import Path

from tablezoo.training.cli.options import make_parser
from tablezoo.training.shipping import average
from tablezoo.training.shipping.average import average_run


def main(argv: list[str] | None = None) -> int:
    p = make_parser("average", average.__doc__)
    p.add_argument("run", type=Path, help="the --out folder of a finished tablezoo train run")
    p.add_argument("--tail", type=float, required=True, metavar="F",
                   help="average the checkpoints of the last fraction F (0 < F <= 1) of the "
                        "run's learner steps with the final weights")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for model.npz + model.json (not the run itself)")
    args = p.parse_args(argv)
    if not 0.0 < args.tail <= 1.0:
        p.error(f"--tail must be above 0 and at most 1, got {args.tail}")
    try:
        path, averaged = average_run(args.run, args.tail, args.out,
                                     sys.argv[1:] if argv is None else argv)
    except (ValueError, FileNotFoundError) as exc:
        p.error(str(exc))
    steps = averaged["checkpoint_steps"]
    span = f"checkpoints at {steps[0]}..{steps[-1]} steps and " if steps else ""
    print(f"averaged {averaged['networks']} networks ({span}the final weights at "
          f"{averaged['final_steps']} steps) into {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
