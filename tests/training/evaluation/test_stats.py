"""Confidence intervals on inputs whose answers are known by hand or from the literature."""

from __future__ import annotations

import json
import math

import pytest

from tablezoo.training.evaluation.stats import deal_means, mean_interval, summarize, wilson_interval


def test_mean_interval_by_hand():
    iv = mean_interval([1, -1, 1, -1])
    # s = sqrt(4/3) = 1.1547; half width = 1.95996 * 1.1547 / 2 = 1.13159
    assert iv.value == 0
    assert iv.low == pytest.approx(-1.13159, abs=1e-5)
    assert iv.high == pytest.approx(1.13159, abs=1e-5)


def test_mean_interval_shrinks_like_one_over_root_n():
    small = mean_interval([1.0, 0.0] * 50)
    large = mean_interval([1.0, 0.0] * 5000)
    assert small.value == large.value == 0.5
    ratio = (small.high - small.low) / (large.high - large.low)
    assert ratio == pytest.approx(10 * math.sqrt(9999 / 9900), rel=1e-9)


def test_mean_interval_of_constant_values_has_zero_width():
    iv = mean_interval([0.25] * 10)
    assert iv.low == iv.value == iv.high == 0.25


def test_mean_interval_edge_cases():
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])
    single = mean_interval([3.0])
    assert single.value == 3.0 and math.isinf(single.low) and math.isinf(single.high)


def test_wilson_interval_known_values():
    # 5 of 10: the textbook 95% Wilson interval is [0.2366, 0.7634]
    iv = wilson_interval(5, 10)
    assert (iv.low, iv.high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    # 0 of 10: low is 0 and high is z^2 / (n + z^2)
    iv = wilson_interval(0, 10)
    assert iv.low == 0.0
    assert iv.high == pytest.approx(3.8415 / 13.8415, abs=1e-4)
    # 10 of 10 mirrors it
    assert wilson_interval(10, 10).low == pytest.approx(1 - 3.8415 / 13.8415, abs=1e-4)


def test_wilson_interval_rejects_bad_counts():
    with pytest.raises(ValueError):
        wilson_interval(3, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_summarize_counts_wins_draws_losses_by_sign():
    s = summarize([1.0, 0.0, -1.0, 1.0, 0.5])
    assert s.n == 5
    assert (s.win.value, s.draw.value, s.loss.value) == (0.6, 0.2, 0.2)
    assert s.mean_reward.value == pytest.approx(0.3)
    d = s.as_dict()
    assert d["games"] == 5 and d["win"] == 0.6 and d["mean_reward_low"] < 0.3


def test_a_perfect_record_or_a_single_game_is_printed_with_a_caveat_not_as_certainty():
    """The normal interval of 400 wins is [+1, +1]: the evaluation output says why, and points
    to the win rate's Wilson interval, which still has width."""
    from tablezoo.training.evaluation.evaluate import format_summary

    perfect = format_summary(summarize([1.0] * 400))
    assert "all 400 games gave the same reward" in perfect
    assert "[99.05%, 100.00%]" in perfect  # Wilson: 400 of 400 bounds the win rate below 1
    assert "one game: no interval" in format_summary(summarize([1.0]))
    assert "same reward" not in format_summary(summarize([1.0, 1.0, 0.0]))


def _strict_json(text: str) -> object:
    """Parse as a strict reader (jq, a browser) does: Infinity and NaN are not JSON."""
    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_one_games_missing_interval_is_written_as_null_not_infinity(tmp_path, capsys):
    from tablezoo.training.cli import quickstart
    from tablezoo.training.cli.evaluation import evaluate

    one = summarize([1.0]).as_dict()
    assert one["mean_reward_low"] is None and one["mean_reward_high"] is None
    assert one["win_low"] is not None  # a rate's Wilson interval exists even for one game
    out = tmp_path / "eval.json"
    assert evaluate.main(["--env", "bower_v0", "--agent", "random", "--games", "1",
                          "--json", str(out), "--no-progress"]) == 0
    written = _strict_json(out.read_text())
    assert written["games"] == 1 and written["mean_reward_low"] is None
    assert "(one game: no interval)" in quickstart.table({"random": one})
    capsys.readouterr()


def test_a_model_card_from_one_evaluation_game_is_strict_json(tmp_path, capsys):
    """The card's ``eval_during_training`` took the evaluation rows as they were, infinities
    included, and ``tablezoo.training.shipping.ship`` copies cards into ``agents/pretrained``."""
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train

    assert train.main(["--env", "bower_v0", "--timesteps", "64", "--n-envs", "2", "--n-steps",
                       "32", "--batch-size", "32", "--eval-games", "1", "--eval-every", "64",
                       "--bc-games", "0", "--checkpoint-every", "0", "--no-progress",
                       "--out", str(tmp_path)]) == 0
    card = _strict_json((tmp_path / "model.json").read_text())
    for opponent in ("random", "heuristic"):
        figures = card["eval_during_training"][opponent]
        assert figures["games"] == 1 and figures["mean_reward_low"] is None
    capsys.readouterr()


def test_duplicate_deals_cancel_their_luck_in_the_interval():
    # each deal gives one side +1 and the other -1 whoever holds them, plus a 0.25 edge
    rewards = [0.25 + luck * side for luck in (1.0, -1.0, 0.5, 1.0) for side in (1, -1)]
    deals = [k // 2 for k in range(8)]
    plain, duplicate = summarize(rewards), summarize(rewards, deals)
    assert duplicate.mean_reward.value == plain.mean_reward.value == 0.25
    assert duplicate.mean_reward.low == duplicate.mean_reward.high == 0.25  # the luck is gone
    assert plain.mean_reward.high - plain.mean_reward.low > 1.0
    assert (duplicate.n, duplicate.deals, plain.deals) == (8, 4, None)
    assert duplicate.win == plain.win  # rates stay per game
    assert "deals" not in plain.as_dict() and duplicate.as_dict()["deals"] == 4


def test_deal_means_by_hand():
    assert deal_means([1.0, 0.0, 0.5, -1.0, 1.0], [0, 0, 1, 2, 2]) == [0.5, 0.5, 0.0]
    assert deal_means([2.0, 4.0, 1.0], [1, 0, 1]) == [1.5, 4.0]  # in order of first games
    with pytest.raises(ValueError, match="2 deals for 3 rewards"):
        deal_means([1.0, 2.0, 3.0], [0, 0])
