"""The command-line tools: the benchmark and the docs (terminal play: ``test_play.py``)."""

from __future__ import annotations

import json

import pytest

from tablezoo import envs
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
        (processes, backend, size) for processes in ("1", "2")
        for backend in envs.vector_backends("bower_v0") for size in ("1", "4")]
    assert "compiled" in envs.vector_backends("bower_v0")  # numba is a test dependency
    assert all(float(r[5].replace(",", "")) > 0 and r[-1].endswith("x") for r in rows)
    assert lines[0].startswith("before: load average") and lines[-1].startswith("after:")


def test_benchmark_information_state_in_the_same_rounds(capsys):
    """``--observation information_state``: a third env in the same rounds, handing out the
    information state, and the cost per step it adds (no timing asserted)."""
    assert benchmark.main(["--env", "bower_v0", "--seconds", "0.2",
                           "--observation", "information_state", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [(r["reuse_buffers"], r["observation"]) for r in results] == [
        (False, "default"), (True, "default"), (False, "information_state")]
    assert all(r["steps"] > 0 for r in results)
    assert benchmark.main(["--env", "bower_v0", "--seconds", "0.1",
                           "--observation", "information_state"]) == 0
    assert "steps/s info" in capsys.readouterr().out


def test_docs_prints_the_information_state_table(capsys):
    assert docs.main(["ethnos_v0", "--information-state"]) == 0
    out = capsys.readouterr().out
    assert "Information state of `ethnos_v0`" in out and "| `history` | 640×4 |" in out
    assert "Event kinds of the `history` rows" in out and "`recruit`" in out


def test_benchmark_vector_in_place(capsys):
    """``--in-place``: the compiled rows step with ``copy=False`` and the AEC row reuses its
    buffers (the JSON says which rows); without ``--vector`` it is refused."""
    assert benchmark.main(["--vector", "--in-place", "--env", "bower_v0", "--seconds", "0.05",
                           "--sizes", "2", "--processes", "1", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert {r["backend"]: r["in_place"] for r in results} == {
        "aec": True, "python": False, "compiled": True}
    assert all(r["decisions"] > 0 for r in results)
    with pytest.raises(SystemExit):
        benchmark.main(["--in-place", "--env", "bower_v0"])
    assert "--in-place go with --vector" in capsys.readouterr().err
