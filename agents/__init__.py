"""Baseline agents behind one protocol:
``agent.act(observation, action_mask, state=None, player=None) -> int`` (``state`` and ``player``
for the agents that read the engine: the heuristics and the searches), ``agent.reset(seed)``
before each game.

``make_agent(name, env_name=..., seed=..., **kw)`` builds one by name (``AGENTS``): ``random``,
``heuristic`` (per game, in ``agents/heuristics/``), ``ismcts`` (Information-Set MCTS through
the engine state, ``agents/search/ismcts.py``), ``flat_search`` (alias ``search``: determinized flat
Monte-Carlo rollouts), ``trained`` (the shipped numpy models, or ``path=``), ``policy`` (a saved
MaskablePPO model; needs the training extras) and ``rllib`` (an RLlib checkpoint). Every agent
is seedable and uses only its own generator.
"""

from tablezoo.agents.base import Agent, BaseAgent
from tablezoo.agents.random_agent import RandomAgent
from tablezoo.agents.registry import AGENTS, agent_from_spec, make_agent, parse_agent_spec
from tablezoo.agents.search.flat import SearchAgent
from tablezoo.agents.search.ismcts import ISMCTSAgent

__all__ = [
    "AGENTS",
    "Agent",
    "BaseAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "SearchAgent",
    "agent_from_spec",
    "make_agent",
    "parse_agent_spec",
]
