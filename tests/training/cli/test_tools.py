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


def test_benchmark_vector_prints_a_row_per_size(capsys):
    """``tablezoo bench --vector``: one row per batch size and process count, the AEC env's
    decisions/s beside each, the machine load before and after (no timing asserted)."""
    assert benchmark.main(["--vector", "--env", "bower_v0", "--seconds", "0.05",
                           "--sizes", "1,4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.startswith("bower_v0")]
    assert [(r[2], r[3], r[4]) for r in rows] == [
        ("1", "python", "1"), ("1", "python", "4"), ("2", "python", "1"), ("2", "python", "4")]
    assert all(float(r[5].replace(",", "")) > 0 and r[-1].endswith("x") for r in rows)
    assert lines[0].startswith("before: load average") and lines[-1].startswith("after:")
