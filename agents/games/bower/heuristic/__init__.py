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
decision is the action with the best value after it (ties broken by the agent's own generator):
play = best tile and placement; take/draft = the display tile that gives the best play now
plus a share of the best play of the tile kept for later and of what taking it denies the
opponent (its best play from the display with and without that tile); discards = the tile
with the weakest best play; keep = the bonus tile with the largest estimated value (token
targets and branch placements are valued by the same position value, egg tiles by their chance
of paying); token targets, branches and cover placements = argmax of the value (PASS when
nothing helps); force = the display tile worth least to the opponent; the bonus and the discard
effect are always taken; the double turn is declined (it only reorders turns).

Tuning (heuristic against its default self, 120 games on duplicate seeds, mean reward with 95%
interval): no hole penalty -0.24 [-0.40, -0.08]; reading the opponent's columns (0.7) +0.23
[+0.07, +0.39] and (1.5) +0.25 [+0.09, +0.41], hence the default 1.0; then denying the
opponent's best display tile with weight 0.5 +0.17 [+0.01, +0.34] (and +0.15 [+0.00, +0.30]
on 160 fresh seeds; 0.3 and 1.0 were weaker); the bonus value (0.25,
0.9, 1.3) and the weight of the tile kept for later (0, 0.6) made no clear difference.

Strength (``tablezoo evaluate --env bower_v0 --agent heuristic --games 400``, seats
alternating): against uniform random play 400 wins in 400 games (Wilson 95% [99.05%, 100%]),
mean egg margin +7.01 [+6.84, +7.18] (``--env-option reward=egg_diff``); against the generic
search agent with 32 rollouts per decision 40 wins in 40 games.

Information: everything comes from the seat's own observation (nests, known eggs, display,
own hand, kept tiles, token supply, phase, turn counters). When the engine ``state`` is passed
it is read only for public facts (the game options and which kept bonus tile is being
resolved); never for eggs, decks or hidden hands.

Speed: a take weighs about a hundred placements (its own and the opponent's best plays of each
display tile), so the cost is the position value. A ``Nest`` keeps its column and nest sums
as Python ints, moved by each changed cell; the column terms of the value are memoised per
(request probabilities, ``s_col``) and summed in numpy's pairwise order, so values are the same
to the bit; the group facts of a nest's bitboards and whole decoded nests are memoised too
(bounded). In an ISMCTS search, whose playouts meet the same nests again and again, this made
the heuristic twice as fast with the same decisions (``tests/agents/
test_agents_bower_heuristic_speed.py`` checks the sums, the memos and the value to the bit).
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
