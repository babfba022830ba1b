"""Beliefs for ``agents/search/ismcts.py``: which sampled worlds to keep.

``determinize`` samples uniformly over the worlds consistent with the rules (hand sizes, shown
voids). But the other players' earlier choices say more than the rules do: in bauer_trick a seat
that names hearts holds good hearts. ``belief="policy"`` keeps a sampled world only if the
search's own model of the players, its playout policy, would have taken the public choices the
game lets us rebuild (re-sampling up to ``tries`` times, then keeping the last world: a model
that disagrees with everything must not stall the search). Rejection sampling of this kind is
exact for a deterministic model: the kept worlds are uniform over those in which the model
would have acted as the players did.

Only the choices a game can rebuild from a full-information world are checked (its
``GameAgents.rebuild``; bauer_trick's trump call). The check runs on the sampled world only, so
what the search keeps still depends only on what the seat has seen.

``belief="items"`` weights instead of rejecting, where the evidence is public and cheap to
score: in bower the opponent sees the request eggs of its own columns and builds toward them, so
its nest says which egg lies where. Each sampled world's hidden eggs are redrawn jointly (every
egg in one place) with probability proportional to ``exp(lean * units)``, ``units`` summed over
the opponent's columns whose egg the searcher does not know: the units of that egg's request
the opponent has placed in that column. This is the bower heuristic's own reading of the
opponent (``read_opponent``, lean 1.0), made joint. The weights are worked out once per move from
the searcher's observation and the set of eggs it has not seen, so the redraw depends only on
what the seat has seen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tablezoo.agents.games import GameAgents, game_agents, games_with
from tablezoo.envs.core.game import State

# world -> the (position, seat, action) choices the model is checked on, in the order made
Rebuild = Callable[[State], Iterable[tuple[State, int, int]]]
# (searcher's state, searcher) -> a redraw of one sampled world's hidden pieces, or None
Redraw = Callable[[State, np.random.Generator], None]
WorldBelief = Callable[[State, int], Redraw | None]
BELIEFS = ("uniform", "policy", "items")


def _for_game(game_name: str, part: Callable[[GameAgents], Any], missing: str,
              who: str = "ismcts agent") -> Any:
    """The game's agent part ``part(agents)``; refused without one, with ``who``, ``missing``
    and the games that have one."""
    found = part(game_agents(game_name))
    if found is None:
        have = games_with(lambda agents: part(agents) is not None)
        raise ValueError(f"{who}: {missing} in game {game_name!r}; games it has one "
                         f"for: {', '.join(have)}")
    return found


def rebuild_for(game_name: str, who: str = "ismcts agent") -> Rebuild:
    """The game's rebuild of earlier public choices; refused, naming the games, without one."""
    return _for_game(game_name, lambda agents: agents.rebuild,
                     "belief='policy' cannot rebuild earlier choices", who)


def consistent(world: State, me: int, rebuild: Rebuild,
               policies: list[Callable[[State, int], int] | None]) -> bool:
    """Whether every other seat's rebuilt choice is the one its playout policy takes there
    (seats played uniformly at random, ``None``, accept anything)."""
    for position, seat, action in rebuild(world):
        policy = policies[seat]
        if seat != me and policy is not None and policy(position, seat) != action:
            return False
    return True


def sample_world(state: State, me: int, rng: np.random.Generator, rebuild: Rebuild,
                 policies: list[Callable[[State, int], int] | None], tries: int) -> State:
    """A determinization for ``me`` re-sampled (up to ``tries`` times, then the last one is
    kept) until ``policies`` would have made the other seats' rebuilt choices in it."""
    world = state.determinize(me, rng)
    for _ in range(tries - 1):
        if consistent(world, me, rebuild, policies):
            return world
        world = state.determinize(me, rng)
    return world


class AgentPolicy:
    """An agent object as a ``(state, player) -> action`` policy (a search's playouts, or its
    model of the others for ``belief="policy"``); ``agent`` stays reachable for its
    ``action_values``."""

    __slots__ = ("agent",)

    def __init__(self, agent: Any):
        self.agent = agent

    def __call__(self, state: State, player: int) -> int:
        return self.agent.act(state.observe(player), state.legal_mask(player), state=state,
                              player=player)


def world_belief_for(game_name: str) -> WorldBelief:
    """The game's ``belief="items"``; refused, naming the games, without one."""
    return _for_game(game_name, lambda agents: agents.world_belief,
                     "belief='items' has no reading of the others' items")
