"""Make the shared helper modules in tests/ importable from every test folder.

The repository root goes on the path too: ``tests/agents`` and ``tests/training`` would otherwise
be found as namespace packages and shadow the real ``agents`` and ``training`` packages when the
suite runs as plain ``pytest`` (a regular package found anywhere on the path wins over them).
"""

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS.parent))
sys.path.insert(0, str(TESTS))
