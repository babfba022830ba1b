"""The agents and the training view import without the heavy training extras (torch etc.)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_light_modules_do_not_import_torch_openskill_or_matplotlib():
    code = (
        "import sys, tablezoo.agents, tablezoo.training.selfplay.seat_env, "
        "tablezoo.training.evaluation.match, tablezoo.training.evaluation.evaluate, "
        "tablezoo.training.evaluation.tournament\n"
        "heavy = [m for m in ('torch', 'sb3_contrib', 'openskill', 'matplotlib') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""
