"""bauer_draft's agent parts: the heuristic (Python and compiled) and ISMCTS's defaults."""

from tablezoo.agents.games import GameAgents
from tablezoo.agents.games.bauer_draft.heuristic import HeuristicAgent
from tablezoo.agents.search.defaults import GameDefaults

AGENTS = GameAgents(
    heuristic=HeuristicAgent,
    compiled_heuristic="tablezoo.agents.games.bauer_draft.compiled_heuristic",
    exact_heuristic={"tie_break": "first"},
    # the shipped trained model (stronger than the heuristic and 3.5x cheaper per call) ranks
    # the root actions and plays every rollout to the end; each sampled world is played from
    # each of its 4 best actions (paired); 800 // players rollouts (400 for 2 players, 200 for
    # 4). Without a shipped model for the player count: the heuristic tree search below
    search=GameDefaults(
        iterations=400, seat_budget=800, playout="trained", prior="trained", keys="root",
        candidates=4, paired=True, margin_weight=0.5,
        # heuristic playouts of the remaining rounds, final score margin as a softer signal,
        # 300 // players iterations
        untrained=GameDefaults(iterations=150, seat_budget=300, playout="heuristic",
                               margin_weight=0.5)),
    rank_from_scores=True,
)
