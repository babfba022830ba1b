"""The PettingZoo env of bower_v0: a full episode's rewards, pickling and text rendering."""

import pickle

import numpy as np

from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.bower_v0 import env


def test_full_episode_rewards_and_pickle():
    e = env(render_mode="ansi")
    e.reset(seed=5)
    e2 = pickle.loads(pickle.dumps(e))
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (OBS_SPEC.size,)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert "player_0 nest" in e.render()
    assert e2.game_state.to_dict() != e.game_state.to_dict()
