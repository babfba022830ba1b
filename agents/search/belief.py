"""Beliefs for ``agents/search/ismcts.py``: which sampled worlds to keep.

``determinize`` samples uniformly over the worlds consistent with the rules (hand sizes, shown
voids). But the other players' earlier choices say more than the rules do: in bauer_trick a seat
that names hearts holds good hearts. ``belief="policy"`` keeps a sampled world only if the
search's own model of the players, its playout policy, would have taken the public choices the
game lets us rebuild (re-sampling up to ``tries`` times, then keeping the last world: a model
that disagrees with everything must not stall the search). Rejection sampling of this kind is
exact for a deterministic model: the kept worlds are uniform over those in which the model
would have acted as the players did.

Only the choices a game can rebuild from a full-information world are checked:
bauer_trick's trump call (``tablezoo.envs.bauer_trick.hidden.call_positions``). The check runs on
the sampled world only, so what the search keeps still depends only on what the seat has seen.

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

import itertools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tablezoo.envs.core.game import State

# world -> the (position, seat, action) choices the model is checked on, in the order made
Rebuild = Callable[[State], Iterable[tuple[State, int, int]]]
# (searcher's state, searcher) -> a redraw of one sampled world's hidden pieces, or None
Redraw = Callable[[State, np.random.Generator], None]
WorldBelief = Callable[[State, int], Redraw | None]
BELIEFS = ("uniform", "policy", "items")
BOWER_LEAN = 1.0  # the bower heuristic's read_opponent


def _bauer_trick_calls(world: State) -> Iterable[tuple[State, int, int]]:
    from tablezoo.envs.bauer_trick.hidden import call_positions

    return call_positions(world)


REBUILD: dict[str, Rebuild] = {"bauer_trick": _bauer_trick_calls}


def _for_game(table: dict[str, Any], game_name: str, missing: str) -> Any:
    """``table[game_name]``; refused without one, with ``missing`` and the games that have one."""
    if game_name not in table:
        raise ValueError(f"ismcts agent: {missing} in game {game_name!r}; games it has one "
                         f"for: {', '.join(table)}")
    return table[game_name]


def rebuild_for(game_name: str) -> Rebuild:
    """The game's rebuild of earlier public choices; refused, naming the games, without one."""
    return _for_game(REBUILD, game_name, "belief='policy' cannot rebuild earlier choices")


def consistent(world: State, me: int, rebuild: Rebuild,
               policies: list[Callable[[State, int], int] | None]) -> bool:
    """Whether every other seat's rebuilt choice is the one its playout policy takes there
    (seats played uniformly at random, ``None``, accept anything)."""
    for position, seat, action in rebuild(world):
        policy = policies[seat]
        if seat != me and policy is not None and policy(position, seat) != action:
            return False
    return True


def _bower_egg_lean(state: State, me: int) -> Redraw | None:
    """The redraw of bower's hidden eggs for ``me`` in this position (``None`` when fewer than
    two eggs are hidden: nothing to weigh)."""
    from tablezoo.agents.heuristics.bower import HeuristicAgent
    from tablezoo.agents.heuristics.bower.pieces import REQ_SLOT
    from tablezoo.envs.bower.components import EGG_CODES
    from tablezoo.envs.bower.hidden import hidden_egg_positions, place_eggs

    hidden = hidden_egg_positions(state, me)
    if len(hidden) < 2:
        return None
    reader = HeuristicAgent(seed=0)  # its reading of the observation only: nothing random
    reader._read(state.observe(me), state)
    units = reader.opp_stats.req  # per column, the opponent's units of each request slot
    # positions whose egg the opponent knows and I do not: its columns (the removed eggs, 6-7,
    # nobody builds for)
    read = [i for i, pos in enumerate(hidden) if pos < 6 and state.col_owner[pos] != me]
    # the eggs I have not seen, in a canonical order: the same whatever the truth is
    orders = list(itertools.permutations(sorted(state.eggs[pos] for pos in hidden)))
    logits = np.array([sum(units[hidden[i]][REQ_SLOT[EGG_CODES[order[i]]]] for i in read)
                       for order in orders], dtype=float)
    weights = np.exp(BOWER_LEAN * (logits - logits.max()))
    probs = weights / weights.sum()

    def redraw(world: State, rng: np.random.Generator) -> None:
        place_eggs(world, hidden, list(orders[int(rng.choice(len(orders), p=probs))]))

    return redraw


WORLD_BELIEFS: dict[str, WorldBelief] = {"bower": _bower_egg_lean}


def world_belief_for(game_name: str) -> WorldBelief:
    """The game's ``belief="items"``; refused, naming the games, without one."""
    return _for_game(WORLD_BELIEFS, game_name, "belief='items' has no reading of the others' items")
