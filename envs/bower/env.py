"""PettingZoo constructors of ``bower_v0`` (the generic core adapters over ``BowerGame``)."""

from tablezoo.envs.bower.rules import BowerGame
from tablezoo.envs.core.factory import env_functions

GAME_CLASS = BowerGame
env, raw_env, parallel_env = env_functions(GAME_CLASS, "bower_v0")
