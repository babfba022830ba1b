"""``tablezoo export``: the flags of ``training/shipping/export.py``."""

from __future__ import annotations

from pathlib import Path

from tablezoo.training.cli.options import make_parser
from tablezoo.training.shipping import export
from tablezoo.training.shipping.export import export_model


def main(argv: list[str] | None = None) -> int:
    p = make_parser("export", export.__doc__)
    p.add_argument("model", type=Path, help="a model.zip written by tablezoo train")
    p.add_argument("out", type=Path, help="the .npz to write (its card goes next to it)")
    args = p.parse_args(argv)
    try:
        print(f"wrote {export_model(args.model, args.out)}")
    except (ValueError, FileNotFoundError) as exc:  # no such zip, not a zip, another policy
        p.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
