"""Batched simulation: ``num_envs`` games of one env stepped together (``make_vector``)."""
