"""The last move of a game, as a picture highlights it and a move list names it.

A ``State`` keeps no history, so whoever applies a decision (the env with
``render_mode="rgb_array"``, the web app, a replay) records it first with ``record_move(before,
actions)``: each acting seat's action, what the other seats learn of it (the game's
``public_move``), the mover's own name for it (the menu line it chose, ``menu_label``) and the
public facts the game's picture shows after the move (``Picture.remember``: a trick that was
just completed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablezoo.envs.core.game import State


@dataclass(frozen=True)
class LastMove:
    """One decision: ``actions[p]`` for each seat that acted; ``public[p]`` what the others
    learn of it, ``own[p]`` the mover's own name for it (its menu line); ``facts`` the game's
    public extras."""

    actions: dict[int, int]
    public: dict[int, str]
    own: dict[int, str]
    facts: dict[str, Any] = field(default_factory=dict)

    def text(self, player: int, seat: int | None) -> str:
        """``player``'s move as ``seat`` may read it (``None``: the all-seeing view)."""
        return self.own[player] if seat is None or seat == player else self.public[player]

    def lines(self, player_name: Callable[[int], str], seat: int | None) -> list[str]:
        """``player_1: play J♥`` per mover, in seat order, as ``seat`` may read them
        (``player_name``: the game's ``player_name``)."""
        return [f"{player_name(p)}: {self.text(p, seat)}" for p in sorted(self.actions)]

    def to_dict(self) -> dict[str, Any]:
        return {"actions": {str(p): a for p, a in self.actions.items()},
                "public": {str(p): t for p, t in self.public.items()},
                "own": {str(p): t for p, t in self.own.items()}, "facts": self.facts}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LastMove:
        return cls({int(p): int(a) for p, a in data["actions"].items()},
                   {int(p): str(t) for p, t in data["public"].items()},
                   {int(p): str(t) for p, t in data["own"].items()}, dict(data.get("facts", {})))


def record_move(before: State, actions: Mapping[int, int]) -> LastMove:
    """The record of ``actions`` about to be applied to ``before`` (call it before ``apply``)."""
    from tablezoo.envs.pictures import picture_of

    game = before.game
    views = game.text_views()
    acts = {int(p): int(a) for p, a in actions.items()}
    return LastMove(
        actions=acts,
        public={p: views.public_move(before, p, a) for p, a in acts.items()},
        own={p: views.menu_label(before, a) for p, a in acts.items()},
        facts=picture_of(game).remember(before, acts),
    )
