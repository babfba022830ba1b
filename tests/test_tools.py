"""The command-line tools: terminal play with scripted answers, the benchmark and the docs."""

from __future__ import annotations

import json

import pytest
from envcases import available

import envs
from envs import benchmark, docs, play


@pytest.mark.parametrize("name", [n for n in envs.ENVS if available(n)])
def test_play_a_whole_game_through_the_menu(name, capsys, monkeypatch):
    """The person always types the number of the first menu entry."""
    asked: list[int] = []
    original = play.choose

    def answer_first(menu, read):
        asked.append(len(menu))
        return original(menu, lambda _prompt: str(menu[0][0]))

    monkeypatch.setattr(play, "choose", answer_first)
    options = {"episode": "deal"} if name == "bauer_trick_v0" else {}
    returns = play.play(name, 0, "random", options, seed=1, read=input)
    out = capsys.readouterr().out
    assert returns is not None and len(returns) == envs.make_game(name, **options).num_players
    assert asked and all(n >= 1 for n in asked)
    assert "game over: your return" in out


def test_play_menu_accepts_numbers_and_unique_names_and_quits():
    menu = [(3, "play J♥"), (7, "play J♦"), (36, "pass")]
    answers = iter(["J", "pass"])
    assert play.choose(menu, lambda _: next(answers)) == 36  # "J" is ambiguous, asked again
    assert play.choose(menu, lambda _: "7") == 7
    assert play.choose(menu, lambda _: "q") is None


def test_play_hides_other_hands_in_bauer_trick(capsys):
    env = envs.make("bauer_trick_v0")
    env.reset(seed=0)
    text = play.view(env, 0)
    assert "player_1 hand: 8 cards" in text and "player_0 hand: 8 cards" not in text


def test_benchmark_json(capsys):
    assert benchmark.main(["--env", "bauer_trick_v0", "--seconds", "0.2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert result["env"] == "bauer_trick_v0" and result["steps"] > 0


def test_docs_prints_tables(capsys):
    assert docs.main(["bauer_trick_v0"]) == 0
    out = capsys.readouterr().out
    assert "Options of `bauer_trick_v0`" in out and "| `hand` | 32 |" in out
