"""Shared helpers of the bower tests: the default game, tile ids by code, legal action ids, the
phase name, one observation piece, a position waiting for a KEEP, playing out a seat's turn, and
the saved dict of a random game's position."""

import json

import numpy as np

from tablezoo.envs.bower.actions import PASS, PHASES
from tablezoo.envs.bower.components import TILE_INDEX
from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower.positions import build_state
from tablezoo.envs.bower.rules import BowerGame
from tests.saved_states import random_positions

GAME = BowerGame()
T = TILE_INDEX


def legal(state):
    return np.flatnonzero(state.legal_mask(state.actor)).tolist()


def phase(state):
    return PHASES[state.phase]


def piece(state, seat, name):
    return OBS_SPEC.view(state.observe(seat), name)


def keep_position(drawn, seat=0, game=GAME, **kw):
    """``seat`` triggered a bonus and drew ``drawn``; it must KEEP one now."""
    kw.setdefault("hands", [["T05"], ["T34"]])
    kw.setdefault("hand_limits", [1, 1])
    kw.setdefault("turns", [4, 4] if seat == 0 else [5, 4])
    kw.setdefault("start_player", 0)
    kw.setdefault("nests", [[("T01", 0)], [("T02", 0)]])
    return build_state(game, phase="keep", turn_player=seat, bonus_drawn=drawn, **kw)


def finish_turns_of(state, seat):
    """Play ``seat``'s current turn(s) with the first legal action, declining every option."""
    while not state.is_terminal() and state.turn_player == seat:
        ids = legal(state)
        state.step(PASS if PASS in ids else ids[0])


def saved(seed: int = 3, steps: int = 60) -> tuple[BowerGame, dict]:
    game = BowerGame()
    for step, s in enumerate(random_positions(game, seed)):
        if step == steps or s.is_over():
            return game, json.loads(json.dumps(s.to_dict()))
    raise AssertionError("unreachable")
