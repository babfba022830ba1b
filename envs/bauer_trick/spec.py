"""The record of ``bauer_trick_v0`` (Bauer, the Saarland trick-taking game)."""

from tablezoo.envs.bauer_trick import picture, render
from tablezoo.envs.bauer_trick.rules import BauerTrickGame
from tablezoo.envs.core.spec import GameSpec, register

SPEC = register(GameSpec(
    env_id="bauer_trick_v0",
    game=BauerTrickGame,
    variants=({}, {"episode": "deal"}, {"trump_selection": "forehand_on_four"}),
    tool_options={"episode": "deal"},  # single deals: the unit its agents are measured on
    views=render,
    picture=picture,
    compiled="tablezoo.envs.bauer_trick.batched",
    agents="tablezoo.agents.games.bauer_trick",
))
