"""Rewrite the golden playthrough files on purpose (after an intended rules or encoding change).

    python -m tests.envs.golden.regenerate              # every env case
    python -m tests.envs.golden.regenerate --env bower_v0
"""

from __future__ import annotations

import argparse

import tests.conftest  # noqa: F401  (the games the test session registers, as test_golden sees)
from tablezoo import envs
from tests.envs.golden_io import golden_path, playthrough_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", action="append", choices=envs.ENVS)
    args = parser.parse_args()
    for name in args.env or envs.ENVS:
        for options in envs.VARIANTS[name]:
            path = golden_path(name, options)
            path.write_text(playthrough_text(name, options), encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
