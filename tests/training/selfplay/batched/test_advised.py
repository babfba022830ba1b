"""Advice on the batched path: the compiled engine's observations widened by the heuristic's
move equal what the heuristic agent advises on the same engine states, at every decision, and
an advised run trains and ships on the compiled engine."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("sb3_contrib")

from tablezoo.agents import make_agent
from tablezoo.agents.games import batched_agents, heuristic_class
from tablezoo.agents.learned.advice import advice_of
from tablezoo.training.batched.advised import AdvisedStepper
from tablezoo.training.batched.stepping import make_stepper
from tablezoo.training.cli.selfplay import train

ENV = "bauer_trick_v0"


@pytest.mark.parametrize("episode", ["deal", "game"])
def test_the_advice_is_the_heuristic_agents_move_at_every_decision(episode):
    inner = make_stepper(ENV, 24, seed=3, backend="compiled", episode=episode)
    stepper = AdvisedStepper(inner, batched_agents(ENV)["heuristic"])
    game = inner.game
    size, n = game.obs_spec.size, game.num_actions
    advisor = heuristic_class(ENV)(seed=0)
    rng = np.random.default_rng(1)
    stepper.reset()
    advised = forced = 0
    for t in range(150):
        for i in range(stepper.num_envs):
            state, p = stepper.get_state(i), int(stepper.seat[i])
            observation, mask = state.observe(p), state.legal_mask(p)
            np.testing.assert_array_equal(stepper.obs[i, :size], observation)
            np.testing.assert_array_equal(stepper.env_obs[i], observation)  # what agents read
            expected = np.zeros(n, np.float32)
            move = advice_of(advisor, state, p, observation, mask, n)
            if move < n:
                expected[move] = 1.0
                advised += 1
            else:
                forced += 1
            np.testing.assert_array_equal(stepper.obs[i, size:], expected)
        rows = None if t % 2 else np.flatnonzero(rng.random(stepper.num_envs) < 0.5)
        legal = stepper.mask[:, :n] * rng.random((stepper.num_envs, n))
        stepper.step(legal.argmax(axis=1), rows)
    assert advised > 1000 and forced > 100  # both kinds of position were compared


def test_an_env_without_a_batched_heuristic_is_refused_advice_on_the_compiled_engine(
        monkeypatch, capsys):
    from tablezoo.agents import games

    monkeypatch.setattr(games, "batched_agents", lambda env_name, options=None: {})
    with pytest.raises(SystemExit):
        train.main(["--env", ENV, "--advice", "heuristic", "--engine", "compiled",
                    "--timesteps", "1", "--out", "unused"])
    assert "--advice needs a batched heuristic" in capsys.readouterr().err


def test_an_advised_run_on_the_compiled_engine_ships_an_advised_model(tmp_path):
    out = tmp_path / "run"
    code = train.main(["--env", ENV, "--advice", "heuristic", "--engine", "compiled",
                       "--timesteps", "2048", "--n-envs", "16", "--n-steps", "64",
                       "--batch-size", "256", "--net-arch", "64", "--bc-games", "300",
                       "--bc-epochs", "6", "--eval-games", "8", "--eval-every", "1024",
                       "--self-play", "--snapshot-every", "1024", "--no-progress",
                       "--out", str(out)])
    assert code == 0
    card = json.loads((out / "model.json").read_text())
    assert card["advice"] == "heuristic" and card["engine"] == "compiled"
    agent = make_agent("trained", env_name=ENV, path=str(out / "model.npz"), seed=0)
    heuristic = heuristic_class(ENV)(seed=0)
    stepper = make_stepper(ENV, 64, seed=9, backend="compiled", episode="deal")
    stepper.reset()
    same = total = 0
    for _ in range(20):  # the clone follows its advice where a choice is open
        actions = np.empty(stepper.num_envs, np.int64)
        for i in range(stepper.num_envs):
            state, p = stepper.get_state(i), int(stepper.seat[i])
            obs, mask = state.observe(p), state.legal_mask(p)
            actions[i] = agent.act(obs, mask, state=state, player=p)
            assert mask[actions[i]]
            if mask[:-1].sum() > 1:
                total += 1
                same += actions[i] == heuristic.act(obs, mask, state=state, player=p)
        stepper.step(actions)
    assert same > 0.6 * total  # uniform legal play agrees 29% of the time here
