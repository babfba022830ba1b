"""IS-MCTS agent: it never peeks, never plays an illegal action, replays with a seed, leaves the
global RNGs alone, honours its budget options and rejects bad ones clearly."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games import agents_of
from tablezoo.agents.random_agent import RandomAgent
from tablezoo.agents.registry import agent_from_spec, factory_from_spec
from tablezoo.agents.search.defaults import FALLBACK
from tablezoo.agents.search.ismcts import ISMCTSAgent

SCALE = float(os.environ.get("TABLEZOO_ISMCTS_SCALE", "1"))
CASES = [
    ("bauer_trick_v0", {"episode": "deal"}),
    ("bauer_trick_v0", {"trump_selection": "forehand_on_four"}),
    ("bauer_draft_v0", {"num_players": 2}),
    ("bauer_draft_v0", {"num_players": 4}),
    ("bower_v0", {}),
    ("bower_v0", {"hands_public": False}),
    ("ethnos_v0", {"num_players": 2}),
    ("ethnos_v0", {"num_players": 4}),
]
# positions per case and how often to stop in the random games that lead to them
POSITIONS = {"bauer_trick_v0": 40, "bauer_draft_v0": 30, "bower_v0": 30, "ethnos_v0": 30}
EVERY = {"bauer_trick_v0": 3, "bauer_draft_v0": 1, "bower_v0": 3, "ethnos_v0": 13}


def case_id(case: tuple[str, dict]) -> str:
    name, options = case
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def positions(name: str, options: dict, count: int, seed: int):
    """``count`` (state, seat) pairs with a real choice, from seeded random games."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(seed)
    found = 0
    g = 0
    while found < count:
        state = game.new_state(seed * 1000 + g)
        g += 1
        step = 0
        while not state.is_over() and found < count:
            step += 1
            for p in state.acting_players():
                if step % EVERY[name] == 0 and state.legal_mask(p).sum() > 1 and found < count:
                    found += 1
                    yield state, p
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))
                         for p in state.acting_players()})


def small(seed: int, **kw) -> ISMCTSAgent:
    return ISMCTSAgent(seed=seed, iterations=kw.pop("iterations", 16), **kw)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_never_peeks_and_never_plays_illegal(case):
    """Same seed, two positions that differ only in what the seat cannot see (one re-sampled
    with ``determinize``): the same action, and a legal one, every time."""
    name, options = case
    count = max(4, round(POSITIONS[name] * SCALE))
    same = 0
    for i, (state, me) in enumerate(positions(name, options, count, seed=11)):
        other = state.determinize(me, np.random.default_rng(500 + i))
        mask = state.legal_mask(me).copy()
        assert np.array_equal(other.observe(me), state.observe(me))
        assert np.array_equal(other.legal_mask(me), mask)
        a = small(i).act(state.observe(me), mask, state=state, player=me)
        b = small(i).act(other.observe(me), other.legal_mask(me), state=other, player=me)
        assert type(a) is int and mask[a], f"illegal {a} ({state.game.action_name(a)})"
        assert a == b, (f"{name} {options}: position {i} seat {me}: {a} on the truth, {b} on a "
                        "re-sample it cannot tell apart")
        same += 1
    assert same == count


@pytest.mark.parametrize("case", [CASES[0], CASES[2], CASES[4], CASES[6]], ids=case_id)
def test_whole_games_against_random_stay_legal_with_tree_reuse(case):
    """Full games: tree reuse across moves, every seat kind (partner, simultaneous, long games)."""
    name, options = case
    game = envs.make_game(name, **options)
    for g in range(1 if name == "ethnos_v0" else 2):
        state = game.new_state(g)
        agents = [small(g, iterations=8) if p == 0 else RandomAgent(seed=p)
                  for p in range(game.num_players)]
        while not state.is_over():
            joint = {}
            for p in state.acting_players():
                mask = state.legal_mask(p).copy()
                joint[p] = agents[p].act(state.observe(p), mask, state=state, player=p)
                assert mask[joint[p]]
            state.apply(joint)
        assert len(agents[0].table) > 0


def test_seeded_replay_and_global_rngs_untouched():
    state, me = next(positions("bauer_trick_v0", {"episode": "deal"}, 1, seed=4))
    random.seed(1)
    np.random.seed(1)
    before = (random.getstate(), np.random.get_state()[1].copy())
    picks = [small(9, iterations=40).act(state.observe(me), state.legal_mask(me), state=state,
                                        player=me) for _ in range(3)]
    assert len(set(picks)) == 1
    after = (random.getstate(), np.random.get_state()[1])
    assert before[0] == after[0] and np.array_equal(before[1], after[1])


def test_seconds_budget_and_registry_names():
    state, me = next(positions("bower_v0", {}, 1, seed=5))
    agent = agent_from_spec("ismcts:seconds=0.05", env_name="bower_v0", seed=1)
    a = agent.act(state.observe(me), state.legal_mask(me), state=state, player=me)
    assert state.legal_mask(me)[a] and agent.last_iterations >= 1
    for name in ("ismcts", "flat_search", "search"):
        assert make_agent(name, env_name="bower_v0", seed=0).name in (name, "flat_search")
    assert all(agents_of(name).search is not FALLBACK for name in envs.ENVS)  # tuned per game


@pytest.mark.parametrize("kw, word", [
    ({"iterations": 0}, "iterations"), ({"seconds": -1}, "seconds"),
    ({"iterations": 5, "seconds": 1.0}, "not both"), ({"keys": "mine"}, "keys"),
    ({"playout": "greedy"}, "playout"), ({"depth": -2}, "depth"),
    ({"leaf_scale": 0}, "leaf_scale"), ({"prior": 3}, "prior"),
    ({"belief": "hunch"}, "belief"), ({"exact_turns": -1}, "exact_turns"),
])
def test_bad_options_are_named(kw, word):
    with pytest.raises(ValueError, match=word):
        ISMCTSAgent(**kw)


def test_an_agent_object_as_playout_is_the_searchs_own_and_replays_with_its_seed():
    """One object given to several searches was shared and never reseeded, so two searches
    made alike played the same seeded game differently."""
    from tablezoo.training.evaluation.match import play_game

    game = envs.make_game("bauer_draft_v0", num_players=3)
    shared = make_agent("random", seed=0)

    def scores() -> list[float]:
        search = make_agent("ismcts", env_name="bauer_draft_v0", iterations=6, playout=shared,
                            seed=1)
        return play_game(game, [search, make_agent("random"), make_agent("random")],
                         seed=4).scores

    assert scores() == scores()
    assert shared.rng.bit_generator.state == make_agent("random", seed=0).rng.bit_generator.state


def test_an_object_without_reset_can_still_be_the_playout():
    class First:
        name = "first"

        def act(self, observation, action_mask, state=None, player=None):
            return int(np.flatnonzero(action_mask)[0])

    search = make_agent("ismcts", env_name="bauer_trick_v0", iterations=10, playout=First(),
                        seed=0)
    state = envs.make_game("bauer_trick_v0").new_state(seed=1)
    me = state.acting_players()[0]
    assert state.legal_mask(me)[search.act(state.observe(me), state.legal_mask(me), state=state,
                                           player=me)]


def test_one_search_plays_two_player_counts_of_a_game_without_a_reset():
    """The set-up was cached by the game's name, but the defaults (and a shipped model) depend
    on the player count too."""
    search = ISMCTSAgent(seed=0, iterations=4)
    for n in (2, 4):
        state = envs.make_game("bauer_draft_v0", num_players=n).new_state(seed=1)
        me = state.acting_players()[0]
        assert state.legal_mask(me)[search.act(state.observe(me), state.legal_mask(me),
                                               state=state, player=me)]


def test_the_early_check_reads_the_defaults_of_the_player_count_played():
    """bauer_draft pairs its root search (keys='root') only where a model is shipped (4
    players): keys='own' is refused for 4 players and played for 3, and a spec named without
    the count is refused only if no count could play it."""
    spec = "ismcts:keys=own,iterations=5"
    with pytest.raises(ValueError, match="paired=True needs keys='root'"):
        factory_from_spec(spec, env_name="bauer_draft_v0", num_players=4)
    factory_from_spec(spec, env_name="bauer_draft_v0", num_players=3)
    factory_from_spec(spec, env_name="bauer_draft_v0")  # for any game of the env: 3 takes it
    # a count without a shipped model for prior=trained is no reason: the ValueError is
    with pytest.raises(ValueError, match="paired=True needs keys='root'"):
        factory_from_spec("ismcts:prior=trained,keys=own", env_name="bauer_draft_v0")


def test_a_refused_check_leaves_the_agent_as_new():
    refused, fresh = (ISMCTSAgent(seed=3, iterations=30, belief="items") for _ in range(2))
    with pytest.raises(ValueError, match="belief='items'"):
        refused.check_game(envs.make_game("bauer_trick_v0"))
    assert refused.rng.bit_generator.state == fresh.rng.bit_generator.state  # nothing drawn
    for state, me in positions("bower_v0", {}, 2, seed=5):
        for agent in (refused, fresh):
            agent.act(state.observe(me), state.legal_mask(me), state=state, player=me)
        assert {k: n.visits.tolist() for k, n in refused.table.items()} == {
            k: n.visits.tolist() for k, n in fresh.table.items()}


def test_the_early_check_leaves_the_agent_as_new():
    """The check draws from the agent's generator (it builds the playout heuristics) and must
    give those draws back: a seeded agent searches exactly as one that was never checked."""
    checked, fresh = ISMCTSAgent(seed=3, iterations=30), ISMCTSAgent(seed=3, iterations=30)
    checked.check_game(envs.make_game("bower_v0"))
    for state, me in positions("bower_v0", {}, 3, seed=5):
        for agent in (checked, fresh):
            agent.act(state.observe(me), state.legal_mask(me), state=state, player=me)
        assert {k: (n.visits.tolist(), n.total.tolist()) for k, n in checked.table.items()} == {
            k: (n.visits.tolist(), n.total.tolist()) for k, n in fresh.table.items()}


def test_playout_policy_and_leaf_evaluator_can_be_any_agent_or_callable():
    """A trained agent object or a plain function plugs in as playout policy; a callable
    evaluator values the depth cut-off (both really called, and their answers used)."""
    state, me = next(positions("bauer_draft_v0", {"num_players": 2}, 1, seed=6))
    calls = {"playout": 0, "eval": 0}

    def first_legal(world, p):
        calls["playout"] += 1
        return int(np.flatnonzero(world.legal_mask(p))[0])

    def evaluator(world, p):
        calls["eval"] += 1
        return [1.0 if q == p else -1.0 for q in range(world.game.num_players)]

    mask = state.legal_mask(me)
    agent = ISMCTSAgent(seed=0, iterations=30, playout=first_legal, depth=3, evaluator=evaluator)
    assert mask[agent.act(state.observe(me), mask, state=state, player=me)]
    assert calls["playout"] > 0 and calls["eval"] > 0
    agent = ISMCTSAgent(seed=0, iterations=30, playout=RandomAgent(seed=1), prior=RandomAgent())
    assert mask[agent.act(state.observe(me), mask, state=state, player=me)]


def test_tree_reuse_finds_the_next_root_in_the_table():
    """After a search, the searcher's next decision (reached through the others' moves) is at times
    a node the last search already grew: its statistics are reused, not thrown away."""
    game = envs.make_game("bauer_trick_v0", episode="deal")
    found = asked = 0
    for g in range(4):
        state = game.new_state(100 + g)
        agent = small(g, iterations=200)
        others = RandomAgent(seed=g)
        while not state.is_over():
            (p,) = state.acting_players()
            mask = state.legal_mask(p)
            if p == 0 and mask.sum() > 1:
                node = agent.table.get((0, state.observe(0).tobytes()))
                asked += 1
                found += node is not None and node.visits.sum() > 0
                action = agent.act(state.observe(p), mask, state=state, player=p)
            else:
                action = others.act(state.observe(p), mask)
            state.apply({p: action})
    assert asked >= 12 and found >= 3  # 5 of 23 when written; 0 if reuse were broken


class _RankingPrior(RandomAgent):
    """A prior that values every legal action by a fixed random score (so the ranking is known
    to the test) and plays the best one."""

    def __init__(self, num_actions: int, seed: int = 0):
        super().__init__(seed=seed)
        self.scores = np.random.default_rng(seed).random(num_actions)

    def action_values(self, observation, action_mask, state=None, player=None):
        return {int(a): float(self.scores[a]) for a in np.flatnonzero(action_mask)}

    def act(self, observation, action_mask, state=None, player=None):
        values = self.action_values(observation, action_mask)
        return max(values, key=values.get)


def test_candidates_restrict_the_root_to_the_priors_best_actions():
    """``candidates=k`` spends every root visit on the prior's k best actions and picks one of
    them; with k=1 it plays the prior's choice without searching."""
    game = envs.make_game("bower_v0")
    checked = 0
    for i, (state, me) in enumerate(positions("bower_v0", {}, 24, seed=21)):
        mask = state.legal_mask(me).copy()
        prior = _RankingPrior(game.num_actions, seed=i)
        legal = np.flatnonzero(mask[: game.num_actions])
        if legal.size < 4:
            continue
        top3 = set(sorted(legal, key=lambda a: -prior.scores[a])[:3])
        agent = ISMCTSAgent(seed=i, iterations=24, prior=prior, candidates=3, keys="root",
                            depth=2, playout="random")
        action = agent.act(state.observe(me), mask, state=state, player=me)
        assert action in top3
        (root,) = agent.table.values()  # keys="root": the root is the only node
        assert set(np.flatnonzero(root.visits)) == top3 and root.visits.sum() == 24
        single = ISMCTSAgent(seed=i, iterations=24, prior=prior, candidates=1)
        assert single.act(state.observe(me), mask, state=state, player=me) == max(
            top3, key=lambda a: prior.scores[a])
        assert single.last_iterations == 0 and not single.table
        checked += 1
    assert checked >= 8


def test_keys_root_plays_every_later_decision_by_the_playout_policy():
    """keys="root": one node per searched move, so the table grows by at most one per move."""
    game = envs.make_game("bauer_draft_v0", num_players=2)
    state = game.new_state(3)
    agent = small(0, iterations=20, keys="root")
    moves = 0
    while not state.is_over():
        joint = {}
        for p in state.acting_players():
            mask = state.legal_mask(p)
            joint[p] = (agent.act(state.observe(p), mask, state=state, player=p) if p == 0
                        else int(np.flatnonzero(mask)[0]))
            moves += p == 0 and mask.sum() > 1
        state.apply(joint)
    assert 0 < len(agent.table) <= moves


def test_trained_model_as_playout_and_prior():
    """``playout="trained"`` / ``prior="trained"`` play the shipped numpy model of the game and
    player count; a game without one is refused with the shipped list."""
    state, me = next(positions("bauer_draft_v0", {"num_players": 4}, 1, seed=8))
    mask = state.legal_mask(me)
    agent = agent_from_spec("ismcts:playout=trained,prior=trained,iterations=12",
                            env_name="bauer_draft_v0", seed=0)
    assert mask[agent.act(state.observe(me), mask, state=state, player=me)]
    from tablezoo.agents.learned.policy import TrainedAgent

    assert all(isinstance(policy.agent, TrainedAgent) for policy in agent.playout)
    assert isinstance(agent.prior.agent, TrainedAgent)
    state3, me3 = next(positions("bauer_draft_v0", {"num_players": 3}, 1, seed=8))
    with pytest.raises(FileNotFoundError, match="shipped"):
        small(0, playout="trained").act(state3.observe(me3), state3.legal_mask(me3),
                                        state=state3, player=me3)


def test_paired_plays_each_sampled_world_from_every_candidate():
    """paired=True: the candidates get equal visits (one per sampled world each) and the budget
    counts playouts; asking for it without keys="root" is refused, naming both."""
    game = envs.make_game("bower_v0")
    checked = 0
    for i, (state, me) in enumerate(positions("bower_v0", {}, 10, seed=23)):
        mask = state.legal_mask(me)
        if mask[: game.num_actions].sum() < 3:
            continue
        checked += 1
        agent = ISMCTSAgent(seed=i, iterations=12, prior=_RankingPrior(game.num_actions, i),
                            candidates=3, keys="root", paired=True, depth=1, playout="random")
        action = agent.act(state.observe(me), mask, state=state, player=me)
        (root,) = agent.table.values()
        visited = root.visits[root.visits > 0]
        assert mask[action] and root.visits[action] > 0
        assert visited.size == 3 and set(visited) == {4.0} and agent.last_iterations == 12
    assert checked >= 4
    with pytest.raises(ValueError, match="paired=True needs keys='root'.*'policy'"):
        ISMCTSAgent(paired=True, keys="policy")


def test_bauer_draft_defaults_fall_back_to_the_heuristic_without_a_shipped_model():
    """The bauer_draft defaults rank and roll out with the shipped model where one exists for
    the player count (2 and 4) and fall back to the heuristic tree search elsewhere (3, 5)."""
    from tablezoo.agents.learned.policy import shipped_models

    for players in (2, 3, 4, 5):
        state, me = next(positions("bauer_draft_v0", {"num_players": players}, 1, seed=9))
        agent = ISMCTSAgent(seed=0, iterations=8)
        mask = state.legal_mask(me)
        assert mask[agent.act(state.observe(me), mask, state=state, player=me)]
        shipped = bool(shipped_models("bauer_draft_v0", players))
        assert shipped == (players in (2, 4))
        assert agent.keys == ("root" if shipped else "searcher")
        assert agent.paired is shipped


def test_model_option_plays_that_file_where_the_search_plays_trained(tmp_path):
    """``model=PATH`` replaces the shipped model in the prior and the playouts; a search that
    plays no trained policy, or a file for another player count, is refused by name."""
    from tablezoo.agents.learned.policy import TrainedAgent, load_model_file, shipped_models

    (shipped,) = shipped_models("bauer_draft_v0", 2)
    model = load_model_file(shipped)
    model.weights[-1] = model.weights[-1][::-1].copy()  # another network of the same shape
    path = model.save(tmp_path / "other.npz")
    state, me = next(positions("bauer_draft_v0", {"num_players": 2}, 1, seed=5))
    obs, mask = state.observe(me), state.legal_mask(me)
    agent = agent_from_spec(f"ismcts:model={path},iterations=8", env_name="bauer_draft_v0",
                            seed=0)
    assert mask[agent.act(obs, mask, state=state, player=me)]
    own = TrainedAgent(seed=0, path=str(path))
    default = agent_from_spec("ismcts:iterations=8", env_name="bauer_draft_v0", seed=0)
    default.act(obs, mask, state=state, player=me)
    for search, expected in ((agent, own), (default, TrainedAgent(seed=0, path=str(shipped)))):
        assert search.prior.agent.action_values(obs, mask) == expected.action_values(obs, mask)
        assert all(isinstance(p.agent, TrainedAgent) for p in search.playout)
    assert agent.prior.agent.action_values(obs, mask) != default.prior.agent.action_values(
        obs, mask)
    with pytest.raises(ValueError, match="model=.*plays none.*playout=trained or prior=trained"):
        factory_from_spec(f"ismcts:model={path}", "ethnos_v0", 2)
    with pytest.raises(ValueError, match="trained for 2 players.*has 4"):
        factory_from_spec(f"ismcts:model={path}", "bauer_draft_v0", 4)
