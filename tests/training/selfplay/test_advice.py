"""Advised networks (``agents.learned.advice``): the advice reaches the input in the collector,
in the agent that plays a model, and in a training run's files; misfits are refused by name."""

from __future__ import annotations

import dataclasses
import itertools
import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tablezoo import envs
from tablezoo.agents.learned.advice import (
    advice_of,
    advisor_factory,
    advisor_seed,
    check_advice,
    with_advice,
)
from tablezoo.agents.learned.policy import MLPAgent, ModelMismatchError, NumpyMLP, load_mlp
from tablezoo.agents.registry import factory_from_spec, make_agent
from tablezoo.training.selfplay.collector import MultiSeatVecEnv, obs_scale_for
from tablezoo.training.selfplay.league import League, LeagueSettings


def random_mlp(size, num_actions, seed, scale, card=None):
    rng = np.random.default_rng(seed)
    sizes = [size, 24, num_actions]
    return NumpyMLP([rng.normal(0, 0.5, (a, b)) for a, b in itertools.pairwise(sizes)],
                    [rng.normal(0, 0.1, b) for b in sizes[1:]], "tanh", scale, card=card or {})


def copying_mlp(game, env_name):
    """An advised network that plays exactly its advice: the logits are 20 x the one-hot."""
    size, n = game.obs_spec.size, game.num_actions
    w0 = np.zeros((size + n, n), np.float32)
    w0[size:, :] = np.eye(n)
    return NumpyMLP([w0, 20 * np.eye(n)], [np.zeros(n), np.zeros(n)], "relu",
                    card={"env": env_name, "advice": "heuristic"})


@pytest.mark.parametrize("env_name,options", [
    ("ethnos_v0", {"num_players": 3}),              # a stateful heuristic (band plans)
    ("bauer_draft_v0", {"num_players": 3}),         # simultaneous moves
    ("bower_v0", {}),                               # 648 actions, a look-ahead heuristic
])
def test_advised_collector_equals_a_sequential_loop_with_one_advisor_per_seat(env_name, options):
    game = envs.make_game(env_name, **options)
    size, n = game.obs_spec.size, game.num_actions
    scale = obs_scale_for(game, advised=True)
    league = League(game, env_name,
                    LeagueSettings(specs=["heuristic"], self_play=True, max_snapshots=1))
    league.set_self(random_mlp(size + n, n, 1, scale))
    league.add_snapshot("snap", random_mlp(size + n, n, 2, scale))
    learner = random_mlp(size + n, n, 3, None)  # acts on the collector's scaled inputs
    vec = MultiSeatVecEnv(game, league, num_envs=3, seed=5, scaled=True, advice="heuristic",
                          env_name=env_name)
    assert vec.observation_space.shape == (size + n,)
    obs, slots = vec.reset(), list(vec.slots)
    batched: dict[int, list] = {i: [] for i in range(vec.num_envs)}
    episodes = []
    for _ in range(400 if env_name == "ethnos_v0" else 60):
        masks = vec.action_masks()
        actions = np.array([MLPAgent(learner).act(o, m) for o, m in zip(obs, masks)])
        next_obs, _, dones, _ = vec.step(actions)
        for i in range(vec.num_envs):
            batched[i].append((obs[i], int(actions[i])))
            if dones[i]:
                episodes.append((slots[i], batched[i]))
                batched[i] = []
        obs, slots = next_obs, list(vec.slots)
    assert episodes
    make_advisor = advisor_factory("heuristic", env_name)
    for slot, steps in episodes:
        plan = slot.plan
        players, advisors = {}, {}
        for p, controller in enumerate(plan.controllers):
            if controller is None or isinstance(controller, str):
                advisors[p] = make_advisor(advisor_seed(slot.seed, p))
                mlp = learner if controller is None else league.network(controller, plan)
                players[p] = (mlp, controller is None,
                              None if controller is None else
                              np.random.default_rng(plan.seeds[p]))
            else:
                players[p] = factory_from_spec(plan.entry, env_name)(plan.seeds[p])
        state, reference, decisions = game.new_state(slot.seed), [], 0
        while not state.is_over() and decisions < game.max_decisions:
            joint = {}
            for p in state.acting_players():
                o, mask = state.observe(p), state.legal_mask(p)
                if p not in advisors:
                    joint[p] = players[p].act(o, mask, state=state, player=p)
                    continue
                x = with_advice(o, advice_of(advisors[p], state, p, o, mask, n), n)
                mlp, is_learner, rng = players[p]
                if is_learner:
                    x = x * scale
                    joint[p] = MLPAgent(mlp).act(x, mask)
                    reference.append((x, joint[p]))
                else:
                    probs = mlp.masked_probabilities(x[None], mask[None, :n])
                    from tablezoo.agents.learned.policy import choose

                    joint[p] = int(choose(probs, np.array([rng.random()]))[0])
            state.apply(joint)
            decisions += 1
        assert len(reference) == len(steps)
        for (x1, a1), (x2, a2) in zip(steps, reference):
            np.testing.assert_array_equal(x1, x2)
            assert a1 == a2


def test_an_advised_model_that_copies_its_advice_plays_its_advisors_moves():
    env_name = "ethnos_v0"
    game = envs.make_game(env_name, num_players=2)
    agent = MLPAgent(copying_mlp(game, env_name), seed=7)
    opponent = make_agent("heuristic", env_name=env_name, seed=8)
    checked = 0
    for g in range(2):
        agent.reset(100 + g)
        shadow = make_agent("heuristic", env_name=env_name, seed=advisor_seed(100 + g, 0))
        state = game.new_state(g)
        while not state.is_over():
            joint = {}
            for p in state.acting_players():
                o, mask = state.observe(p), state.legal_mask(p)
                if p == 0:
                    joint[p] = agent.act(o, mask, state=state, player=p)
                    if mask[: game.num_actions].sum() > 1:
                        assert joint[p] == shadow.act(o, mask, state=state, player=p)
                        checked += 1
                else:
                    joint[p] = opponent.act(o, mask, state=state, player=p)
            state.apply(joint)
    assert checked > 100


def test_advice_misfits_are_refused_by_name(tmp_path):
    game = envs.make_game("bauer_trick_v0")
    size, n = game.obs_spec.size, game.num_actions
    path = random_mlp(size + n, n, 0, None, {"env": "bauer_trick_v0", "advice": "heuristic"}
                      ).save(tmp_path / "advised.npz")
    assert load_mlp(path, "bauer_trick_v0", size).env_obs_size == size  # fits its own env
    with pytest.raises(ModelMismatchError, match="'bauer_trick_v0'.*'bower_v0'"):
        load_mlp(path, "bower_v0")
    with pytest.raises(ModelMismatchError, match=f"size {size}.*size {size + 1}"):
        load_mlp(path, "bauer_trick_v0", size + 1)
    card = json.loads(path.with_suffix(".json").read_text())
    path.with_suffix(".json").write_text(json.dumps({**card, "advice": "oracle"}))
    with pytest.raises(ValueError, match="advice='oracle'; allowed: heuristic"):
        load_mlp(path)
    with pytest.raises(ValueError, match="allowed: heuristic"):
        check_advice("ismcts")


def test_a_small_advised_run_trains_exports_and_plays_as_trained(tmp_path):
    from tablezoo.training.cli.selfplay import train
    from tablezoo.training.evaluation.evaluate import evaluate_seat

    out = tmp_path / "run"
    code = train.main(["--env", "bauer_trick_v0", "--env-option", "episode=deal", "--advice",
                       "heuristic", "--bc-games", "30", "--bc-epochs", "2", "--timesteps", "256",
                       "--n-envs", "4", "--n-steps", "32", "--batch-size", "64", "--n-epochs",
                       "1", "--net-arch", "32", "--eval-games", "8", "--eval-every", "256",
                       "--out", str(out), "--seed", "0", "--no-progress"])
    assert code == 0
    card = json.loads((out / "model.json").read_text())
    assert card["advice"] == "heuristic" and card["bc"]["heldout_agreement"] > 0.5
    game = envs.make_game("bauer_trick_v0", episode="deal")
    assert card["obs_size"] == game.obs_spec.size + game.num_actions
    make_trained = factory_from_spec(f"trained:{out / 'model.npz'}", "bauer_trick_v0")
    rewards = evaluate_seat(game, make_trained, make_trained,
                            factory_from_spec("random", "bauer_trick_v0"), 8, 0)
    assert len(rewards) == 8
    from tablezoo.training.shipping.ship import ship

    shipped = ship(out, {}, tmp_path / "pretrained")  # reads back as the env's model
    assert load_mlp(shipped, "bauer_trick_v0", game.obs_spec.size).advice == "heuristic"
    with pytest.raises(ValueError, match="advice.*trained:OUT.npz"):
        factory_from_spec(f"policy:{out / 'model.zip'}", "bauer_trick_v0")


def test_cloning_data_carries_the_advice_and_the_teachers_own_advice_is_its_label():
    from tablezoo.training.imitation.cloning import ImitationSettings, generate

    game = envs.make_game("ethnos_v0", num_players=2)
    n = game.num_actions
    settings = ImitationSettings(env="ethnos_v0", games=2, seed=3, advice="heuristic",
                                 scaled=False)
    same = generate(game, settings)
    assert same.obs.shape[1] == game.obs_spec.size + n
    np.testing.assert_array_equal(same.obs[:, -n:].argmax(axis=1), same.actions)
    other = generate(game, dataclasses.replace(settings, teacher="random"))
    advice = other.obs[:, -n:]
    assert (advice.sum(axis=1) == 1).all()  # every stored decision has a choice to advise on
    assert 0.05 < (advice.argmax(axis=1) == other.actions).mean() < 0.9  # a heuristic's moves

