"""The compiled ethnos heuristic (``compiled_heuristic.py``) decides as ``HeuristicAgent`` with
``tie_noise=0`` at every decision of Python-engine games (2-6 players, several option sets, every
phase), and the default, noisy agent differs from it only where its noise breaks a tie."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tablezoo.agents.games import batched_agents
from tablezoo.agents.games.ethnos.compiled_heuristic import heuristic_actions, heuristic_for
from tablezoo.agents.games.ethnos.heuristic import HeuristicAgent
from tablezoo.envs.core.errors import InvalidOptionError
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.rules import EthnosGame

OPTION_SETS = [
    {"num_players": 2},
    {"num_players": 4},
    {"num_players": 6},
    {"num_players": 2, "two_player_tie": "i_plus_ii", "tribes_2_3p": 6,
     "giant_bonus_2_3": [3, 7]},
    {"num_players": 3, "glory_tokens": "lu", "merfolk_marker_per_space": False,
     "tribes": ["Centaurs", "Merfolk", "Wingfolk", "Elves", "Wizards"]},
    {"num_players": 5, "band_glory": [0, 2, 4, 7, 11, 16], "orc_glory": [2, 4, 7, 11, 16, 22],
     "giant_claim_glory": 5, "giant_bonus_4_6": [3, 5, 8], "merfolk_spaces": [2, 5, 9, 14],
     "merfolk_end": 15, "tribes": ["Trolls", "Giants", "Orcs", "Merfolk", "Centaurs", "Elves"]},
]


def decisions(options: dict, games: int, seed: int, noises: tuple[float, ...] = (0.0,)):
    """Every decision of ``games`` Python-engine games: (obs [N, D], mask [N, 289], the choice
    of an agent per seat for each noise in ``noises`` [len(noises), N], phase [N]). A third of
    the games are played by the noise-free agents, the rest with 30% or 70% random moves; a move
    played over an agent's own choice voids its plan (``reset``), as in a game it plays itself."""
    game = EthnosGame(**options)
    rng = np.random.default_rng(seed)
    rows, masks, chosen, phases = [], [], [], []
    for g in range(games):
        agents = [[HeuristicAgent(seed + 100 * g + p, tie_noise=noise) for p in
                   range(game.num_players)] for noise in noises]
        state = game.new_state(int(rng.integers(1 << 31)))
        p_random = (0.0, 0.3, 0.7)[g % 3]
        while state.acting_players():
            (p,) = state.acting_players()
            obs, mask = state.observe(p), state.legal_mask(p)
            choices = [seats[p].act(obs, mask, state, p) for seats in agents]
            rows.append(obs)
            masks.append(mask.copy())
            chosen.append(choices)
            phases.append(int(np.argmax(obs[game.phase_offset:game.phase_offset + 9])))
            played = choices[0]
            if rng.random() < p_random:
                legal = np.flatnonzero(mask)
                played = int(legal[rng.integers(legal.size)])
            for seats, choice in zip(agents, choices):
                if choice != played:
                    seats[p].reset(seed)
            state.apply({p: played})
    return np.array(rows), np.array(masks), np.array(chosen).T, np.array(phases)


@pytest.mark.parametrize("options", OPTION_SETS,
                         ids=lambda o: f"{o['num_players']}p-{len(o) - 1}-options")
def test_the_compiled_heuristic_decides_as_the_noise_free_agent(options):
    obs, mask, chosen, phases = decisions(options, 3, sum(map(ord, str(options))))
    got = heuristic_for(**options)(obs, mask)
    wrong = np.flatnonzero(got != chosen[0])
    assert wrong.size == 0, (f"{wrong.size} of {len(got)} decisions differ, first at phases "
                             f"{phases[wrong[:5]].tolist()}: agent {chosen[0][wrong[:5]]}, "
                             f"compiled {got[wrong[:5]]}")
    assert len(got) > 500
    assert {enc.TURN, enc.BUILD} <= set(phases.tolist())
    # the batch is answered row by row: any subset in any order gives the same moves
    order = np.random.default_rng(0).permutation(len(got))[:257]
    assert heuristic_for(**options)(obs[order], mask[order]).tolist() == got[order].tolist()


def test_every_phase_is_decided_over_the_option_sets():
    seen = set()
    for options in OPTION_SETS[3:]:
        _, _, _, phases = decisions(options, 1, 5)
        seen.update(phases.tolist())
    assert seen == set(range(len(enc.PHASES)))


def test_default_options_are_read_from_the_observation_width_and_the_record_names_it():
    """The player count from the width (an advised network's rows too), a NOOP column, and
    the record's batched agent."""
    for n in (3, 5):
        obs, mask, chosen, _ = decisions({"num_players": n}, 1, n)
        assert heuristic_actions(obs, mask).tolist() == chosen[0].tolist()
        # a parallel env's mask with its NOOP column: a waiting seat answers NOOP
        wide = np.zeros((len(mask), enc.NUM_ACTIONS + 1), bool)
        wide[:, :enc.NUM_ACTIONS] = mask
        wide[0] = False
        wide[0, enc.NUM_ACTIONS] = True
        got = heuristic_actions(obs, wide)
        assert got[0] == enc.NUM_ACTIONS and got[1:].tolist() == chosen[0][1:].tolist()
        # an advised network's rows: the observation, then an advice one-hot (not read)
        advice = np.eye(enc.NUM_ACTIONS, dtype=np.float32)[np.asarray(chosen[0]) % 7]
        advised = np.hstack([obs, advice])
        assert heuristic_actions(advised, mask).tolist() == chosen[0].tolist()
        assert heuristic_for(num_players=n)(advised, mask).tolist() == chosen[0].tolist()
        league = batched_agents("ethnos_v0", EthnosGame(num_players=n).options)["heuristic"]
        assert league(obs, mask).tolist() == chosen[0].tolist()


def test_the_noisy_agent_differs_only_at_ties():
    """The default agent (noise 1e-6) and one with noise 1e-9 draw the same numbers: they
    choose alike wherever the compared values differ by more than 1e-9 (the values are sums of
    multiples of 0.05, so only exact ties are that close), and differ from the noise-free agent
    at a minority of decisions."""
    obs, _, chosen, _ = decisions({"num_players": 4}, 2, 7, (0.0, 1e-6, 1e-9))
    assert (chosen[1] == chosen[2]).all()
    differ = int((chosen[1] != chosen[0]).sum())
    assert 0 < differ < len(obs) // 4


def test_bad_input_is_refused_naming_the_problem():
    obs = EthnosGame(num_players=4).obs_spec.zeros()[None]
    mask = np.ones((1, enc.NUM_ACTIONS), bool)
    with pytest.raises(ValueError, match="width 5"):
        heuristic_actions(np.zeros((1, 5), np.float32), mask)
    with pytest.raises(ValueError, match="mask of shape"):
        heuristic_actions(obs, mask[:, :10])
    with pytest.raises(ValueError, match="allow no action"):
        heuristic_actions(obs, np.zeros_like(mask))
    with pytest.raises(ValueError, match="expected"):
        heuristic_for(num_players=3)(obs, mask)
    with pytest.raises(InvalidOptionError, match="num_players"):
        heuristic_for(num_players=9)


@pytest.mark.parametrize("num_players", [2, 5])
def test_the_compiled_engine_is_answered_as_the_agent_answers_its_observations(num_players):
    """On the compiled engine's batch (default options, half the moves the compiled
    heuristic's, half random): every row decided as a noise-free agent with no plan decides."""
    from tablezoo import envs

    if "compiled" not in envs.vector_backends("ethnos_v0"):
        pytest.skip("no compiled ethnos engine here")
    games, rng = 32, np.random.default_rng(num_players)
    vec = envs.make_vector("ethnos_v0", games, seed=num_players, backend="compiled",
                           num_players=num_players)
    obs, mask, _ = vec.reset()
    agent = HeuristicAgent(0, tie_noise=0.0)
    phase = EthnosGame(num_players=num_players).obs_spec.slice("phase")
    phases = set()
    for _ in range(40):
        got = heuristic_actions(obs, mask)
        want = []
        for o, m in zip(obs, mask):
            agent.reset(0)  # a BUILD decision recomputes the plan
            want.append(agent.act(o, m))
        assert got.tolist() == want
        phases.update(np.argmax(obs[:, phase], axis=1).tolist())
        rand = np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)
        obs, mask, *_ = vec.step(np.where(rng.random(games) < 0.5, got, rand))
    assert {enc.TURN, enc.BUILD} <= phases
