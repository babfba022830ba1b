"""Agent protocol: legality over many real positions, seeding, no global RNG, registry errors."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import AGENTS, Agent, RandomAgent, SearchAgent, make_agent, parse_agent_spec
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.registry import agent_from_spec

ENV = "bauer_trick_v0"
OPTION_SETS = [{"episode": "deal"}, {}, {"trump_selection": "forehand_on_four"}]


def positions(options: dict, games: int, seed: int = 0):
    """Yield (state, player) at every decision of seeded random games (state is live: use now)."""
    game = envs.make_game(ENV, **options)
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_state(seed * 1000 + g)
        steps = 0
        while not state.is_over() and steps < 120:  # game mode: the first few deals suffice
            (p,) = state.acting_players()
            yield state, p
            legal = np.flatnonzero(state.legal_mask(p))
            state.apply({p: int(rng.choice(legal))})
            steps += 1


def cheap_agents(seed: int) -> list:
    return [
        make_agent("random", env_name=ENV, seed=seed),
        make_agent("heuristic", env_name=ENV, seed=seed),
        make_agent("search", env_name=ENV, seed=seed, rollouts=4, max_depth=36),
    ]


def test_every_agent_follows_the_protocol():
    for agent in cheap_agents(0):
        assert isinstance(agent, Agent)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: str(o) or "game")
def test_agents_choose_legal_actions_in_many_positions(options):
    agents = cheap_agents(1)
    checked = 0
    for state, p in positions(options, games=12):
        mask = state.legal_mask(p).copy()
        obs = state.observe(p)
        for agent in agents:
            a = agent.act(obs, mask, state=state, player=p)
            assert type(a) is int
            assert mask[a], f"{agent.name} chose illegal {a} ({state.game.action_name(a)})"
        checked += 1
    assert checked > 200


def test_agents_accept_env_masks_with_the_noop_slot():
    game = envs.make_game(ENV, episode="deal")
    n = game.num_actions
    for state, p in positions({"episode": "deal"}, games=3):
        env_mask = np.zeros(n + 1, np.int8)
        env_mask[:n] = state.legal_mask(p)
        waiting = np.zeros(n + 1, np.int8)
        waiting[n] = 1
        for agent in cheap_agents(2):
            assert env_mask[agent.act(state.observe(p), env_mask, state=state, player=p)]
            assert agent.act(state.observe(p), waiting, state=state, player=p) == n


def test_random_agent_is_uniform_over_the_mask():
    mask = np.zeros(10, bool)
    mask[[2, 5, 7]] = True
    agent = RandomAgent(seed=3)
    counts = np.bincount([agent.act(np.zeros(1), mask) for _ in range(3000)], minlength=10)
    assert counts[[0, 1, 3, 4, 6, 8, 9]].sum() == 0
    assert all(900 < c < 1100 for c in counts[[2, 5, 7]])


def test_empty_mask_is_a_clear_error():
    with pytest.raises(ValueError, match="allows no action"):
        RandomAgent(seed=0).act(np.zeros(1), np.zeros(5, bool))


def decisions(agent_name: str, seed: int, **kw) -> list[int]:
    agent = make_agent(agent_name, env_name=ENV, seed=seed, **kw)
    return [agent.act(state.observe(p), state.legal_mask(p), state=state, player=p)
            for state, p in positions({"episode": "deal"}, games=4, seed=5)]


@pytest.mark.parametrize("name,kw", [("random", {}), ("search", {"rollouts": 4})])
def test_same_seed_same_choices_and_global_rngs_untouched(name, kw):
    np.random.seed(123)
    random.seed(123)
    np_before, py_before = np.random.get_state()[1].copy(), random.getstate()
    first = decisions(name, 7, **kw)
    assert np.array_equal(np.random.get_state()[1], np_before)
    assert random.getstate() == py_before
    np.random.seed(999)  # stirring the global generators must change nothing
    random.seed(999)
    assert decisions(name, 7, **kw) == first
    assert decisions(name, 8, **kw) != first


def test_reset_reseeds_an_agent():
    agent = make_agent("random", seed=1)
    mask = np.ones(30, bool)
    first = [agent.act(np.zeros(1), mask) for _ in range(20)]
    agent.reset(1)
    assert [agent.act(np.zeros(1), mask) for _ in range(20)] == first


def test_an_unseeded_reset_keeps_a_seeded_advised_model_reproducible():
    """The shipped ethnos model reads its heuristic's move; an unseeded ``reset()`` left that
    advisor unseeded, so two agents made with the same seed played the same game differently."""
    game = envs.make_game("ethnos_v0", num_players=2)

    def moves_of_a_game() -> list[int]:
        agent = make_agent("trained", env_name="ethnos_v0", num_players=2, seed=5)
        agent.reset()
        state, moves = game.new_state(seed=1), []
        while not state.is_over() and len(moves) < 60:
            p = state.acting_players()[0]
            a = agent.act(state.observe(p), state.legal_mask(p), state=state, player=p)
            moves.append(a)
            state.apply({p: a})
        return moves

    assert moves_of_a_game() == moves_of_a_game()
    # a model without advice draws nothing for it: its sampling stream is as without the reset
    kept, reset = (make_agent("trained", env_name="bauer_draft_v0", num_players=2, seed=5,
                              deterministic=False) for _ in range(2))
    reset.reset()
    assert reset.rng.bit_generator.state == kept.rng.bit_generator.state


def test_search_agent_needs_the_state_and_a_sane_budget():
    agent = SearchAgent(seed=0)
    with pytest.raises(ValueError, match="needs the engine state"):
        agent.act(np.zeros(3), np.ones(3, bool))
    with pytest.raises(ValueError, match="rollouts"):
        SearchAgent(rollouts=0)


def test_registry_errors_name_the_allowed_values(monkeypatch):
    known = "known agents: random, heuristic, ismcts, rollout, flat_search, search, policy"
    with pytest.raises(ValueError, match=known):
        make_agent("greedy", env_name=ENV)
    with pytest.raises(ValueError, match="known envs: bauer_trick_v0"):
        make_agent("random", env_name="chess_v0")
    with pytest.raises(ValueError, match="unknown argument.*depth.*allowed: max_depth, rollouts"):
        make_agent("search", env_name=ENV, depth=3)
    with pytest.raises(ValueError, match="pass env_name"):
        make_agent("heuristic")
    import dataclasses

    from tablezoo.envs.core import spec

    # a game without agent parts
    monkeypatch.setitem(spec._SPECS, "bower_v0",
                        dataclasses.replace(envs.spec("bower_v0"), agents=None))
    with pytest.raises(ValueError, match="no heuristic agent for env 'bower_v0'; envs with one: "
                       "bauer_trick_v0"):
        make_agent("heuristic", env_name="bower_v0")
    with pytest.raises(ValueError, match="expected key=value"):
        agent_from_spec("search:64", env_name=ENV)
    assert set(AGENTS) == {"random", "heuristic", "ismcts", "rollout", "flat_search", "search",
                           "policy", "trained", "rllib", "strongest"}


def test_agent_specs_parse_types():
    assert parse_agent_spec("random") == ("random", {})
    assert parse_agent_spec("search:rollouts=32,max_depth=none") == (
        "search", {"rollouts": 32, "max_depth": None})
    assert parse_agent_spec("policy:runs/a/model.zip,deterministic=false") == (
        "policy", {"path": "runs/a/model.zip", "deterministic": False})
    assert parse_agent_spec("heuristic:call_threshold=4.5") == (
        "heuristic", {"call_threshold": 4.5})


@pytest.mark.parametrize("spec,env,words", [
    ("trained:deterministic=maybe", "bauer_draft_v0", "deterministic='maybe'; allowed: true"),
    ("ismcts:reuse=2", "bower_v0", "reuse=2; allowed: true, false"),
    ("flat_search:rollouts=nan", "bower_v0", "rollouts=nan; expected a finite number"),
    ("heuristic:call_threshold=nan", "bauer_trick_v0", "call_threshold=nan; expected a finite"),
    ("heuristic:future_weight=nan", "ethnos_v0", "future_weight=nan; expected a finite"),
    ("heuristic:journey_rate=abc", "bauer_draft_v0", "journey_rate='abc'; expected a finite"),
    ("heuristic:journey_rate=-1", "bauer_draft_v0", "journey_rate=-1; expected a number >= 0"),
    ("heuristic:sword_sd=-0.5", "bauer_draft_v0", "sword_sd=-0.5; expected a number >= 0"),
    ("heuristic:quest_share=1.5", "bauer_draft_v0", "quest_share=1.5; expected a number from 0"),
    # search options the game lacks (they passed, then failed at the search's first move)
    ("ismcts:evaluator=solver", "bower_v0", "no solver for game 'bower'"),
    ("ismcts:belief=items", "bauer_trick_v0", "belief='items' has no reading"),
    ("ismcts:belief=policy", "bower_v0", "belief='policy' cannot rebuild"),
    ("ismcts:evaluator=world_heuristic", "bauer_trick_v0", "is bower's"),
    ("ismcts:evaluator=age_end", "bower_v0", "'age_end' is ethnos's"),
])
def test_option_values_of_the_wrong_kind_are_refused_when_the_agent_is_made(spec, env, words):
    """They were read as true ('maybe'), passed every comparison (NaN), or failed only at the
    agent's first move, with a traceback from inside the heuristic or the search."""
    with pytest.raises(ValueError, match=re.escape(words)):
        agent_from_spec(spec, env_name=env)


def test_options_of_the_right_kind_still_make_agents():
    for spec, env in (("heuristic:journey_rate=0.3", "bauer_draft_v0"),
                      ("ismcts:reuse=false,iterations=5", "bower_v0"),
                      ("heuristic:call_threshold=2", "bauer_trick_v0"),
                      ("heuristic:play_value=none", "ethnos_v0"),  # None turns it off
                      ("ismcts:seconds=0.05,prior=none", "bower_v0")):
        assert agent_from_spec(spec, env_name=env) is not None
    # numpy scalars, as a sweep over np.linspace gives them
    assert make_agent("heuristic", env_name="bower_v0", bonus_value=np.float32(0.5))
    assert make_agent("ismcts", env_name="bower_v0", reuse=np.False_, iterations=np.int64(3))


@pytest.mark.parametrize("option", ["seconds=nan", "prior_weight=nan", "leaf_scale=inf",
                                    "exploration=nan", "margin_weight=nan"])
def test_search_options_without_a_default_value_are_checked_too(option):
    """``ismcts:seconds=nan`` searched for ever; ``prior_weight=nan`` failed mid-game."""
    with pytest.raises(ValueError, match="expected a finite number or none"):
        agent_from_spec(f"ismcts:{option}", env_name="bower_v0")


def test_a_negative_seed_is_named_for_every_agent():
    """numpy's own error said only 'expected non-negative integer'."""
    for name in ("random", "heuristic", "flat_search", "ismcts"):
        with pytest.raises(ValueError, match="agent '.*': seed=-1; allowed: an integer >= 0"):
            make_agent(name, env_name=ENV, seed=-1)
        agent = make_agent(name, env_name=ENV, seed=0)
        with pytest.raises(ValueError, match="seed=-2"):
            agent.reset(-2)
        with pytest.raises(ValueError, match="seed=True"):  # a bool was taken as seed 1
            make_agent(name, env_name=ENV, seed=True)


def test_a_game_seed_or_an_empty_record_is_named():
    """``play_game(seed=-1)`` failed inside numpy ("expected non-negative integer") and
    ``summarize([])`` in the Wilson interval ("n must be positive")."""
    from tablezoo.training.evaluation.match import play_game
    from tablezoo.training.evaluation.stats import summarize

    game = envs.make_game(ENV, episode="deal")
    agents = [make_agent("random") for _ in range(game.num_players)]
    for seed in (-1, True, 1.5):
        with pytest.raises(ValueError, match=f"play_game: seed={seed!r}; allowed: an integer"):
            play_game(game, agents, seed)
    assert play_game(game, agents, np.int64(3)).decisions > 0
    with pytest.raises(ValueError, match="no games to summarize"):
        summarize([])


def test_a_heuristic_option_that_fails_at_play_is_named_when_the_agent_is_made():
    """The registry's safety net for options a heuristic does not check itself: its first move
    of a seeded game is tried, and a failure names the options given."""
    from tablezoo.agents.registry import _try_a_move

    class Brittle(BaseAgent):
        def act(self, observation, action_mask, state=None, player=None):
            raise IndexError("tuple index out of range")

    with pytest.raises(ValueError, match=re.escape("depth=-2 fails on a first move (IndexError")):
        _try_a_move(Brittle(0), "bauer_draft_v0", {"depth": -2})
