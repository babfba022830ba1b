"""Saved-state fuzzing: every mutation of a real saved state is refused or loads a sound state.

``TABLEZOO_FUZZ_SCALE`` multiplies the number of mutations (CI: 2,000 per game, in chunks so
``pytest -n`` spreads them); e.g. ``TABLEZOO_FUZZ_SCALE=25`` runs the 50,000-per-game audit.
"""

from __future__ import annotations

import os

import pytest

from tablezoo import envs
from tests.fuzzing import fuzz

SCALE = float(os.environ.get("TABLEZOO_FUZZ_SCALE", "1"))
CHUNKS = 4
PER_GAME = 2_000
# One structurally different variant per chunk where a game has several.
CASES = [
    (name, envs.VARIANTS[name][chunk % len(envs.VARIANTS[name])], chunk)
    for name in envs.ENVS
    for chunk in range(CHUNKS)
]


@pytest.mark.parametrize(("name", "options", "chunk"), CASES,
                         ids=[f"{n}-{c}" for n, _, c in CASES])
def test_every_mutation_is_refused_or_loads_a_sound_state(name, options, chunk):
    game = envs.make_game(name, **options)
    mutations = max(1, int(PER_GAME * SCALE / CHUNKS))
    report = fuzz(game, seed=1_000 + 97 * chunk + len(name), mutations=mutations)
    print(f"{name} {options}: {report.summary()}")
    assert not report.failures, (
        f"{name} {options}: {report.summary()}; first failures:\n" + "\n".join(report.failures[:8])
    )
    # The mutator must exercise both outcomes, or it tests nothing.
    assert report.raised > 0 and report.loaded_and_played > 0, report.summary()
