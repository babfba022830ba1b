"""bauer_trick's agent parts: the heuristic (Python and compiled), ISMCTS's defaults, the
double-dummy solver as a leaf value and the trump call as the checked public choice."""

from tablezoo.agents.games import GameAgents
from tablezoo.agents.games.bauer_trick.heuristic import HeuristicAgent
from tablezoo.agents.games.bauer_trick.solver import DoubleDummyValue
from tablezoo.agents.search.defaults import GameDefaults
from tablezoo.agents.search.leaf_values import LeafValue
from tablezoo.envs.bauer_trick.hidden import call_positions

AGENTS = GameAgents(
    heuristic=HeuristicAgent,
    compiled_heuristic="tablezoo.agents.games.bauer_trick.compiled_heuristic",
    # cheap heuristic playouts; the tree covers all four seats (partner and opponents); a deal
    # is at most 36 decisions, so the cut-off only matters for episode="game" (about one deal,
    # then the points margin)
    search=GameDefaults(iterations=800, playout="heuristic", depth=40, leaf_scale=1.0),
    leaf_values={"solver": LeafValue(lambda scale, turns: DoubleDummyValue())},
    rebuild=call_positions,
)
