"""The record of ``bauer_draft_v0`` (Bauer – The Card Game): what the library reaches."""

from __future__ import annotations

from typing import Any

from tablezoo.envs.bauer_draft import picture, render
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.game import State
from tablezoo.envs.core.spec import GameSpec, register


def summary(state: State) -> dict[str, Any]:
    """Public facts of a finished game for the notebooks' tables, from its saved form."""
    saved = state.to_dict()
    cards = [[entry["card"] for entry in row] for row in saved["tableau"]]
    return {"tableau": cards, "copies": [(c["copier"], c["target"]) for c in saved["copies"]]}


SPEC = register(GameSpec(
    env_id="bauer_draft_v0",
    game=BauerDraftGame,
    variants=tuple({"num_players": n} for n in (2, 3, 4, 5)),
    views=render,
    picture=picture,
    summary=summary,
    compiled="tablezoo.envs.bauer_draft.compiled",
    agents="tablezoo.agents.games.bauer_draft",
))
