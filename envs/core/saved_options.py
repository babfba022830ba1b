"""A saved state's record of its game's options, and the check that a game loading the state
has the same ones (the same position under other rules is another game)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tablezoo.envs.core.game import Game, require, short


def options_record(options: Mapping[str, Any]) -> dict[str, Any]:
    """A game's options as a saved state records them: JSON's own types (tuples as lists)."""
    return json.loads(json.dumps(dict(options)))


def check_saved_options(game: Game, data: Mapping[str, Any], label: str) -> None:
    """A saved state's ``"options"`` (optional: states saved before games recorded them have
    none) must be the loading game's own: the same position under other rules is another game,
    and loading it silently would play it by the wrong rules."""
    if "options" not in data:
        return
    saved = data["options"]
    require(isinstance(saved, dict), f"{label}: options must be a dict, got {short(saved)}")
    own = options_record(game.options)
    differ = sorted(k for k in set(saved) | set(own) if saved.get(k) != own.get(k))
    require(not differ, f"{label}: saved under other options ({', '.join(differ)}: "
            f"{short({k: saved.get(k) for k in differ})}) than this game's "
            f"({short({k: own.get(k) for k in differ})}); make the game with the saved options")
