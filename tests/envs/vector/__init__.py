"""Tests of the vector API (``tablezoo.envs.make_vector``) over the Python engines."""
