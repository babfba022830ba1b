"""bauer_draft's compiled engine (numba): ``make_vector`` of ``vector``, stepped by ``kernels``.

The rules are the Python engine's ``rules`` and ``effects``, written again over arrays
(``layout``: the columns, the options vector, the card tables and the small moves; ``kernels``:
the deal, the round, the effect queue, each decision and the step; ``encoding``: the seat asked,
legality, mask, observation and global state; ``scoring``: the final scores and returns).
Slot ``i``'s whole position is row ``i`` of one int64 matrix ``S``, its generator row ``i`` of the
uint64 ``rng`` (PCG32: state, increment). Ordered card lists (hands, piles with the top card last,
the central deck, the discards) are a count and a block of card ids; the tableaux are one bit mask
per seat plus per-card columns (owner, play number, round, how played), so a seat's tableau in play
order is its cards sorted by play number; a seat's memory is a pile id per card (-1: none) and what
it tracks of hidden cards two bit masks (exact place, in a shuffled pile). The effect queue is a
ring of packed ``(task, card, seat)`` entries. The options and the seat count's observation and
global-state offsets come in the int64 vector ``opts``.

The vector contract's simultaneous select (``envs/vector/base.py``): the seats are asked one after
another, lowest first; each answer waits in ``PEND`` (``ASKED`` counts them) and the joint select
is applied once the last seat has answered, so every seat's observation is the position before
any choice of the phase, as the Python engines' loop does it. One joint decision counts once
toward ``max_decisions``.

One call from Python runs a loop over every slot: ``kernels.step`` checks every action, applies
them, restarts finished games and writes every next decision (observation and mask in place).
The effects are small functions over ``(S, i)``, as the Python engine's are over the state;
everything is ``cache=True``.

Randomness: each slot's generator and its exactly uniform shuffles are the shared ones of
``tablezoo.envs.vector.kernels``: the deal is a shuffle of the 55 cards cut into piles and the
central deck as the Python engine cuts its permutation; Uggel-Guggel shuffles each pile.
"""

from __future__ import annotations

from tablezoo.envs.vector.kernels import drop_stale_cache

drop_stale_cache(__file__)  # before the kernels load: numba's cache misses changes elsewhere

from tablezoo.envs.bauer_draft.compiled.vector import BauerDraftVector, make_vector  # noqa: E402

__all__ = ["BauerDraftVector", "make_vector"]
