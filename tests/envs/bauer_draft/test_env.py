"""The PettingZoo views of bauer_draft: who is asked, NOOP masks, a built position as reset."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.bauer_draft.actions import NUM_ACTIONS, WITCH_LEFT
from tablezoo.envs.bauer_draft_v0 import env, parallel_env
from tests.envs.bauer_draft.positions import play, position


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
