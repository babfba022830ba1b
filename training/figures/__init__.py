"""Figures and notebook data: learning curves, pooled curves, plotting helpers, data the notebooks collect."""
