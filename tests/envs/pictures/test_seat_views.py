"""Pictures of positions (``state.to_svg``) for every env and variant: the SVG parses, names the
cards it shows face up, and a seat's picture holds nothing that seat's observation does not:
re-sampling everything the seat cannot see (``state.determinize``) leaves its picture identical,
byte for byte, along random games, with the last move and the seat's legal moves drawn in."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.pictures import to_svg
from tablezoo.envs.pictures.moves import LastMove, record_move
from tests.envcases import cases

SVG = "{http://www.w3.org/2000/svg}"
GAMES = 3  # random games per variant
RESAMPLES = 2  # determinizations per seat and position
MOST = 16  # positions checked per game (then only the last)


def positions(name: str, options: dict, seed: int, every: int = 5):
    """``(state, last_move)`` along a random game: every ``every``-th position (at most
    ``MOST``) and the last."""
    game = envs.make_game(name, **options)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    last = None
    k = shown = 0
    while True:
        if (k % every == 0 and shown < MOST) or state.is_over():
            shown += 1
            yield state, last
        if state.is_over() or k >= game.max_decisions:
            return
        joint = {p: int(rng.choice(state.legal_actions(p))) for p in state.acting_players()}
        last = record_move(state, joint)
        state.apply(joint)
        k += 1


def legal(state, seat: int) -> list[int]:
    return state.legal_actions(seat) if seat in state.acting_players() else []


@pytest.mark.parametrize(("name", "options"), cases())
def test_a_seat_picture_is_the_same_for_every_re_sampled_position(name, options):
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(GAMES):
        for state, last in positions(name, options, seed):
            ET.fromstring(state.to_svg(None, last))
            for seat in range(state.game.num_players):
                choices = legal(state, seat)
                mine = state.to_svg(seat, last, choices)
                root = ET.fromstring(mine)
                assert root.tag == SVG + "svg"
                for _ in range(RESAMPLES):
                    other = state.determinize(seat, rng)
                    assert other.to_svg(seat, last, choices) == mine, (
                        f"{name} {options} seed {seed}: player_{seat}'s picture shows something "
                        "its observation does not hold (it changed when the hidden information "
                        "was re-sampled)")
                checked += 1
    assert checked >= 10


def face_up(svg: str) -> list[str]:
    return [e.get("data-card") for e in ET.fromstring(svg).iter() if e.get("data-card")]


@pytest.mark.parametrize("name", envs.ENVS)
def test_the_all_seeing_picture_shows_more_than_a_seat_and_marks_choices(name):
    state = envs.make_game(name).new_state(4)
    seat = state.acting_players()[0]
    choices = state.legal_actions(seat)
    everything = face_up(state.to_svg())
    mine = state.to_svg(seat, None, choices)
    assert set(face_up(mine)) <= set(everything)
    others = [face_up(state.to_svg(p)) for p in range(state.game.num_players)]
    assert len(everything) > min(map(len, others))  # something is hidden from some seat
    clickable = {int(e.get("data-action")) for e in ET.fromstring(mine).iter()
                 if e.get("data-action")}
    assert clickable <= set(choices)
    assert state._repr_svg_() == state.to_svg()


@pytest.mark.parametrize("name", envs.ENVS)
def test_the_last_move_is_named_and_survives_json(name):
    game = envs.make_game(name)
    state = game.new_state(2)
    joint = {p: state.legal_actions(p)[0] for p in state.acting_players()}
    last = record_move(state, joint)
    state.apply(joint)
    again = LastMove.from_dict(last.to_dict())
    assert again == last
    svg = state.to_svg(None, last)
    assert "last move" in svg


@pytest.mark.parametrize("seat", [-1, 9, "0", True, 1.0])
def test_a_seat_outside_the_game_is_refused(seat):
    state = envs.make_game("bower_v0").new_state(0)
    with pytest.raises(ValueError, match="allowed: None"):
        to_svg(state, seat)
