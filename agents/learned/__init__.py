"""Learned agents and their model files: numpy policies, saved MaskablePPO zips, evolved
heuristic weights and RLlib checkpoints.
"""
