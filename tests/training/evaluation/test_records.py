"""``tablezoo evaluate --records``: per-game lines, and a stopped run resumed gives the same
result as one uninterrupted run while playing only the missing games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablezoo.training.cli.evaluation import evaluate
from tablezoo.training.evaluation import evaluate as evaluation

ENV = "bauer_draft_v0"
GAMES = 12
BASE = ["--env", ENV, "--agent", "random", "--opponent", "random", "--games", str(GAMES),
        "--seed", "321", "--no-progress"]


def run(tmp_path: Path, name: str, *extra: str) -> dict:
    out = tmp_path / f"{name}.json"
    assert evaluate.main([*BASE, "--json", str(out), *extra]) == 0
    return json.loads(out.read_text())


def game_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@pytest.fixture
def counted_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seeds of the games ``tablezoo.training.evaluation.evaluate`` actually plays."""
    seeds: list[int] = []
    real = evaluation.play_game

    def play(game, agents, seed, *args, **kwargs):
        seeds.append(seed)
        return real(game, agents, seed, *args, **kwargs)

    monkeypatch.setattr(evaluation, "play_game", play)
    return seeds


def test_records_hold_one_line_per_game_with_its_seed_seat_and_reward(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    summary = run(tmp_path, "a", "--records", str(records))
    header = json.loads(records.read_text().splitlines()[0])
    assert header["run"]["seed"] == 321 and header["run"]["opponent"] == "random"
    lines = game_lines(records)
    assert [r["game"] for r in lines] == list(range(GAMES))
    assert [r["seed"] for r in lines] == [321 + k for k in range(GAMES)]
    assert [r["seat"] for r in lines] == [k % 4 for k in range(GAMES)]  # 4 players by default
    rewards = [r["reward"] for r in lines]
    assert summary["mean_reward"] == pytest.approx(sum(rewards) / GAMES)
    assert len(set(rewards)) > 1  # random against random: the check below can tell games apart


def test_a_stopped_run_resumes_with_only_the_missing_games(tmp_path: Path,
                                                          counted_games: list[int]) -> None:
    whole = run(tmp_path, "whole")
    records = tmp_path / "games.jsonl"
    run(tmp_path, "first", "--records", str(records))
    lines = records.read_text().splitlines(keepends=True)
    # stopped after game 4, in the middle of writing game 5's line
    records.write_text("".join(lines[:6]) + lines[6][:10])
    counted_games.clear()
    resumed = run(tmp_path, "resumed", "--records", str(records))
    assert counted_games == [321 + k for k in range(5, GAMES)]
    assert resumed == whole
    assert [r["game"] for r in game_lines(records)] == list(range(GAMES))
    counted_games.clear()
    assert run(tmp_path, "again", "--records", str(records)) == whole
    assert counted_games == []


def test_resumed_timing_counts_the_recorded_decisions(tmp_path: Path) -> None:
    whole = run(tmp_path, "whole", "--timing")
    records = tmp_path / "games.jsonl"
    run(tmp_path, "first", "--records", str(records), "--timing", "--games", "5")
    assert all(len(r["cpu_s"]) == len(r["iterations"]) > 0 for r in game_lines(records))
    resumed = run(tmp_path, "resumed", "--records", str(records), "--timing")
    assert resumed["timing"]["decisions"] == whole["timing"]["decisions"]


@pytest.mark.parametrize("change", [["--opponent", "heuristic"], ["--seed", "322"],
                                    ["--env-option", "num_players=3"]])
def test_another_runs_file_is_refused_naming_both(tmp_path: Path, change: list[str],
                                                  capsys: pytest.CaptureFixture) -> None:
    records = tmp_path / "games.jsonl"
    run(tmp_path, "first", "--records", str(records), "--games", "2")
    before = records.read_text()
    with pytest.raises(SystemExit) as exc:
        evaluate.main([*BASE, *change, "--records", str(records)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "belongs to another run" in err and "file:" in err and "this:" in err
    assert records.read_text() == before


@pytest.mark.parametrize(("line", "message"), [
    ("not json\n", "line 4: not JSON"),
    ('{"game": 2, "seed": 323, "seat": 0}\n', "line 4: missing reward"),
    ('{"game": 2, "seed": 999, "seat": 0, "reward": 1}\n', "game 2 has seed 999, expected 323"),
    ('{"game": 1, "seed": 322, "seat": 1, "reward": 1}\n', "game 1 is recorded twice"),
    ('{"game": 2, "seed": 323, "seat": 0, "reward": "win"}\n', "reward='win'"),
    ('[1, 2]\n', "expected a JSON object, found list"),
])
def test_a_malformed_file_is_refused_naming_the_line(tmp_path: Path, line: str, message: str,
                                                     capsys: pytest.CaptureFixture) -> None:
    records = tmp_path / "games.jsonl"
    run(tmp_path, "first", "--records", str(records), "--games", "2")
    records.write_text(records.read_text() + line)
    before = records.read_text()
    with pytest.raises(SystemExit):
        evaluate.main([*BASE, "--records", str(records)])
    assert message in capsys.readouterr().err
    assert records.read_text() == before


def test_a_file_without_the_run_header_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    records = tmp_path / "games.jsonl"
    records.write_text('{"game": 0, "seed": 321, "seat": 0, "reward": 1}\n')
    with pytest.raises(SystemExit):
        evaluate.main([*BASE, "--records", str(records)])
    assert "line 1 must be the run header" in capsys.readouterr().err
