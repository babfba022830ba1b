"""The command-line tools: the benchmark and the docs (terminal play: ``test_play.py``)."""

from __future__ import annotations

import json

from tablezoo.training.cli import docs
from tablezoo.training.cli import env_speed as benchmark


def test_benchmark_json(capsys):
    assert benchmark.main(["--env", "bauer_trick_v0", "--seconds", "0.2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert result["env"] == "bauer_trick_v0" and result["steps"] > 0


def test_benchmark_measures_each_option_set_once():
    """``--variants`` with ``--env-option num_players=3`` measured bauer_draft's four player
    counts as four identical rows of 3 players."""
    from tablezoo.envs.registry import VARIANTS

    assert len(VARIANTS["bauer_draft_v0"]) > 1
    assert benchmark.option_sets("bauer_draft_v0", True, {"num_players": 3}) == [
        {"num_players": 3}]
    every = benchmark.option_sets("bauer_draft_v0", True, {})
    assert every == VARIANTS["bauer_draft_v0"]  # distinct sets all stay, in order
    assert benchmark.option_sets("bower_v0", False, {}) == [{}]


def test_docs_prints_tables(capsys):
    assert docs.main(["bauer_trick_v0"]) == 0
    out = capsys.readouterr().out
    assert "Options of `bauer_trick_v0`" in out and "| `hand` | 32 |" in out
