"""Bower's search pieces: ``belief="items"`` (hidden eggs redrawn by what the opponent built),
the ``"world_heuristic"`` leaf (the sampled world's eggs) and ``exact_turns`` (the real end
near it)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.agents.games.bower.search import BowerValue
from tablezoo.agents.learned.heuristic_weights import heuristic_parameters
from tablezoo.agents.learned.policy import PRETRAINED_DIR
from tablezoo.agents.search.belief import world_belief_for
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.agents.search.leaf_values import leaf_evaluator
from tablezoo.envs.bower.hidden import hidden_egg_positions, place_eggs
from tablezoo.envs.bower.observation import S_ALL

GAME = envs.make_game("bower_v0")


def heuristic_positions(games: int, seed: int, every: int = 3):
    """(state copy, seat) every ``every`` decisions of seeded heuristic games: the heuristic
    builds toward the eggs it sees, as a real opponent would."""
    for g in range(games):
        state = GAME.new_state(seed + g)
        agents = [HeuristicAgent(seed=seed + g + p) for p in range(2)]
        step = 0
        while not state.is_over():
            step += 1
            for p in state.acting_players():
                if step % every == 0:
                    yield state.clone(), p
            state.apply({p: agents[p].act(state.observe(p), state.legal_mask(p), state=state,
                                          player=p) for p in state.acting_players()})


def test_items_redraw_moves_only_the_hidden_eggs_and_keeps_my_view():
    checked = 0
    for i, (state, me) in enumerate(heuristic_positions(3, seed=100)):
        redraw = world_belief_for("bower")(state, me)
        hidden = hidden_egg_positions(state, me)
        if redraw is None:
            assert len(hidden) < 2
            continue
        rng = np.random.default_rng(i)
        world = state.determinize(me, rng)
        redraw(world, rng)
        assert np.array_equal(world.observe(me), state.observe(me))
        assert sorted(world.eggs[p] for p in hidden) == sorted(state.eggs[p] for p in hidden)
        assert all(world.eggs[p] == state.eggs[p] for p in range(8) if p not in hidden)
        checked += 1
    assert checked >= 50


def test_items_redraw_depends_only_on_my_information():
    """The redraw made from the truth and from a re-sample I cannot tell from it, applied to
    equal worlds with equal generators: the same eggs."""
    checked = 0
    for i, (state, me) in enumerate(heuristic_positions(3, seed=200)):
        other = state.determinize(me, np.random.default_rng(900 + i))
        redraw_a = world_belief_for("bower")(state, me)
        redraw_b = world_belief_for("bower")(other, me)
        if redraw_a is None:
            assert redraw_b is None
            continue
        a = state.determinize(me, np.random.default_rng(i))
        b = other.determinize(me, np.random.default_rng(i))
        redraw_a(a, np.random.default_rng(i))
        redraw_b(b, np.random.default_rng(i))
        assert a.eggs == b.eggs, f"position {i}: the redraw reads the truth"
        checked += 1
    assert checked >= 50


def test_items_redraw_finds_the_opponents_eggs_more_often_than_uniform():
    """The opponent (a heuristic) builds for its own eggs, so worlds weighted by its items put
    the true egg in its columns more often than uniform re-sampling does."""
    hits = {"items": 0, "uniform": 0}
    total = 0
    for i, (state, me) in enumerate(heuristic_positions(6, seed=300, every=7)):
        if sum(state.turns) < 8:
            continue  # little built yet: little to read
        redraw = world_belief_for("bower")(state, me)
        theirs = [p for p in hidden_egg_positions(state, me) if p < 6]
        if redraw is None or not theirs:
            continue
        rng = np.random.default_rng(i)
        for _ in range(40):
            world = state.determinize(me, rng)
            hits["uniform"] += sum(world.eggs[p] == state.eggs[p] for p in theirs)
            redraw(world, rng)
            hits["items"] += sum(world.eggs[p] == state.eggs[p] for p in theirs)
            total += len(theirs)
    assert total >= 2000
    uniform, items = hits["uniform"] / total, hits["items"] / total
    assert 0.1 < uniform < 0.35  # about one in 3-5: a fair uniform baseline
    assert items > uniform + 0.2, (items, uniform)  # measured: 0.60 against 0.19


def test_place_eggs_refuses_eggs_that_are_not_the_hidden_ones():
    state = GAME.new_state(1)
    hidden = hidden_egg_positions(state, 0)
    wrong = [state.eggs[p] for p in range(8) if p not in hidden][:1] * len(hidden)
    before = state.eggs[:]
    with pytest.raises(ValueError, match="not the ones at positions"):
        place_eggs(state, hidden, wrong)
    assert state.eggs == before


def knowing_every_egg(state, me):
    """A copy of ``state`` in which ``me`` has spied every egg (SP1 on every column, SP2)."""
    s = state.clone()
    s.spied_cols[me] = 0b111111
    s.spied_removed[me] = True
    s._dirty = [S_ALL, S_ALL]
    return s


def test_world_heuristic_is_the_heuristic_when_every_egg_is_known_and_differs_otherwise():
    believed, world = BowerValue(), BowerValue(world_eggs=True)
    equal = differ = 0
    for state, me in heuristic_positions(2, seed=400):
        known = knowing_every_egg(state, me)
        assert world(known, me) == pytest.approx(believed(known, me), abs=1e-12)
        equal += 1
        differ += abs(world(state, me)[me] - believed(state, me)[me]) > 1e-6
    assert equal >= 20 and differ >= equal // 2


def test_trained_world_reads_with_the_shipped_models_parameters():
    """``"trained_world"`` is ``"world_heuristic"`` read with the parameters on the shipped
    model's card; defaults given as parameters change nothing."""
    card = json.loads((PRETRAINED_DIR / "bower_2p.json").read_text())
    trained = leaf_evaluator("trained_world", "bower", 2.0)
    by_card = BowerValue(world_eggs=True, params=card["parameters"])
    plain = BowerValue(world_eggs=True)
    defaults = BowerValue(world_eggs=True, params=heuristic_parameters("bower_v0"))
    checked = differ = 0
    for state, me in heuristic_positions(2, seed=450):
        assert trained(state, me) == pytest.approx(by_card(state, me), abs=1e-12)
        assert defaults(state, me) == pytest.approx(plain(state, me), abs=1e-12)
        differ += abs(trained(state, me)[me] - plain(state, me)[me]) > 1e-6
        checked += 1
    assert checked >= 20 and differ >= checked // 2


def test_exact_turns_plays_on_only_near_the_end():
    cut, plain = BowerValue(exact_turns=4), BowerValue()
    near = far = 0
    for state, me in heuristic_positions(2, seed=500, every=2):
        left = 24 - sum(state.turns)
        value = cut(state, me)
        if left <= 4:
            assert value is None
            near += 1
        else:
            assert value == plain(state, me)
            far += 1
    assert near >= 4 and far >= 20


def test_the_search_plays_legal_moves_with_the_bower_pieces_to_the_end():
    state = GAME.new_state(7)
    agents = [ISMCTSAgent(seed=1, iterations=8, belief="items", evaluator="world_heuristic",
                          exact_turns=6), HeuristicAgent(seed=2)]
    while not state.is_over():
        joint = {}
        for p in state.acting_players():
            mask = state.legal_mask(p).copy()
            joint[p] = agents[p].act(state.observe(p), mask, state=state, player=p)
            assert mask[joint[p]]
        state.apply(joint)


@pytest.mark.parametrize(("kw", "env", "words"), [
    ({"belief": "items"}, "ethnos_v0", "belief='items' has no reading"),
    ({"evaluator": "world_heuristic"}, "ethnos_v0", "'world_heuristic' is bower's"),
    ({"exact_turns": 3}, "ethnos_v0", "exact_turns=3 applies to bower's"),
    ({"exact_turns": 3, "evaluator": "score"}, "bower_v0", "exact_turns=3 applies to bower's"),
])
def test_bower_pieces_elsewhere_are_refused_naming_where_they_apply(kw, env, words):
    game = envs.make_game(env, **({"num_players": 2} if env == "ethnos_v0" else {}))
    state = game.new_state(0)
    p = state.acting_players()[0]
    agent = ISMCTSAgent(seed=0, iterations=4, **kw)
    with pytest.raises(ValueError, match=words):
        agent.act(state.observe(p), state.legal_mask(p), state=state, player=p)


def test_leaf_evaluator_refuses_exact_turns_for_other_evaluators():
    with pytest.raises(ValueError, match="give exact_turns=0"):
        leaf_evaluator("age_end", "ethnos", exact_turns=2)
    assert isinstance(leaf_evaluator("heuristic", "bower", exact_turns=2), BowerValue)
