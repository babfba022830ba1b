"""Evolution of a heuristic's parameters with CMA-ES."""
