"""The code blocks of training/README.md's "Batched training" section run (on small sizes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numba")
pytest.importorskip("sb3_contrib")

README = Path(__file__).resolve().parents[4] / "training" / "README.md"
SMALL = {", 256, seed=0": ", 16, seed=0", "range(10)": "range(2)",
         "model.learn(100_000)": "model.learn(2_000)", "batch_size=2048": "batch_size=256"}


def blocks() -> list[str]:
    text = README.read_text()
    section = text[text.index("## Batched training"):]
    section = section[:section.index("\n## ", 1)]
    found = [re.sub(r"^  ", "", b, flags=re.M) for b in
             re.findall(r"```python\n(.*?)```", section, flags=re.S)]
    assert len(found) == 2
    return found


@pytest.mark.parametrize("index", [0, 1])
def test_the_readme_block_runs(index):
    code = blocks()[index]
    for big, small in SMALL.items():
        code = code.replace(big, small)
    namespace: dict = {}
    exec(compile(code, f"README block {index}", "exec"), namespace)
    if index == 0:
        assert namespace["model"].num_timesteps >= 2_000
    else:
        assert namespace["finished"].any() and bool(namespace["loss"].isfinite())
