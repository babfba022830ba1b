"""``strongest``: the spec a game names for a player count is the agent that plays, ``ismcts``
where it names none; seeded games replay; options are refused by name."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games import agents_of
from tablezoo.agents.learned.policy import player_counts
from tablezoo.agents.registry import agent_from_spec, factory_from_spec
from tablezoo.agents.search.flat import SearchAgent
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.agents.strongest import strongest_spec


@pytest.fixture
def bower_names_flat_search(monkeypatch):
    """bower's record naming a cheap spec as its strongest for 2 players."""
    module = importlib.import_module("tablezoo.agents.games.bower")
    monkeypatch.setattr(module, "AGENTS", dataclasses.replace(
        module.AGENTS, strongest={2: "flat_search:rollouts=2"}))


def play(agent, seed: int) -> list[int]:
    """The agent's moves in seat 0 of a seeded bower game against a seeded heuristic."""
    state = envs.make_game("bower_v0").new_state(seed)
    other = make_agent("heuristic", env_name="bower_v0", seed=seed)
    moves = []
    while not state.is_over():
        joint = {}
        for p in state.acting_players():
            who = agent if p == 0 else other
            joint[p] = who.act(state.observe(p), state.legal_mask(p), state=state, player=p)
            if p == 0:
                moves.append(joint[p])
        state.apply(joint)
    return moves


def test_the_named_spec_plays_and_seeded_games_replay(bower_names_flat_search):
    assert strongest_spec("bower_v0") == "flat_search:rollouts=2"
    a, b = (agent_from_spec("strongest", env_name="bower_v0", seed=5) for _ in range(2))
    first = play(a, 11)
    assert isinstance(a._agents[2], SearchAgent) and a._agents[2].rollouts == 2
    assert first == play(b, 11)
    a.reset(3)
    b.reset(3)
    assert play(a, 12) == play(b, 12)


def test_without_a_named_spec_it_is_ismcts():
    assert strongest_spec("ethnos_v0", 4) == "ismcts"
    state = envs.make_game("ethnos_v0", num_players=4).new_state(0)
    agent = make_agent("strongest", env_name="ethnos_v0", seed=0)
    assert agent.spec_for(state) == "ismcts"
    assert isinstance(agent._agent(state), ISMCTSAgent)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="'strongest' is game-specific: pass env_name="):
        make_agent("strongest")
    with pytest.raises(ValueError, match="unknown argument.*iterations.*allowed: \\(none\\)"):
        make_agent("strongest", env_name="bower_v0", iterations=3)


@pytest.mark.parametrize("env_name", list(envs.ENVS))
def test_every_named_spec_makes_an_agent_for_its_player_count(env_name):
    """A game's named specs pass the registry's checks (a misspelt option would fail the
    first game of whoever asks for ``strongest``)."""
    for count, spec in agents_of(env_name).strongest.items():
        assert count in player_counts(env_name)
        assert factory_from_spec(spec, env_name, num_players=count)(0) is not None
