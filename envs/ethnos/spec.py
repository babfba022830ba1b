"""The record of ``ethnos_v0`` (Ethnos): what the registry, agents and tools reach."""

from tablezoo.envs.core.spec import GameSpec, register
from tablezoo.envs.ethnos import picture, render
from tablezoo.envs.ethnos.rules import EthnosGame

SPEC = register(GameSpec(
    env_id="ethnos_v0",
    game=EthnosGame,
    variants=tuple({"num_players": n} for n in (2, 3, 4, 5, 6)),
    views=render,
    picture=picture,
    agents="tablezoo.agents.games.ethnos",
))
