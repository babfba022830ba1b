"""Whole games as positions: a recorded evaluation game and a tournament game are played again
exactly (the same result as the recorded run), open in the web app as replays, and any game is
written as a GIF."""

from __future__ import annotations

import json

import pytest

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.cli.evaluation import evaluate, tournament
from tablezoo.training.evaluation.match import play_game
from tablezoo.training.evaluation.tournament import schedule
from tablezoo.training.web.replay import (
    RecordError,
    evaluation_game,
    recorded_game,
    seeded_game,
    tournament_game,
    write_game,
)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "bower.jsonl"
    evaluate.main(["--env", "bower_v0", "--agent", "heuristic", "--opponent", "random",
                   "--games", "2", "--seed", "40", "--records", str(path), "--no-progress"])
    return path.read_text()


def test_an_evaluation_game_replays_to_its_recorded_result(records):
    for line in records.splitlines()[1:]:
        game = json.loads(line)
        env, _, options, frames, title, seed = evaluation_game(records, game["game"])
        assert env == "bower_v0" and seed == game["seed"] and "heuristic" in title
        assert frames[-1].state.is_over() and frames[0].last is None
        assert frames[-1].state.returns()[game["seat"]] == game["reward"]
        assert all(f.last is not None for f in frames[1:])
    with pytest.raises(RecordError, match=r"no game 7; recorded games: 0\.\.1"):
        evaluation_game(records, 7)
    with pytest.raises(RecordError, match="not a records file"):
        recorded_game("hello", 0)


def test_a_tournament_game_replays_as_the_tournament_played_it(tmp_path):
    tournament.main(["--env", "bower_v0", "--agents", "random", "heuristic", "--games", "4",
                     "--seed", "9", "--out", str(tmp_path), "--no-plot", "--no-progress"])
    data = json.loads((tmp_path / "tournament.json").read_text())
    game = envs.make_game("bower_v0")
    makers = [factory_from_spec(s, "bower_v0", 2) for s in data["agents"]]
    for k, (seats, _, deal_seed) in enumerate(schedule(game, 2, 4, 9)):
        _, _, _, frames, title, seed = tournament_game(data, k)
        played = play_game(game, [makers[i](None) for i in seats], deal_seed)
        assert seed == deal_seed and f"tournament game {k}" in title
        assert frames[-1].state.returns() == played.returns
        assert len(frames) - 1 == played.decisions
    with pytest.raises(RecordError, match=r"its games are 0\.\.3"):
        tournament_game(data, 4)


def test_the_web_app_replays_a_record(records):
    pytest.importorskip("starlette")
    from tablezoo.training.web.server import create_app
    from tests.training.web.clients import page_client

    client = page_client(create_app())
    answer = client.post("/api/replays", json={"record": records, "game": 1})
    assert answer.status_code == 201, answer.text
    view = answer.json()["view"]
    assert view["replay"] and view["frame"] == 0 and not view["over"]
    step = f"/api/games/{answer.json()['game']}/step"
    view = client.post(step, json={"go": "end", "counter": 0}).json()
    assert view["over"] and view["frame"] == view["frames"] - 1 and view["result"]
    again = client.post(step, json={"go": "next", "counter": view["frame"]}).json()
    assert again["frame"] == view["frame"]  # a replay ends where the record ends
    for body, words in (({"record": records, "game": 9}, "no game 9"),
                        ({"record": "", "game": 0}, "record must be the text"),
                        ({"record": records, "game": "first"}, "game='first'")):
        bad = client.post("/api/replays", json=body)
        assert bad.status_code == 400 and words in bad.json()["error"], bad.text


def test_a_seeded_game_is_written_as_a_gif(tmp_path):
    pytest.importorskip("cairosvg")
    pytest.importorskip("imageio")
    frames = seeded_game("bauer_trick_v0", {"episode": "deal"}, ["heuristic"] * 4, seed=2)
    assert frames[-1].state.is_over()
    path = write_game(tmp_path / "deal.gif", frames[:6], seat=0, seconds_per_frame=0.2)
    assert path.stat().st_size > 1000
