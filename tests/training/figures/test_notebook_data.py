"""Game records for the notebooks (``figures.notebook_data``) and labelled plots
(``figures.plotting``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.evaluation.match import play_game, seeds_for
from tablezoo.training.figures import notebook_data as an


def _record(returns, scores=None, first=0, branching=()):
    return an.GameRecord(seed=0, returns=list(returns), scores=list(scores or returns),
                         breakdown=[{"a": float(s)} for s in (scores or returns)], decisions=1,
                         truncated=False, first_actor=first,
                         branching=np.asarray(branching, dtype=np.int16))


@pytest.mark.parametrize("env_name,options", [("bauer_trick_v0", {"episode": "deal"}),
                                              ("bauer_draft_v0", {"num_players": 3}),
                                              ("bower_v0", {}), ("ethnos_v0", {"num_players": 2})])
def test_records_agree_with_training_match_play_game(env_name, options):
    """Same seeds, same agents: the record's outcome is the one play_game computes on its own."""
    game = envs.make_game(env_name, **options)
    specs = ["heuristic"] + ["random"] * (game.num_players - 1)
    records = an.collect(env_name, specs, games=6, seed=3, options=options, workers=1)
    for record, seed in zip(records, seeds_for(3, 6)):
        result = play_game(game, [factory_from_spec(s, env_name)(None) for s in specs], seed)
        assert record.returns == result.returns
        assert record.scores == result.scores
        assert record.decisions == result.decisions
        for row, score in zip(record.breakdown, record.scores):
            assert sum(row.values()) == pytest.approx(score)
        assert record.branching.min() >= 1
        assert record.branching.size >= record.decisions  # one entry per seat asked


def test_turn_based_branching_has_one_entry_per_decision_and_matches_the_masks():
    game = envs.make_game("bower_v0")
    record = an.collect("bower_v0", "random", games=1, seed=5, workers=1)[0]
    assert record.branching.size == record.decisions
    # replay the same game and count the masks independently
    state_seed, *agent_seeds = seeds_for(record.seed, game.num_players + 1)
    agents = [factory_from_spec("random")(s) for s in agent_seeds]
    state = game.new_state(state_seed)
    counts = []
    while not state.is_over():
        p = state.acting_players()[0]
        mask = state.legal_mask(p)
        counts.append(int(mask.sum()))
        state.apply({p: agents[p].act(None, mask)})
    assert counts == record.branching.tolist()


def test_collect_does_not_depend_on_the_number_of_workers():
    one = an.collect("bauer_draft_v0", "random", games=8, seed=1, workers=1)
    two = an.collect("bauer_draft_v0", "random", games=8, seed=1, workers=2)
    assert [r.scores for r in one] == [r.scores for r in two]
    assert [r.extras for r in one] == [r.extras for r in two]
    assert len({tuple(r.scores) for r in one}) > 1  # the seeds differ between games


def test_collect_rejects_bad_input_with_the_allowed_values():
    with pytest.raises(ValueError, match="known envs"):
        an.collect("chess_v0", "random", games=1)
    with pytest.raises(ValueError, match="games"):
        an.collect("bower_v0", "random", games=0)
    with pytest.raises(ValueError, match="known agents"):
        an.collect("bower_v0", "oracle", games=1)
    with pytest.raises(ValueError, match="3 agent specs given for 2 seats"):
        an.collect("bower_v0", ["random"] * 3, games=1)


def test_budget_reads_the_environment(monkeypatch):
    monkeypatch.setenv(an.BUDGET_VARIABLE, "small")
    assert an.pick(1, 2) == 1
    monkeypatch.setenv(an.BUDGET_VARIABLE, "full")
    assert an.pick(1, 2) == 2
    monkeypatch.setenv(an.BUDGET_VARIABLE, "huge")
    with pytest.raises(ValueError, match="allowed: small, full"):
        an.budget()
    monkeypatch.setenv(an.WORKERS_VARIABLE, "zero")
    with pytest.raises(ValueError, match="integer >= 1"):
        an.default_workers()


def test_win_rates_count_firsts_shared_ties_and_positions():
    records = [_record([1, -1]), _record([1, -1]), _record([-1, 1], first=1), _record([0, 0])]
    by_seat = an.seat_win_rates(records)
    assert [iv.value for iv in by_seat] == [0.5, 0.25]  # the all-tie game counts for nobody
    by_position = an.positional_win_rates(records)
    assert [iv.value for iv in by_position] == [0.75, 0.0]  # seat 1 started the game it won
    shared = an.seat_win_rates([_record([1, 1, -1])])
    assert [iv.value for iv in shared] == [1.0, 1.0, 0.0]
    assert all(iv.low <= iv.value <= iv.high for iv in by_seat)


def test_team_win_rates_use_the_game_teams():
    game = envs.make_game("bauer_trick_v0")
    rates = an.team_win_rates(game, [_record([1, -1, 1, -1]), _record([0, 0, 0, 0])])
    assert [iv.value for iv in rates] == [0.5, 0.0]


def test_branching_profile_bins_each_game_by_its_course():
    records = [_record([1, -1], branching=[4, 4, 2, 2]), _record([1, -1], branching=[6, 2])]
    centres, profile = an.branching_profile(records, bins=2)
    assert centres.tolist() == [0.25, 0.75]
    assert [iv.value for iv in profile] == [5.0, 2.0]


def test_breakdown_means_over_all_seats_or_winners():
    records = [_record([1, -1], scores=[3, 1]), _record([-1, 1], scores=[2, 4])]
    assert an.breakdown_means(records)["a"].value == 2.5
    assert an.breakdown_means(records, "winners")["a"].value == 3.5
    with pytest.raises(ValueError, match="all, winners"):
        an.breakdown_means(records, "losers")


def test_margin_is_against_the_best_other_seat():
    assert _record([1, 0, -1], scores=[5, 7, 2]).margin(0) == -2.0
    assert _record([1, 0, -1], scores=[5, 7, 2]).margin(1) == 2.0


def test_figures_label_every_axes_and_finish_refuses_unlabelled_ones():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tablezoo.training.figures import plotting as fg

    fig, axes = plt.subplots(1, 3)
    fg.bars(axes[0], ["a", "b"], [an.rate(1, 2), an.rate(0, 2)], "x", "y")
    fg.band(axes[1], [0, 1], [an.mean([1, 2]), an.mean([2, 3])], "step", "value", label="l")
    fg.heatmap(axes[2], np.eye(2), ["r1", "r2"], ["c1", "c2"], "col", "row")
    assert fg.unlabelled_axes(fig) == []
    fg.finish(fig)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    with pytest.raises(ValueError, match="unlabelled axes"):
        fg.finish(fig)
    plt.close("all")


def test_running_the_module_points_to_the_commands():
    result = subprocess.run([sys.executable, "-m", "tablezoo.training.figures.notebook_data"],
                            capture_output=True,
                            text=True, timeout=60, cwd=Path(__file__).resolve().parents[3])
    assert result.returncode == 1
    assert "tablezoo ladder" in result.stderr and "Traceback" not in result.stderr
