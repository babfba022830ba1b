"""ethnos's agent parts: the heuristic (Python and compiled), ISMCTS's defaults and the Age-end
leaf value."""

from tablezoo.agents.games import GameAgents
from tablezoo.agents.games.ethnos.heuristic import HeuristicAgent
from tablezoo.agents.games.ethnos.search import EthnosAgeEndValue
from tablezoo.agents.search.defaults import GameDefaults
from tablezoo.agents.search.leaf_values import LeafValue

AGENTS = GameAgents(
    heuristic=HeuristicAgent,
    compiled_heuristic="tablezoo.agents.games.ethnos.compiled_heuristic",
    exact_heuristic={"tie_noise": 0.0},
    # long games, glory only at Age ends: heuristic playouts cut after 10 decisions, valued by
    # the glory margins if the Age ended there; the others modelled by the heuristic; 160
    # iterations for every player count (the heuristic's 2.6x speed-up brought 4 players' 160
    # iterations under what 2 players' cost before it)
    search=GameDefaults(iterations=160, playout="heuristic", depth=10, evaluator="age_end",
                        keys="policy"),
    leaf_values={"age_end": LeafValue(lambda scale, turns: EthnosAgeEndValue(scale))},
)
