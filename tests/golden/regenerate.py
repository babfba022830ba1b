"""Rewrite the golden playthrough files on purpose (after an intended rules or encoding change).

    python tests/golden/regenerate.py              # every env case
    python tests/golden/regenerate.py --env bower_v0
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from envcases import available
from golden_io import golden_path, playthrough_text

import envs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", action="append", choices=envs.ENVS)
    args = parser.parse_args()
    for name in args.env or envs.ENVS:
        if not available(name):
            print(f"{name}: not built, skipped")
            continue
        for options in envs.VARIANTS[name]:
            path = golden_path(name, options)
            path.write_text(playthrough_text(name, options), encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
