"""The league's PFSP statistics: the running score is the windowed mean, and losses weigh more."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.learned.policy import NumpyMLP
from tablezoo.training.selfplay.league import League, LeagueSettings


def tiny_mlp(game) -> NumpyMLP:
    size, actions = game.obs_spec.size, game.num_actions
    return NumpyMLP([np.zeros((size, actions), np.float32)], [np.zeros(actions, np.float32)])


@pytest.mark.parametrize("window", [1, 7, 200])
def test_running_score_is_the_mean_of_the_window_after_thousands_of_results(window):
    game = envs.make_game("bower_v0")
    league = League(game, "bower_v0", LeagueSettings(specs=("heuristic", "random"), window=window))
    league.add_snapshot("s0", tiny_mlp(game))
    rng = np.random.default_rng(window)
    played: dict[str, list[float]] = {"heuristic": [], "random": [], "s0": []}
    for _ in range(3000):
        entry = str(rng.choice(list(played)))
        learner_return = float(rng.choice([-1.0, 0.0, 1.0, 0.25, -2.0]))
        league.record(entry, learner_return)
        played[entry].append(1.0 if learner_return > 0 else 0.5 if learner_return == 0 else 0.0)
        for e in league.entries:
            assert e.results.maxlen == window, e.name
            expected = np.mean(played[e.name][-window:]) if played[e.name] else 0.5
            assert e.score() == expected, e.name


def test_an_unplayed_entry_scores_one_half_and_the_one_the_learner_loses_to_weighs_most():
    game = envs.make_game("bower_v0")
    league = League(game, "bower_v0", LeagueSettings(specs=("heuristic", "random")))
    assert [e.score() for e in league.entries] == [0.5, 0.5]
    for _ in range(50):
        league.record("heuristic", -1.0)
        league.record("random", 1.0)
    weights = dict(zip([e.name for e in league.entries], league.weights()))
    assert weights["heuristic"] > 10 * weights["random"]


def test_entries_are_checked_against_the_player_count_played():
    """A search option that the game's count cannot take fails when the league is made, not in
    its first game: 4-player bauer_draft pairs its root search, 3 players do not."""
    spec = "ismcts:keys=own,iterations=5"
    with pytest.raises(ValueError, match="paired=True needs keys='root'"):
        League(envs.make_game("bauer_draft_v0"), "bauer_draft_v0", LeagueSettings(specs=(spec,)))
    League(envs.make_game("bauer_draft_v0", num_players=3), "bauer_draft_v0",
           LeagueSettings(specs=(spec,)))
