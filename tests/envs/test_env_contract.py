"""The env contract other libraries rely on, for every env and variant: fresh arrays by default
(``reuse_buffers=True`` as the in-place opt-in), the ``illegal_action`` policies, errors before
``reset`` and after the end, and ``copy.deepcopy`` / ``pickle`` copies that continue exactly."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.core import (
    IllegalActionError,
    InvalidOptionError,
    ResetNeededError,
    StateFormatError,
)
from tests.envcases import SCALE, cases


def _legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _illegal(mask: np.ndarray) -> int:
    """An id the mask forbids (NOOP is always forbidden to an acting AEC agent)."""
    return int(np.flatnonzero(mask == 0)[0])


def _play(env, rng: np.random.Generator, steps: int) -> None:
    """``steps`` random legal AEC steps (dead steps included) unless the episode ends first."""
    for _ in range(steps):
        if not env.agents:
            return
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else _legal(obs["action_mask"], rng))


# --- fresh arrays ------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "options"), cases())
def test_state_returns_are_a_fresh_list_the_game_never_changes(name, options):
    """bauer_trick handed out the list its scoring adds to in place: a stored ``returns()``
    changed under the caller (reward deltas came out 0) and writing to it changed the game."""
    rng = np.random.default_rng(3)
    for seed in range(20):
        state = envs.make_game(name, **options).new_state(seed=seed)
        seen = []
        while not state.is_over():
            seen.append((state.returns(), list(state.returns())))
            moves = {}
            for p in state.acting_players():
                moves[p] = _legal(state.legal_mask(p), rng)
            state.apply(moves)
        final, kept = state.returns(), list(state.returns())
        final[0] += 99.0  # the caller's list: the game keeps its own
        assert state.returns() == kept
        assert all(handed == copied for handed, copied in seen)


@pytest.mark.parametrize(("name", "options"), cases())
def test_aec_hands_out_fresh_arrays_unless_reuse_buffers(name, options):
    env = envs.make(name, **options)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    kept = []
    for _ in range(30):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        again = env.observe(env.agent_selection)
        assert again["observation"] is not obs["observation"]
        assert again["action_mask"] is not obs["action_mask"]
        env.step(None if term or trunc else _legal(obs["action_mask"], rng))
    for obs, snapshot in kept:  # nothing handed out earlier was overwritten by later steps
        for key in snapshot:
            np.testing.assert_array_equal(obs[key], snapshot[key])

    reused = envs.make(name, reuse_buffers=True, **options)
    reused.reset(seed=11)
    first = reused.observe(reused.agent_selection)
    assert reused.observe(reused.agent_selection)["observation"] is first["observation"]
    fresh = envs.make(name, **options)
    fresh.reset(seed=11)
    for _ in range(20):  # same values as the fresh env, step by step
        if not fresh.agents:
            break
        a, b = fresh.last()[0], reused.last()[0]
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
        action = None if fresh.terminations[fresh.agent_selection] else _legal(
            a["action_mask"], rng)
        fresh.step(action)
        reused.step(action)


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_hands_out_fresh_arrays_unless_reuse_buffers(name, options):
    rng = np.random.default_rng(1)
    par = envs.make_parallel(name, **options)
    reused = envs.make_parallel(name, reuse_buffers=True, **options)
    obs, _ = par.reset(seed=4)
    robs, _ = reused.reset(seed=4)
    history = []
    for _ in range(25):
        if not par.agents:
            break
        history.append((obs, {a: {k: v.copy() for k, v in o.items()} for a, o in obs.items()}))
        actions = {a: _legal(o["action_mask"], rng) for a, o in obs.items()}
        nxt, *_ = par.step(actions)
        rnxt, *_ = reused.step(actions)
        for agent in nxt:
            assert nxt[agent]["observation"] is not obs[agent]["observation"]
            assert rnxt[agent]["observation"] is robs[agent]["observation"]  # in place
            for key in nxt[agent]:
                np.testing.assert_array_equal(nxt[agent][key], rnxt[agent][key])
        obs = nxt
    for old, snapshot in history:
        for agent, pieces in snapshot.items():
            for key, value in pieces.items():
                np.testing.assert_array_equal(old[agent][key], value)


# --- env options -------------------------------------------------------------------------------
@pytest.mark.parametrize("maker", [envs.make, envs.make_parallel])
def test_env_options_are_validated(maker):
    name = envs.ENVS[0]
    with pytest.raises(InvalidOptionError, match="'raise', 'terminate', 'random_legal'"):
        maker(name, illegal_action="ignore")
    with pytest.raises(InvalidOptionError, match="allowed values: False, True"):
        maker(name, reuse_buffers=1)
    # a misspelled env option: the error names the env options too, not only the game's
    with pytest.raises(InvalidOptionError,
                       match="unknown option.*reuse_buffer;.*env options: reuse_buffers"):
        maker(name, reuse_buffer=True)


# --- illegal_action ----------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "options"), cases())
def test_aec_terminate_ends_the_episode_with_minus_one(name, options):
    env = envs.make(name, illegal_action="terminate", **options)
    env.reset(seed=3)
    _play(env, np.random.default_rng(3), 5)
    if not env.agents or env.terminations[env.agent_selection]:
        pytest.skip("episode ended before the illegal move")
    offender = env.agent_selection
    pending = dict(env._cumulative_rewards)
    before = env.game_state.to_dict()
    env.step(_illegal(env.observe(offender)["action_mask"]))
    assert env.game_state.to_dict() == before  # nothing was applied
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != offender)
    assert env.infos[offender]["illegal_actions"] == 1
    assert not env.observe(offender)["action_mask"].any()
    collected = {}
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term
        collected[agent] = reward
        env.step(None)
    assert collected[offender] == -1.0
    for agent, reward in collected.items():
        if agent != offender:
            assert reward == pending[agent]  # rewards earned before stand; 0 from then on
    with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
        env.step(0)


@pytest.mark.parametrize(("name", "options"), cases())
def test_aec_random_legal_plays_a_counted_legal_action(name, options):
    env = envs.make(name, illegal_action="random_legal", **options)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    counts = dict.fromkeys(env.possible_agents, 0)
    for _ in range(40):
        if not env.agents or env.terminations[env.agent_selection] or \
                env.truncations[env.agent_selection]:
            break
        agent = env.agent_selection
        p = env.possible_agents.index(agent)
        mask = env.observe(agent)["action_mask"]
        before = env.game_state.clone()
        env.step(_illegal(mask) if rng.random() < 0.5 else env.game.num_actions)
        counts[agent] += 1
        if agent in env.infos:
            assert env.infos[agent]["illegal_actions"] == counts[agent]
        if p in env._pending:  # a simultaneous choice, held back: it must be legal
            assert mask[env._pending[p]]
        elif len(before.acting_players()) == 1:
            after = env.game_state.to_dict()
            outcomes = []
            for a in np.flatnonzero(mask[:-1]):
                trial = before.clone()
                trial.apply({p: int(a)})
                outcomes.append(trial.to_dict() == after)
            assert any(outcomes), "the replacement is not one of the legal actions"
    # the same seed gives the same replacements (the env's own seeded generator)
    twin = envs.make(name, illegal_action="random_legal", **options)
    twin.reset(seed=8)
    again = envs.make(name, illegal_action="random_legal", **options)
    again.reset(seed=8)
    for _ in range(30):
        if not twin.agents or twin.terminations[twin.agent_selection] or \
                twin.truncations[twin.agent_selection]:
            break
        twin.step(-1)
        again.step(-1)
        assert twin.game_state.to_dict() == again.game_state.to_dict()


def test_random_legal_is_uniform_over_the_legal_actions():
    env = envs.make("bauer_trick_v0", illegal_action="random_legal")
    env.reset(seed=0)
    saved = env.game_state.to_dict()
    p = env.possible_agents.index(env.agent_selection)
    legal = env.game_state.legal_actions(p)
    outcome = {}
    for a in legal:
        trial = env.game.state_from_dict(saved)
        trial.apply({p: a})
        outcome[str(trial.to_dict())] = a
    draws = 200 * len(legal)
    counts = dict.fromkeys(legal, 0)
    for seed in range(draws):
        env.reset(seed=seed, options={"state": saved})
        env.step(env.game.num_actions)
        counts[outcome[str(env.game_state.to_dict())]] += 1
    # each count ~ Binomial(draws, 1/k): mean 200; 5 sigma bounds (sigma < 14.2)
    assert all(abs(c - 200) < 72 for c in counts.values()), counts


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_lenient_modes(name, options):
    rng = np.random.default_rng(2)
    par = envs.make_parallel(name, illegal_action="random_legal", **options)
    obs, infos = par.reset(seed=6)
    assert all(info == {"illegal_actions": 0} for info in infos.values())
    noop = par.game.num_actions
    illegal_sent = {a: 0 for a in par.possible_agents}
    for _ in range(30):
        if not par.agents:
            break
        acting = par.game_state.acting_players()
        actions = {}
        for p, agent in enumerate(par.possible_agents):
            mask = obs[agent]["action_mask"]
            if p not in acting:
                actions[agent] = int(rng.integers(noop))  # a game action: taken as NOOP
            elif rng.random() < 0.4:
                actions[agent] = _illegal(mask)
                illegal_sent[agent] += 1
            else:
                actions[agent] = _legal(mask, rng)
        before = par.game_state.to_dict()
        obs, _, _, _, infos = par.step(actions)
        assert par.game_state.to_dict() != before or not par.agents
        for agent, info in infos.items():
            assert info["illegal_actions"] == illegal_sent[agent]

    term = envs.make_parallel(name, illegal_action="terminate", **options)
    obs, _ = term.reset(seed=6)
    acting = term.game_state.acting_players()
    offender = term.possible_agents[acting[0]]
    actions = {a: (noop if p not in acting else _legal(obs[a]["action_mask"], rng))
               for p, a in enumerate(term.possible_agents)}
    actions[offender] = _illegal(obs[offender]["action_mask"])
    _, rewards, terms, truncs, infos = term.step(actions)
    assert rewards[offender] == -1.0 and sum(rewards.values()) == -1.0
    assert all(terms.values()) and not any(truncs.values()) and term.agents == []
    assert infos[offender]["illegal_actions"] == 1
    with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
        term.step({})


def test_parallel_raise_mode_still_rejects_game_actions_of_waiting_agents():
    par = envs.make_parallel("bower_v0")
    obs, _ = par.reset(seed=0)
    acting = par.game_state.acting_players()
    waiting = [a for p, a in enumerate(par.possible_agents) if p not in acting]
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents}
    actions[waiting[0]] = 0
    before = par.game_state.to_dict()
    with pytest.raises(IllegalActionError, match="NOOP"):
        par.step(actions)
    assert par.game_state.to_dict() == before


# --- before reset / after the end --------------------------------------------------------------
@pytest.mark.parametrize("name", envs.ENVS)
def test_calls_before_reset_name_the_problem(name):
    env = envs.make(name)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0"), env.state):
        with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
            call()
    par = envs.make_parallel(name)
    for call in (lambda: par.step({}), par.state):
        with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
            call()
    env.reset(seed=0)  # and after the last dead step (last() was PettingZoo's bare KeyError)
    _play(env, np.random.default_rng(0), 10_000)
    for call in (lambda: env.step(None), env.last):
        with pytest.raises(ResetNeededError, match=r"episode ended.*call reset\(\) first"):
            call()


@pytest.mark.parametrize("name", envs.ENVS)
def test_wrong_kinds_of_argument_are_named_and_leave_the_game_as_it_was(name):
    """An unknown agent was a bare KeyError, a parallel step of None or a list a TypeError or a
    misleading 'unknown agents [2, 14]', and reset(options='state') a TypeError."""
    env = envs.make(name)
    env.reset(seed=3)
    before = env.game_state.to_dict()
    for call, words in ((lambda: env.observe("player_9"), "no agent 'player_9'; agents: "),
                        (lambda: env.action_space("nobody"), "no agent 'nobody'"),
                        (lambda: env.reset(options="state"), "takes a dict")):
        with pytest.raises(ValueError, match=words):
            call()
        assert env.game_state.to_dict() == before
    with pytest.raises(KeyError):  # still the lookup error a dict would raise
        env.observe("player_9")
    par = envs.make_parallel(name)
    par.reset(seed=3)
    before = par.game_state.to_dict()
    for actions in (None, [0, 1], 7):
        with pytest.raises(IllegalActionError, match="takes a dict of agent name -> action"):
            par.step(actions)
        assert par.game_state.to_dict() == before


@pytest.mark.parametrize("name", envs.ENVS)
def test_a_refused_saved_state_leaves_the_generator_as_it_was(name):
    """A reset refused for its saved state used to draw from the env's generator (or replace it
    with the new seed's), so the next plain reset dealt another game than an untouched twin."""
    env, twin = envs.make(name), envs.make(name)
    env.reset(seed=5)
    twin.reset(seed=5)
    bad = env.game_state.to_dict()
    bad["version"] = -1
    for seed in (None, 6):
        with pytest.raises(StateFormatError):
            env.reset(seed=seed, options={"state": bad})
    env.reset()
    twin.reset()
    assert env.game_state.to_dict() == twin.game_state.to_dict()


def test_a_numpy_integer_seed_deals_as_its_int():
    """gymnasium refused np.int64 seeds ("Seed must be a python integer")."""
    env = envs.make("bower_v0")
    env.reset(seed=np.int64(3))
    first = env.last()[0]["observation"]
    env.reset(seed=3)
    np.testing.assert_array_equal(first, env.last()[0]["observation"])


BAD_SEEDS = [True, False, np.True_, -1, np.int64(-2), 1.5, np.float64(2.0), "3", [], {}]


@pytest.mark.parametrize(("name", "options"), cases())
def test_a_seed_that_is_no_non_negative_int_is_refused_and_changes_nothing(name, options):
    """``reset(seed=True)`` dealt seed 1 silently; -1, 1.5, "3" and [] raised gymnasium's own
    ``Error``. Now ``InvalidOptionError`` names the seed and what is allowed, for the AEC and
    the parallel env, before the env changes: its position and its generator stay as they were."""
    for make in (envs.make, envs.make_parallel):
        env, twin = make(name, **options), make(name, **options)
        for seed in BAD_SEEDS[:2]:  # before the first reset: still no game
            with pytest.raises(InvalidOptionError, match=r"reset\(seed="):
                env.reset(seed=seed)
        assert env.game_state is None
        env.reset(seed=5)
        twin.reset(seed=5)
        before, agents = env.game_state.to_dict(), list(env.agents)
        for seed in BAD_SEEDS:
            with pytest.raises(InvalidOptionError) as err:
                env.reset(seed=seed)
            assert f"{env}: reset(seed={seed!r}) is not allowed; allowed: a non-negative int" \
                   in str(err.value) and "or None" in str(err.value)
            assert env.game_state.to_dict() == before and env.agents == agents
        env.reset()
        twin.reset()  # the same next deal: the refused resets drew nothing from the generator
        assert env.game_state.to_dict() == twin.game_state.to_dict()
        for seed in (0, np.uint8(7), np.int32(7), 2**70):
            env.reset(seed=seed)


def test_numpy_integers_are_option_values_like_ints():
    """A sweep over ``np.arange(2, 7)`` gave np.int64 player counts, refused as 'not allowed'."""
    env = envs.make("ethnos_v0", num_players=np.int64(3))
    assert len(env.possible_agents) == 3 and type(env.game.options["num_players"]) is int
    with pytest.raises(InvalidOptionError, match="num_players=7 is not allowed; expected an int"):
        envs.make("ethnos_v0", num_players=np.int64(7))


# --- copies ------------------------------------------------------------------------------------
def _aec_trace(env, rng: np.random.Generator, steps: int) -> list:
    """Play ``steps`` AEC steps choosing from the env's own masks; what each step showed."""
    out = []
    for _ in range(steps):
        if not env.agents:
            out.append("done")
            break
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                    term, trunc, env.state().tobytes()))
        env.step(None if term or trunc else _legal(obs["action_mask"], rng))
    return out


COPY_GAMES = max(1, round(16 * SCALE))  # per variant (16 variants)
COPIES_PER_GAME = 8  # at random decisions spread over the game; with 16 games: 2,048 positions


@pytest.mark.parametrize("name", list(envs.ENVS))
def test_noop_from_an_acting_agent_is_refused_by_name(name):
    """The error named the id alone ("action 648 is illegal"), which reads like a game action."""
    env = envs.make(name)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=f"action {env.noop} \\(the PettingZoo envs' NOOP"):
        env.step(env.noop)


@pytest.mark.parametrize("name", list(envs.ENVS))
def test_an_episode_reset_into_a_finished_saved_game_ends_at_its_first_step(name):
    """The parallel env kept every agent live with NOOP-only masks and then refused the NOOPs
    ("the game is over"); the AEC env already ended such an episode with dead steps."""
    rng = np.random.default_rng(5)
    state = envs.make_game(name).new_state(seed=2)
    while not state.is_over():
        state.apply({p: _legal(state.legal_mask(p), rng) for p in state.acting_players()})
    saved = state.to_dict()
    par = envs.make_parallel(name)
    observations, _ = par.reset(options={"state": saved})
    assert all(o["action_mask"][:-1].sum() == 0 for o in observations.values())
    _, rewards, terminations, truncations, _ = par.step({a: par.noop for a in par.agents})
    assert par.agents == [] and set(rewards.values()) == {0.0}
    assert all(terminations.values()) and not any(truncations.values())
    aec = envs.make(name)
    aec.reset(options={"state": saved})
    _play(aec, rng, 100)
    assert aec.agents == []


@pytest.mark.parametrize(("name", "options"), cases())
def test_aec_copies_continue_exactly(name, options):
    rng = np.random.default_rng(17)
    positions = 0
    for game in range(COPY_GAMES):
        env = envs.make(name, reuse_buffers=game % 4 == 3, **options)
        env.reset(seed=1000 + game)
        for copy_no in range(COPIES_PER_GAME):
            _play(env, rng, int(rng.integers(1, 40)))
            if not env.agents:
                break
            twin = copy.deepcopy(env) if copy_no % 2 else pickle.loads(pickle.dumps(env))
            positions += 1
            seed = int(rng.integers(2**32))
            horizon = 10_000 if copy_no == COPIES_PER_GAME - 1 else 8  # the last: to the end
            probe = copy.deepcopy(env)
            expected = _aec_trace(probe, np.random.default_rng(seed), horizon)
            assert _aec_trace(twin, np.random.default_rng(seed), horizon) == expected
    assert positions >= COPY_GAMES


@pytest.mark.parametrize(("name", "options"), cases())
def test_parallel_copies_continue_exactly(name, options):
    """Copies under ``random_legal`` with unmasked actions: the env's own generator is copied
    too, so the replacements agree."""
    rng = np.random.default_rng(23)
    for game in range(max(1, COPY_GAMES // 4)):
        par = envs.make_parallel(name, illegal_action="random_legal", **options)
        obs, _ = par.reset(seed=2000 + game)
        for copy_no in range(COPIES_PER_GAME):
            for _ in range(int(rng.integers(1, 40))):
                if not par.agents:
                    break
                obs, *_ = par.step({a: _legal(o["action_mask"], rng) for a, o in obs.items()})
            if not par.agents:
                break
            twin = pickle.loads(pickle.dumps(par)) if copy_no % 2 else copy.deepcopy(par)
            for _ in range(6):
                if not par.agents:
                    break
                actions = {a: int(rng.integers(par.game.num_actions + 1)) for a in par.agents}
                a_out = par.step(actions)
                b_out = twin.step(actions)
                assert repr(a_out) == repr(b_out)
                np.testing.assert_array_equal(par.state(), twin.state())
                obs = a_out[0]


@pytest.mark.parametrize("name", envs.ENVS)
def test_a_saved_state_with_a_key_the_game_does_not_write_is_refused(name):
    """bower and ethnos ignored unknown keys while bauer_trick and bauer_draft refused them: a
    misspelt key loaded as a state without it. Every key a real position writes still loads
    (the saved-state round trips of each game), here at a few random positions."""
    from tests.saved_states import refused

    game = envs.make_game(name)
    rng = np.random.default_rng(5)
    state = game.new_state(5)
    k = 0
    while not state.is_over():
        if k % 25 == 0:
            data = state.to_dict()
            assert game.state_from_dict(data).to_dict() == data
            refused(game, {**data, "extra_key": 1}, "extra_key")
        state.apply({p: _legal(state.legal_mask(p), rng) for p in state.acting_players()})
        k += 1


@pytest.mark.parametrize("name,options", [("bower_v0", {"bonus_tiles": False}),
                                          ("ethnos_v0", {"glory_tokens": "lu"}),
                                          ("bauer_trick_v0", {"episode": "deal"}),
                                          ("bauer_draft_v0", {"num_players": 3})])
def test_a_state_saved_under_other_options_is_refused_not_played_by_other_rules(name, options):
    """bower and ethnos did not record their options: a state saved under bonus_tiles=False
    loaded silently into a default game (tablezoo play --state then played it by the default
    rules). Now every game records them, and the saved options rebuild the game that wrote it."""
    import json

    game = envs.make_game(name, **options)
    data = json.loads(json.dumps(game.new_state(4).to_dict()))  # as a file holds it
    with pytest.raises(StateFormatError):
        envs.make_game(name).state_from_dict(data)
    rebuilt = envs.make_game(name, **data["options"])
    assert rebuilt.options == game.options
    assert json.loads(json.dumps(rebuilt.state_from_dict(data).to_dict())) == data
