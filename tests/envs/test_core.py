"""The core on its own: options, observation spec, rank rewards, and both adapters driven by a
tiny toy game with a simultaneous phase, a turn-based phase and a decision bound."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo.envs.core import (
    IllegalActionError,
    InvalidOptionError,
    ObsPiece,
    ObsSpec,
    Option,
    ResetNeededError,
)
from tablezoo.envs.core.aec import TablezooAECEnv
from tablezoo.envs.core.game import Game, State, margin_rewards, rank_rewards, rng_from
from tablezoo.envs.core.options import int_range, resolve_options
from tablezoo.envs.core.parallel import TablezooParallelEnv


class ToyGame(Game):
    """Round 1: both players secretly pick 0..2 at once. Round 2: player 0 alone adds 0..2.
    Score: player 0 gets its two numbers, player 1 its one number. ``rounds`` repeats it."""

    name = "toy"
    OPTIONS = (Option("rounds", 1, "rounds to play", check=int_range(1, 5)),
               Option("bound", 100, "max decisions", check=int_range(1)))

    def __init__(self, **options):
        super().__init__(**options)
        self.num_players = 2
        self.num_actions = 3
        self.obs_spec = ObsSpec([ObsPiece("my_total", (1,), "my points", high=30.0),
                                 ObsPiece("phase", (2,), "simultaneous, solo")])
        self.max_decisions = self.options["bound"]

    def new_state(self, seed=None):
        return ToyState(self, rng_from(seed))

    def state_from_dict(self, data):
        state = ToyState(self, rng_from(0))
        state.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                               for k, v in data.items()})
        return state

    def action_name(self, action):
        return f"pick {action}"


class ToyState(State):
    def __init__(self, game, rng):
        self.game, self.rng = game, rng
        self.points = [0, 0]
        self.phase = 0
        self.round = 0

    def acting_players(self):
        if self.round >= self.game.options["rounds"]:
            return ()
        return (0, 1) if self.phase == 0 else (0,)

    def legal_mask(self, player):
        return np.array([player in self.acting_players()] * 3)

    def apply(self, actions):
        actions = self.check_actions(actions)
        for p, a in actions.items():
            self.points[p] += a
        if self.phase == 0:
            self.phase = 1
        else:
            self.phase, self.round = 0, self.round + 1

    def is_terminal(self):
        return self.round >= self.game.options["rounds"]

    def returns(self):
        return rank_rewards(self.points) if self.is_terminal() else [0.0, 0.0]

    def scores(self):
        return [float(x) for x in self.points]

    def score_breakdown(self):
        return [{"points": float(x)} for x in self.points]

    def observe(self, player, out=None):
        out = self.game.obs_spec.zeros() if out is None else out
        out[:] = 0
        out[0] = self.points[player]
        out[1 + self.phase] = 1
        return out

    def determinize(self, player, rng):
        return self.clone()

    def clone(self):
        return self.game.state_from_dict(self.to_dict())

    def to_dict(self):
        return {"points": list(self.points), "phase": self.phase, "round": self.round}

    def __str__(self):
        return f"toy {self.points}"


def test_options_validation():
    with pytest.raises(InvalidOptionError, match="unknown option.*known options: rounds, bound"):
        ToyGame(round=2)
    with pytest.raises(InvalidOptionError, match=r"expected an int >= 1 and <= 5"):
        ToyGame(rounds=9)
    with pytest.raises(InvalidOptionError, match="allowed values: 'a', 'b'"):
        resolve_options("g", [Option("x", "a", "doc", allowed=("a", "b"))], {"x": "c"})
    with pytest.raises(InvalidOptionError):  # True is not the int 1
        ToyGame(rounds=True)


def test_obs_spec_layout():
    spec = ObsSpec([ObsPiece("a", (2, 3), "x"), ObsPiece("b", (4,), "y", high=5)])
    assert spec.size == 10 and spec.offsets == {"a": 0, "b": 6}
    buf = np.arange(10, dtype=np.float32)
    assert spec.view(buf, "a").tolist() == [[0, 1, 2], [3, 4, 5]]
    assert spec.split(buf)["b"].tolist() == [6, 7, 8, 9]
    assert spec.high.tolist() == [1] * 6 + [5] * 4
    assert "| `b` | 4 | 6 | 0..5 | y |" in spec.markdown_table()
    with pytest.raises(ValueError, match="duplicate"):
        ObsSpec([ObsPiece("a", (1,), ""), ObsPiece("a", (1,), "")])


def test_rank_and_margin_rewards():
    assert rank_rewards([3, 1]) == [1.0, -1.0]
    assert rank_rewards([2, 2]) == [0.0, 0.0]
    assert rank_rewards([5, 9, 1]) == [0.0, 1.0, -1.0]
    assert rank_rewards([4, 4, 1, 0]) == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1.0])
    assert sum(rank_rewards([7, 7, 7, 2, 9])) == pytest.approx(0.0)
    assert margin_rewards([5, 9, 1]) == [-4.0, 4.0, -8.0]


def test_aec_hides_simultaneous_choices_and_applies_them_together():
    env = TablezooAECEnv(ToyGame(), "toy_v0")
    env.reset(seed=0)
    assert env.agent_selection == "player_0"
    env.step(2)
    assert env.game_state.points == [0, 0]  # held back until player_1 answers
    assert env.agent_selection == "player_1"
    obs = env.observe("player_0")
    assert obs["action_mask"].tolist() == [0, 0, 0, 0]  # already answered: nothing to do
    with pytest.raises(IllegalActionError, match="legal actions: 0 \\(pick 0\\)"):
        env.step(3)
    env.step(1)
    assert env.game_state.points == [2, 1] and env.agent_selection == "player_0"
    env.step(np.int64(0))  # numpy integers are fine
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    for _agent in list(env.agents):
        env.step(None)
    assert env.agents == []


def test_aec_truncates_at_max_decisions_counting_joint_decisions():
    env = TablezooAECEnv(ToyGame(rounds=5, bound=3), "toy_v0")
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(0)
        steps += 1
    assert steps == 5  # decisions: joint (2 agents) + solo + joint (2 agents)


def test_parallel_noop_and_missing_actions():
    env = TablezooParallelEnv(ToyGame(), "toy_v0")
    obs, _ = env.reset(seed=0)
    assert obs["player_1"]["action_mask"].tolist() == [1, 1, 1, 0]
    with pytest.raises(IllegalActionError, match="player_1 must act now"):
        env.step({"player_0": 1})
    obs, rewards, *_ = env.step({"player_0": 1, "player_1": 2})
    assert obs["player_1"]["action_mask"].tolist() == [0, 0, 0, 1]
    with pytest.raises(IllegalActionError, match="send NOOP"):
        env.step({"player_0": 1, "player_1": 0})
    obs, rewards, terms, truncs, _ = env.step({"player_0": 0, "player_1": 3})
    assert rewards == {"player_0": -1.0, "player_1": 1.0} and all(terms.values())
    assert env.agents == []
    with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
        env.step({})


def test_reset_from_saved_state():
    env = TablezooAECEnv(ToyGame(), "toy_v0")
    env.reset(options={"state": {"points": [4, 0], "phase": 1, "round": 0}})
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["observation"].tolist() == [4, 0, 1]


class FullInfoToyGame(ToyGame):
    """A game with its own full-information global state: both points and the round."""

    def __init__(self, **options):
        super().__init__(**options)
        self.state_spec = ObsSpec([ObsPiece("points", (2,), "both players' points", high=30.0),
                                   ObsPiece("round", (1,), "rounds played", high=5.0)])

    def new_state(self, seed=None):
        return FullInfoToyState(self, rng_from(seed))


class FullInfoToyState(ToyState):
    def global_state(self, out=None):
        out = self.game.state_spec.zeros() if out is None else out
        out[:2] = self.points
        out[2] = self.round
        return out


def test_generic_global_state_and_a_game_override():
    env = TablezooAECEnv(ToyGame(), "toy_v0")
    assert [p.name for p in env.game.state_spec.pieces] == [
        "player_0.my_total", "player_0.phase", "player_1.my_total", "player_1.phase", "acting"]
    env.reset(seed=0)
    assert env.state().tolist() == [0, 1, 0, 0, 1, 0, 1, 1]  # both in phase 0, both acting
    env.step(2)
    env.step(1)
    assert env.state().tolist() == [2, 0, 1, 1, 0, 1, 1, 0]  # phase 1: only player_0 acts

    full = TablezooParallelEnv(FullInfoToyGame(), "toy_v0")
    assert full.state_space.shape == (3,) and full.state_space.high.tolist() == [30, 30, 5]
    full.reset(seed=0)
    full.step({"player_0": 2, "player_1": 1})
    assert full.state().tolist() == [2, 1, 0]

    half = ToyGame()
    half.state_spec = FullInfoToyGame().state_spec  # layout overridden, encoder not
    with pytest.raises(TypeError, match="overrides both"):
        half.new_state(0).global_state()
