"""Search agents: Information-Set MCTS, its beliefs and leaf values, flat Monte-Carlo, the double-dummy solver."""
