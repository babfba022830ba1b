"""The compiled bauer_draft heuristic (``compiled_heuristic.py``) decides as ``HeuristicAgent``
with ``tie_break="first"`` at every decision of Python-engine games (2-5 players, every decision
kind, every seat of the simultaneous select asked on its own observation), and the default agent
differs from it only where its generator breaks a tie."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("numba")

from tablezoo import envs
from tablezoo.agents.games.bauer_draft.compiled_heuristic import heuristic_actions, heuristic_for
from tablezoo.agents.games.bauer_draft.heuristic import HeuristicAgent
from tablezoo.envs.bauer_draft.actions import KINDS, NUM_ACTIONS, OVER
from tablezoo.envs.bauer_draft.components import CARDS, DAGA_CARD, MARTIN_CARD, OLLE_CARD, VILLE
from tablezoo.envs.core.errors import InvalidOptionError

ENV = "bauer_draft_v0"
OPTION_SETS = [*envs.VARIANTS[ENV], {"num_players": 3, "reward": "score"}]


class TieCounter(HeuristicAgent):
    """The agent, noting whether its last decision compared tied values."""

    def act(self, *args, **kwargs):
        self.tied = False
        return super().act(*args, **kwargs)

    def _best(self, options, values):
        top = max(values)
        self.tied |= sum(v >= top - 1e-9 for v in values) > 1
        return super()._best(options, values)


def staged(game, rng: np.random.Generator):
    """A select position at a random round where one seat holds Daga (unused) and Ville in its
    tableau and Brother Martin and Olle in its hand: playing them reaches the rare Martin (with
    Daga's swap) and Olle-with-Ville decisions."""
    n, code = game.num_players, CARDS.codes
    r = int(rng.integers(2, game.num_rounds - 1))
    special = (DAGA_CARD, VILLE, MARTIN_CARD, OLLE_CARD)
    rest = [c for c in rng.permutation(CARDS.size).tolist() if c not in special]
    p = int(rng.integers(n))
    tableau = [[rest.pop() for _ in range(r - 2 * (s == p))] for s in range(n)]
    hands = [[rest.pop() for _ in range(3 - 2 * (s == p))] for s in range(n)]
    tableau[p] += [DAGA_CARD, VILLE]
    hands[p] += [MARTIN_CARD, OLLE_CARD]
    piles = [[rest.pop() for _ in range(game.pile_size - 3 - r)] for _ in range(n)]
    return game.state_from_dict({
        "round": r, "hands": [[code[c] for c in h] for h in hands],
        "piles": [[code[c] for c in h] for h in piles], "central": [code[c] for c in rest],
        "tableau": [[code[c] for c in t] for t in tableau]})


def decisions(options: dict, games: int, seed: int, tie_breaks=("first",), staged_games: int = 0):
    """Every decision of ``games`` new and ``staged_games`` staged Python-engine games: (obs
    [N, D], mask [N, 227], each ``tie_break`` agent's choice [len(tie_breaks), N], whether the
    first agent met a tie [N], phase [N]). Every seat of a simultaneous select is asked on its
    own observation before any choice is applied. The games are played by the ``"first"``
    agents with 0%, 30% or 70% random moves."""
    game = envs.make_game(ENV, **options)
    n = game.num_players
    rng = np.random.default_rng(seed)
    rows, masks, chosen, tied, phases = [], [], [], [], []
    for g in range(games + staged_games):
        agents = [[TieCounter(seed + 100 * g + p, tie_break=tb) for p in range(n)]
                  for tb in tie_breaks]
        state = (game.new_state(int(rng.integers(1 << 31))) if g < games
                 else staged(game, rng))
        p_random = (0.0, 0.3, 0.7)[g % 3]
        while not state.is_terminal():
            joint = {}
            for p in state.acting_players():
                obs, mask = state.observe(p), state.legal_mask(p)
                choices = [seats[p].act(obs, mask) for seats in agents]
                rows.append(obs)
                masks.append(mask.copy())
                chosen.append(choices)
                tied.append(agents[0][p].tied)
                phases.append(state.kind)
                joint[p] = choices[0]
                if rng.random() < p_random:
                    legal = np.flatnonzero(mask)
                    joint[p] = int(legal[rng.integers(legal.size)])
            state.apply(joint)
    return (np.array(rows), np.array(masks), np.array(chosen).T, np.array(tied),
            np.array(phases))


@functools.cache
def played(index: int):
    """``decisions`` of 12 new and 6 staged games with the option set ``OPTION_SETS[index]``."""
    options = OPTION_SETS[index]
    return decisions(options, 12, sum(map(ord, str(options))), staged_games=6)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)),
                         ids=["-".join(map(str, o.values())) for o in OPTION_SETS])
def test_the_compiled_heuristic_decides_as_the_first_tie_agent(index):
    options = OPTION_SETS[index]
    obs, mask, chosen, _, phases = played(index)
    got = heuristic_for(**options)(obs, mask)
    wrong = np.flatnonzero(got != chosen[0])
    assert wrong.size == 0, (f"{wrong.size} of {len(got)} decisions differ, first at "
                             f"{[KINDS[k] for k in phases[wrong[:5]]]}: agent "
                             f"{chosen[0][wrong[:5]]}, compiled {got[wrong[:5]]}")
    assert len(got) > 300
    # the batch is answered row by row: any subset in any order gives the same moves
    order = np.random.default_rng(0).permutation(len(got))[:257]
    assert heuristic_actions(obs[order], mask[order]).tolist() == got[order].tolist()


def test_every_decision_kind_is_met_over_the_option_sets():
    seen = set()
    for index in range(len(OPTION_SETS)):
        seen.update(played(index)[4].tolist())
    assert seen == set(range(len(KINDS))) - {OVER}


def test_the_default_agent_differs_only_where_it_breaks_a_tie():
    """The default agent draws from its generator only among tied values: it chooses as the
    ``"first"`` agent wherever that one met no tie, and otherwise at some decisions only."""
    _, _, chosen, tied, _ = decisions({"num_players": 4}, 4, 11, ("first", "random"))
    differ = chosen[0] != chosen[1]
    assert not (differ & ~tied).any()
    assert 0 < differ.sum() < tied.sum()


def test_the_width_says_the_player_count():
    """The player count from the width (an advised network's rows too) and a NOOP column."""
    for n in (2, 5):
        obs, mask, chosen, _, _ = decisions({"num_players": n}, 1, n)
        assert heuristic_actions(obs, mask).tolist() == chosen[0].tolist()
        # a parallel env's mask with its NOOP column: a waiting seat answers NOOP
        wide = np.zeros((len(mask), NUM_ACTIONS + 1), bool)
        wide[:, :NUM_ACTIONS] = mask
        wide[0] = False
        wide[0, NUM_ACTIONS] = True
        got = heuristic_actions(obs, wide)
        assert got[0] == NUM_ACTIONS and got[1:].tolist() == chosen[0][1:].tolist()
        # an advised network's rows: the observation, then an advice one-hot (not read)
        advice = np.eye(NUM_ACTIONS, dtype=np.float32)[np.asarray(chosen[0]) % 7]
        advised = np.hstack([obs, advice])
        assert heuristic_actions(advised, mask).tolist() == chosen[0].tolist()
        assert heuristic_for(num_players=n)(advised, mask).tolist() == chosen[0].tolist()


def test_bad_input_is_refused_naming_the_problem():
    obs = envs.make_game(ENV, num_players=4).obs_spec.zeros()[None]
    mask = np.ones((1, NUM_ACTIONS), bool)
    with pytest.raises(ValueError, match="width 5"):
        heuristic_actions(np.zeros((1, 5), np.float32), mask)
    with pytest.raises(ValueError, match="expected \\[n, D\\]"):
        heuristic_actions(obs[0], mask)
    with pytest.raises(ValueError, match="mask of shape"):
        heuristic_actions(obs, mask[:, :10])
    with pytest.raises(ValueError, match="allow no action"):
        heuristic_actions(obs, np.zeros_like(mask))
    with pytest.raises(ValueError, match="expected"):
        heuristic_for(num_players=3)(obs, mask)
    with pytest.raises(InvalidOptionError, match="num_players"):
        heuristic_for(num_players=9)
    with pytest.raises(ValueError, match="tie_break"):
        HeuristicAgent(0, tie_break="last")


@pytest.mark.parametrize("backend", envs.vector_backends(ENV))
def test_a_vector_env_batch_is_answered_as_the_agent_answers_each_row(backend):
    """On a vector env's batch (each select seat asked in turn; half the moves the compiled
    heuristic's, half random): every row decided as the ``"first"`` agent decides it."""
    games, rng = 16, np.random.default_rng(3)
    vec = envs.make_vector(ENV, games, seed=3, backend=backend, num_players=3)
    obs, mask, _ = vec.reset()
    agent = HeuristicAgent(0, tie_break="first")
    kinds = set()
    phase = vec.game.obs_spec.slice("phase")
    for _ in range(60):
        got = heuristic_actions(obs, mask)
        assert got.tolist() == [agent.act(o, m) for o, m in zip(obs, mask)]
        kinds.update(np.argmax(obs[:, phase], axis=1).tolist())
        rand = np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)
        obs, mask, *_ = vec.step(np.where(rng.random(games) < 0.5, got, rand))
    assert len(kinds) >= 4
