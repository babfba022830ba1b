"""Rollout policy improvement: the values are real rollouts of the teacher, worker processes give
the same samples, the fit keeps the teacher's move inside the margin and leaves it beyond, and bad
options are refused by name."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.imitation.rollout_improvement import (
    ActionValues,
    FitSettings,
    RolloutSettings,
    fit,
    generate,
    targets,
)
from tablezoo.training.selfplay.collector import obs_scale_for

TRICK = ("bauer_trick_v0", {"episode": "deal"})


def teacher_game(game, env_name, seed):
    """The teacher's self-play game on ``seed`` (the generator's seeds), written out here:
    (deciding seat, observation, legal mask, teacher's move) of every choice, and the returns."""
    n = game.num_players
    state_seed, _explore, *agent_seeds = seeds_for(seed, 2 * n + 2)
    make = factory_from_spec("heuristic", env_name)
    players = [make(s) for s in agent_seeds[:n]]
    state, choices = game.new_state(state_seed), []
    while not state.is_over():
        (p,) = state.acting_players()
        o, m = state.observe(p), state.legal_mask(p)
        a = players[p].act(o, m, state=state, player=p)
        if m.sum() > 1:
            choices.append((p, o.copy(), m.copy(), a))
        state.apply({p: a})
    return choices, state.returns()


def test_the_teachers_move_is_valued_at_the_return_its_own_game_reaches():
    # bauer_trick's heuristic is deterministic: after its own move, its rollout is the rest of
    # the very game it plays, so that value must be the deciding seat's final return
    env_name, options = TRICK
    game = envs.make_game(env_name, **options)
    for g in range(3):
        data = generate(game, RolloutSettings(env=env_name, games=1, seed=70 + g, explore=0.0,
                                              scaled=False))
        choices, returns = teacher_game(game, env_name, 70 + g)
        assert len(data) == len(choices) > 10
        np.testing.assert_array_equal(data.teacher, [c[3] for c in choices])
        np.testing.assert_array_equal(data.obs, np.stack([c[1] for c in choices]))
        np.testing.assert_array_equal(data.masks, np.stack([c[2] for c in choices]))
        teacher_values = data.values[np.arange(len(data)), data.teacher]
        np.testing.assert_array_equal(teacher_values, [returns[c[0]] for c in choices])
        # the alternatives are other games: some of them end differently
        others = data.values[data.masks] != np.repeat(teacher_values, data.masks.sum(1))
        assert others.any()
        assert not data.values[~data.masks].any()


@pytest.mark.parametrize("teacher", ["heuristic", "random"])
def test_an_alternative_is_valued_by_playing_it_and_letting_the_teacher_finish(teacher):
    # with the random teacher every draw counts: the path's seats and the playout's agents
    # must take the seeds written out here (state, explore, n path seats, n playout seats)
    env_name, options = TRICK
    game = envs.make_game(env_name, **options)
    data = generate(game, RolloutSettings(env=env_name, games=1, seed=90, teacher=teacher,
                                          explore=0.0, scaled=False))
    n = game.num_players
    state_seed, _explore, *agent_seeds = seeds_for(90, 2 * n + 2)
    make = factory_from_spec(teacher, env_name)
    path = [make(s) for s in agent_seeds[:n]]
    state = game.new_state(state_seed)
    # the first choice of the game: play its last legal action, then the teacher everywhere
    while state.legal_mask(state.acting_players()[0]).sum() < 2:
        (p,) = state.acting_players()
        state.apply({p: path[p].act(state.observe(p), state.legal_mask(p), state=state,
                                    player=p)})
    (seat,) = state.acting_players()
    expected = {}
    for action in np.flatnonzero(state.legal_mask(seat)):
        world = state.clone()
        world.apply({seat: int(action)})
        finish = [make(s) for s in agent_seeds[n:]]  # afresh for every action
        while not world.is_over():
            (p,) = world.acting_players()
            world.apply({p: finish[p].act(world.observe(p), world.legal_mask(p), state=world,
                                          player=p)})
        expected[int(action)] = world.returns()[seat]
    assert {a: data.values[0, a] for a in expected} == expected
    assert data.masks[0].sum() == len(expected) > 1


def test_worker_processes_give_the_samples_of_one_process():
    env_name, options = TRICK
    game = envs.make_game(env_name, **options)
    settings = RolloutSettings(env=env_name, games=5, seed=3, scaled=True, advice="heuristic",
                               explore=0.3)
    one = generate(game, settings)
    two = generate(game, dataclasses.replace(settings, processes=2))
    for a, b in zip((one.obs, one.masks, one.teacher, one.values),
                    (two.obs, two.masks, two.teacher, two.values)):
        np.testing.assert_array_equal(a, b)
    # the advice is the teacher's move, as an advised network reads it
    advice = one.obs[:, game.obs_spec.size:]
    np.testing.assert_array_equal(advice.argmax(1), one.teacher)


def test_the_inputs_are_what_an_advised_model_reads_when_it_plays():
    from tablezoo.agents.learned.policy import MLPAgent, NumpyMLP

    env_name, options = TRICK
    game = envs.make_game(env_name, **options)
    scale = obs_scale_for(game, True)
    data = generate(game, RolloutSettings(env=env_name, games=2, seed=8, scaled=True,
                                          advice="heuristic", explore=0.0))
    width, a = game.obs_spec.size + game.num_actions, game.num_actions
    mlp = NumpyMLP([np.zeros((width, 4)), np.zeros((4, a))], [np.zeros(4), np.zeros(a)],
                   obs_scale=scale, card={"env": env_name, "advice": "heuristic"})
    rows = []
    for g in range(2):
        state_seed = seeds_for(8 + g, 2 * game.num_players + 2)[0]
        agent = MLPAgent(mlp, seed=0)
        state = game.new_state(state_seed)
        choices = iter(teacher_game(game, env_name, 8 + g)[0])
        while not state.is_over():
            (p,) = state.acting_players()
            o, m = state.observe(p), state.legal_mask(p)
            if m.sum() > 1:
                rows.append(agent.network_input(o, m, state=state, player=p) * scale)
                move = next(choices)[3]
            else:
                move = int(np.flatnonzero(m)[0])
            state.apply({p: move})
    np.testing.assert_array_equal(data.obs, np.stack(rows))


def test_exploring_leaves_the_teachers_path():
    env_name, options = TRICK
    game = envs.make_game(env_name, **options)
    settings = RolloutSettings(env=env_name, games=4, seed=5, explore=0.0, scaled=False)
    on_path = generate(game, settings)
    off_path = generate(game, dataclasses.replace(settings, explore=1.0))
    assert len(on_path) != len(off_path) or not np.array_equal(on_path.obs, off_path.obs)


def test_simultaneous_moves_are_refused_by_name():
    game = envs.make_game("bauer_draft_v0", num_players=2)
    with pytest.raises(ValueError, match=r"act at once.*allowed: games where one seat acts"):
        generate(game, RolloutSettings(env="bauer_draft_v0", games=1, scaled=False))


@pytest.mark.parametrize("kwargs, message", [
    ({"explore": 1.5}, r"explore=1.5: allowed: a probability in \[0, 1\]"),
    ({"advice": "random"}, r"advice='random' and teacher='heuristic'.*allowed"),
    ({"processes": 0}, r"processes=0; allowed: >= 1"),
    ({"candidates": 1}, r"candidates=1: allowed: 2 or more"),
    ({"candidates": 3, "teacher": "random"}, r"teacher 'random' does not rank its moves"),
])
def test_bad_generation_options_are_refused_with_the_allowed_values(kwargs, message):
    game = envs.make_game("bauer_trick_v0", episode="deal")
    with pytest.raises(ValueError, match=message):
        generate(game, RolloutSettings(env="bauer_trick_v0", games=1, scaled=False, **kwargs))


def test_candidates_value_the_teachers_best_moves_and_leave_the_rest_unvalued():
    # ranking by a separate teacher leaves the games as they were: 2 and 3 candidates see the
    # same positions, try nested sets of moves (the teacher's first), and agree on the values
    # they share (every rollout starts from the same seeds)
    from tablezoo.agents.games.bower.heuristic import HeuristicAgent

    game = envs.make_game("bower_v0")
    settings = RolloutSettings(env="bower_v0", games=1, seed=5, explore=0.0, scaled=False)
    two = generate(game, dataclasses.replace(settings, candidates=2))
    three = generate(game, dataclasses.replace(settings, candidates=3))
    np.testing.assert_array_equal(two.obs, three.obs)
    np.testing.assert_array_equal(two.teacher, three.teacher)
    tried2, tried3 = ~np.isnan(two.values), ~np.isnan(three.values)
    legal = two.masks.sum(1)
    np.testing.assert_array_equal(tried2.sum(1), np.minimum(legal, 2))
    np.testing.assert_array_equal(tried3.sum(1), np.minimum(legal, 3))
    assert not (tried2 & ~two.masks).any()
    assert (tried2 <= tried3).all() and (legal > 3).any()
    np.testing.assert_array_equal(two.values[tried2], three.values[tried2])
    assert tried2[np.arange(len(two)), two.teacher].all()
    # the alternative tried is the teacher's best other move by its own values
    state_seed, _explore, *agent_seeds = seeds_for(5, 6)
    teacher = HeuristicAgent(agent_seeds[0])
    state = game.new_state(state_seed)
    (p,) = state.acting_players()
    while state.legal_mask(p).sum() < 2:
        state.apply({p: teacher.act(state.observe(p), state.legal_mask(p), state=state,
                                    player=p)})
        (p,) = state.acting_players()
    values = teacher.action_values(state.observe(p), state.legal_mask(p), state=state, player=p)
    ranked = sorted(values, key=lambda a: -values[a])
    assert set(np.flatnonzero(tried2[0])) == {int(two.teacher[0]),
                                               next(a for a in ranked if a != two.teacher[0])}


def test_targets_are_gains_over_the_teachers_move_less_the_margin():
    data = ActionValues(obs=np.zeros((2, 1), np.float32),
                        masks=np.array([[1, 1, 1, 0], [0, 1, 1, 1]], bool),
                        teacher=np.array([1, 3]),
                        values=np.array([[1.0, 0.0, -1.0, 0.0], [0.0, 1.0, 1.0, -1.0]],
                                        np.float32))
    np.testing.assert_allclose(targets(data, 0.25), [[0.75, 0.0, -1.25, 0.0],
                                                     [0.0, 1.75, 1.75, 0.0]])
    # a legal move without a rollout (candidates) gets the worst gain tried there (never
    # above the teacher's move), less the margin
    data.values[0] = [-1.0, 0.0, np.nan, 0.0]
    np.testing.assert_allclose(targets(data, 0.25)[0], [-1.25, 0.0, -1.25, 0.0])
    data.values[0] = [1.0, 0.0, np.nan, 0.0]
    np.testing.assert_allclose(targets(data, 0.25)[0], [0.75, 0.0, -0.25, 0.0])


def synthetic_positions(rng, count):
    """Three kinds of position (one-hot observation), four actions, the teacher's move 0:
    kind 0: action 2 gains +0.5 over it; kind 1: action 3 gains only +0.05; kind 2: every
    alternative loses. Each sample adds luck common to its actions and noise to the gains."""
    kinds = rng.integers(0, 3, count)
    gains = np.array([[0, -0.2, 0.5, -0.4], [0, -0.3, -0.6, 0.05], [0, -0.5, -0.1, -0.2]])
    values = gains[kinds] + rng.normal(0, 0.2, (count, 4))
    values[:, 0] = gains[kinds, 0]
    values += rng.choice([-1.0, 0.0, 1.0], count)[:, None]  # the deal's luck
    obs = np.eye(3, dtype=np.float32)[kinds]
    return kinds, ActionValues(obs, np.ones((count, 4), bool), np.zeros(count, np.int64),
                               values.astype(np.float32))


def test_the_fit_leaves_the_teacher_only_for_a_gain_beyond_the_margin():
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    torch.manual_seed(0)
    policy = MaskableActorCriticPolicy(gym.spaces.Box(0, 1, (3,)), gym.spaces.Discrete(4),
                                       lr_schedule=lambda _: 1e-3, net_arch=[16, 16])
    kinds, data = synthetic_positions(np.random.default_rng(0), 1200)
    report = fit(policy, data, FitSettings(margin=0.1, epochs=30, batch_size=64),
                 log=lambda _: None)
    with torch.no_grad():
        probs = policy.get_distribution(torch.eye(3)).distribution.probs.numpy()
    assert list(probs.argmax(1)) == [2, 0, 0]
    # held out: kind 0 (a third of the positions) gains 0.5 when it leaves the teacher
    assert report["heldout_kept"] == pytest.approx(np.mean(kinds != 0), abs=0.1)
    assert 0.1 < report["heldout_gain"] < 0.25


def test_symmetries_teach_the_relabelled_positions_too():
    """Only one kind of position is played (input [1, 0]), where action 2 gains; the game's one
    symmetry swaps the inputs and actions 2 and 3. Fitted with it, the network also leaves the
    teacher for action 3 on the relabelled input [0, 1], which no game showed it; without it,
    it does not."""
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from tablezoo.envs.core.symmetry import Symmetries

    swap = Symmetries(np.array([[0, 1], [1, 0]]), np.array([[0, 1, 2, 3], [0, 1, 3, 2]]))
    rng = np.random.default_rng(1)
    count = 600
    values = np.array([0, -0.3, 0.5, -0.4]) + rng.normal(0, 0.1, (count, 4))
    values[:, 0] = 0.0
    data = ActionValues(np.tile(np.array([[1, 0]], np.float32), (count, 1)),
                        np.ones((count, 4), bool), np.zeros(count, np.int64),
                        values.astype(np.float32))
    greedy = {}
    for name, symmetries in (("with", swap), ("without", None)):
        torch.manual_seed(0)
        policy = MaskableActorCriticPolicy(gym.spaces.Box(0, 1, (2,)), gym.spaces.Discrete(4),
                                           lr_schedule=lambda _: 1e-3, net_arch=[16, 16])
        fit(policy, data, FitSettings(margin=0.1, epochs=20, batch_size=64), log=lambda _: None,
            symmetries=symmetries)
        with torch.no_grad():
            probs = policy.get_distribution(torch.eye(2)).distribution.probs.numpy()
        greedy[name] = list(probs.argmax(1))
    assert greedy["with"] == [2, 3]
    assert greedy["without"][0] == 2 and greedy["without"][1] != 3


def test_whole_games_are_held_out():
    """Each of 20 games has its own best action, and its positions show only the game's id: a
    fit that saw some positions of a game would know them all. Held out by game, the fit has
    never seen the held-out games, so it cannot read their gain as if it had."""
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    rng = np.random.default_rng(3)
    games = np.repeat(np.arange(20), 30)
    best = rng.integers(1, 4, 20)
    values = np.full((len(games), 4), -1.0, np.float32)
    values[:, 0] = 0.0
    values[np.arange(len(games)), best[games]] = 1.0
    data = ActionValues(np.eye(20, dtype=np.float32)[games], np.ones((len(games), 4), bool),
                        np.zeros(len(games), np.int64), values, games)
    torch.manual_seed(0)
    policy = MaskableActorCriticPolicy(gym.spaces.Box(0, 1, (20,)), gym.spaces.Discrete(4),
                                       lr_schedule=lambda _: 1e-3, net_arch=[16])
    report = fit(policy, data, FitSettings(margin=0.1, epochs=30, batch_size=32, holdout=0.25),
                 log=lambda _: None)
    with torch.no_grad():  # the games it trained on: learned
        probs = policy.get_distribution(torch.eye(20)).distribution.probs.numpy()
    assert np.mean(probs.argmax(1) == best) >= 0.7
    assert report["heldout_gain"] < 0.5  # a position split reads about +1


def test_symmetries_must_fit_the_values():
    from tablezoo.envs.core.symmetry import Symmetries

    swap = Symmetries(np.array([[0, 1], [1, 0]]), np.array([[0, 1, 2], [0, 2, 1]]))
    for width, actions, message in ((3, 3, "observations of 2 \\(or 5 with advice\\)"),
                                    (2, 4, "symmetries for 3 actions")):
        data = ActionValues(np.zeros((4, width), np.float32), np.ones((4, actions), bool),
                            np.zeros(4, np.int64), np.zeros((4, actions), np.float32))
        with pytest.raises(ValueError, match=message):
            fit(None, data, FitSettings(margin=0.1), symmetries=swap)


@pytest.mark.parametrize("kwargs, message", [
    ({"margin": -0.1}, r"margin=-0.1: allowed: 0 or more"),
    ({"margin": float("nan")}, r"margin=nan: allowed: 0 or more"),
    ({"margin": 0.1, "epochs": 0}, r"epochs=0, holdout=0.05; allowed: epochs 1 or more"),
    ({"margin": 0.1, "holdout": 1.0}, r"holdout=1.0; allowed: .* strictly between 0 and 1"),
])
def test_bad_fit_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        fit(None, ActionValues(*[np.zeros((2, 1))] * 4), FitSettings(**kwargs))


def test_training_refuses_bad_rollout_options_by_name(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train

    for extra, message in ((["--rollout-margin", "-1"], "margin=-1.0: allowed: 0 or more"),
                           (["--rollout-games", "-3"], "--rollout-games -3"),
                           (["--rollout-games", "0", "--rollout-explore", "2"],
                            "explore=2.0: allowed: a probability in [0, 1]"),
                           (["--advice", "heuristic", "--bc-teacher", "random"],
                            "advice='heuristic' and teacher='random'"),
                           (["--bc-teacher", "nosuch"], "unknown agent 'nosuch'"),
                           (["--env", "bauer_draft_v0"], "act at once"),
                           (["--rollout-candidates", "1"], "candidates=1: allowed: 2 or more"),
                           (["--resume"], "--rollout-games with --resume"),
                           (["--env", "bower_v0", "--rollout-symmetries"],
                            "bower_v0 declares no symmetries; allowed for: bauer_trick_v0"),
                           (["--rollout-games", "0", "--rollout-save"],
                            "--rollout-values/--rollout-save are rollout values, so they need "
                            "--rollout-games N > 0"),
                           (["--rollout-values", str(tmp_path / "none.npz")],
                            "none.npz: not a readable .npz"),
                           (["--rollout-games", "0", "--rollout-symmetries"],
                            "--rollout-symmetries relabels the rollout values, so it needs "
                            "--rollout-games N > 0")):
        with pytest.raises(SystemExit):
            train.main(["--env", "bauer_trick_v0", "--timesteps", "0", "--rollout-games", "2",
                        "--out", str(tmp_path / "x"), *extra])
        assert message in capsys.readouterr().err
        assert not (tmp_path / "x").exists()


def test_a_training_run_records_the_improvement_on_the_models_card(tmp_path):
    pytest.importorskip("sb3_contrib")
    from tablezoo.agents.learned.policy import MLPAgent, load_mlp
    from tablezoo.training.cli.selfplay import train

    out = tmp_path / "run"
    code = train.main(["--env", "bauer_trick_v0", "--env-option", "episode=deal",
                       "--advice", "heuristic", "--rollout-games", "12", "--rollout-epochs", "2",
                       "--rollout-symmetries",
                       "--timesteps", "0", "--eval-games", "0", "--net-arch", "16",
                       "--no-progress", "--out", str(out)])
    assert code == 0
    card = json.loads((out / "model.json").read_text())
    rollout = card["rollout"]
    assert rollout["games"] == 12 and rollout["teacher"] == "heuristic"
    assert rollout["symmetries"] == 8  # bauer_trick's suit renamings, advice included
    assert rollout["samples"] > 12 * 10 and 0 <= rollout["heldout_kept"] <= 1
    mlp = load_mlp(out / "model.npz", "bauer_trick_v0")
    game = envs.make_game("bauer_trick_v0", episode="deal")
    state = game.new_state(1)
    (p,) = state.acting_players()
    action = MLPAgent(mlp).act(state.observe(p), state.legal_mask(p), state=state, player=p)
    assert state.legal_mask(p)[action]


def test_a_rollout_run_with_evaluation_games_draws_its_curve_over_the_epochs(tmp_path):
    """``--eval-games`` plays the policy before the fit and after every epoch: one csv row per
    epoch and opponent, the figure, and the card's last row; the fitted weights are those of
    the same run without the evaluation (playing only reads the policy)."""
    pytest.importorskip("sb3_contrib")
    import csv

    from tablezoo.training.cli import plot
    from tablezoo.training.cli.selfplay import train

    def run(out, eval_games):
        code = train.main(["--env", "bauer_trick_v0", "--env-option", "episode=deal",
                           "--advice", "heuristic", "--rollout-games", "10",
                           "--rollout-epochs", "3", "--timesteps", "0",
                           "--eval-games", str(eval_games), "--net-arch", "16",
                           "--no-progress", "--out", str(out)])
        assert code == 0
        return np.load(out / "model.npz")

    curved, plain = run(tmp_path / "curved", 6), run(tmp_path / "plain", 0)
    assert all(np.array_equal(curved[k], plain[k]) for k in plain.files)
    with (tmp_path / "curved" / "rollout_eval.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert sorted((int(r["step"]), r["opponent"]) for r in rows) == sorted(
        (epoch, opponent) for epoch in range(4) for opponent in ("random", "heuristic"))
    assert all(int(r["games"]) == 6 for r in rows)
    assert (tmp_path / "curved" / "rollout_curve.png").stat().st_size > 0
    assert not (tmp_path / "plain" / "rollout_eval.csv").exists()
    card = json.loads((tmp_path / "curved" / "model.json").read_text())
    last = card["rollout"]["eval_after_fit"]
    assert last["step"] == 3 and last["heuristic"]["games"] == 6
    # drawn again on demand from the run folder
    assert plot.main([str(tmp_path / "curved"), "--rollout", "--out",
                      str(tmp_path / "again.png")]) == 0
    assert (tmp_path / "again.png").stat().st_size > 0


def test_plotting_a_run_without_its_csv_names_the_missing_file(tmp_path, capsys):
    from tablezoo.training.cli import plot

    for extra, name, how in (([], "eval.csv", "(train with --eval-games > 0)"),
                             (["--rollout"], "rollout_eval.csv", "--rollout-games N and")):
        with pytest.raises(SystemExit):
            plot.main([str(tmp_path), *extra])
        err = capsys.readouterr().err
        assert f"no {name} in {tmp_path}" in err and how in err


def test_saved_rollout_values_fit_again_to_the_same_weights(tmp_path, capsys):
    # --rollout-save writes the values; a run that fits them (--rollout-values) instead of
    # playing the games gets the same network; values of another shape are refused by name
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train

    common = ["--env", "bauer_trick_v0", "--env-option", "episode=deal", "--advice",
              "heuristic", "--rollout-games", "6", "--rollout-epochs", "2", "--timesteps", "0",
              "--eval-games", "0", "--net-arch", "16", "--no-progress"]
    assert train.main([*common, "--rollout-save", "--out", str(tmp_path / "a")]) == 0
    saved = tmp_path / "a" / "rollout_values.npz"
    assert train.main([*common, "--rollout-values", str(saved), "--out",
                       str(tmp_path / "b")]) == 0
    a, b = np.load(tmp_path / "a" / "model.npz"), np.load(tmp_path / "b" / "model.npz")
    assert a.files == b.files
    for k in a.files:
        np.testing.assert_array_equal(a[k], b[k])
    card = json.loads((tmp_path / "b" / "model.json").read_text())
    assert card["rollout"]["values_from"] == str(saved)
    # the fit reads the file: other values there give another network
    with np.load(saved) as f:
        arrays = {k: f[k] for k in f.files}
    arrays["values"] = -arrays["values"]
    np.savez_compressed(tmp_path / "negated.npz", **arrays)
    assert train.main([*common, "--rollout-values", str(tmp_path / "negated.npz"), "--out",
                       str(tmp_path / "d")]) == 0
    d = np.load(tmp_path / "d" / "model.npz")
    assert any(not np.array_equal(a[k], d[k]) for k in a.files)
    capsys.readouterr()
    with pytest.raises(SystemExit):  # without advice the input lacks the advice one-hot
        train.main([*common[:4], *common[6:], "--rollout-values", str(saved), "--out",
                    str(tmp_path / "c")])
    err = capsys.readouterr().err
    assert "rollout values" in err and "shapes {'obs'" in err and "input width" in err
    assert not (tmp_path / "c").exists()
    np.save(tmp_path / "bare.npy", np.zeros(3))
    with pytest.raises(SystemExit):
        train.main([*common, "--rollout-values", str(tmp_path / "bare.npy"), "--out",
                    str(tmp_path / "c")])
    assert "bare.npy: one array, not an .npz" in capsys.readouterr().err
