"""The numpy MLP policy: same numbers as the torch policy, masking, file format and refusals."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.learned.policy import (
    MLPAgent,
    ModelMismatchError,
    NumpyMLP,
    TrainedAgent,
    choose,
    load_mlp,
    load_model,
)
from tablezoo.training.selfplay.collector import obs_scale_for
from tablezoo.training.selfplay.league import LeagueSettings
from tablezoo.training.shipping.export import mlp_from_policy

ENV = "bauer_draft_v0"


def random_policy(game, arch=(64, 32), activation="tanh", seed=0):
    """An untrained MaskablePPO policy for ``game`` (random weights from torch's init)."""
    import gymnasium as gym
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    torch.manual_seed(seed)
    spec = game.obs_spec
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation]
    return MaskableActorCriticPolicy(
        gym.spaces.Box(spec.low, spec.high, (spec.size,), np.float32),
        gym.spaces.Discrete(game.num_actions), lambda _: 1e-3,
        net_arch={"pi": list(arch), "vf": [16]}, activation_fn=act)


def positions(game, count, seed=0):
    """Observations and masks of seeded random-play positions (all acting seats)."""
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    g = 0
    while len(obs) < count:
        state = game.new_state(seed + g)
        g += 1
        while not state.is_over() and len(obs) < count:
            joint = {}
            for p in state.acting_players():
                mask = state.legal_mask(p)
                obs.append(state.observe(p).copy())
                masks.append(mask.copy())
                joint[p] = int(rng.choice(np.flatnonzero(mask)))
            state.apply(joint)
    return np.stack(obs), np.stack(masks)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_numpy_forward_equals_torch_forward(activation):
    import torch

    game = envs.make_game(ENV, num_players=3)
    policy = random_policy(game, activation=activation)
    scale = obs_scale_for(game)
    mlp = mlp_from_policy(policy, scale)
    obs, masks = positions(game, 300)
    with torch.no_grad():
        dist = policy.get_distribution(torch.as_tensor(obs * scale), action_masks=masks)
        torch_probs = dist.distribution.probs.numpy()
        torch_logits = policy.action_net(policy.mlp_extractor.forward_actor(
            policy.extract_features(torch.as_tensor(obs * scale)))).numpy()
    np.testing.assert_allclose(mlp.logits(obs), torch_logits, atol=1e-5, rtol=0)
    probs = mlp.masked_probabilities(obs, masks)
    np.testing.assert_allclose(probs, torch_probs, atol=1e-5, rtol=0)
    assert (probs[~masks] == 0).all()
    assert (choose(probs, None) == torch_probs.argmax(-1)).mean() > 0.99  # ties at 1e-7 aside
    # one row at a time gives the batch's answer
    single = np.stack([mlp.masked_probabilities(o[None], m[None])[0] for o, m in
                       zip(obs[:20], masks[:20])])
    np.testing.assert_allclose(single, probs[:20], atol=1e-6, rtol=0)


def test_masked_sampling_follows_the_distribution_and_its_own_generator():
    probs = np.array([[0.0, 0.25, 0.0, 0.75]])
    rng = np.random.default_rng(1)
    draws = np.array([choose(probs, np.array([rng.random()]))[0] for _ in range(4000)])
    assert set(draws) == {1, 3}
    assert abs((draws == 3).mean() - 0.75) < 0.03
    assert choose(probs, np.array([1.0]))[0] == 3  # the top end never reaches a masked id
    assert choose(probs, np.array([0.0]))[0] == 1  # nor the bottom end


def test_agent_plays_legal_actions_greedy_and_seeded():
    game = envs.make_game(ENV, num_players=2)
    mlp = mlp_from_policy(random_policy(game), obs_scale_for(game))
    greedy = MLPAgent(mlp)
    a, b = MLPAgent(mlp, seed=3, deterministic=False), MLPAgent(mlp, seed=3, deterministic=False)
    obs, masks = positions(game, 100, seed=5)
    for o, m in zip(obs, masks):
        g = greedy.act(o, m)
        assert m[g] and g == int(np.argmax(np.where(m, mlp.logits(o[None])[0], -np.inf)))
        s = a.act(o, m)
        assert m[s] and s == b.act(o, m)


def test_file_round_trip_card_and_refusals(tmp_path):
    game = envs.make_game(ENV, num_players=2)
    mlp = mlp_from_policy(random_policy(game), obs_scale_for(game))
    path = mlp.save(tmp_path / "m.npz", {"env": ENV, "num_players": 2, "seed": 7})
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["obs_size"] == game.obs_spec.size and card["num_actions"] == game.num_actions
    assert card["architecture"] == {"hidden": [64, 32], "activation": "tanh", "obs_scale": True}
    with np.load(path, allow_pickle=False) as data:  # plain arrays, no pickles
        assert all(data[k].dtype == np.float32 for k in data.files)
    back = load_mlp(path, ENV, game.obs_spec.size)
    obs, _ = positions(game, 10)
    np.testing.assert_array_equal(back.logits(obs), mlp.logits(obs))
    with pytest.raises(ModelMismatchError, match="'bauer_draft_v0', not for env 'ethnos_v0'"):
        load_mlp(path, "ethnos_v0")
    size4 = envs.make_game(ENV, num_players=4).obs_spec.size
    with pytest.raises(ModelMismatchError, match=f"size {game.obs_spec.size}.*size {size4}"):
        load_mlp(path, ENV, size4)
    with pytest.raises(ModelMismatchError, match="trained for env 'bauer_draft_v0'"):
        make_agent("trained", env_name="bower_v0", path=str(path))
    agent = make_agent("trained", env_name=ENV, path=str(path))
    big_obs, big_masks = positions(envs.make_game(ENV, num_players=4), 1)
    with pytest.raises(ModelMismatchError, match=f"size {size4}"):
        agent.act(big_obs[0], big_masks[0])
    with pytest.raises(FileNotFoundError, match="no model file"):
        load_mlp(tmp_path / "missing.npz")
    bad = NumpyMLP([np.zeros((3, 2))], [np.zeros(2)])
    with pytest.raises(ModelMismatchError, match="size 3, got size 5"):
        bad.logits(np.zeros(5))


def test_sb3_zip_for_another_env_is_refused(tmp_path):
    """A MaskablePPO zip is checked through its run's config.json and its observation space."""
    from sb3_contrib import MaskablePPO

    from tablezoo.training.selfplay.train import build_shard

    vec = build_shard(ENV, {"num_players": 2}, LeagueSettings(specs=["random"]), True, 1.0, 2, 0)
    MaskablePPO("MlpPolicy", vec, n_steps=8, batch_size=8, device="cpu").save(tmp_path / "m.zip")
    (tmp_path / "config.json").write_text(json.dumps({"env": ENV}))
    with pytest.raises(ModelMismatchError, match="'bauer_draft_v0', not for env 'bower_v0'"):
        load_model(tmp_path / "m.zip", "bower_v0")
    size4 = envs.make_game(ENV, num_players=4).obs_spec.size
    with pytest.raises(ModelMismatchError, match=f"size {vec.game.obs_spec.size}.*size {size4}"):
        load_model(tmp_path / "m.zip", ENV, size4)
    with pytest.raises(ModelMismatchError, match="not for env 'bower_v0'"):
        make_agent("policy", env_name="bower_v0", path=str(tmp_path / "m.zip"))


def test_a_zip_without_its_config_or_not_a_zip_is_refused_before_any_game(tmp_path, capsys):
    """Away from its run's config.json a zip names no env: the tools still check its input size
    against the game's (it failed at the first move with a shape error from inside torch), and
    a file that is not a MaskablePPO zip, or a damaged config.json, is named."""
    from sb3_contrib import MaskablePPO

    from tablezoo.training.cli.evaluation import evaluate
    from tablezoo.training.selfplay.train import build_shard

    vec = build_shard(ENV, {"num_players": 2}, LeagueSettings(specs=["random"]), True, 1.0, 2, 0)
    MaskablePPO("MlpPolicy", vec, n_steps=8, batch_size=8, device="cpu").save(tmp_path / "m.zip")
    size4 = envs.make_game(ENV, num_players=4).obs_spec.size
    cases = {  # option, damage -> the error's words
        "num_players=4": (None, f"size {vec.game.obs_spec.size}.*size {size4}"),
        "num_players=2": ("[1]", "config.json .*expected a JSON object, got a list"),
        "num_players=3": ("{", "config.json .*not JSON"),
    }
    size2 = vec.game.obs_spec.size
    for n, scale in enumerate(([1.0, 2.0], "x", [float("nan")] * size2, [[1.0]] * size2)):
        words = "not finite" if n == 2 else f"obs_scale must be a list of {size2} numbers"
        cases[f"num_players=2 obs_scale {n}"] = (json.dumps({"env": ENV, "obs_scale": scale}),
                                                  words)
    for option, (config, message) in cases.items():
        (tmp_path / "config.json").unlink(missing_ok=True)
        if config is not None:
            (tmp_path / "config.json").write_text(config)
        with pytest.raises(SystemExit) as exc:
            evaluate.main(["--env", ENV, "--env-option", option.split()[0], "--agent",
                           f"policy:{tmp_path / 'm.zip'}", "--games", "2", "--no-progress"])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and re.search(message, err), err
    (tmp_path / "config.json").unlink()
    # from Python, without a player count: a size no count of the env gives is refused
    with pytest.raises(ModelMismatchError, match=f"size {vec.game.obs_spec.size}, but bower_v0"):
        make_agent("policy", env_name="bower_v0", path=str(tmp_path / "m.zip"))
    make_agent("policy", env_name=ENV, path=str(tmp_path / "m.zip"))  # 2 players give its size
    (tmp_path / "m.npz").write_bytes((tmp_path / "m.zip").read_bytes()[:100])
    with pytest.raises(ValueError, match="m.npz: not a MaskablePPO model.zip"):
        make_agent("policy", env_name=ENV, path=str(tmp_path / "m.npz"))


def test_trained_picks_the_model_that_fits_the_observation(tmp_path, monkeypatch):
    import tablezoo.agents.learned.policy as policy_module

    monkeypatch.setattr(policy_module, "PRETRAINED_DIR", tmp_path)
    models = {}
    for n in (2, 4):
        game = envs.make_game(ENV, num_players=n)
        models[n] = mlp_from_policy(random_policy(game, seed=n), obs_scale_for(game))
        models[n].save(tmp_path / f"{ENV}_{n}p.npz", {"env": ENV, "num_players": n})
    by_count = make_agent("trained", env_name=ENV, num_players=4)
    assert by_count.mlp.obs_size == envs.make_game(ENV, num_players=4).obs_spec.size
    anyone = make_agent("trained", env_name=ENV, seed=1)
    for n in (2, 4):
        obs, masks = positions(envs.make_game(ENV, num_players=n), 5)
        for o, m in zip(obs, masks):
            assert anyone.act(o, m) == MLPAgent(models[n]).act(o, m)
    with pytest.raises(FileNotFoundError, match="no shipped model for bauer_draft_v0 with 3 "
                       "players.*shipped: bauer_draft_v0 2p, bauer_draft_v0 4p"):
        make_agent("trained", env_name=ENV, num_players=3)
    with pytest.raises(ValueError, match="unknown argument.*rollouts.*allowed: deterministic, "
                       "num_players, path"):
        make_agent("trained", env_name=ENV, rollouts=3)
    assert isinstance(make_agent("trained", env_name=ENV, num_players=2), TrainedAgent)


@pytest.mark.parametrize("tool", ["evaluate", "tournament", "play", "search prior",
                                  "search playout"])
def test_tools_refuse_trained_for_a_player_count_without_a_model_before_any_game(tool, tmp_path,
                                                                                  capsys):
    """They used to start, then fail at the model's first move with a traceback (the searches
    that name a ``trained`` prior or playout too: they learn the player count at that move)."""
    from tablezoo.training.cli.main import main

    argv = ["--env", "ethnos_v0", "--env-option", "num_players=3", *{
        "evaluate": ["--agent", "trained", "--games", "2", "--no-progress"],
        "tournament": ["--agents", "heuristic", "trained", "--games", "2", "--no-progress",
                       "--out", str(tmp_path)],
        "play": ["--opponent", "trained"],
        "search prior": ["--agent", "ismcts:prior=trained,iterations=4", "--games", "2",
                         "--no-progress"],
        "search playout": ["--agent", "heuristic", "--opponent",
                           "ismcts:playout=trained,iterations=4", "--games", "2",
                           "--no-progress"]}[tool]]
    command = tool if " " not in tool else "evaluate"
    with pytest.raises(SystemExit) as exc:
        main([command, *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "no shipped model for ethnos_v0 with 3 players" in err and "ethnos_v0 4p" in err
    if "search" in tool:
        assert f"{tool.split()[1]}=trained" in err


def test_a_search_naming_the_trained_model_plays_where_one_is_shipped():
    """The check above refuses only a missing model: 2 players have one."""
    from tablezoo.agents.registry import factory_from_spec

    make = factory_from_spec("ismcts:prior=trained,playout=trained,iterations=4", "ethnos_v0", 2)
    game = envs.make_game("ethnos_v0", num_players=2)
    state = game.new_state(seed=3)
    player = state.acting_players()[0]
    action = make(0).act(state.observe(player), state.legal_mask(player), state=state,
                         player=player)
    assert state.legal_mask(player)[action]


def test_a_trained_spec_naming_another_player_count_than_the_game_is_refused():
    from tablezoo.agents.registry import factory_from_spec

    with pytest.raises(ValueError, match="num_players=4, but the game has 3 players"):
        factory_from_spec("trained:num_players=4", "ethnos_v0", 3)
    assert factory_from_spec("trained:num_players=4", "ethnos_v0", 4)(0).name == "trained"
