"""PettingZoo constructors of ``ethnos_v0`` (generic adapters of ``tablezoo.envs.core``)."""

from tablezoo.envs.core.factory import env_functions
from tablezoo.envs.ethnos.rules import EthnosGame

env, raw_env, parallel_env = env_functions(EthnosGame, "ethnos_v0")

__all__ = ["env", "parallel_env", "raw_env"]
