"""The test session registers the example game of ``envs/ADDING_A_GAME.md``
(``tests/example_game``), so every suite that runs over the registered envs runs it too, through
its record alone."""

import tests.example_game.kuhn_poker  # noqa: F401  (registers kuhn_poker_v0)
