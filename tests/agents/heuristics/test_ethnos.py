"""The ethnos heuristic: always legal, hand-checked choices on built positions, and its strength
against random play."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games.ethnos.heuristic import (
    HeuristicAgent,
    View,
    default_game,
    hand_score,
    hand_scores_plus_one,
)
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import KINGDOMS, TRIBES, TYPE_NAMES
from tablezoo.training.evaluation.evaluate import evaluate_seat

ENV = "ethnos_v0"
TYPE = {name.lower(): i for i, name in enumerate(TYPE_NAMES)}
KINGDOM = {name.lower(): i for i, name in enumerate(KINGDOMS)}
TRIBE = {name.lower(): i for i, name in enumerate(TRIBES)}
SIX = ["Dwarves", "Elves", "Giants", "Orcs", "Trolls", "Wizards"]


def ids(names: list[str]) -> list[int]:
    return [TYPE[name.lower()] for name in names]


# ---------------------------------------------------------------------------------------------
# hand-built observations (only the pieces a scenario needs; everything else zero)
# ---------------------------------------------------------------------------------------------
def observation(n: int = 4, *, phase: int = enc.TURN, hand: list[str] = (),
                display: list[str] = (), tribes: list[str] = SIX, age: int = 0,
                tokens: dict[str, list[int]] | None = None,
                markers: dict[int, dict[str, int]] | None = None, horde: list[str] = (),
                dragons: int = 0, deck_size: int = 40, safe_top: int = 20,
                elf_kept: list[str] = (), band_x: int = 0) -> np.ndarray:
    spec = default_game(n).obs_spec
    obs = spec.zeros()
    v = spec.split(obs)
    v["phase"][phase] = 1
    for t in ids(list(hand)):
        v["my_hand"][t] += 1
    for t in ids(list(display)):
        v["display"][t] += 1
    for name in tribes:
        v["tribes_in_play"][TRIBE[name.lower()]] = 1
    v["age"][age] = 1
    v["glory_tokens"][:, :3 if n >= 4 else 2] = [[2, 4, 6]] * 6 if n >= 4 else [[2, 4]] * 6
    for name, values in (tokens or {}).items():
        v["glory_tokens"][KINGDOM[name.lower()], :len(values)] = values
    for seat, per in (markers or {}).items():
        for name, count in per.items():
            v["markers"][seat, KINGDOM[name.lower()]] = count
    for colour in horde:
        v["horde"][0, ("green", "purple", "orange", "grey", "red", "blue").index(colour)] = 1
    v["dragons_revealed"][0] = dragons
    v["deck_size"][0] = deck_size
    v["deck_safe_top"][0] = safe_top
    v["hand_size"][0] = len(hand)
    for t in ids(list(elf_kept)):
        v["my_elf_kept"][t] += 1
    v["band_x"][0] = band_x
    v["acting"][0] = 1
    return obs


def turn_mask(hand: list[str], display: list[str]) -> np.ndarray:
    mask = np.zeros(enc.NUM_ACTIONS, bool)
    if len(hand) < 10:
        mask[enc.RECRUIT_DECK] = True
        for t in ids(display):
            mask[enc.RECRUIT_DISPLAY + t] = True
    for t in ids(hand):
        mask[enc.LEADER + t] = True
    return mask


def mask_of(actions: list[int]) -> np.ndarray:
    mask = np.zeros(enc.NUM_ACTIONS, bool)
    mask[actions] = True
    return mask


# ---------------------------------------------------------------------------------------------
# built engine positions (a fresh deal with the hand replaced, cards conserved)
# ---------------------------------------------------------------------------------------------
def position(n: int, tribes: list[str], hand: list[str], seed: int = 0):
    """A turn-start position where seat 0 acts with ``hand`` (taken out of the deck)."""
    game = envs.make_game(ENV, num_players=n, tribes=tribes)
    d = game.new_state(seed).to_dict()
    for p, old in enumerate(d["hands"]):  # every hand back on top of the deck
        for t, count in enumerate(old):
            d["deck"].extend([t] * count)
        d["hands"][p] = [0] * len(old)
        d["known"][p] = [0] * len(old)
    for t in ids(hand):
        if d["display"][t] > 0:
            d["display"][t] -= 1
        else:
            i = len(d["deck"]) - 1 - d["deck"][::-1].index(t)
            del d["deck"][i]
            if i < d["lower_left"]:
                d["lower_left"] -= 1
        d["hands"][0][t] += 1
    d["hands"][1][d["deck"].pop()] += 1  # everybody else holds one card
    for p in range(2, n):
        d["hands"][p][d["deck"].pop()] += 1
    d["actor"] = d["first_player"] = 0
    return game.state_from_dict(d)


def play_turn(state, agent) -> list[int]:
    """Let ``agent`` play seat 0's whole turn; the actions it chose."""
    chosen = []
    while state.acting_players() == (0,) and not state.is_over():
        a = agent.act(state.observe(0), state.legal_mask(0), state=state, player=0)
        chosen.append(a)
        state.apply({0: a})
        if state.phase == enc.TURN:
            break
    return chosen


# ---------------------------------------------------------------------------------------------
# scenarios
# ---------------------------------------------------------------------------------------------
def test_hand_score_prefers_one_big_group():
    assert hand_score(np.bincount(ids(["red Elf", "red Orc", "red Giant"]), minlength=67)) > \
        hand_score(np.bincount(ids(["red Elf", "blue Orc", "green Giant"]), minlength=67))


def test_hand_scores_plus_one_equal_one_hand_at_a_time():
    """The recruit rule's batched scores are exactly the per-hand scores (ties break alike)."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        hand = rng.multinomial(rng.integers(0, 11), np.full(67, 1 / 67)).astype(np.int64)
        batched = hand_scores_plus_one(hand)
        for t in range(67):
            one_more = hand.copy()
            one_more[t] += 1
            assert batched[t] == hand_score(one_more)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_memoised_marker_values_equal_fresh_ones(n):
    """The marker values shared across observations equal the award computed afresh, over the
    positions of seeded games with every player count sharing one memo."""
    game = envs.make_game(ENV, num_players=n)
    agent = HeuristicAgent(seed=1)
    for seed in range(3):
        state = game.new_state(seed)
        agent.reset(seed)
        while not state.is_over():
            p = state.acting_players()[0]
            obs, mask = state.observe(p), state.legal_mask(p)
            v = View(game, obs)
            for k in range(len(KINGDOMS)):
                fresh = agent._award_gain(v, v.markers[:, k].tolist(),
                                          v.tokens[k, :game.slots_per_kingdom].tolist())
                assert agent.marker_value(v, k) == fresh
            state.apply({p: agent.act(obs, mask, state=state, player=p)})


@pytest.mark.parametrize("n", [2, 4, 6])
def test_view_reads_the_pieces_the_observation_spec_names(n):
    """``View`` reads its pieces at places worked out once per layout; every field equals the
    piece read by name through the observation spec, over every position of seeded games
    (terminal observations included: their phase is all zeros)."""
    game = envs.make_game(ENV, num_players=n)
    spec = game.obs_spec
    agent = HeuristicAgent(seed=2)
    arrays = {"hand": "my_hand", "display": "display", "tokens": "glory_tokens",
              "troll_supply": "troll_supply", "markers": "markers", "track": "merfolk_track",
              "horde": "horde", "hand_sizes": "hand_size", "band_cards": "band_cards",
              "known": "known_hand", "building": "my_building", "elf_kept": "my_elf_kept"}
    scalars = {"dragons": "dragons_revealed", "deck_size": "deck_size",
               "safe_top": "deck_safe_top", "giant_size": "giant_band_size", "band_x": "band_x"}
    leaders_seen = 0
    for seed in range(2):
        state = game.new_state(seed)
        agent.reset(seed)
        while True:
            for p in range(n):
                obs = state.observe(p)
                v = View(game, obs)
                for attr, name in arrays.items():
                    np.testing.assert_array_equal(getattr(v, attr), spec.view(obs, name))
                for attr, name in scalars.items():
                    assert getattr(v, attr) == int(spec.view(obs, name)[0])
                assert v.tribes == np.flatnonzero(spec.view(obs, "tribes_in_play")).tolist()
                assert v.age == int(np.argmax(spec.view(obs, "age")))
                assert v.phase == int(np.argmax(spec.view(obs, "phase")))
                leader = spec.view(obs, "my_building_leader")
                assert v.building_leader == (int(np.argmax(leader)) if leader.any() else -1)
                leaders_seen += v.building_leader >= 0
            if state.is_over():
                break
            p = state.acting_players()[0]
            state.apply({p: agent.act(state.observe(p), state.legal_mask(p), state=state,
                                      player=p)})
    assert leaders_seen > 0  # the band-building branch was read too


def test_plays_a_five_card_colour_band_whole():
    hand = ["blue Elf", "blue Orc", "blue Wizard", "blue Giant", "blue Troll", "red Dwarf"]
    state = position(4, SIX, hand)
    chosen = play_turn(state, HeuristicAgent(seed=0, play_size=5))
    assert enc.LEADER <= chosen[0] < enc.ADD_CARD
    assert enc.FINISH_BAND in chosen
    band = state.bands[0][0]
    assert sorted(band) == sorted(ids(hand[:5]))  # every blue card, not the red Dwarf
    assert state.markers[0, KINGDOM["straton"]] == 1  # X = 5 > 0 own markers in Straton


def test_recruits_below_the_play_size():
    hand = ["blue Elf", "blue Orc", "red Dwarf"]
    state = position(4, SIX, hand)
    chosen = play_turn(state, HeuristicAgent(seed=0, play_size=5, play_value=None))
    assert chosen[0] <= enc.RECRUIT_DECK
    assert state.bands[0] == []


def test_recruits_the_display_card_that_grows_its_group():
    hand, display = ["red Elf", "red Giant"], ["red Orc", "green Dwarf"]
    obs = observation(hand=hand, display=display)
    a = HeuristicAgent(seed=0, play_value=None).act(obs, turn_mask(hand, display))
    assert a == enc.RECRUIT_DISPLAY + TYPE["red orc"]


def test_plays_a_small_band_when_the_age_is_about_to_end():
    hand, display = ["green Elf", "green Orc", "green Giant"], ["red Orc"]
    agent = HeuristicAgent(seed=0, play_size=5, play_value=None)
    calm = observation(hand=hand, display=display, dragons=1, deck_size=30, safe_top=10)
    assert agent.act(calm, turn_mask(hand, display)) < enc.LEADER  # keeps collecting
    # two Dragons out, nothing known to be Dragon-free: the hand would be lost
    risky = observation(hand=hand, display=display, dragons=2, deck_size=4, safe_top=0)
    assert agent.act(risky, turn_mask(hand, display)) in [enc.LEADER + t for t in ids(hand)]


def test_plays_a_pair_that_wins_a_rich_kingdom_but_not_a_poor_one():
    hand, display = ["red Elf", "red Orc"], ["green Dwarf", "blue Giant"]
    rich = {k: [0, 0, 0] for k in KINGDOMS}
    rich["Rhea"] = [10, 10, 10]
    agent = HeuristicAgent(seed=0)  # play_value=6: a pair scores 1, the Rhea majority 10
    a = agent.act(observation(hand=hand, display=display, tokens=rich), turn_mask(hand, display))
    assert a in [enc.LEADER + t for t in ids(hand)]
    poor = {k: [0, 0, 0] for k in KINGDOMS}
    a = agent.act(observation(hand=hand, display=display, tokens=poor), turn_mask(hand, display))
    assert a <= enc.RECRUIT_DECK


def test_must_play_with_ten_cards_and_leads_the_biggest_group():
    hand = ["green Elf", "green Orc", "green Giant", "green Dwarf", "green Troll",
            "red Wizard", "purple Wizard", "orange Wizard", "grey Elf", "blue Troll"]
    a = HeuristicAgent(seed=0, play_size=7).act(observation(hand=hand), turn_mask(hand, []))
    assert enc.LEADER <= a < enc.ADD_CARD
    assert TYPE_NAMES[a - enc.LEADER].startswith("green")


def test_merfolk_marker_goes_where_it_wins_a_majority():
    tokens = {k: [0, 0, 2] for k in KINGDOMS}
    tokens["Straton"] = [6, 8, 10]
    obs = observation(phase=enc.MERFOLK_PICK, tokens=tokens, tribes=["Merfolk", *SIX[1:]],
                      markers={0: {"Straton": 1}, 1: {"Straton": 1}})
    a = HeuristicAgent(seed=0).act(obs, mask_of(list(range(enc.KINGDOM, enc.TROLL))))
    assert a == enc.KINGDOM + KINGDOM["straton"]


def test_wingfolk_choice_stays_inside_the_legal_kingdoms():
    obs = observation(phase=enc.WINGFOLK_PICK, band_x=2,
                      tribes=["Wingfolk", *SIX[1:]], markers={0: {"Duris": 2, "Rhea": 1}})
    legal = [enc.KINGDOM + k for k in range(6) if k != KINGDOM["duris"]]
    for seed in range(10):
        assert HeuristicAgent(seed=seed).act(obs, mask_of(legal)) in legal


def test_troll_takes_the_highest_token():
    obs = observation(phase=enc.TROLL_PICK, band_x=4)
    legal = [enc.TROLL + 0, enc.TROLL + 1, enc.TROLL + 3]
    assert HeuristicAgent(seed=0).act(obs, mask_of(legal)) == enc.TROLL + 3


def test_elf_keeps_the_card_that_joins_its_group():
    obs = observation(phase=enc.ELF_PICK, hand=["red Orc", "blue Orc"], elf_kept=["blue Elf"],
                      band_x=3)
    legal = [enc.ELF_KEEP + t for t in ids(["red Orc", "blue Orc"])] + [enc.ELF_DONE]
    assert HeuristicAgent(seed=0).act(obs, mask_of(legal)) == enc.ELF_KEEP + TYPE["blue orc"]


def test_centaur_follows_up_and_wizard_draws():
    hand = ["red Orc", "red Troll"]
    obs = observation(phase=enc.CENTAUR_PICK, hand=hand, tribes=["Centaurs", *SIX[1:]])
    legal = [enc.LEADER + t for t in ids(hand)] + [enc.CENTAUR_STOP]
    assert HeuristicAgent(seed=0).act(obs, mask_of(legal)) != enc.CENTAUR_STOP
    obs = observation(phase=enc.WIZARD_PICK, band_x=3)
    assert HeuristicAgent(seed=0).act(obs, mask_of([enc.WIZARD_DRAW, enc.WIZARD_SKIP])) == \
        enc.WIZARD_DRAW


@pytest.mark.parametrize("age, horde, want", [
    (0, ["red", "blue"], enc.ORC_KEEP),  # the horde table is convex: keep growing it
    (2, ["red", "blue"], enc.ORC_EMPTY),  # the last Age: markers left would score nothing
    (1, ["green", "purple", "orange", "grey", "red", "blue"], enc.ORC_EMPTY),  # full horde
])
def test_orc_horde_keeps_until_the_last_age_or_a_full_horde(age, horde, want):
    obs = observation(phase=enc.ORC_PICK, age=age, horde=horde)
    assert HeuristicAgent(seed=0).act(obs, mask_of([enc.ORC_EMPTY, enc.ORC_KEEP])) == want


# ---------------------------------------------------------------------------------------------
# legality, determinism, information
# ---------------------------------------------------------------------------------------------
OPTION_SETS = [dict(v) for v in envs.VARIANTS[ENV]] + [
    {"num_players": 3, "tribes_2_3p": 6, "empty_display_draw_two": True},
    {"num_players": 4, "centaur_requires_marker": True, "marker_limit": 26,
     "tribes": ["Centaurs", "Merfolk", "Wingfolk", "Orcs", "Skeletons", "Elves"]},
    {"num_players": 5, "auto_single_choice": True, "orc_auto_empty_final_age": True,
     "tribes": ["Giants", "Trolls", "Wizards", "Minotaurs", "Halflings", "Dwarves"]},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in
                                                                           o.items()))
def test_always_legal_over_many_positions(options):
    """Heuristic seats play, random seats mix the positions up; the heuristic is asked at every
    decision of every seat (also where a random seat then moves)."""
    game = envs.make_game(ENV, **options)
    n = game.num_players
    rng = np.random.default_rng(7)
    agent = HeuristicAgent(seed=3)
    phases = set()
    for g in range(2):
        state = game.new_state(100 + g)
        heuristic_seats = {1} if g == 0 else set(range(n))  # the second game is self-play
        while not state.is_over():
            (p,) = state.acting_players()
            mask = state.legal_mask(p).copy()
            obs = state.observe(p)
            a = agent.act(obs, mask, state=state, player=p)
            assert type(a) is int
            assert mask[a], f"illegal {game.action_name(a)} in phase {enc.PHASES[state.phase]}"
            phases.add(state.phase)
            if p not in heuristic_seats:
                a = int(rng.choice(np.flatnonzero(mask)))
            state.apply({p: a})
    assert {enc.TURN, enc.BUILD} <= phases


def test_parallel_env_waiting_seats_answer_noop():
    env = envs.make_parallel(ENV, num_players=3)
    observations, _ = env.reset(seed=0)
    agents = {name: HeuristicAgent(seed=i) for i, name in enumerate(env.possible_agents)}
    noops = 0
    for _ in range(60):
        actions = {}
        for name in env.agents:
            mask = observations[name]["action_mask"]
            a = agents[name].act(observations[name]["observation"], mask)
            assert mask[a]
            noops += a == enc.NUM_ACTIONS
            actions[name] = a
        observations, *_ = env.step(actions)
        if not env.agents:
            break
    assert noops > 0


def test_seeded_and_blind_to_hidden_information():
    """Same seed, same choices; and the engine state adds nothing to the observation (the
    agent answers the same with ``state=None`` and on a determinized copy of the state)."""
    game = envs.make_game(ENV, num_players=4)
    state = game.new_state(5)
    rng = np.random.default_rng(0)
    first, second, blind = HeuristicAgent(seed=1), HeuristicAgent(seed=1), HeuristicAgent(seed=1)
    for _ in range(400):
        if state.is_over():
            break
        (p,) = state.acting_players()
        mask, obs = state.legal_mask(p).copy(), state.observe(p)
        a = first.act(obs, mask, state=state, player=p)
        other = state.determinize(p, rng)
        assert second.act(other.observe(p), other.legal_mask(p), state=other, player=p) == a
        assert blind.act(obs, mask) == a
        state.apply({p: a})


def test_registered_for_ethnos():
    agent = make_agent("heuristic", env_name=ENV, seed=0, play_size=4)
    assert isinstance(agent, HeuristicAgent) and agent.play_size == 4
    with pytest.raises(ValueError):
        HeuristicAgent(play_size=0)


# ---------------------------------------------------------------------------------------------
# strength
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players, games", [(2, 40), (4, 48)])
def test_beats_random_play(num_players, games):
    # Measured with the same setup over 200 games per player count 2-6 (seat rotating, every
    # other seat random): 200/200 wins each, mean rank reward +1.00 (Wilson 95% interval of the
    # win rate [0.98, 1.00]). The 95% interval of the mean rank reward must lie above 0.
    from tablezoo.training.evaluation.stats import summarize

    game = envs.make_game(ENV, num_players=num_players)
    rewards = evaluate_seat(game, lambda seed: HeuristicAgent(seed=seed),
                            lambda seed: make_agent("random", seed=seed),
                            lambda seed: make_agent("random", seed=seed), games=games, seed=0)
    summary = summarize(rewards)
    assert summary.mean_reward.low > 0.0, str(summary.mean_reward)
    assert summary.win.value > 0.8
