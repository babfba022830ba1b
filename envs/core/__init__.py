"""Machinery shared by every tablezoo game: engine protocol, options, observation spec, errors,
and the generic PettingZoo AEC and parallel adapters. Nothing game-specific lives here."""

from tablezoo.envs.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    ResetNeededError,
    StateFormatError,
    TablezooError,
    UnknownAgentError,
)
from tablezoo.envs.core.game import Game, State, margin_rewards, rank_rewards
from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec
from tablezoo.envs.core.options import Option

__all__ = [
    "Game",
    "IllegalActionError",
    "InvalidOptionError",
    "ObsPiece",
    "ObsSpec",
    "Option",
    "ResetNeededError",
    "State",
    "StateFormatError",
    "TablezooError",
    "UnknownAgentError",
    "margin_rewards",
    "rank_rewards",
]
