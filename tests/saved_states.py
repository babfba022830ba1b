"""Helpers shared by the per-game saved-state tests (invariant checks and loader refusals)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import numpy as np
import pytest

from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import Game, State


def random_positions(game: Game, seed: int) -> Iterator[State]:
    """Every position of one random-play game of a turn-based game (one state, advanced in
    place), so a test can check each position without copying it."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    yield state
    while not state.is_over():
        (player,) = state.acting_players()
        legal = np.flatnonzero(state.legal_mask(player))
        state.apply({player: int(rng.choice(legal))})
        yield state


def refused(game: Game, data: dict, match: str) -> None:
    """``data`` is refused with a ``StateFormatError`` matching ``match``, within 1 s of CPU and
    with a message short enough to read."""
    start = time.process_time()
    with pytest.raises(StateFormatError, match=match) as info:
        game.state_from_dict(data)
    assert time.process_time() - start < 1.0
    assert len(str(info.value)) < 500


def deeply_nested(depth: int = 20_000) -> list:
    """``[[[...]]]`` nested ``depth`` times (a naive ``repr`` of it overflows the stack)."""
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def check_along_random_games(game: Game, games: int, reload_every: int) -> None:
    """``State.check()`` holds at every position of ``games`` random games, and on a JSON
    round-trip of every ``reload_every``-th position: the check is never stricter than the rules."""
    for seed in range(games):
        for step, state in enumerate(random_positions(game, seed)):
            state.check()
            if step % reload_every == 0:
                game.state_from_dict(json.loads(json.dumps(state.to_dict()))).check()
