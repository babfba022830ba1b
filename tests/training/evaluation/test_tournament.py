"""Tournaments: lineups, zero-sum bookkeeping, ratings order, files written, errors."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.cli.evaluation import tournament
from tablezoo.training.evaluation import tournament as tournaments
from tablezoo.training.evaluation.ratings import Ratings, ranks_from_returns
from tablezoo.training.evaluation.tournament import block_lineup, run_tournament
from tests.training.selfplay.toy_games import BidGame

ENV = "bauer_trick_v0"


def test_ranks_from_returns_share_ties():
    assert ranks_from_returns([1.0, -1.0]) == [1, 2]
    assert ranks_from_returns([0.0, 1.0, 0.0, -1.0]) == [2, 1, 2, 4]


def test_ratings_follow_results():
    ratings = Ratings(["a", "b"])
    for _ in range(20):
        ratings.update([["a", "a"], ["b", "b"]], [1.0, -1.0])
    table = ratings.table()
    assert table["a"]["mu"] > 25 > table["b"]["mu"]


def test_block_lineups():
    rng = np.random.default_rng(0)
    for _ in range(200):
        lineup = block_lineup(rng, 4, 2)
        assert len(set(lineup)) == 2
        lineup = block_lineup(rng, 2, 3)
        assert len(set(lineup)) == 2 and set(lineup) <= {0, 1}


def test_team_tournament_is_zero_sum_and_ranks_the_heuristic_first():
    game = envs.make_game(ENV, episode="deal")
    names = ["random", "heuristic"]
    rows = run_tournament(game, names, [factory_from_spec(n, ENV) for n in names], games=200)
    by_name = {row["agent"]: row for row in rows}
    assert by_name["random"]["games"] == by_name["heuristic"]["games"] == 200
    # the two teams' deal rewards cancel in every game
    assert by_name["random"]["mean_reward"] == pytest.approx(-by_name["heuristic"]["mean_reward"])
    assert by_name["heuristic"]["win"] == pytest.approx(by_name["random"]["loss"])
    assert rows[0]["agent"] == "heuristic"  # measured team edge about +0.35 per deal
    assert rows[0]["mean_reward_low"] > 0


def test_tournament_is_seeded():
    game = envs.make_game(ENV, episode="deal")
    names = ["random", "search:rollouts=4,max_depth=36", "heuristic"]
    factories = [factory_from_spec(n, ENV) for n in names]
    first = run_tournament(game, names, factories, games=12, seed=3)
    assert run_tournament(game, names, factories, games=12, seed=3) == first


def test_tournament_without_teams():
    names = ["random", "search:rollouts=6"]
    rows = run_tournament(BidGame(), names, [factory_from_spec(n) for n in names], games=20)
    # three seats, two agents: every game holds both, one of them in two seats, and each
    # counts one result a game (its seats' mean), not one a seat (seats of a game are not
    # independent results; the rows counted 20 x 3 seats)
    assert [row["games"] for row in rows] == [20, 20]
    with pytest.raises(ValueError, match="2 names for 1 agent factories"):  # an IndexError
        run_tournament(BidGame(), names, [factory_from_spec("random")], games=20)


def test_an_agent_in_several_seats_scores_their_mean_once_a_game(monkeypatch):
    """Each game's seat returns are fixed here (seat p gets RETURNS[p]), so the expected
    per-game result of an agent is the mean over the seats it held, read from the seats the
    tournament actually gave it."""
    from tablezoo.training.evaluation.match import GameResult

    returns = [1.0, -1.0, 0.5]
    seen: dict[str, list[float]] = {"a": [], "b": []}

    def fixed_game(game, agents, seed):
        for name in seen:
            held = [r for agent, r in zip(agents, returns) if agent.tag == name]
            if held:
                seen[name].append(sum(held) / len(held))
        return GameResult(returns=list(returns), scores=list(returns), decisions=1,
                          truncated=False)

    def tagged(name):
        def make(seed):
            agent = factory_from_spec("random")(seed)
            agent.tag = name
            return agent
        return make

    monkeypatch.setattr(tournaments, "play_game", fixed_game)
    rows = run_tournament(BidGame(), ["a", "b"], [tagged("a"), tagged("b")], games=10, seed=2)
    for row in rows:
        expected = seen[row["agent"]]
        assert row["games"] == len(expected) == 10
        assert row["mean_reward"] == pytest.approx(sum(expected) / len(expected))
        assert row["win"] == pytest.approx(sum(e > 0 for e in expected) / len(expected))


def test_cli_writes_table_and_plot(tmp_path, capsys):
    out = tmp_path / "t"
    assert tournament.main(["--env", ENV, "--agents", "random", "heuristic", "--games", "8",
                            "--out", str(out), "--no-progress"]) == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert {row["agent"] for row in rows} == {"random", "heuristic"}
    assert (out / "results.md").read_text().startswith("| agent |")
    printed = capsys.readouterr().out
    assert printed.startswith(f"{ENV} ")  # the game and its options head the table
    wrote = printed.splitlines()[-1]
    assert wrote.startswith("wrote ") and str(out / "tournament.json") in wrote
    assert json.loads((out / "tournament.json").read_text())["games"] == 8
    pytest.importorskip("matplotlib")
    assert (out / "results.png").stat().st_size > 0


@pytest.mark.parametrize("agents,message", [
    (["random"], "at least two distinct"),
    (["random", "random"], "at least two distinct"),
    (["random", "minimax"], "known agents: random"),
])
def test_cli_errors(agents, message, tmp_path, capsys):
    with pytest.raises(SystemExit):
        tournament.main(["--env", ENV, "--agents", *agents, "--out", str(tmp_path)])
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("games,hint", [(1, "e.g. 3"), (7, "e.g. 6 or 9"), (9, None)])
def test_games_must_fill_whole_blocks(games, hint, tmp_path, capsys):
    """A cut block dropped agents with no game from the table and gave the others unequal
    games on unequal cards."""
    argv = ["--env", ENV, "--agents", "random", "heuristic", "flat_search:rollouts=1",
            "--games", str(games), "--out", str(tmp_path), "--no-progress", "--no-plot"]
    if hint is None:
        assert tournament.main(argv) == 0
        rows = list(csv.DictReader((tmp_path / "results.csv").open()))
        assert [int(row["games"]) for row in rows] == [6, 6, 6]  # 9 games, 2 teams each
        return
    with pytest.raises(SystemExit) as exc:
        tournament.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--games {games}: " in err and hint in err
