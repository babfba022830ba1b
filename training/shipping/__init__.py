"""From a training run to a shipped model: numpy export, tail averaging, measuring and
shipping with a card.
"""
