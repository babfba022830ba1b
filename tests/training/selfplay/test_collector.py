"""The batched collector plays exactly the games a sequential loop of agents plays, and trains."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tablezoo import envs
from tablezoo.agents.learned.policy import MLPAgent, NumpyMLP
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.selfplay.collector import MultiSeatVecEnv, obs_scale_for
from tablezoo.training.selfplay.league import League, LeagueSettings


def random_mlp(game, seed, scale):
    rng = np.random.default_rng(seed)
    sizes = [game.obs_spec.size, 24, game.num_actions]
    return NumpyMLP([rng.normal(0, 0.5, (a, b)) for a, b in itertools.pairwise(sizes)],
                    [rng.normal(0, 0.1, b) for b in sizes[1:]], "tanh", scale)


def record_batched(vec, learner, steps):
    """Every finished episode of every slot: (slot, [(obs, action, reward)])."""
    vec.test_obs = vec.reset()
    vec.test_current = {i: [] for i in range(vec.num_envs)}
    return record_batched_more(vec, learner, steps)


def record_batched_more(vec, learner, steps):
    """Continue ``record_batched`` without a reset."""
    obs, current = vec.test_obs, vec.test_current
    slots = list(vec.slots)
    episodes = []
    for _ in range(steps):
        masks = vec.action_masks()
        actions = np.array([MLPAgent(learner).act(o, m) for o, m in zip(obs, masks)])
        next_obs, rewards, dones, infos = vec.step(actions)
        for i in range(vec.num_envs):
            current[i].append((obs[i], int(actions[i]), float(rewards[i])))
            if dones[i]:
                episodes.append((slots[i], current[i]))
                current[i] = []
                assert infos[i]["episode"]["l"] == len(episodes[-1][1])
        slots = list(vec.slots)
        obs = next_obs
    vec.test_obs = obs
    return episodes


def replay_sequentially(game, env_name, league, learner, slot):
    """The same episode by a plain loop: one agent per seat, one decision at a time."""
    plan = slot.plan
    agents = []
    for p, controller in enumerate(plan.controllers):
        if controller is None:
            agents.append(None)
        elif isinstance(controller, str):
            agents.append(MLPAgent(league.network(controller, plan), seed=plan.seeds[p],
                                   deterministic=False))
        else:
            agents.append(factory_from_spec(plan.entry, env_name)(plan.seeds[p]))
    state = game.new_state(slot.seed)
    scale = obs_scale_for(game)
    trajectory, pending, last = [], None, float(state.returns()[slot.seat])
    decisions = 0
    while not state.is_over() and decisions < game.max_decisions:
        joint = {}
        for p in state.acting_players():
            obs, mask = state.observe(p), state.legal_mask(p)
            if p == slot.seat:
                if pending is not None:
                    now = float(state.returns()[p])
                    trajectory.append((*pending, now - last))
                    last = now
                pending = (obs * scale, MLPAgent(learner).act(obs * scale, mask))
                joint[p] = pending[1]
            else:
                joint[p] = agents[p].act(obs, mask, state=state, player=p)
        state.apply(joint)
        decisions += 1
    trajectory.append((*pending, float(state.returns()[slot.seat]) - last))
    return trajectory


@pytest.mark.parametrize("env_name,options", [
    ("bauer_trick_v0", {"episode": "deal"}),        # teams: the partner is a network seat
    ("bauer_draft_v0", {"num_players": 3}),         # simultaneous moves
])
def test_batched_collector_equals_sequential_reference(env_name, options):
    game = envs.make_game(env_name, **options)
    scale = obs_scale_for(game)
    league = League(game, env_name, LeagueSettings(specs=["random", "heuristic"], self_play=True,
                                                   partner_snapshot_prob=0.5, max_snapshots=1))
    league.set_self(random_mlp(game, 1, scale))
    league.add_snapshot("snap", random_mlp(game, 2, scale))
    learner = random_mlp(game, 3, None)  # acts on the collector's scaled observations
    vec = MultiSeatVecEnv(game, league, num_envs=6, seed=11, scaled=True)
    episodes = record_batched(vec, learner, 60)
    league.add_snapshot("snap2", random_mlp(game, 4, scale))  # evicts "snap" (max 1) mid-game
    episodes += record_batched_more(vec, learner, 60)
    assert len(episodes) >= 12
    assert "snap" not in league.bank
    kinds = {type(c).__name__ if not isinstance(c, str) else c
             for slot, _ in episodes for c in slot.plan.controllers if c is not None}
    assert {"self", "snap"} <= kinds and len(kinds) >= 3  # networks and agents were both met
    for slot, batched in episodes:
        reference = replay_sequentially(game, env_name, league, learner, slot)
        assert len(reference) == len(batched)
        for (o1, a1, r1), (o2, a2, r2) in zip(batched, reference):
            np.testing.assert_array_equal(o1, o2)
            assert a1 == a2 and r1 == pytest.approx(r2)


def test_maskable_ppo_trains_on_the_collector_and_the_learner_is_the_partner():
    from sb3_contrib import MaskablePPO

    game = envs.make_game("bauer_trick_v0", episode="deal")
    league = League(game, "bauer_trick_v0",
                    LeagueSettings(specs=["random"], partner_snapshot_prob=0.0))
    league.set_self(random_mlp(game, 1, obs_scale_for(game)))
    vec = MultiSeatVecEnv(game, league, num_envs=4, seed=0, scaled=True)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(128)
    assert model.num_timesteps >= 128
    for slot in vec.slots:
        partner = (slot.seat + 2) % 4
        assert slot.plan.controllers[partner] == "self"
        assert all(type(c).__name__ == "RandomAgent" for p, c in enumerate(slot.plan.controllers)
                   if p not in (slot.seat, partner))
    finished = vec.pop_finished()
    assert finished and all(entry == "random" for entry, _ in finished)
    assert league.summary()["random"]["games"] == len(finished)


def test_two_worker_processes_play_the_games_of_their_shards():
    import functools

    from tablezoo.training.selfplay.shards import ShardedVecEnv
    from tablezoo.training.selfplay.train import build_shard

    make = functools.partial(build_shard, "bauer_draft_v0", {"num_players": 2},
                             LeagueSettings(specs=["heuristic", "random"]), True, 1.0)
    local = [make(3, 7), make(3, 1007)]  # the shards' own seeds: seed + 1000 * k
    probe = local[0]
    sharded = ShardedVecEnv(make, 6, 2, 7, probe.observation_space, probe.action_space)
    try:
        mlp = random_mlp(probe.game, 1, obs_scale_for(probe.game))
        for vec in (*local, sharded):
            vec.set_self(mlp)
        obs = sharded.reset()
        np.testing.assert_array_equal(obs, np.concatenate([v.reset() for v in local]))
        for _ in range(40):
            masks = sharded.action_masks()
            np.testing.assert_array_equal(masks, np.concatenate([v.action_masks()
                                                                  for v in local]))
            actions = masks.argmax(axis=1)
            got = sharded.step(actions)
            want = [local[0].step(actions[:3]), local[1].step(actions[3:])]
            for k in range(3):
                np.testing.assert_array_equal(got[k], np.concatenate([w[k] for w in want]))
        assert len(sharded.pop_finished()) == sum(len(v.pop_finished()) for v in local) > 0
    finally:
        sharded.close()


def test_a_worker_that_cannot_build_its_games_fails_the_constructor_with_its_reason():
    import functools

    from tablezoo.training.selfplay.shards import ShardedVecEnv
    from tablezoo.training.selfplay.train import build_shard

    good = functools.partial(build_shard, "bauer_draft_v0", {"num_players": 2},
                             LeagueSettings(specs=["random"]), True, 1.0)
    probe = good(2, 0)
    bad = functools.partial(build_shard, "bauer_draft_v0", {"num_players": 2},
                            LeagueSettings(specs=["no_such_agent"]), True, 1.0)
    with pytest.raises(RuntimeError, match="worker 0 could not build its games.*no_such_agent"):
        ShardedVecEnv(bad, 4, 2, 0, probe.observation_space, probe.action_space)
