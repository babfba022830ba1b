"""The record of ``bower_v0`` (Bower): what the registry, agents and tools reach."""

from tablezoo.envs.bower import picture, render
from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.spec import GameSpec, register

SPEC = register(GameSpec(
    env_id="bower_v0",
    game=BowerGame,
    variants=({}, {"double_turn_mode": "swap"}, {"hands_public": False},
              {"bonus_optional": False, "flag_all_triggers": False}),
    views=render,
    picture=picture,
    agents="tablezoo.agents.games.bower",
))
