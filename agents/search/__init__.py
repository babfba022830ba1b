"""Search agents: Information-Set MCTS with its beliefs and leaf values, flat Monte-Carlo,
and the double-dummy solver of bauer_trick.
"""
