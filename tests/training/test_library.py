"""The tools are a library: each runs from its settings object, built in Python, and does what
the same flags do on the command line; settings that cannot run raise ``SettingsError``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.search.defaults import SearchSettings
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.training.cli.evaluation import evaluate as evaluate_cli
from tablezoo.training.evaluation.evaluate import EvaluationSettings, run_evaluation
from tablezoo.training.runs import SettingsError
from tablezoo.training.selfplay.settings import TrainSettings

TINY = {"env": "bower_v0", "timesteps": 32, "n_envs": 2, "n_steps": 16, "batch_size": 16,
        "eval_games": 0, "no_progress": True, "seed": 4}


def test_a_training_run_from_python_writes_the_bytes_of_the_same_command(tmp_path):
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train as train_cli
    from tablezoo.training.selfplay.train import train

    summary = train(TrainSettings(**TINY, out=tmp_path / "py"))
    assert summary["total_timesteps"] >= 32
    assert train_cli.main(["--env", "bower_v0", "--timesteps", "32", "--n-envs", "2",
                           "--n-steps", "16", "--batch-size", "16", "--eval-games", "0",
                           "--no-progress", "--seed", "4", "--out", str(tmp_path / "cli")]) == 0
    assert (tmp_path / "py" / "model.npz").read_bytes() == \
        (tmp_path / "cli" / "model.npz").read_bytes()


@pytest.mark.parametrize("change,words", [
    ({"gamma": 2.0}, "--gamma 2.0: allowed"),
    ({"env_options": {"colour": "blue"}}, "colour"),
    ({"dagger_rounds": 2}, "--dagger-rounds 2: DAgger refines a clone"),
])
def test_training_settings_that_cannot_run_raise_before_anything_is_written(change, words,
                                                                           tmp_path):
    from tablezoo.training.selfplay.train import train

    with pytest.raises(SettingsError, match=words):
        train(TrainSettings(**{**TINY, **change}, out=tmp_path / "run"))
    assert not (tmp_path / "run").exists()


def test_an_evaluation_from_python_returns_what_the_command_writes(tmp_path):
    payload = run_evaluation(EvaluationSettings(env="bower_v0", agent="random", games=4,
                                                progress=False))
    assert payload["games"] == 4 and payload["hero"] == "random"
    out = tmp_path / "eval.json"
    assert evaluate_cli.main(["--env", "bower_v0", "--agent", "random", "--games", "4",
                              "--no-progress", "--json", str(out)]) == 0
    assert Path(out).read_text().count('"games": 4') == 1
    with pytest.raises(SettingsError, match="--model --agent"):
        run_evaluation(EvaluationSettings(env="bower_v0"))


def test_a_search_from_its_settings_plays_as_the_same_spec():
    state = envs.make_game("bauer_trick_v0").new_state(seed=2)
    me = state.acting_players()[0]
    obs, mask = state.observe(me), state.legal_mask(me)
    by_settings = ISMCTSAgent(seed=5, settings=SearchSettings(iterations=20, depth=4))
    by_spec = make_agent("ismcts", env_name="bauer_trick_v0", seed=5, iterations=20, depth=4)
    assert by_settings.act(obs, mask, state=state, player=me) == \
        by_spec.act(obs, mask, state=state, player=me)
    assert by_spec.settings == SearchSettings(iterations=20, depth=4)
    with pytest.raises(TypeError):
        ISMCTSAgent(iterations_per_move=3)
