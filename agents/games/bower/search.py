"""bower's search hooks for ISMCTS: the heuristic's position value as a leaf value, and the
redraw of the hidden eggs by what the opponent has built (``belief="items"``).

``"heuristic"`` scores a pair of nests in "egg tokens I expect to gain over the opponent" from
one seat's observation (materials, columns with the request probabilities it believes, egg
tiles, gems, holes); bower's scores stay 0 until the end, so the score margin says nothing
there. ``"world_heuristic"`` is the same value with the sampled world's request eggs in place of
the searcher's probabilities, so the average over the worlds follows the search's belief about
the hidden eggs, where each egg lies in one place. ``"trained_world"`` is ``"world_heuristic"``
read with the shipped model's evolved parameters (``agents/pretrained/bower_2p``): the value of
the learned player, for a search built on it.

The redraw weights each sampled world's hidden eggs, redrawn jointly, by ``exp(lean * units)``,
``units`` summed over the opponent's columns whose egg the searcher does not know: the units of
that egg's request the opponent has placed there (the heuristic's own ``read_opponent``, lean
1.0, made joint). The weights come from the searcher's observation and the set of eggs it has
not seen, so the redraw depends only on what the seat has seen.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.agents.games.bower.heuristic.evaluation import Context
from tablezoo.agents.games.bower.heuristic.pieces import REQ_SLOT
from tablezoo.agents.search.belief import Redraw
from tablezoo.envs.bower.components import EGG_CODES
from tablezoo.envs.bower.hidden import hidden_egg_positions, place_eggs
from tablezoo.envs.bower.rules import TURNS_PER_PLAYER
from tablezoo.envs.core.game import State

LEAN = 1.0  # the bower heuristic's read_opponent


class BowerValue:
    """tanh(heuristic egg-difference estimate / ``scale``) for the searcher, the negative for the
    opponent (bower has two seats). Read from the searcher's observation of the sampled world,
    so it values the position with the searcher's beliefs, as the heuristic itself does; with
    ``world_eggs`` the request probabilities are the world's own eggs instead (one per column).
    With ``exact_turns`` > 0 it declines (``None``: play on to the end) once at most that many
    turns of the game are left: there the playout is short, and the real eggs and the win
    decide, where the estimate only expects eggs."""

    def __init__(self, scale: float = 2.0, world_eggs: bool = False, exact_turns: int = 0,
                 params: dict[str, float] | None = None):
        self.scale = scale
        self.world_eggs = world_eggs
        self.exact_turns = exact_turns
        self.total_turns = 2 * TURNS_PER_PLAYER
        self.make_context = Context
        self.request_slot = [REQ_SLOT[code] for code in EGG_CODES]  # egg id -> request slot
        # only its evaluation is used (no random choice), with ``params`` for its defaults
        self.reader = HeuristicAgent(seed=0, **(params or {}))

    def __call__(self, state: State, player: int) -> list[float] | None:
        if self.exact_turns and self.total_turns - sum(state.turns) <= self.exact_turns:
            return None
        reader = self.reader
        reader._read(state.observe(player), state)
        if self.world_eggs:
            ctx = reader.ctx
            probs = np.zeros((6, 8))
            for c in range(6):
                probs[c, self.request_slot[state.eggs[c]]] = 1.0
            reader.ctx = self.make_context(probs, ctx.eb_mine, ctx.eb_theirs, ctx.rem,
                                           ctx.bonus_value, ctx.hole_penalty)
        v = math.tanh(reader._value(reader.nests[0]) / self.scale)
        out = [-v, -v]
        out[player] = v
        return out


def shipped_parameters() -> dict[str, float]:
    """The evolved heuristic parameters of bower's shipped model."""
    from tablezoo.agents.learned.heuristic_weights import load_weights
    from tablezoo.agents.learned.policy import shipped_models

    (path,) = shipped_models("bower_v0")
    return load_weights(path, "bower_v0").params


def egg_lean(state: State, me: int) -> Redraw | None:
    """The redraw of bower's hidden eggs for ``me`` in this position (``None`` when fewer than
    two eggs are hidden: nothing to weigh)."""
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
    weights = np.exp(LEAN * (logits - logits.max()))
    probs = weights / weights.sum()

    def redraw(world: State, rng: np.random.Generator) -> None:
        place_eggs(world, hidden, list(orders[int(rng.choice(len(orders), p=probs))]))

    return redraw
