"""PettingZoo constructors of ``bauer_draft_v0`` (the generic core adapters)."""

from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.core.factory import env_functions

GAME_CLASS = BauerDraftGame
env, raw_env, parallel_env = env_functions(GAME_CLASS, "bauer_draft_v0")
