"""Self-play training on batched simulation (``tablezoo.envs.make_vector``): the SB3 ``VecEnv``
over a vector env with the league in the other seats, and its opponents answered in batches."""
