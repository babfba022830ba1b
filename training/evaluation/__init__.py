"""Evaluation: seeded games, seat-rotating evaluation, tournaments, ratings, intervals and
results tables.
"""
