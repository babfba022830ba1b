"""DAgger data: the learner's own positions, labelled by a teacher that follows its seat, in
turn-based, team and simultaneous-move games; the rounds inside a training run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.base import BaseAgent, legal_ids
from tablezoo.agents.registry import factory_from_spec
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.evaluation.teams import partners_of
from tablezoo.training.imitation.cloning import (
    ImitationSettings,
    generate,
    generate_dagger,
    merge,
)
from tablezoo.training.selfplay.collector import obs_scale_for


class LowestLegal(BaseAgent):
    """A learner that is easy to tell from the teacher: always the lowest legal action."""

    name = "lowest"

    def act(self, observation, action_mask, state=None, player=None):
        return int(legal_ids(action_mask)[0])


def reference(game, env_name, games, seed, learner_seats):
    """Samples of a sequential loop written out here: ``learner_seats(g)`` play the lowest
    legal action, the teacher (heuristic) the others; the learner seats' labels come from a
    heuristic that follows the seat. Seeds: state, the n players, the learner, n labellers."""
    make = factory_from_spec("heuristic", env_name)
    n = game.num_players
    out = []  # (game, seat, observation, mask, label, played)
    for g in range(games):
        state_seed, *seeds = seeds_for(seed + g, 2 * n + 2)
        players = [make(seeds[p]) for p in range(n)]
        labellers = {p: make(seeds[n + 1 + p]) for p in learner_seats(g)}
        state = game.new_state(state_seed)
        while not state.is_over():
            joint = {}
            for p in state.acting_players():
                o, m = state.observe(p), state.legal_mask(p)
                if p in labellers:
                    played = LowestLegal().act(o, m)
                    label = labellers[p].act(o, m, state=state, player=p)
                else:
                    played = label = players[p].act(o, m, state=state, player=p)
                if m.sum() > 1:
                    out.append((g, p, o.copy(), m.copy(), label, played))
                joint[p] = played
            state.apply(joint)
    return out


@pytest.mark.parametrize("env_name, options, games", [
    ("ethnos_v0", {"num_players": 3}, 3),        # turn-based, 3 seats
    ("bauer_trick_v0", {"episode": "deal"}, 4),  # teams: the learner plays both seats of one
    ("bauer_draft_v0", {"num_players": 2}, 2),   # simultaneous moves
])
def test_dagger_samples_are_the_learners_positions_with_teacher_labels(env_name, options, games):
    game = envs.make_game(env_name, **options)

    def seats(g):
        return (g % game.num_players, *partners_of(game, g % game.num_players))

    expected = reference(game, env_name, games, 40, seats)
    scale = obs_scale_for(game)
    rec = generate_dagger(game, ImitationSettings(env=env_name, games=games), LowestLegal(),
                          seed=40)
    assert len(rec.demos) == len(expected)
    np.testing.assert_allclose(rec.demos.obs, np.stack([e[2] for e in expected]) * scale)
    np.testing.assert_array_equal(rec.demos.masks, np.stack([e[3] for e in expected]))
    np.testing.assert_array_equal(rec.demos.actions, [e[4] for e in expected])
    mine = [e for e in expected if e[1] in seats(e[0])]
    assert rec.learner_decisions == len(mine) > 0
    assert rec.learner_agreement == pytest.approx(np.mean([e[4] == e[5] for e in mine]))
    assert rec.learner_agreement < 1  # the labels are the teacher's, not the learner's moves
    if env_name == "bauer_trick_v0":
        assert {e[1] for e in mine if e[0] == 0} == {0, 2}


def test_cloning_data_is_teacher_self_play():
    """Without a learner the recorder is plain teacher self-play (the cloning data)."""
    game = envs.make_game("ethnos_v0", num_players=2)
    expected = reference(game, "ethnos_v0", 2, 7, lambda g: ())
    demos = generate(game, ImitationSettings(env="ethnos_v0", games=2, seed=7, scaled=False))
    np.testing.assert_array_equal(demos.actions, [e[4] for e in expected])
    np.testing.assert_array_equal(demos.obs, np.stack([e[2] for e in expected]))
    for seed in (7, 8):  # the recorder spawns 2n + 2 seeds; the first n + 1 are self-play's
        assert seeds_for(seed, 3) == seeds_for(seed, 6)[:3]
    both = merge(demos, demos)
    assert len(both) == 2 * len(demos)
    np.testing.assert_array_equal(both.returns[len(demos):], demos.returns)


def test_training_run_with_dagger_rounds(tmp_path):
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train

    out = tmp_path / "run"
    assert train.main(["--env", "bauer_trick_v0", "--timesteps", "0", "--out", str(out),
                       "--bc-games", "12", "--bc-epochs", "1", "--dagger-rounds", "2",
                       "--dagger-games", "4", "--dagger-epochs", "1", "--net-arch", "32",
                       "--n-envs", "2", "--eval-games", "0", "--no-progress"]) == 0
    bc = json.loads((out / "summary.json").read_text())["bc"]
    rounds = bc["dagger"]
    assert [r["round"] for r in rounds] == [1, 2]
    assert all(r["learner_decisions"] > 0 and 0 <= r["learner_agreement"] <= 1 for r in rounds)
    assert rounds[1]["samples"] > rounds[0]["samples"] > bc["samples"]  # the aggregate grows


def test_dagger_needs_a_clone(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from tablezoo.training.cli.selfplay import train

    with pytest.raises(SystemExit):
        train.main(["--env", "bauer_trick_v0", "--timesteps", "0", "--out",
                    str(tmp_path / "x"), "--dagger-rounds", "1"])
    assert "--bc-games" in capsys.readouterr().err
