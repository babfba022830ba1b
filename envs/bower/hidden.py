"""Bower's hidden information: ``determinize`` re-samples what one seat cannot see.

Used by information-set search agents (``BowerState.determinize`` delegates here). The result
depends only on that seat's information and the rng: each hidden pool is put in a canonical
(sorted) order before it is shuffled, so where the truth holds the hidden pieces never matters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.bower.actions import PH_OVER
from tablezoo.envs.bower.components import NUM_EGGS
from tablezoo.envs.bower.observation import S_ALL

if TYPE_CHECKING:
    from tablezoo.envs.bower.rules import BowerState


def determinize(state: BowerState, player: int, rng: np.random.Generator) -> BowerState:
    """Re-sample what ``player`` cannot see: unknown eggs, the stack order, the bonus deck
    order, the opponent's bonus discards and a bonus draw held by the opponent."""
    s = state.clone()
    s.rng = np.random.default_rng(int(rng.integers(1 << 62)))
    if state.phase != PH_OVER:
        hidden = [pos for pos in range(NUM_EGGS) if not state.knows_egg(player, pos)]
        perm = rng.permutation(len(hidden))
        values = sorted(state.eggs[pos] for pos in hidden)
        for pos, k in zip(hidden, perm):
            s.eggs[pos] = values[k]
    # The stack order; never a hand tile: each one came from the public display or is a kept
    # nest bonus tile, so both seats know both hands whatever ``hands_public`` says.
    tiles = sorted(s.stack)
    s.stack = [tiles[i] for i in rng.permutation(len(tiles))]
    # Bonus tiles whose place player cannot know: deck, the opponent's discards, and a
    # draw in the opponent's hands.
    pool = list(s.bonus_deck)
    slots = [i for i, by in enumerate(s.discard_by) if by != player]
    pool += [s.bonus_discard[i] for i in slots]
    hidden_draw = bool(s.drawn) and s.turn_player != player
    if hidden_draw:
        pool += s.drawn
    pool = sorted(pool)
    pool = [pool[i] for i in rng.permutation(len(pool))]
    n = len(s.bonus_deck)
    s.bonus_deck = pool[:n]
    k = n
    for i in slots:
        s.bonus_discard[i] = pool[k]
        k += 1
    if hidden_draw:
        s.drawn = pool[k : k + len(s.drawn)]
    s._dirty = [S_ALL, S_ALL]
    return s


def hidden_egg_positions(state: BowerState, player: int) -> list[int]:
    """The egg positions (0-5 columns, 6-7 removed) whose egg ``player`` does not know."""
    return [pos for pos in range(NUM_EGGS) if not state.knows_egg(player, pos)]


def place_eggs(world: BowerState, positions: list[int], eggs: list[int]) -> None:
    """Put ``eggs`` at ``positions`` of a sampled ``world`` (a belief's redraw of what
    ``determinize`` dealt uniformly); both observations are encoded afresh."""
    if sorted(world.eggs[pos] for pos in positions) != sorted(eggs):
        raise ValueError(f"place_eggs: eggs {sorted(eggs)} are not the ones at positions "
                         f"{positions}; a redraw may only move those")
    for pos, egg in zip(positions, eggs):
        world.eggs[pos] = egg
    world._dirty = [S_ALL, S_ALL]


__all__ = ["determinize", "hidden_egg_positions", "place_eggs"]
