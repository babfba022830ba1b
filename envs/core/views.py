"""What a game shows a person: the per-game hooks behind the terminal player and the renderers.

Every game's ``render.py`` module implements ``TextViews`` and its ``Game.text_views()`` returns
that module, so a tool asks the game for its views and never probes for optional functions.
``plain_menu_label`` and ``no_menu_groups`` are the defaults a game without its own menu layout
assigns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tablezoo.envs.core.game import State

# (key, title, actions): one line of a two-step menu, e.g. ("h0", "tile T15", [placements])
MenuGroup = tuple[str, str, list[int]]


@runtime_checkable
class TextViews(Protocol):
    """The text views of one game, as its ``render`` module provides them."""

    LEGEND: str
    """What the codes in the views mean (``?`` in the terminal player)."""

    def render_seat(self, state: State, seat: int, colour: bool = False) -> str:
        """Everything ``seat`` may see and nothing else (hidden cards as counts or ``?``);
        ``colour`` adds ANSI colours where the game has them."""
        ...

    def explain(self, token: str) -> str | None:
        """The full text of a card or tile named by its code (``help ID``), or None."""
        ...

    def public_move(self, state: State, player: int, action: int) -> str:
        """``player``'s decision as the other seats learn of it (hidden choices stay hidden)."""
        ...

    def menu_label(self, state: State, action: int) -> str:
        """One menu line for a legal ``action``."""
        ...

    def menu_groups(self, state: State, seat: int, legal: list[int]) -> list[MenuGroup]:
        """A two-step menu for a decision with many actions, or ``[]`` for one flat list."""
        ...


def plain_menu_label(state: State, action: int) -> str:
    """The action's own name: the menu line of a game whose names say enough."""
    return state.game.action_name(action)


def no_menu_groups(state: State, seat: int, legal: list[int]) -> list[MenuGroup]:
    """One flat menu."""
    return []
