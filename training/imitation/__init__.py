"""Imitation warm starts: behaviour cloning and DAgger of a teacher, and rollout policy
improvement.
"""
