"""``tablezoo animate``: a seeded game and a recorded game written as GIFs, one frame a position,
and its bad input refused in one line before any game is played."""

from __future__ import annotations

import pytest

from tablezoo.training.cli.evaluation import evaluate
from tablezoo.training.cli.main import main
from tablezoo.training.web.replay import evaluation_game, seeded_game

pytest.importorskip("cairosvg")
pytest.importorskip("imageio")
Image = pytest.importorskip("PIL.Image")


def _frames(path) -> list[bytes]:
    with Image.open(path) as image:
        out = []
        for i in range(image.n_frames):
            image.seek(i)
            out.append(image.convert("RGB").tobytes())
        return out


def test_a_seeded_game_is_one_frame_a_position_and_a_seat_sees_less(tmp_path):
    argv = ["--env", "bauer_trick_v0", "--env-option", "episode=deal", "--seed", "4",
            "--agent", "heuristic", "--agent", "random", "--seconds-per-frame", "0.1"]
    assert main(["animate", *argv, "--out", str(tmp_path / "all.gif")]) == 0
    assert main(["animate", *argv, "--seat", "1", "--out", str(tmp_path / "seat.gif")]) == 0
    positions = seeded_game("bauer_trick_v0", {"episode": "deal"},
                            ["heuristic", "random", "heuristic", "random"], seed=4)
    everything, seat = _frames(tmp_path / "all.gif"), _frames(tmp_path / "seat.gif")
    assert len(everything) == len(seat) == len(positions)
    assert len(set(everything)) > len(everything) // 2  # the game moves on
    assert everything[0] != seat[0]  # player_1's picture hides the other hands


def test_a_recorded_evaluation_game_is_played_again(tmp_path):
    records = tmp_path / "bower.jsonl"
    evaluate.main(["--env", "bower_v0", "--agent", "heuristic", "--opponent", "random",
                   "--games", "2", "--seed", "40", "--records", str(records), "--no-progress"])
    out = tmp_path / "game1.gif"
    assert main(["animate", "--records", str(records), "--game", "1", "--out", str(out)]) == 0
    assert len(_frames(out)) == len(evaluation_game(records.read_text(), 1)[3])


@pytest.mark.parametrize(("argv", "words"), [
    (["--env", "bower_v0", "--out", "{tmp}/x.png"], "unknown animation format '.png'; allowed"),
    (["--out", "{tmp}/x.gif"], "give either --env"),
    (["--env", "bower_v0", "--records", "{tmp}/r.jsonl", "--out", "{tmp}/x.gif"],
     "give either --env"),
    (["--env", "bower_v0", "--seat", "2", "--out", "{tmp}/x.gif"], "seats 0..1"),
    (["--env", "bower_v0", "--agent", "nobody", "--out", "{tmp}/x.gif"], "unknown agent"),
    (["--env", "bower_v0", "--env-option", "colour=red", "--out", "{tmp}/x.gif"], "colour"),
    (["--env", "bower_v0", "--seconds-per-frame", "0", "--out", "{tmp}/x.gif"],
     "a positive number of seconds"),
    (["--records", "{tmp}/none.jsonl", "--out", "{tmp}/x.gif"], "cannot read it"),
    (["--records", "{tmp}/r.jsonl", "--game", "7", "--out", "{tmp}/x.gif"], "no game 7"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, argv, words):
    (tmp_path / "r.jsonl").write_text('{"run": {"env": "bower_v0"}}\n')
    with pytest.raises(SystemExit) as stop:
        main(["animate", *(a.replace("{tmp}", str(tmp_path)) for a in argv)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and words in err and "Traceback" not in err, err
    assert not list(tmp_path.glob("x.*"))
