"""Pictures of positions: every game's ``picture`` module draws its ``State`` as SVG text.

``state.to_svg(seat=None, last=None)`` (and ``_repr_svg_``, so a notebook shows a state inline)
calls ``to_svg`` here, which draws with the picture its record names (``envs/<game>/picture.py``).
``seat=None`` draws everything (a debugging view, as ``str(state)``); a seat draws only what that
seat may see: exactly what its observation holds (hidden cards as backs, unseen eggs as ``?``),
which the tests check by re-sampling the hidden information with ``state.determinize``. ``last``
is the decision that led to the position (``moves.LastMove``, recorded by the env or the web app
before it applies the move), drawn highlighted.

``svg`` holds the generic drawing helpers, ``raster`` turns SVG into an RGB array (cairosvg, the
``pictures`` extra, imported only when asked), ``animation`` writes a list of positions as a GIF
or MP4 (imageio).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tablezoo.envs.core.game import Game, State
    from tablezoo.envs.pictures.moves import LastMove


@runtime_checkable
class Picture(Protocol):
    """What a game's ``picture`` module offers."""

    def draw(self, state: State, seat: int | None, last: LastMove | None,
             choices: Collection[int]) -> str:
        """The SVG text of ``state``: all-seeing (``seat=None``) or what ``seat`` may see;
        ``last`` highlighted; elements standing for an action in ``choices`` (the legal moves of
        ``seat``) carry ``data-action="ID"`` so a page can make them clickable."""
        ...

    def remember(self, before: State, actions: dict[int, int]) -> dict[str, Any]:
        """Public facts about a decision that the position after it no longer shows (a trick
        that was just completed), JSON-safe, for the highlight of the last move."""
        ...


def picture_of(game: Game) -> Picture:
    """The picture of ``game``: its record's ``picture`` (``envs/<game>/picture.py``)."""
    from tablezoo.envs.core.spec import spec_of

    picture = spec_of(game).picture
    if picture is None:
        raise NotImplementedError(f"{game.name}: its record names no picture")
    return picture


def to_svg(state: State, seat: int | None = None, last: LastMove | None = None,
           choices: Collection[int] = ()) -> str:
    """The SVG picture of ``state``; see ``Picture.draw``. A seat outside the game raises
    ``ValueError`` naming the seats."""
    n = state.game.num_players
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < n):
        raise ValueError(f"{state.game.name}: seat={seat!r}; allowed: None (everything) or a "
                         f"seat 0..{n - 1}")
    return picture_of(state.game).draw(state, seat, last, choices)
