"""The (env, options) cases every cross-game suite runs, shared by the top-level test modules."""

from __future__ import annotations

import os

import pytest

from tablezoo import envs

# Seeded random games per variant in the conformance simulation (the issues' acceptance counts;
# bauer_trick's own 2,000 games + 10,000 deals are in tests/envs/bauer_trick). TABLEZOO_SIM_SCALE
# scales them down for a quick local run (e.g. 0.05); CI runs them in full. bower's own
# 3,000-game simulation lives in tests/envs/bower, so the generic pass over its variants is shorter.
SIM_GAMES = {"bauer_trick_v0": 200, "bauer_draft_v0": 1000, "bower_v0": 250, "ethnos_v0": 500}
SIM_DEFAULT = 250  # a game without a count here (the tests' example game, a user's own game)
SIM_CHUNK = 250
SCALE = float(os.environ.get("TABLEZOO_SIM_SCALE", "1"))


def shipped_envs() -> list[str]:
    """The registered envs whose games ship with tablezoo (their ``Game`` is in the package), the
    ones its READMEs document; the tests' example game (``tests/example_game``) is not one."""
    return [name for name in envs.ENVS if envs.spec(name).game.__module__.startswith("tablezoo.")]


def case_id(name: str, options: dict) -> str:
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def cases() -> list:
    out = []
    for name in envs.ENVS:
        for options in envs.VARIANTS[name]:
            out.append(pytest.param(name, options, id=case_id(name, options)))
    return out


def sim_chunks() -> list:
    out = []
    for name in envs.ENVS:
        games = max(1, round(SIM_GAMES.get(name, SIM_DEFAULT) * SCALE))
        for options in envs.VARIANTS[name]:
            for start in range(0, games, SIM_CHUNK):
                stop = min(games, start + SIM_CHUNK)
                out.append(pytest.param(name, options, start, stop,
                                        id=f"{case_id(name, options)}-games{start}-{stop}"))
    return out
