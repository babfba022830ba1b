"""Every game offers the written text-view protocol (``envs.core.views.TextViews``) that the
terminal player reads, with the protocol's signatures, and its views work on a fresh position."""

from __future__ import annotations

import inspect

import pytest

from tablezoo import envs
from tablezoo.envs.core.views import TextViews

HOOKS = ("render_seat", "explain", "public_move", "menu_label", "menu_groups")


@pytest.mark.parametrize("name", envs.ENVS)
def test_the_game_text_views_follow_the_protocol(name):
    views = envs.make_game(name).text_views()
    assert isinstance(views, TextViews)
    assert isinstance(views.LEGEND, str) and views.LEGEND.strip()
    for hook in HOOKS:
        wanted = list(inspect.signature(getattr(TextViews, hook)).parameters)[1:]
        given = list(inspect.signature(getattr(views, hook)).parameters)
        assert len(given) == len(wanted), f"{name}.{hook}{given} vs {wanted}"
        if hook == "render_seat":
            assert given[2] == "colour"


@pytest.mark.parametrize("name", envs.ENVS)
def test_the_views_answer_on_a_fresh_position(name):
    game = envs.make_game(name)
    views = game.text_views()
    state = game.new_state(seed=3)
    seat = state.acting_players()[0]
    legal = state.legal_actions(seat)
    assert views.render_seat(state, seat, colour=False).strip()
    assert all(views.menu_label(state, a).strip() for a in legal)
    groups = views.menu_groups(state, seat, legal)
    assert all(set(actions) <= set(legal) for _, _, actions in groups)
    assert views.public_move(state, seat, legal[0]).strip()


def test_a_module_missing_a_hook_is_not_text_views():
    class Partial:
        LEGEND = "x"

        def render_seat(self, state, seat, colour=False):
            return ""

    assert not isinstance(Partial(), TextViews)
