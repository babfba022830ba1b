"""Duplicate evaluation: each deal is played from every side on the same initial state, with the
same seat seeds; the deal's mean is the interval's sample; a plain run stays as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.cli.evaluation import evaluate as evaluate_cli
from tablezoo.training.cli.evaluation import tournament as tournament_cli
from tablezoo.training.evaluation import evaluate as evaluation
from tablezoo.training.evaluation import tournament as tournaments
from tablezoo.training.evaluation.duplicate import plays_per_deal
from tablezoo.training.evaluation.evaluate import (
    EvaluationSettings,
    evaluate_seat,
    run_evaluation,
)
from tablezoo.training.evaluation.match import GameResult, seeds_for
from tablezoo.training.evaluation.stats import mean_interval
from tablezoo.training.evaluation.teams import teams_of
from tablezoo.training.evaluation.tournament import (
    TournamentSettings,
    play_tournament,
    run_tournament,
)
from tablezoo.training.runs import SettingsError
from tests.training.selfplay.toy_games import BidGame

CONFIGS = [("bauer_trick_v0", {"episode": "deal"}), ("bauer_draft_v0", {"num_players": 2}),
           ("bauer_draft_v0", {"num_players": 4})]


class RecordingGame:
    """A game that keeps ``to_dict()`` of every initial state it deals."""

    def __init__(self, game: Any):
        self.game = game
        self.dealt: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def new_state(self, seed: int) -> Any:
        state = self.game.new_state(seed)
        self.dealt.append(state.to_dict())
        return state


class SeedLog:
    """Factories whose agents write down the seed ``reset`` gives them."""

    def __init__(self, env: str) -> None:
        self.env = env
        self.seeds: list[tuple[str, int | None]] = []

    def factory(self, role: str, spec: str = "random") -> Any:
        make = factory_from_spec(spec, self.env)

        def build(seed: int | None) -> Any:
            agent = make(seed)
            reset = agent.reset

            def logged_reset(s: int | None = None) -> None:
                self.seeds.append((role, s))
                reset(s)

            agent.reset = logged_reset
            return agent
        return build


@pytest.mark.parametrize("env,options", CONFIGS)
def test_each_deal_is_played_once_from_every_side_on_one_initial_state(env, options):
    game = RecordingGame(envs.make_game(env, **options))
    plays = len(teams_of(game.game))
    assert plays == plays_per_deal(game.game) > 1
    log = SeedLog(env)
    seats: list[int] = []
    deals = 4
    evaluate_seat(game, log.factory("hero"), log.factory("hero"), log.factory("other"),
                  deals * plays, seed=11, duplicate=True,
                  on_game=lambda k, seat, reward: seats.append(seat))
    n = game.num_players
    assert len(game.dealt) == len(seats) == deals * plays
    fresh = [envs.make_game(env, **options).new_state(seeds_for(s, n + 1)[0]).to_dict()
             for s in (11, 12)]  # play_game's state seed from the deal's seed
    for deal in range(deals):
        block = range(deal * plays, (deal + 1) * plays)
        first = game.dealt[deal * plays]
        assert all(game.dealt[k] == first for k in block)  # the same deal in every play
        # every side once: each play's hero seat is on another team (or another seat)
        held = [next(i for i, t in enumerate(teams_of(game.game)) if seats[k] in t)
                for k in block]
        assert sorted(held) == list(range(plays))
        # each seat's agent seed is the same in every play, whoever sits there
        resets = [log.seeds[k * n:(k + 1) * n] for k in block]
        assert len({tuple(s for _, s in r) for r in resets}) == 1
        assert len({tuple(role for role, _ in r) for r in resets}) == plays  # sides swapped
    assert game.dealt[0] == fresh[0] and game.dealt[plays] == fresh[1]  # deal j: seed + j
    assert game.dealt[0] != game.dealt[plays]


def test_a_team_changes_seats_deal_by_deal():
    """With a named partner the evaluated agent should hold both seats of each team."""
    game = envs.make_game("bauer_trick_v0", episode="deal")
    seats: list[int] = []
    make = factory_from_spec("random")
    evaluate_seat(game, make, make, make, 8, duplicate=True,
                  on_game=lambda k, seat, reward: seats.append(seat))
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]


def test_duplicate_runs_replay_exactly():
    game = envs.make_game("bauer_draft_v0", num_players=2)
    make = factory_from_spec("random")
    first = evaluate_seat(game, make, make, make, 12, seed=4, duplicate=True)
    assert evaluate_seat(game, make, make, make, 12, seed=4, duplicate=True) == first
    assert len(set(first)) > 1


def test_plain_evaluation_keeps_its_seeds_seats_and_files(monkeypatch, tmp_path, capsys):
    played: list[tuple[int, int]] = []
    real = evaluation.play_game

    def play(game, agents, seed):
        result = real(game, agents, seed)
        played.append((seed, [a.name for a in agents].index("heuristic")))
        return result

    monkeypatch.setattr(evaluation, "play_game", play)
    records = tmp_path / "games.jsonl"
    payload = run_evaluation(EvaluationSettings(
        env="bauer_draft_v0", agent="heuristic", games=8, seed=7, progress=False,
        records=records))
    assert played == [(7 + k, k % 4) for k in range(8)]
    assert list(payload) == ["env", "env_options", "hero", "partner", "opponent", "seed",
                             "games", "win", "win_low", "win_high", "draw", "draw_low",
                             "draw_high", "loss", "loss_low", "loss_high", "mean_reward",
                             "mean_reward_low", "mean_reward_high"]
    header = json.loads(records.read_text().splitlines()[0])["run"]
    assert list(header) == ["env", "env_options", "hero", "partner", "opponent", "seed"]
    rewards = [json.loads(line)["reward"] for line in records.read_text().splitlines()[1:]]
    interval = mean_interval(rewards)
    assert (payload["mean_reward_low"], payload["mean_reward_high"]) == \
        pytest.approx((interval.low, interval.high))
    assert "\ngames: 8\n" in capsys.readouterr().out


def test_the_interval_is_over_the_deals_means(tmp_path):
    records = tmp_path / "games.jsonl"
    payload = run_evaluation(EvaluationSettings(
        env="bauer_trick_v0", agent="heuristic", games=40, seed=3, progress=False,
        records=records, duplicate=True))
    lines = [json.loads(line) for line in records.read_text().splitlines()[1:]]
    assert [r["seed"] for r in lines] == [3 + k // 2 for k in range(40)]
    rewards = [r["reward"] for r in lines]
    pairs = [(rewards[k] + rewards[k + 1]) / 2 for k in range(0, 40, 2)]
    by_deal, by_game = mean_interval(pairs), mean_interval(rewards)
    assert by_deal.low != pytest.approx(by_game.low)  # the two can be told apart here
    assert payload["games"] == 40 and payload["deals"] == 20
    assert payload["mean_reward"] == pytest.approx(sum(rewards) / 40)
    assert (payload["mean_reward_low"], payload["mean_reward_high"]) == \
        pytest.approx((by_deal.low, by_deal.high))
    assert payload["win"] == pytest.approx(sum(r > 0 for r in rewards) / 40)  # per game


def test_a_stopped_duplicate_run_resumes_and_a_plain_runs_file_is_refused(tmp_path, capsys):
    base = ["--env", "bauer_trick_v0", "--agent", "random", "--games", "12", "--seed", "5",
            "--no-progress"]
    whole = tmp_path / "whole.json"
    assert evaluate_cli.main([*base, "--duplicate", "--json", str(whole)]) == 0
    records = tmp_path / "games.jsonl"
    assert evaluate_cli.main([*base, "--duplicate", "--records", str(records), "--games",
                              "6"]) == 0
    resumed = tmp_path / "resumed.json"
    assert evaluate_cli.main([*base, "--duplicate", "--records", str(records), "--json",
                              str(resumed)]) == 0
    assert json.loads(resumed.read_text()) == json.loads(whole.read_text())
    plain = tmp_path / "plain.jsonl"
    assert evaluate_cli.main([*base, "--records", str(plain)]) == 0
    before = plain.read_text()
    capsys.readouterr()
    with pytest.raises(SystemExit):
        evaluate_cli.main([*base, "--duplicate", "--records", str(plain)])
    assert "belongs to another run" in capsys.readouterr().err
    assert plain.read_text() == before


@pytest.mark.parametrize("env,options,change,words", [
    ("bauer_trick_v0", None, {"duplicate": "yes"}, "duplicate='yes'; allowed: True or False"),
    ("bauer_trick_v0", None, {"duplicate": True, "games": 41},
     "games must be a multiple of 2, e.g. 40 or 42"),
    ("bauer_draft_v0", {"num_players": 4}, {"duplicate": True, "games": 3},
     "games must be a multiple of 4, e.g. 4"),
])
def test_settings_that_cannot_play_whole_deals_are_refused(env, options, change, words,
                                                           tmp_path):
    out = tmp_path / "eval.json"
    with pytest.raises(SettingsError, match=words):
        run_evaluation(EvaluationSettings(env=env, agent="random", env_options=options,
                                          progress=False, json=out, **change))
    assert not out.exists()


def test_the_command_refuses_a_cut_deal(capsys):
    with pytest.raises(SystemExit) as exc:
        evaluate_cli.main(["--env", "bower_v0", "--agent", "random", "--games", "7",
                           "--duplicate", "--no-progress"])
    assert exc.value.code == 2
    assert "--games 7 with --duplicate" in capsys.readouterr().err


def test_evaluate_seat_refuses_a_cut_deal():
    game = envs.make_game("bower_v0")
    make = factory_from_spec("random")
    with pytest.raises(ValueError, match="multiple of 2"):
        evaluate_seat(game, make, make, make, 3, duplicate=True)


def test_records_file_of_a_duplicate_run_names_it(tmp_path: Path):
    records = tmp_path / "games.jsonl"
    run_evaluation(EvaluationSettings(env="bauer_draft_v0", agent="random", games=4,
                                      env_options={"num_players": 4}, progress=False,
                                      records=records, duplicate=True))
    header = json.loads(records.read_text().splitlines()[0])["run"]
    assert header["duplicate"] is True and header["plays_per_deal"] == 4
    lines = [json.loads(line) for line in records.read_text().splitlines()[1:]]
    assert [r["seat"] for r in lines] == [0, 1, 2, 3] and {r["seed"] for r in lines} == {0}


def tagged(name: str) -> Any:
    def make(seed: int | None) -> Any:
        agent = factory_from_spec("random")(seed)
        agent.tag = name
        return agent
    return make


@pytest.mark.parametrize("game,names", [
    (envs.make_game("bauer_trick_v0", episode="deal"), ["a", "b"]),  # a team each
    (BidGame(), ["a", "b"]),  # 3 seats, 2 agents: one agent holds two seats of a game
    (BidGame(), ["a", "b", "c", "d"]),  # more agents than seats
])
def test_a_duplicate_tournament_samples_each_deal_once(monkeypatch, game, names):
    """Seat returns are a function of the deal's seed (pure luck of the cards), so each
    agent's duplicate sample, the mean over the units it held in the deal's block, is read
    here from the seats the tournament gave it."""
    held: dict[str, dict[int, list[float]]] = {name: {} for name in names}
    units = teams_of(game)

    def luck(game_, agents, seed):
        returns = [float((seed * 7 + 3 * p) % 5 - 2) for p in range(game_.num_players)]
        for unit in units:
            held[agents[unit[0]].tag].setdefault(seed, []).append(returns[unit[0]])
        return GameResult(returns=returns, scores=returns, decisions=1, truncated=False)

    monkeypatch.setattr(tournaments, "play_game", luck)
    games = 6 * len(names)
    factories = [tagged(n) for n in names]
    plain = {r["agent"]: r for r in run_tournament(game, names, factories, games, seed=5)}
    for name in held:
        held[name].clear()
    rows = run_tournament(game, names, factories, games, seed=5, duplicate=True)
    assert "deals" not in plain[names[0]]
    for row in rows:
        samples = [sum(h) / len(h) for h in held[row["agent"]].values()]
        interval = mean_interval(samples)
        assert row["deals"] == len(samples) == 6
        assert (row["mean_reward"], row["mean_reward_low"], row["mean_reward_high"]) == \
            pytest.approx((interval.value, interval.low, interval.high))
        assert row["games"] == plain[row["agent"]]["games"]
        assert row["win"] == plain[row["agent"]]["win"]  # rates stay per game


def test_a_duplicate_tournament_narrows_the_interval_and_writes_it(tmp_path):
    argv = ["--env", "bauer_trick_v0", "--agents", "random", "heuristic", "--games", "40",
            "--no-progress", "--no-plot"]
    assert tournament_cli.main([*argv, "--out", str(tmp_path / "plain")]) == 0
    assert tournament_cli.main([*argv, "--out", str(tmp_path / "dup"), "--duplicate"]) == 0
    plain = json.loads((tmp_path / "plain" / "tournament.json").read_text())
    dup = json.loads((tmp_path / "dup" / "tournament.json").read_text())
    assert "duplicate" not in plain and dup["duplicate"] is True
    for p, d in zip(plain["results"], dup["results"]):
        assert p["agent"] == d["agent"] and d["deals"] == 20
        assert d["mean_reward"] == pytest.approx(p["mean_reward"])  # a team each: same mean
        assert d["mean_reward_high"] - d["mean_reward_low"] != \
            pytest.approx(p["mean_reward_high"] - p["mean_reward_low"])


def test_a_tournament_refuses_a_duplicate_that_is_not_a_bool(tmp_path):
    with pytest.raises(SettingsError, match="duplicate=1; allowed: True or False"):
        play_tournament(TournamentSettings(env="bauer_trick_v0", agents=["random", "heuristic"],
                                           games=4, out=tmp_path / "t", duplicate=1))
    assert not (tmp_path / "t").exists()
