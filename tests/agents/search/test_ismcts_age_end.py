"""``evaluator="age_end"`` (ethnos): the glory margins if the current Age ended now.

Checked against the game itself: where a deck draw turns up the third Dragon, the Age really
ends with nothing else changed, so the real end-of-Age glory (Orc hordes, which their holders
empty by choice, left out) must be exactly what the evaluator foresaw one step earlier."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games.ethnos.heuristic import HeuristicAgent
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.agents.search.leaf_values import leaf_evaluator
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.scoring import CATEGORIES

ORC = CATEGORIES.index("orcs")
SCALE = 1e4  # tanh(x / SCALE) is one-to-one on glory margins: nothing is lost to saturation


def real_age_end(state, age: int, agents) -> list[float]:
    """Glory (Orc hordes excluded) once Age ``age``, which ``state`` is ending, is scored."""
    while not state.is_over() and state.age == age:
        p = state.acting_players()[0]
        state.apply({p: agents[p].act(state.observe(p), state.legal_mask(p), state=state)})
    return [float(g - b[ORC]) for g, b in zip(state.glory, state.breakdown)]


def foreseen(glory: list[float]) -> list[float]:
    n = len(glory)
    return [sum(math.tanh((glory[p] - glory[q]) / SCALE) for q in range(n) if q != p) / (n - 1)
            for p in range(n)]


@pytest.mark.parametrize("players", [2, 4])
def test_it_foresees_the_real_end_of_an_age(players):
    game = envs.make_game("ethnos_v0", num_players=players)
    value = leaf_evaluator("age_end", "ethnos", leaf_scale=SCALE)
    checked = 0
    for seed in range(40):
        state = game.new_state(seed)
        agents = [HeuristicAgent(seed=seed * 10 + p) for p in range(players)]
        while not state.is_over():
            p = state.acting_players()[0]
            action = agents[p].act(state.observe(p), state.legal_mask(p), state=state)
            if action == enc.RECRUIT_DECK:
                before = state.to_dict()
                predicted = value(state, p)
                assert state.to_dict() == before  # valued on a copy
                after = state.clone()
                after.apply({p: action})
                if after.is_over() or after.age != state.age or after.phase == enc.ORC_PICK:
                    glory = real_age_end(after, state.age, [HeuristicAgent(seed=1) for _ in agents])
                    np.testing.assert_allclose(predicted, foreseen(glory), atol=1e-12)
                    checked += 1
            state.apply({p: action})
    assert checked >= 20  # most Ages end on a deck draw


def test_it_is_only_for_ethnos_and_searches_there():
    with pytest.raises(ValueError, match="age_end.*ethnos"):
        leaf_evaluator("age_end", "bower")
    game = envs.make_game("ethnos_v0", num_players=2)
    state = game.new_state(3)
    agent = ISMCTSAgent(seed=0, iterations=8, depth=6, evaluator="age_end")
    p = state.acting_players()[0]
    action = agent.act(state.observe(p), state.legal_mask(p), state=state)
    assert state.legal_mask(p)[action]
