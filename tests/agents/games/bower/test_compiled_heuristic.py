"""The compiled bower heuristic (``agents/games/bower/compiled_heuristic``) decides as
``HeuristicAgent(tie_break="first")`` at every decision of compiled-engine games under every
option set (``compiled_decisions.py`` beside this; its command line runs many more), answers
rows independently, and refuses bad input by name; the record names it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tablezoo import envs
from tablezoo.agents.games import agents_of, batched_agents
from tablezoo.agents.games.bower.compiled_heuristic import heuristic_actions, heuristic_for
from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.envs.bower.actions import NUM_ACTIONS
from tablezoo.envs.core.errors import InvalidOptionError
from tests.agents.games.bower.compiled_decisions import ENV, OPTION_SETS, compare

SEEN: dict[str, int] = {}


@pytest.fixture(scope="module", autouse=True)
def _compiled_engine():
    if "compiled" not in envs.vector_backends(ENV):
        pytest.skip("no compiled bower engine here")


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values()))
                         or "defaults")
def test_the_compiled_heuristic_decides_as_the_tie_break_first_agent(options):
    """Two slots played for about a game each: every decision agrees (the token decisions'
    observations name their tile: ``compare`` checks it)."""
    result = compare(options, 130, sum(map(ord, str(options))), batch=2)
    assert result.differ == 0, result.first_differences
    assert result.decisions >= 130
    for phase, n in result.phases.items():
        SEEN[phase] = SEEN.get(phase, 0) + n


def test_the_option_sets_reach_the_bonus_decisions():
    """Run after the comparisons above: together they met the bonus tiles' decisions too."""
    if len(SEEN) == 0:
        pytest.skip("run with the comparisons")
    assert {"draft", "take", "play", "keep", "token", "hand"} <= set(SEEN)


def _batch(options: dict, steps: int, seed: int):
    """Observations and masks of compiled games played by the compiled heuristic."""
    vec = envs.make_vector(ENV, 8, seed=seed, **options)
    act = heuristic_for(**options)
    obs, mask, _ = vec.reset()
    rows, masks = [obs], [mask]
    for _ in range(steps):
        obs, mask, *_ = vec.step(act(obs, mask))
        rows.append(obs)
        masks.append(mask)
    return np.concatenate(rows), np.concatenate(masks)


def test_rows_are_answered_alone_and_the_record_names_the_module():
    """Any subset in any order gives the same moves; a NOOP column, an advised network's rows
    and the record's batched agent are read as the env gives them."""
    obs, mask = _batch({}, 30, 5)
    got = heuristic_actions(obs, mask)
    order = np.random.default_rng(0).permutation(len(got))[:97]
    assert heuristic_actions(obs[order], mask[order]).tolist() == got[order].tolist()
    wide = np.zeros((len(mask), NUM_ACTIONS + 1), bool)
    wide[:, :NUM_ACTIONS] = mask
    wide[0] = False
    wide[0, NUM_ACTIONS] = True
    both = heuristic_actions(obs, wide)
    assert both[0] == NUM_ACTIONS and both[1:].tolist() == got[1:].tolist()
    advice = np.eye(NUM_ACTIONS, dtype=np.float32)[got % 11]
    assert heuristic_actions(np.hstack([obs, advice]), mask).tolist() == got.tolist()
    parts = agents_of(ENV)
    assert parts.compiled_heuristic == "tablezoo.agents.games.bower.compiled_heuristic"
    assert parts.exact_heuristic == {"tie_break": "first"}
    assert batched_agents(ENV, {})["heuristic"](obs, mask).tolist() == got.tolist()


def test_the_options_the_heuristic_reads_change_its_values():
    """``x_cancels`` and ``bonus_tiles`` are bound by ``heuristic_for``: on the same rows the
    compiled heuristic with each follows the Python agent given a state with that option."""
    obs, mask = _batch({}, 30, 9)
    defaults = heuristic_actions(obs, mask)
    for options in ({"x_cancels": "one"}, {"bonus_tiles": False}):
        game = envs.spec(ENV).game(**options)

        class Position:  # what the agent reads of a state: its game's options
            pass

        position = Position()
        position.game = game
        agent = HeuristicAgent(0, tie_break="first")
        want = [agent.act(o, m, position) for o, m in zip(obs, mask)]
        assert heuristic_for(**options)(obs, mask).tolist() == want
        assert want != defaults.tolist()  # the option was read


def test_bad_input_is_refused_naming_the_problem():
    obs, mask = _batch({}, 0, 1)
    with pytest.raises(ValueError, match="expected"):
        heuristic_actions(np.zeros((1, 5), np.float32), mask[:1])
    with pytest.raises(ValueError, match="mask of shape"):
        heuristic_actions(obs, mask[:, :10])
    with pytest.raises(ValueError, match="allow no action"):
        heuristic_actions(obs, np.zeros_like(mask))
    with pytest.raises(InvalidOptionError, match="x_cancels"):
        heuristic_for(x_cancels="two")
    with pytest.raises(ValueError, match="tie_break"):
        HeuristicAgent(0, tie_break="last")
