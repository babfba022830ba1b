"""The record of ``ethnos_v0`` (Ethnos): what the registry, agents and tools reach."""

from __future__ import annotations

from typing import Any

from tablezoo.envs.core.game import State
from tablezoo.envs.core.spec import GameSpec, register
from tablezoo.envs.ethnos import picture, render
from tablezoo.envs.ethnos.rules import EthnosGame


def summary(state: State) -> dict[str, Any]:
    """Public facts of a finished game for the notebooks' tables, from its saved form."""
    saved = state.to_dict()
    return {"tribes": list(saved["tribes"]), "first_player": saved["first_player"],
            "ages": saved["age"] + 1}


SPEC = register(GameSpec(
    env_id="ethnos_v0",
    game=EthnosGame,
    variants=tuple({"num_players": n} for n in (2, 3, 4, 5, 6)),
    views=render,
    picture=picture,
    summary=summary,
    compiled="tablezoo.envs.ethnos.compiled",
    agents="tablezoo.agents.games.ethnos",
))
