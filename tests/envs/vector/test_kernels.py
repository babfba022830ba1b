"""The compiled engines' shared kernels: the guard against numba's stale cache (a changed
source among those a package's kernels may be built from drops the package's cached kernels; an
unchanged one keeps them) and the uniform legal-action sampler of the benchmarks."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

from tablezoo.envs.vector.kernels import drop_stale_cache, random_legal_actions


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


def test_the_sampler_draws_every_legal_action_equally_often_and_nothing_else():
    rng = np.random.default_rng(7)
    mask = np.zeros((60_000, 9), bool)
    mask[:, [1, 4, 8]] = True
    mask[::2, 0] = True  # even rows: four legal actions
    got = random_legal_actions(mask, rng.random(len(mask)))
    assert mask[np.arange(len(mask)), got].all()
    for rows, legal in ((slice(0, None, 2), [0, 1, 4, 8]), (slice(1, None, 2), [1, 4, 8])):
        counts = np.bincount(got[rows], minlength=9)[legal]
        expected = counts.sum() / len(legal)
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 16.3, (legal, counts)  # p = 0.001 at 3 degrees of freedom (2: looser)


def test_the_sampler_picks_the_legal_id_its_uniform_names_at_every_width():
    """The k-th legal id (k = floor(u * legal count)), as a plain scan finds it, for masks of
    widths around the eight-entry words the sampler reads (tails, one word, many words)."""
    rng = np.random.default_rng(11)
    for width in (1, 2, 7, 8, 9, 15, 16, 17, 37, 64, 289, 648):
        mask = rng.random((400, width)) < rng.choice([0.02, 0.3, 0.9], size=(400, 1))
        mask[np.arange(400), rng.integers(0, width, 400)] = True  # every row has one
        uniforms = rng.random(400)
        uniforms[:5] = [0.0, 0.999999999, 0.5, 1e-12, 0.25]
        got = random_legal_actions(mask, uniforms)
        for i in range(400):
            legal = np.flatnonzero(mask[i])
            assert got[i] == legal[int(uniforms[i] * len(legal))], (width, i)
