"""The record of ``bauer_draft_v0`` (Bauer – The Card Game): what the library reaches."""

from tablezoo.envs.bauer_draft import picture, render
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.spec import GameSpec, register

SPEC = register(GameSpec(
    env_id="bauer_draft_v0",
    game=BauerDraftGame,
    variants=tuple({"num_players": n} for n in (2, 3, 4, 5)),
    views=render,
    picture=picture,
    agents="tablezoo.agents.games.bauer_draft",
))
