"""The terminal player (``tablezoo play``) driven through its real entry point.

- A saved position and any ``determinize(seat)`` of it print the same first screen for that seat
  (the per-seat view never shows what the seat cannot know), over many random positions.
- Scripted games play to the end in every env: the answers are recorded by choosing the first
  listed entry, then fed as stdin (with bad answers mixed in) to ``main``.
- Numeric answers must equal a listed id; names must be full; the short card and tile names the
  legends advertise play their move; ``q`` and end of input quit cleanly (status 0, said so).
``TABLEZOO_PLAY_SCALE`` multiplies the number of positions.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.training.cli import play as play_mod
from tablezoo.training.cli.play import SeatView
from tablezoo.training.cli.play import main as play_main
from tablezoo.training.cli.play_menu import Menu

SCALE = float(os.environ.get("TABLEZOO_PLAY_SCALE", "1"))
ESC = re.compile(r"\x1b\[")
CASES = [("bauer_trick_v0", {}), ("bauer_trick_v0", {"episode": "deal"}),
         ("bauer_draft_v0", {"num_players": 2}), ("bauer_draft_v0", {"num_players": 4}),
         ("bower_v0", {}), ("bower_v0", {"hands_public": False}),
         ("ethnos_v0", {"num_players": 2}), ("ethnos_v0", {"num_players": 4})]


def run_main(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    code = play_mod.main(argv)
    monkeypatch.undo()
    return code, out.getvalue()


def option_flags(options: dict) -> list[str]:
    return [f for k, v in options.items() for f in ("--env-option", f"{k}={v}")]


def random_positions(name: str, options: dict, count: int, seed: int):
    """``count`` positions reached by seeded random play: some at the start, some deep, and
    every third one a finished game (the end screen must not reveal what stays hidden)."""
    game = envs.make_game(name, **options)
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_state(int(rng.integers(1 << 30)))
        stop = game.max_decisions if len(found) % 3 == 2 else int(rng.integers(0, 120))
        for _ in range(stop):
            if state.is_over():
                break
            state.apply({p: int(rng.choice(state.legal_actions(p)))
                         for p in state.acting_players()})
        found.append(state)
    return game, found


def first_screen(name: str, options: dict, state, seat: int, tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_dict()))
    code, text = run_main(["--env", name, "--state", str(path), "--seat", str(seat),
                           *option_flags(options)], "q\n", monkeypatch)
    assert code == 0, text  # over, or quit at the first question
    return text


@pytest.mark.parametrize(("name", "options"), CASES)
def test_saved_position_and_its_determinization_show_the_same_screen(name, options, tmp_path,
                                                                    monkeypatch):
    game, states = random_positions(name, options, max(2, int(6 * SCALE)), seed=len(name))
    rng = np.random.default_rng(7)
    for state in states:
        for seat in range(game.num_players):
            truth = first_screen(name, options, state, seat, tmp_path, monkeypatch)
            for _ in range(2):
                other = state.determinize(seat, rng)
                seen = first_screen(name, options, other, seat, tmp_path, monkeypatch)
                assert seen == truth, f"{name} seat {seat}:\n{truth}\n--- determinized:\n{seen}"


def test_the_screen_hides_opponents_hands():
    """The view differs from the all-seeing one exactly where the others' cards are."""
    game = envs.make_game("bauer_draft_v0", num_players=3)
    state = game.new_state(3)
    view = SeatView(game).screen(state, 0)
    for other in (1, 2):
        for card in state.hands[other]:
            code = envs.bauer_draft.components.CARDS.codes[card]
            assert code not in view.split("player_1")[1], code
    assert "hand 3 cards" in view


def scripted_answers(name: str, options: dict, seed: int) -> tuple[list[str], str]:
    """The answers of a person who always takes the first listed entry (recorded by playing),
    and a part of the first menu line's label (an answer that must be refused)."""
    game = envs.make_game(name, **options)
    state = game.new_state(seed)
    bots = play_mod.make_bots(name, game, 0, ["random"], seed)
    view = SeatView(game)
    answers: list[str] = []
    pending: list[str] = []
    labels: list[str] = []

    def read(prompt: str) -> str:
        if not pending:
            menu: Menu = view.menu(state, 0, state.legal_actions(0))
            key = menu.top()[0][0]
            labels.append(menu.top()[0][1])
            group = next((g for g in menu.groups if g[0] == key), None)
            pending.extend([key, str(group[2][0])] if group else [key])
        answers.append(pending.pop(0))
        return answers[-1]

    result = play_mod.play(game, state, 0, bots, read=read, write=lambda text: None)
    assert result is not None
    return answers, labels[0].split("  ")[0][:-1].strip()


@pytest.mark.parametrize(("name", "options"), CASES[::2] + [("ethnos_v0", {"num_players": 3})])
def test_scripted_game_plays_to_the_end_with_bad_answers(name, options, monkeypatch):
    seed = 11
    answers, part = scripted_answers(name, options, seed)
    bad = ["99999", "garbage", part, "", "?", "help 1"]
    code, text = run_main(["--env", name, "--seed", str(seed), *option_flags(options)],
                          "\n".join(bad + answers) + "\n", monkeypatch)
    assert code == 0, text[-3000:]
    assert "99999 is not a listed id; listed:" in text
    assert "'garbage' is neither a listed id nor a full action name" in text
    assert f"{part!r} is neither a listed id nor a full action name" in text
    assert "game over" in text and "return" in text
    assert not ESC.search(text)  # not a terminal: no colour codes
    game = envs.make_game(name, **options)
    for category in game.new_state(0).score_breakdown()[0]:
        assert category[:15] in text  # the summary has the score breakdown


def test_a_number_must_equal_a_listed_id_and_names_must_be_whole(monkeypatch):
    game = envs.make_game("bauer_trick_v0")
    state = game.new_state(5)
    while 0 not in state.acting_players() or len(state.legal_actions(0)) < 2:
        state.apply({p: state.legal_actions(p)[0] for p in state.acting_players()})
    legal = state.legal_actions(0)
    digit = next(str(d) for d in range(10) if str(d) not in map(str, legal)
                 and any(str(d) in str(a) for a in legal))
    name = game.action_name(legal[-1])
    menu = SeatView(game).menu(state, 0, legal)
    asked: list[str] = [digit, name[:-1], name]
    written: list[str] = []
    from tablezoo.training.cli.play_menu import Asker

    asker = Asker(lambda prompt: asked.pop(0), written.append, "legend", lambda t: None)
    assert asker.choose(menu) == legal[-1]  # the substring and the part of an id were refused
    assert any(f"{digit} is not a listed id" in w for w in written)
    assert any("neither a listed id nor a full action name" in w for w in written)


def test_end_of_input_quits_cleanly(monkeypatch):
    code, text = run_main(["--env", "ethnos_v0", "--seed", "3"], "", monkeypatch)
    assert code == 0
    assert "end of input: quitting" in text and "quit: game not finished" in text


def test_bower_menu_is_two_steps_and_fits_a_50_row_screen():
    game = envs.make_game("bower_v0")
    state = game.new_state(2)
    view = SeatView(game)
    worst = 0
    rng = np.random.default_rng(0)
    while not state.is_over():
        p = state.acting_players()[0]
        legal = state.legal_actions(p)
        menu = view.menu(state, p, legal)
        from tablezoo.training.cli.play_menu import layout

        top = layout(menu.top())
        deepest = max([len(layout([(str(a), menu.labels[a]) for a in g[2]]))
                       for g in menu.groups] or [0])
        worst = max(worst, len(view.screen(state, p).splitlines()) + len(top) + deepest + 4)
        state.apply({p: int(rng.choice(legal))})
    assert worst <= 50


def test_bad_command_lines_name_the_problem(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["tablezoo", "play", *args], input="q\n",
                              capture_output=True, text=True, timeout=120)

    bad = run("--env", "nope_v0")
    assert bad.returncode == 2 and "known envs" in bad.stderr
    seat = run("--env", "bower_v0", "--seat", "5")
    assert seat.returncode == 2 and "--seat must be in 0..1" in seat.stderr
    spec = run("--env", "bower_v0", "--opponent", "nobody")
    assert spec.returncode == 2 and "known agents" in spec.stderr
    option = run("--env", "bower_v0", "--env-option", "colour=red")
    assert option.returncode == 2 and "colour" in option.stderr


@pytest.mark.parametrize("name", list(envs.ENVS))
def test_ansi_render_is_plain_text_and_colour_is_opt_in(name):
    env = envs.make(name, render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(30):
        if not env.agents:
            break
        mask = env.last()[0]["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))) if mask.any() else None)
        assert not ESC.search(env.render())
    if name == "bauer_trick_v0":  # red suits are painted only when asked
        state = env.game_state
        painted = SeatView(env.game, colour=True).screen(state, 0)
        assert ESC.search(painted) and ESC.sub("", painted) != painted


def test_state_file_names_its_env(tmp_path, monkeypatch):
    game = envs.make_game("ethnos_v0", num_players=3)
    path = tmp_path / "ethnos.json"
    path.write_text(json.dumps(game.new_state(2).to_dict()))
    code, text = run_main(["--state", str(path), "--seat", "2"], "q\n", monkeypatch)
    assert code == 0 and "Ethnos 3p  you are player_2" in text


@pytest.mark.parametrize("content,env,words", [
    ("[1]", None, "expected a saved position (a JSON object from state.to_dict()), got a list"),
    ("[1]", "bower_v0", "got a list"),
    ("", None, "not JSON"),
    ("ETHNOS", "bower_v0", "holds a 'ethnos' position, not one of bower_v0"),
    ('{"game": "bower", "options": [1, 2]}', None, "'options' must be an object"),
])
def test_a_state_file_that_is_not_a_position_of_the_game_is_named(content, env, words, tmp_path,
                                                                   capsys):
    """A list was an AttributeError traceback; another game's position said 'bower: unknown
    option(s) num_players'; an empty file gave json's words without the file's name."""
    if content == "ETHNOS":
        content = json.dumps(envs.make_game("ethnos_v0").new_state(1).to_dict())
    path = tmp_path / "saved.json"
    path.write_text(content)
    with pytest.raises(SystemExit) as stop:
        play_main(["--state", str(path), *(["--env", env] if env else [])])
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


def test_a_state_file_that_is_not_utf8_text_is_named(tmp_path, capsys):
    """Bytes that are not UTF-8 raised a bare ``UnicodeDecodeError`` that named no file."""
    from tablezoo.envs.core import StateFormatError

    path = tmp_path / "saved.json"
    path.write_bytes(b'\xff\xfe{"game": "bower"}')
    with pytest.raises(StateFormatError, match=rf"--state {re.escape(str(path))}: not UTF-8 text"):
        play_mod.read_saved(path)
    with pytest.raises(SystemExit) as stop:
        play_main(["--state", str(path)])
    assert stop.value.code == 2
    assert f"--state {path}: not UTF-8 text" in capsys.readouterr().err


def seat_0_decisions(name: str, options: dict, seeds: range):
    """Every position (seeded random play) where seat 0 chooses among two or more moves."""
    game = envs.make_game(name, **options)
    for seed in seeds:
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_over():
            legal = state.legal_actions(0) if 0 in state.acting_players() else []
            if len(legal) > 1:
                yield game, state, legal
            state.apply({p: int(rng.choice(state.legal_actions(p)))
                         for p in state.acting_players()})


def ask(game, answers: list[str], menu: Menu) -> tuple[int | None, str]:
    """``Asker.choose`` fed ``answers``: the choice and everything written."""
    from tablezoo.training.cli.play_menu import Asker

    view = SeatView(game)
    written: list[str] = []
    todo = list(answers)

    def read(prompt: str) -> str:
        if not todo:
            raise EOFError
        return todo.pop(0)

    asker = Asker(read, written.append, view.legend, view.explain, game.action_names())
    return asker.choose(menu), "\n".join(written)


def test_the_legends_short_card_names_play_their_card():
    """bauer_trick's legend says 'Play a card by typing e.g. Jh': that (any case, or J♥) plays
    the card; a card that is not legal now is answered with the legal moves; a word that is no
    card keeps its answer."""
    from tablezoo.envs.bauer_trick.components import card_name, suit_of

    def short(card: int) -> str:
        return card_name(card)[:-1] + "cshd"[suit_of(card)]

    game, state, legal = next((g, s, legal) for g, s, legal in seat_0_decisions(
        "bauer_trick_v0", {"episode": "deal"}, range(5, 50)) if max(legal) < 32)
    menu = SeatView(game).menu(state, 0, legal)
    other = next(c for c in range(32) if c not in legal)
    picked, text = ask(game, ["Zq", short(other), short(legal[-1]).swapcase()], menu)
    assert picked == legal[-1]
    assert "'Zq' is neither a listed id nor a full action name" in text
    refused = f"{short(other)!r} ({card_name(other)}) is not a legal move now; legal: "
    assert refused in text
    assert all(f"{a} {game.action_name(a)}" in text.split(refused)[1] for a in legal)
    assert ask(game, [card_name(legal[0]).lower()], menu)[0] == legal[0]


@pytest.mark.parametrize(("name", "options", "pattern", "pool"), [
    ("bauer_draft_v0", {"num_players": 3}, r"^play (\w+)",
     lambda: envs.bauer_draft.components.CARDS.codes),
    ("bower_v0", {}, r"^take (\w+) ", lambda: envs.bower.components.TILE_IDS),
    ("ethnos_v0", {"num_players": 3}, r"^play a band led by (.+)$",
     lambda: envs.ethnos.components.TYPE_NAMES),
])
def test_card_and_tile_codes_play_the_move_that_names_them(name, options, pattern, pool):
    """A card or tile code of the legend (E03, T15, 'blue Elf'), in any case, plays the one
    legal move that names it; a code no legal move names is answered with the legal moves."""
    tried = 0
    for game, state, legal in seat_0_decisions(name, options, range(30)):
        menu = SeatView(game).menu(state, 0, legal)
        labels = [label for _, label in menu.top()]
        for key, label in menu.top():
            found = re.search(pattern, label)
            if found and sum(found[1].lower() in other.lower() for other in labels) == 1:
                absent = next(c for c in pool() if not any(c in other for other in labels))
                picked, text = ask(game, [absent, found[1].swapcase()], menu)
                assert picked == int(key), (found[1], text)
                assert f"{absent!r}" in text and "is not a legal move now; legal: " in text
                tried += 1
                break
        if tried >= 3:
            return
    pytest.fail(f"{name}: no decision with a code to type")


def test_a_bower_tile_code_opens_its_placements():
    """In bower's play decision a hand tile's code is its h key: its placements follow."""
    game, state, legal = next((g, s, legal) for g, s, legal in seat_0_decisions(
        "bower_v0", {}, range(10)) if SeatView(g).menu(s, 0, legal).groups)
    menu = SeatView(game).menu(state, 0, legal)
    key, label, ids = menu.groups[-1]
    tile = label.split()[0]
    picked, text = ask(game, [tile.lower(), "b", tile, str(ids[-1])], menu)
    assert picked == ids[-1]
    assert text.count(f"{key} {label}; b goes back") == 2


def test_a_card_name_that_several_legal_moves_hold_asks_which():
    """ethnos: 'blue Elf' may be taken from the display or lead a band: the answer lists both;
    a colour and tribe name one card, a word before them makes no card name."""
    from tablezoo.envs.ethnos.actions import ADD_CARD, LEADER, RECRUIT_DISPLAY
    from tablezoo.envs.ethnos.components import TYPE_NAMES

    game = envs.make_game("ethnos_v0", num_players=3)
    blue, red = TYPE_NAMES.index("blue Elf"), TYPE_NAMES.index("red Elf")
    actions = [RECRUIT_DISPLAY + blue, LEADER + blue, LEADER + red]
    menu = Menu({a: game.action_name(a) for a in actions})
    picked, text = ask(game, ["blue elf", "leader blue elf", "RED   ELF"], menu)
    assert picked == LEADER + red
    assert (f"'blue elf' names 2 legal moves: {RECRUIT_DISPLAY + blue} RECRUIT_DISPLAY[blue Elf]"
            f", {LEADER + blue} LEADER[blue Elf]; type its id") in text
    assert "'leader blue elf' is neither a listed id nor a full action name" in text
    picked, text = ask(game, ["green elf"], Menu({ADD_CARD + blue: "ADD_CARD[blue Elf]"}))
    assert picked is None and "'green elf' (Elves) is not a legal move now" in text


def test_q_quits_with_status_0_and_says_the_game_is_unfinished(monkeypatch):
    code, text = run_main(["--env", "bauer_trick_v0", "--seed", "1"], "q\n", monkeypatch)
    assert code == 0
    assert text.rstrip().endswith("quit: game not finished")


def test_one_card_point_or_placement_is_singular():
    """'1 cards' in the seat views, '1 points' and '1 placements' in the menus: never."""
    from tablezoo.envs.bauer_draft.actions import PLAY
    from tablezoo.envs.bauer_draft.components import CARDS
    from tablezoo.envs.bower.actions import PLAY as PLACE
    from tablezoo.envs.bower.render import menu_groups

    game = envs.make_game("bauer_trick_v0", episode="deal")
    state = game.new_state(2)
    while state.hands[1].bit_count() != 1:  # the last trick
        state.apply({p: state.legal_actions(p)[0] for p in state.acting_players()})
    assert "player_1 hand: 1 card\n" in SeatView(game).screen(state, 0)
    draft = envs.make_game("bauer_draft_v0", num_players=3)
    state = draft.new_state(1)
    state.hands[1] = state.hands[1][:1]  # a hand of one card, as in a Ville round
    assert re.search(r"player_1: .* hand 1 card$", SeatView(draft).screen(state, 0), re.M)
    one = next(c for c in range(len(CARDS.codes)) if CARDS[c].points == 1)
    assert ", 1 point," in SeatView(draft).menu(state, 0, [PLAY + one]).labels[PLAY + one]
    bower_state = next(s for _, s, legal in seat_0_decisions("bower_v0", {}, range(10))
                       if PLACE in legal)
    assert menu_groups(bower_state, 0, [PLACE])[0][1].endswith("(1 placement)")


def test_two_opponents_for_one_other_seat_is_singular(capsys):
    with pytest.raises(SystemExit):
        play_main(["--env", "bower_v0", "--opponent", "random", "--opponent", "heuristic"])
    assert "2 --opponent agents for the 1 other seat of bower_v0" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "options"), [("bauer_trick_v0", {"episode": "deal"}),
                                               ("ethnos_v0", {"num_players": 2})])
def test_game_over_is_said_once(name, options):
    game = envs.make_game(name, **options)
    state = game.new_state(3)
    view = SeatView(game)
    written: list[str] = []
    pending: list[str] = []

    def first_listed(prompt: str) -> str:
        if not pending:
            menu = view.menu(state, 0, state.legal_actions(0))
            key = menu.top()[0][0]
            group = next((g for g in menu.groups if g[0] == key), None)
            pending.extend([key, str(group[2][0])] if group else [key])
        return pending.pop(0)

    bots = play_mod.make_bots(name, game, 0, ["random"], 3)
    assert play_mod.play(game, state, 0, bots, read=first_listed, write=written.append)
    assert "\n".join(written).lower().count("game over") == 1
