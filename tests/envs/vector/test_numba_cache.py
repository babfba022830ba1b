"""The compiled engines' guard against numba's stale cache: a changed source among those a
package's kernels may be built from drops the package's cached kernels; an unchanged one keeps
them."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from tablezoo.envs.vector.kernels import drop_stale_cache


def test_a_changed_source_drops_the_cached_kernels_and_an_unchanged_one_keeps_them(tmp_path):
    game = tmp_path / "game"
    package = game / "compiled"
    cache = package / "__pycache__"
    cache.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text("x = 1\n")
    (game / "components.json").write_text("{}")
    init = str(package / "__init__.py")

    def cached(name: str) -> None:
        (cache / f"{name}.nbi").write_bytes(b"index")
        (cache / f"{name}.1.nbc").write_bytes(b"code")

    cached("old")
    drop_stale_cache(init)  # no digest yet: whatever is cached may be stale
    assert not list(cache.glob("*.nb?"))
    cached("step")
    drop_stale_cache(init)
    assert len(list(cache.glob("*.nb?"))) == 2  # nothing changed: kept
    for changed in (game / "components.json", package / "kernels.py"):
        changed.write_text(changed.read_text() + " ")
        drop_stale_cache(init)
        assert not list(cache.glob("*.nb?")), changed.name
        cached("step")
