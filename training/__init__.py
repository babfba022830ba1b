"""Self-play training, evaluation and the ``tablezoo`` command.

Subpackages by job: ``selfplay`` (PPO and its league), ``imitation`` (cloning and rollout
improvement), ``evolution`` (CMA-ES of heuristic weights), ``evaluation`` (games, tournaments,
intervals, ratings), ``shipping`` (from a run to a shipped model), ``figures`` (curves and notebook
data) and ``cli`` (the command line). Importing any of them needs only numpy and gymnasium;
torch, sb3-contrib, openskill and matplotlib are imported by the modules that use them.
"""
