"""ISMCTS's per-game settings (``GameDefaults``): each game's agent record
(``agents/games/<game>/__init__.py``) declares its own; ``FALLBACK`` serves a game without one."""

from __future__ import annotations

from dataclasses import dataclass


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
