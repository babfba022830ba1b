"""Self-play training and evaluation entry points (``python -m training.train`` / ``.evaluate`` /
``.tournament``) and the single-agent gymnasium view they share.

Importing ``training`` needs only numpy and gymnasium; torch, sb3-contrib, openskill and
matplotlib are imported by the modules that use them.
"""
