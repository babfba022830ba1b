"""bower's agent parts: the heuristic (Python and compiled), ISMCTS's defaults, the heuristic's
position value as leaf values and the egg redraw by what the opponent has built."""

from tablezoo.agents.games import GameAgents
from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.agents.games.bower.search import BowerValue, egg_lean, shipped_parameters
from tablezoo.agents.search.defaults import GameDefaults
from tablezoo.agents.search.leaf_values import LeafValue

AGENTS = GameAgents(
    heuristic=HeuristicAgent,
    compiled_heuristic="tablezoo.agents.games.bower.compiled_heuristic",
    exact_heuristic={"tie_break": "first"},
    # huge branching, score 0 until the end: only the heuristic's 4 best root actions (by its
    # own values), each played on in the same 15 sampled worlds (paired) for 3 heuristic
    # decisions (my placement after a take, the opponent's turn), then the heuristic's position
    # value with the world's eggs, which are drawn by what the opponent has built; with 4 turns
    # or fewer left at the cut-off, on to the real end instead; 60 rollouts
    search=GameDefaults(iterations=60, playout="heuristic", depth=3,
                        evaluator="world_heuristic", belief="items", exact_turns=4,
                        keys="root", candidates=4, paired=True),
    leaf_values={
        "heuristic": LeafValue(lambda scale, turns: BowerValue(exact_turns=turns),
                               exact_turns=True),
        "world_heuristic": LeafValue(
            lambda scale, turns: BowerValue(world_eggs=True, exact_turns=turns),
            exact_turns=True),
        "trained_world": LeafValue(
            lambda scale, turns: BowerValue(world_eggs=True, exact_turns=turns,
                                            params=shipped_parameters()),
            exact_turns=True),
    },
    world_belief=egg_lean,
    # ISMCTS's defaults on the shipped model: its prior, its playouts, its value at the cut-off
    strongest={2: "ismcts:prior=trained,playout=trained,evaluator=trained_world"},
)
