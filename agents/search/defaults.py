"""ISMCTS's settings: what a user asks of one agent (``SearchSettings``) and each game's
defaults for what it leaves unset (``GameDefaults``): each game's agent record
(``agents/games/<game>/__init__.py``) declares its own; ``FALLBACK`` serves a game without one.
The fields of the two share their names, so a setting reads the same in both."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True)
class SearchSettings:
    """The options of one ``ISMCTSAgent`` (its docstring explains each); ``None`` takes the
    game's ``GameDefaults`` value at the first move. These fields are the keywords
    ``make_agent("ismcts", ...)`` and spec strings (``ismcts:iterations=300``) accept."""

    iterations: int | None = None
    seconds: float | None = None  # a time budget per move instead of iterations
    exploration: float | None = None
    playout: Any = None  # "random", "heuristic", "trained", an agent or a callable
    depth: int | None = None
    leaf_scale: float | None = None
    prior: Any = "default"  # "default": the game's; None: no prior
    model: str | None = None  # a numpy model file "trained" plays instead of the shipped one
    prior_weight: float | None = None
    evaluator: Any = None  # a named leaf evaluator or a callable
    margin_weight: float | None = None
    keys: str | None = None
    candidates: int | None = None
    paired: bool | None = None
    belief: str | None = None
    belief_tries: int = 20
    exact_turns: int | None = None
    reuse: bool = True
    max_nodes: int | None = None


@dataclass(frozen=True)
class GameDefaults:
    """The documented default budget and playout set-up of one game (tuned: agents/README.md)."""

    iterations: int
    # when set, the iterations are ``seat_budget // num_players`` instead: a playout costs about
    # one heuristic call per seat and round, so more players get fewer iterations per move
    seat_budget: int | None = None
    playout: str = "random"
    depth: int | None = None
    leaf_scale: float = 10.0
    exploration: float = 0.7
    prior_weight: float = 1.0
    evaluator: str = "score"
    margin_weight: float = 0.0
    keys: str = "searcher"
    # search only the prior's ``candidates`` best root actions (by its ``action_values``)
    candidates: int | None = None
    # keys="root" only: each sampled world is played from every candidate (common random numbers)
    paired: bool = False
    prior: str = "heuristic"
    # "policy": keep only sampled worlds in which the playout policy would have made the others'
    # earlier public choices; "items": redraw a world's hidden pieces by what the others have
    # built (bower's eggs; ``agents/search/belief.py``); "uniform": every consistent world
    belief: str = "uniform"
    # bower's heuristic evaluators: play on to the real end at a cut-off with at most this many
    # turns of the game left (0: never)
    exact_turns: int = 0
    # the defaults to use instead where these name a ``"trained"`` policy and no model is shipped
    # for the game's player count (an explicit ``playout="trained"`` is refused there instead)
    untrained: GameDefaults | None = None

    def needs_model(self) -> bool:
        return "trained" in (self.playout, self.prior)


FALLBACK = GameDefaults(iterations=100)
