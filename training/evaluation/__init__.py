"""Evaluation: seeded games, seat-rotating evaluation, tournaments, ratings, intervals, results tables."""
