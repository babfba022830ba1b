"""The example game of ``envs/ADDING_A_GAME.md`` (Kuhn poker), registered for the test session
by ``tests/conftest.py`` so that the cross-game suites run it through its record alone."""
