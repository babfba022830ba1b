"""``bower``'s heuristic over a batch of observations, compiled with numba.

``heuristic/`` beside this (``HeuristicAgent``, default weights) reads its own observation, its
mask and two of the game's options (``x_cancels``, ``bonus_tiles``), so a batch of positions can
be answered from a vector env's ``obs``/``mask`` arrays in one call. ``decisions`` makes every
decision rule for rule on the position value of ``value``: the same terms (the tanh and exp
terms tabulated by Python in ``tables``, where numba's functions could differ in the last bit),
the same float operations in the same order, so equal inputs give bit-equal values.

Ties: the Python agent draws among the actions within 1e-9 of the best with its generator; this
is that agent with ``tie_break="first"`` (the first tied action id). Memory: the agent keeps the
bonus tile it kept last to know which token a TARGET decision places, but reads the
observation's ``effect`` piece first, which names the tile being resolved at every token
decision (the tests check it), so the rows need no memory.

Options: ``heuristic_for(**options)`` checks them with ``BowerGame`` and binds the two the
heuristic reads; ``heuristic_actions`` assumes the defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import tablezoo.agents.games.bower.compiled_heuristic.decisions as D
import tablezoo.agents.games.bower.compiled_heuristic.tables as T
from tablezoo.agents.games import run_batched
from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.envs.bower.rules import BowerGame

_DEFAULTS = HeuristicAgent(0)
TABLES = T.term_tables(_DEFAULTS.read_opponent)
NUM_ACTIONS = T.NUM_ACTIONS


def _params(x_one: bool, gems_matter: bool) -> np.ndarray:
    a = _DEFAULTS
    return np.array([x_one, gems_matter, a.bonus_value, a.hole_penalty, a.keep_weight,
                     a.read_opponent, a.deny_weight], np.float64)


def _run(obs: np.ndarray, mask: np.ndarray, par: np.ndarray) -> np.ndarray:
    obs = np.asarray(obs)
    if obs.ndim != 2 or obs.shape[1] not in (T.OBS_SIZE, T.OBS_SIZE + NUM_ACTIONS):
        raise ValueError(f"bower compiled heuristic: obs of shape {obs.shape}; expected "
                         f"[n, {T.OBS_SIZE}] (or [n, {T.OBS_SIZE + NUM_ACTIONS}] with advice)")
    return run_batched("bower", D.actions, obs, mask, NUM_ACTIONS, par, *TABLES)


_DEFAULT_PARAMS = _params(False, True)


def heuristic_actions(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The heuristic's action for every row under the default options: ``obs`` ``[n, 2169]``
    (raw, not scaled; or followed by an advice one-hot of 648 columns, not read), ``mask``
    ``[n, 648]`` (or wider: a NOOP column, answered with 648 where nothing else is legal) ->
    int64 ``[n]``."""
    return _run(obs, mask, _DEFAULT_PARAMS)


def heuristic_for(**options: Any) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``heuristic_actions`` for the game with ``options`` (``BowerGame``'s, checked there)."""
    game = BowerGame(**options)
    par = _params(game.options["x_cancels"] == "one", bool(game.options["bonus_tiles"]))

    def actions(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return _run(obs, mask, par)

    return actions


__all__ = ["heuristic_actions", "heuristic_for"]
