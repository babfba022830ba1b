"""Gymnasium spaces and agent names derived from a ``Game`` (shared by both adapters)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from tablezoo.envs.core.game import Game

MASK_DTYPE = np.int8


def agent_names(game: Game) -> list[str]:
    return [game.player_name(p) for p in range(game.num_players)]


def observation_space(game: Game, kind: str = "default") -> spaces.Dict:
    """``{"observation": Box, "action_mask": Box(int8)}``; the mask has one extra NOOP slot.
    ``kind="information_state"``: the Box of ``game.information_state_spec``."""
    spec = game.observation_spec(kind)
    return spaces.Dict(
        {
            "observation": spaces.Box(spec.low, spec.high, (spec.size,), spec.low.dtype),
            "action_mask": spaces.Box(0, 1, (game.num_actions + 1,), MASK_DTYPE),
        }
    )


def action_space(game: Game) -> spaces.Discrete:
    """The game's actions plus NOOP (id ``num_actions``), legal only for a waiting agent in the
    parallel env."""
    return spaces.Discrete(game.num_actions + 1)


def state_space(game: Game) -> spaces.Box:
    """The Box of ``env.state()``, bounds per entry from ``game.state_spec``."""
    spec = game.state_spec
    return spaces.Box(spec.low, spec.high, (spec.size,), spec.low.dtype)
