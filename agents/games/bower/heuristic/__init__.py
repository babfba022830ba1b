"""A rule-of-thumb player for ``bower`` that reads only its own observation.

Strategy: one-ply greedy search on a hand-written *position value*, in units of "egg tokens I
expect to gain over the opponent". The value of a pair of nests is

* **materials**: ``tanh((my largest group - theirs) / s)`` for straw, moss and gravel (the pink
  shell breaks a moss tie);
* **columns**: for every column and every item the column's egg may request,
  ``P(request) * tanh((my count - theirs) / s)``; my own eggs (and spied ones) are certain; the
  other columns start uniform over the eggs I have not seen (the exact posterior without
  further evidence) and then lean towards the items the opponent, who sees that egg, has put in
  that column (weight ``exp(read_opponent * units)``); ties with items go to the pink column,
  then to shells, as at scoring;
* **egg tiles** held by either player: a soft chance that the holder's colour/shell count wins;
* **gems** (my nest): a bonus tile (worth ``bonus_value`` eggs) when a placement meets a new
  column/group condition, plus a small credit for unflagged columns and groups on their way to
  3 gems;
* **holes**: a penalty for every empty region of odd size in my nest, because a domino can never
  fill its last cell (the 12 turns fill the 24 cells exactly, so a hole costs half a turn).

``s`` shrinks as my turns run out: early leads are soft, late leads are nearly certain. Every
decision is the action with the best value after it (ties broken by the agent's own generator,
or with ``tie_break="first"`` the first tied action id, as the compiled heuristic beside this does):
play = best tile and placement; take/draft = the display tile that gives the best play now
plus a share of the best play of the tile kept for later and of what taking it denies the
opponent (its best play from the display with and without that tile); discards = the tile
with the weakest best play; keep = the bonus tile with the largest estimated value (token
targets and branch placements are valued by the same position value, egg tiles by their chance
of paying); token targets, branches and cover placements = argmax of the value (PASS when
nothing helps); force = the display tile worth least to the opponent; the bonus and the discard
effect are always taken; the double turn is declined (it only reorders turns).

Information: everything comes from the seat's own observation (nests, known eggs, display,
own hand, kept tiles, token supply, phase, turn counters). When the engine ``state`` is passed
it is read only for public facts (the game options and which kept bonus tile is being
resolved); never for eggs, decks or hidden hands.

Speed: a take weighs about a hundred placements, so the cost is the position value. A ``Nest``
keeps its column and nest sums as Python ints moved by each changed cell; the column terms are
memoised per (request probabilities, ``s_col``) and summed in numpy's pairwise order, so values
are the same to the bit; group facts and decoded nests are memoised too (bounded).
"""

from __future__ import annotations

from tablezoo.agents.games.bower.heuristic.agent import HeuristicAgent
from tablezoo.agents.games.bower.heuristic.evaluation import (
    Context,
    Stats,
    contest_value,
    nest_stats,
    own_extras,
)
from tablezoo.agents.games.bower.heuristic.pieces import (
    Nest,
    Tile,
    cell_stats,
    decode_nest,
    decode_tile,
    nb_tile,
)

# The package splits the agent by concern: ``pieces`` (decoding the observation into nests and
# tiles), ``evaluation`` (nest statistics and the position value), ``agent`` (reading the
# observation, the request-probability belief and the choice of every decision).
__all__ = [
    "Context",
    "HeuristicAgent",
    "Nest",
    "Stats",
    "Tile",
    "cell_stats",
    "contest_value",
    "decode_nest",
    "decode_tile",
    "nb_tile",
    "nest_stats",
    "own_extras",
]
