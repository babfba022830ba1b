"""The ``tablezoo`` command: one subcommand per tool, the flags they share, the terminal
player.
"""
