"""Beliefs for ``agents/ismcts.py``: which sampled worlds to keep.

``determinize`` samples uniformly over the worlds consistent with the rules (hand sizes, shown
voids). But the other players' earlier choices say more than the rules do: in bauer_trick a seat
that names hearts holds good hearts. ``belief="policy"`` keeps a sampled world only if the
search's own model of the players, its playout policy, would have taken the public choices the
game lets us rebuild (re-sampling up to ``tries`` times, then keeping the last world: a model
that disagrees with everything must not stall the search). Rejection sampling of this kind is
exact for a deterministic model: the kept worlds are uniform over those in which the model
would have acted as the players did.

Only the choices a game can rebuild from a full-information world are checked:
bauer_trick's trump call (``envs.bauer_trick.hidden.call_positions``). The check runs on the
sampled world only, so what the search keeps still depends only on what the seat has seen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from envs.core.game import State

# world -> the (position, seat, action) choices the model is checked on, in the order made
Rebuild = Callable[[State], Iterable[tuple[State, int, int]]]
BELIEFS = ("uniform", "policy")


def _bauer_trick_calls(world: State) -> Iterable[tuple[State, int, int]]:
    from envs.bauer_trick.hidden import call_positions

    return call_positions(world)


REBUILD: dict[str, Rebuild] = {"bauer_trick": _bauer_trick_calls}


def rebuild_for(game_name: str) -> Rebuild:
    """The game's rebuild of earlier public choices; refused, naming the games, without one."""
    if game_name not in REBUILD:
        raise ValueError(f"ismcts agent: belief='policy' cannot rebuild earlier choices in game "
                         f"{game_name!r}; games it can: {', '.join(REBUILD)}")
    return REBUILD[game_name]


def consistent(world: State, me: int, rebuild: Rebuild,
               policies: list[Callable[[State, int], int] | None]) -> bool:
    """Whether every other seat's rebuilt choice is the one its playout policy takes there
    (seats played uniformly at random, ``None``, accept anything)."""
    for position, seat, action in rebuild(world):
        policy = policies[seat]
        if seat != me and policy is not None and policy(position, seat) != action:
            return False
    return True
