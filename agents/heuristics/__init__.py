"""Hand-written baseline agents, one module per game (``agents/heuristics/<game>.py``).

A game adds its heuristic by writing the module and one line in ``HEURISTICS``; the registry
imports it only when asked for, so one game's heuristic can never break another's import.
"""

from __future__ import annotations

import importlib

from tablezoo.agents.base import BaseAgent

# env name -> "module:class"
HEURISTICS: dict[str, str] = {
    "bauer_trick_v0": "tablezoo.agents.heuristics.bauer_trick:HeuristicAgent",
    "bauer_draft_v0": "tablezoo.agents.heuristics.bauer_draft:HeuristicAgent",
    "ethnos_v0": "tablezoo.agents.heuristics.ethnos:HeuristicAgent",
    "bower_v0": "tablezoo.agents.heuristics.bower:HeuristicAgent",
}


def heuristic_class(env_name: str) -> type[BaseAgent]:
    """The heuristic agent class of ``env_name``; a clear error if that game has none yet."""
    if env_name not in HEURISTICS:
        raise ValueError(
            f"no heuristic agent for env {env_name!r}; envs with one: {', '.join(HEURISTICS)}"
        )
    module_name, class_name = HEURISTICS[env_name].split(":")
    return getattr(importlib.import_module(module_name), class_name)
