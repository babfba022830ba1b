"""Figures and notebook data: learning curves, pooled curves, plotting helpers and the data
the notebooks collect.
"""
