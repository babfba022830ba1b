"""Search agents: Information-Set MCTS with its beliefs and leaf values, flat Monte-Carlo; a
game's own search hooks live with its agents (``agents/games/<game>/``)."""
