"""The record of ``bower_v0`` (Bower): what the registry, agents and tools reach."""

from __future__ import annotations

from typing import Any

from tablezoo.envs.bower import picture, render
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.game import State
from tablezoo.envs.core.spec import GameSpec, register


def summary(state: State) -> dict[str, Any]:
    """Public facts of a finished game for the notebooks' tables, from its saved form."""
    saved = state.to_dict()
    return {"bonus_kept": [list(row) for row in saved["bonus_kept"]],
            "start_player": saved["start_player"]}


SPEC = register(GameSpec(
    env_id="bower_v0",
    game=BowerGame,
    variants=({}, {"double_turn_mode": "swap"}, {"hands_public": False},
              {"bonus_optional": False, "flag_all_triggers": False}),
    views=render,
    picture=picture,
    summary=summary,
    compiled="tablezoo.envs.bower.compiled",
    agents="tablezoo.agents.games.bower",
))
