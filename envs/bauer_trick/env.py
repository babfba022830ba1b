"""PettingZoo constructors of ``bauer_trick_v0`` (the generic core adapters)."""

from tablezoo.envs.bauer_trick.rules import BauerTrickGame
from tablezoo.envs.core.factory import env_functions

GAME_CLASS = BauerTrickGame
env, raw_env, parallel_env = env_functions(GAME_CLASS, "bauer_trick_v0")
