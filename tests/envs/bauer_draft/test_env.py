"""The PettingZoo views of bauer_draft: who is asked, NOOP masks, a built position as reset; the
full-information global state of bauer_draft (``env.state()`` for centralised critics)."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.bauer_draft.actions import NUM_ACTIONS, WITCH_LEFT
from tablezoo.envs.bauer_draft.rules import BauerDraftGame
from tablezoo.envs.bauer_draft_v0 import env, parallel_env
from tests.envs.bauer_draft.positions import play, position, random_step


def witch_state():
    return position(3, hands={0: ["E01", "E02", "E03"], 1: ["C02", "E04", "E05"]}).to_dict()


def test_aec_asks_every_seat_at_select_then_only_the_decider():
    e = env(num_players=3)
    e.reset(options={"state": witch_state()})
    asked = []
    for _ in range(3):
        agent = e.agent_selection
        asked.append(agent)
        mask = e.observe(agent)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]) if agent != "player_1" else play("C02"))
    assert asked == ["player_0", "player_1", "player_2"]
    assert e.agent_selection == "player_1"  # the Witch's owner decides alone
    for agent in ("player_0", "player_2"):
        assert not e.observe(agent)["action_mask"].any()
    mask = e.observe("player_1")["action_mask"]
    assert mask[WITCH_LEFT] == 1 and mask[NUM_ACTIONS] == 0


def test_parallel_env_gives_waiting_seats_only_noop():
    pe = parallel_env(num_players=3)
    obs, _ = pe.reset(options={"state": witch_state()})
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    actions["player_1"] = play("C02")
    obs, rewards, terms, truncs, _ = pe.step(actions)
    assert obs["player_0"]["action_mask"].tolist() == [0] * NUM_ACTIONS + [1]
    assert obs["player_2"]["action_mask"].tolist() == [0] * NUM_ACTIONS + [1]
    assert obs["player_1"]["action_mask"][WITCH_LEFT] == 1
    assert not any(terms.values()) and set(rewards.values()) == {0.0}


def test_full_games_through_both_envs_end_with_zero_sum_rank_rewards():
    for n in (2, 3, 4, 5):
        e = env(num_players=n)
        e.reset(seed=n)
        rng = np.random.default_rng(n)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert abs(sum(total.values())) < 1e-9 and max(total.values()) > 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_deterministic_function_of_the_state_inside_its_space(n):
    game = BauerDraftGame(num_players=n)
    space = envs.make("bauer_draft_v0", num_players=n).state_space
    rng = np.random.default_rng(n)
    for seed in range(3):
        st = game.new_state(seed)
        while True:
            full = st.global_state()
            assert full.dtype == np.float32 and space.contains(full)
            np.testing.assert_array_equal(full, st.clone().global_state())
            np.testing.assert_array_equal(full, game.state_from_dict(st.to_dict()).global_state())
            out = np.full(game.state_spec.size, 3.0, np.float32)
            assert st.global_state(out) is out and np.array_equal(out, full)
            v = game.state_spec.split(full)
            for s in range(n):  # the truth, read back: hands, tableaux, piles in draw order
                assert sorted(np.flatnonzero(v["hands"][s])) == sorted(st.hands[s])
                assert sorted(np.flatnonzero(v["tableau"][s])) == sorted(st.tableau[s])
                row = v["piles"][s]
                by_depth = sorted(np.flatnonzero(row), key=lambda c: -row[c])
                assert by_depth == st.piles[s][::-1]
            assert np.flatnonzero(v["acting"]).tolist() == list(st.acting_players())
            if st.is_over():
                break
            random_step(st, rng)


def test_differs_where_only_hidden_information_differs():
    game = BauerDraftGame(num_players=4)
    st = game.new_state(2)
    rng = np.random.default_rng(0)
    for _ in range(3):
        random_step(st, rng)
    other = st.determinize(0, rng)
    np.testing.assert_array_equal(st.observe(0), other.observe(0))
    assert not np.array_equal(st.global_state(), other.global_state())
    # the order of a pile alone (no seat sees it) changes the global state too
    moved = st.clone()
    moved.piles[1] = moved.piles[1][::-1]
    for seat in range(4):
        np.testing.assert_array_equal(st.observe(seat), moved.observe(seat))
    assert not np.array_equal(st.global_state(), moved.global_state())
