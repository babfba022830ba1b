"""Soft targets: a teacher's move values recorded beside its move, the actor fitted to their
softmax, the critic to the search's value; refused where the teacher values nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.base import BaseAgent, legal_ids
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.imitation import cloning
from tablezoo.training.imitation.cloning import (
    Demonstrations,
    ImitationSettings,
    clone,
    generate,
    soft_targets,
)


def fixed_value(action: int, observation: np.ndarray) -> float:
    """A value that depends on the move and the position, with no ties among a position's
    moves (action ids differ, and the multiplier is irrational)."""
    return float(np.sin(action * np.sqrt(2.0) + observation.sum()))


class FixedValues(BaseAgent):
    """A teacher whose move values are ``fixed_value``; its own ``act`` plays the lowest legal
    move, so a recorder that plays ``act`` instead of the best value shows in the games."""

    name = "fixed"

    def act(self, observation, action_mask, state=None, player=None):
        return int(legal_ids(action_mask)[0])

    def action_values(self, observation, action_mask, state=None, player=None):
        return {int(a): fixed_value(int(a), observation) for a in legal_ids(action_mask)}


def test_recorded_values_are_the_teachers_and_the_best_is_played(monkeypatch):
    monkeypatch.setattr(cloning, "factory_from_spec", lambda spec, env: FixedValues)
    game = envs.make_game("ethnos_v0", num_players=2)
    settings = ImitationSettings(env="ethnos_v0", games=2, seed=5, temperature=0.1,
                                 value_target="search", reward_scale=0.5, scaled=False)
    demos = generate(game, settings)
    expected = []  # (observation, mask, best move, its value), the loop written out here
    for g in range(2):
        state = game.new_state(seeds_for(5 + g, 6)[0])
        while not state.is_over():
            joint = {}
            for p in state.acting_players():
                o, m = state.observe(p), state.legal_mask(p)
                ids = legal_ids(m)
                values = [fixed_value(int(a), o) for a in ids]
                joint[p] = int(ids[int(np.argmax(values))])
                if m.sum() > 1:
                    expected.append((o, m, joint[p], max(values)))
            state.apply(joint)
    assert len(demos) == len(expected) > 20
    np.testing.assert_array_equal(demos.actions, [e[2] for e in expected])
    np.testing.assert_allclose(demos.returns, [0.5 * e[3] for e in expected], rtol=1e-6)
    assert np.array_equal(~np.isnan(demos.values), demos.masks)
    for row, (o, m, _, _) in zip(demos.values, expected, strict=True):
        ids = legal_ids(m)
        np.testing.assert_allclose(row[ids], [fixed_value(int(a), o) for a in ids], rtol=1e-6)
    # the final return is the critic's target by default
    plain = generate(game, ImitationSettings(env="ethnos_v0", games=2, seed=5, temperature=0.1,
                                             scaled=False))
    np.testing.assert_array_equal(plain.actions, demos.actions)
    assert set(np.unique(plain.returns)) <= {-1.0, 0.0, 1.0}


def test_soft_targets_are_the_softmax_over_the_valued_moves():
    values = np.array([[0.0, np.nan, np.log(3.0), np.nan],
                       [5.0, 5.0, np.nan, 4.0]], np.float32)
    targets = soft_targets(values, 1.0)
    np.testing.assert_allclose(targets[0], [0.25, 0, 0.75, 0], rtol=1e-6)
    e = np.exp(-1.0)
    np.testing.assert_allclose(targets[1], [1 / (2 + e), 1 / (2 + e), 0, e / (2 + e)], rtol=1e-6)
    cold = soft_targets(values, 1e-3)
    np.testing.assert_allclose(cold[0], [0, 0, 1, 0], atol=1e-6)


def test_a_soft_clone_learns_the_distribution_a_hard_clone_does_not():
    pytest.importorskip("sb3_contrib")
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    rng = np.random.default_rng(3)
    n, width, actions = 40, 6, 5
    masks = rng.random((n, actions)) < 0.7
    masks[:, :2] = True
    values = np.where(masks, rng.normal(size=(n, actions)), np.nan).astype(np.float32)
    demos = Demonstrations(rng.normal(size=(n, width)).astype(np.float32), masks,
                           np.nanargmax(values, axis=1), np.zeros(n, np.float32), values)
    targets = soft_targets(values, 1.0)

    def kl_after(temperature):
        torch.manual_seed(0)
        policy = MaskableActorCriticPolicy(spaces.Box(-10, 10, (width,)),
                                           spaces.Discrete(actions), lambda _: 1e-3,
                                           net_arch=[64, 64])
        clone(policy, demos, epochs=400, lr=3e-3, holdout=0.0, log=lambda _: None,
              temperature=temperature)
        with torch.no_grad():
            probs = policy.get_distribution(torch.as_tensor(demos.obs),
                                            action_masks=masks).distribution.probs.numpy()
        inside = targets > 0
        return float(np.sum(targets[inside] * np.log(targets[inside] / probs[inside])) / n)

    soft, hard = kl_after(1.0), kl_after(None)
    assert soft < 0.05
    assert hard > 4 * soft


def test_soft_targets_need_values(tmp_path, capsys):
    demos = Demonstrations(np.zeros((2, 3), np.float32), np.ones((2, 4), bool),
                           np.zeros(2, np.int64), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="no move values"):
        clone(None, demos, temperature=0.1)
    for bad in (0, -1.0, float("inf"), "hot"):
        with pytest.raises(ValueError, match="temperature=.*allowed: a number above 0"):
            ImitationSettings(env="ethnos_v0", games=1, temperature=bad)
    with pytest.raises(ValueError, match="value_target='best'; allowed: return, search"):
        ImitationSettings(env="ethnos_v0", games=1, value_target="best")
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train

    with pytest.raises(SystemExit):
        train.main(["--env", "bauer_trick_v0", "--timesteps", "0", "--out", str(tmp_path / "x"),
                    "--bc-games", "2", "--bc-teacher", "random", "--bc-temperature", "0.1"])
    assert "--bc-teacher 'random' does not" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_imitate_with_the_rollout_search_as_soft_teacher(tmp_path):
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli import imitate

    out = tmp_path / "run"
    assert imitate.main(["--env", "bauer_trick_v0", "--teacher", "rollout:worlds=4",
                         "--games", "2", "--epochs", "1", "--temperature", "0.2",
                         "--value-target", "search", "--out", str(out)]) == 0
    bc = json.loads((out / "summary.json").read_text())["bc"]
    assert bc["temperature"] == 0.2 and bc["value_target"] == "search"
    assert bc["samples"] > 10
