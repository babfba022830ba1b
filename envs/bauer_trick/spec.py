"""The record of ``bauer_trick_v0`` (Bauer, the Saarland trick-taking game)."""

from __future__ import annotations

from typing import Any

from tablezoo.envs.bauer_trick import picture, render
from tablezoo.envs.bauer_trick.rules import BauerTrickGame
from tablezoo.envs.core.game import State
from tablezoo.envs.core.spec import GameSpec, register


def summary(state: State) -> dict[str, Any]:
    """Public facts of a finished game for the notebooks' tables, from its saved form."""
    saved = state.to_dict()
    return {"dealer": saved["dealer"], "calls": list(saved["calls"]), "trump": saved["trump"],
            "caller": saved["caller"], "tricks": list(saved["tricks"]),
            "deals": saved["deals_played"]}


SPEC = register(GameSpec(
    env_id="bauer_trick_v0",
    game=BauerTrickGame,
    variants=({}, {"episode": "deal"}, {"trump_selection": "forehand_on_four"}),
    tool_options={"episode": "deal"},  # single deals: the unit its agents are measured on
    views=render,
    picture=picture,
    summary=summary,
    compiled="tablezoo.envs.bauer_trick.compiled",
    agents="tablezoo.agents.games.bauer_trick",
))
