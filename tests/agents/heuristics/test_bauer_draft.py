"""The bauer_draft heuristic: always legal, right on built positions, better than random."""

from __future__ import annotations

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.agents.games.bauer_draft.heuristic import (
    Evaluator,
    HeuristicAgent,
    journey_curve,
    theme_curve,
)
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.bauer_draft.actions import (
    COPY,
    DISCARD,
    KINDS,
    NO_VILLE,
    NUM_ACTIONS,
    PLAY,
    WITCH_RIGHT,
)
from tablezoo.envs.bauer_draft.components import CARDS, CHARACTER
from tablezoo.training.evaluation.tournament import run_tournament

ENV = "bauer_draft_v0"


def idx(code: str) -> int:
    return CARDS.index_of_code[code]


def build(n: int, *, round: int, tableau: dict[int, list[str]], hands: dict[int, list[str]] | None
          = None, kind: str = "select", **fields):
    """A position from a few named cards: seat hands (select: 3 plain filler cards for seats not
    named), tableaux (played in an earlier round), every other card in the piles and the central
    deck (plain cards on top, characters at the bottom)."""
    game = envs.make_game(ENV, num_players=n)
    hands = {s: list(h) for s, h in (hands or {}).items()}
    named = [c for h in hands.values() for c in h] + [c for t in tableau.values() for c in t]
    named += [c for t in fields.get("pile_tops", {}).values() for c in t]
    assert len(set(named)) == len(named)
    plain = [c for c in CARDS.codes if c not in named and CARDS[idx(c)].kind != CHARACTER]
    chars = [c for c in CARDS.codes if c not in named and CARDS[idx(c)].kind == CHARACTER]
    if kind in ("select", "select_ville"):
        for s in range(n):
            if s not in hands:
                hands[s] = [plain.pop() for _ in range(3)]
    pile_tops = fields.pop("pile_tops", {})
    pile_len = max(0, game.pile_size - 3 - round)
    piles = []
    for s in range(n):
        top = list(pile_tops.get(s, []))
        rest = [plain.pop() for _ in range(pile_len - len(top))]
        piles.append(rest + top[::-1])
    data = {"round": round, "kind": kind, "hands": [hands.get(s, []) for s in range(n)],
            "piles": piles, "central": chars + plain,
            "tableau": [tableau.get(s, []) for s in range(n)], **fields}
    return game.state_from_dict(data)


def decide(state, seat: int = 0, seed: int = 0) -> int:
    action = HeuristicAgent(seed=seed).act(state.observe(seat), state.legal_mask(seat),
                                           state=state, player=seat)
    assert state.legal_mask(seat)[action]
    return action


# --- always legal --------------------------------------------------------------------------
@pytest.mark.parametrize("options", envs.VARIANTS[ENV], ids=lambda o: f"n{o['num_players']}")
def test_always_legal_in_random_positions(options):
    """Random play mixed with heuristic play reaches every decision kind; every answer is legal."""
    game = envs.make_game(ENV, **options)
    agent = HeuristicAgent(seed=1)
    kinds = set()
    for g in range(40):
        state = game.new_state(1000 + g)
        rng = np.random.default_rng(g)
        while not state.is_terminal():
            joint = {}
            for p in state.acting_players():
                mask = state.legal_mask(p)
                if rng.random() < 0.6:
                    a = agent.act(state.observe(p), mask, state=state, player=p)
                    assert mask[a], f"{KINDS[state.kind]}: illegal {game.action_name(a)}"
                    kinds.add(KINDS[state.kind])
                else:
                    legal = np.flatnonzero(mask)
                    a = int(legal[rng.integers(legal.size)])
                joint[p] = a
            state.apply(joint)
    assert {"select", "select_ville", "copy_choice", "olle", "daga", "witch"} <= kinds


def test_every_decision_kind_through_saved_positions():
    """Positions saved from seeded random games, one per decision kind met, answered legally."""
    game = envs.make_game(ENV, num_players=4)
    agent = HeuristicAgent(seed=2)
    seen = set()
    for g in range(150):
        state = game.new_state(g)
        rng = np.random.default_rng(g)
        while not state.is_terminal():
            if state.kind not in seen:
                seen.add(state.kind)
                loaded = game.state_from_dict(state.to_dict())
                for p in loaded.acting_players():
                    mask = loaded.legal_mask(p)
                    assert mask[agent.act(loaded.observe(p), mask, state=loaded, player=p)]
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))
                         for p in state.acting_players()})
    assert len(seen) >= 10  # select, Ville, Witch, Olle, Yule, Daga, copies, ... (martin is rare)


def test_parallel_env_waiting_seats_noop_and_legal_actions():
    env = envs.make_parallel(ENV, num_players=3)
    agents = {a: make_agent("heuristic", env_name=ENV, seed=i)
              for i, a in enumerate(env.possible_agents)}
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        noops = 0
        while env.agents:
            actions = {}
            for a in env.agents:
                mask = obs[a]["action_mask"]
                actions[a] = agents[a].act(obs[a]["observation"], mask)
                assert mask[actions[a]]
                noops += actions[a] == NUM_ACTIONS
            obs, *_ = env.step(actions)
        assert noops > 0


def test_noop_only_mask_returns_noop():
    mask = np.zeros(NUM_ACTIONS + 1, np.int8)
    mask[NUM_ACTIONS] = 1
    obs = np.zeros(envs.make_game(ENV, num_players=4).obs_spec.size, np.float32)
    assert HeuristicAgent(seed=0).act(obs, mask) == NUM_ACTIONS


def test_same_seed_same_game():
    game = envs.make_game(ENV, num_players=4)

    def replay(seed: int) -> list[float]:
        from tablezoo.training.evaluation.match import play_game

        agents = [make_agent("heuristic", env_name=ENV) for _ in range(4)]
        return play_game(game, agents, seed).scores

    assert replay(7) == replay(7)


# --- the estimate ---------------------------------------------------------------------------
def test_curves():
    assert [journey_curve(x) for x in range(7)] == [0, 1, 3, 7, 12, 18, 22]
    assert journey_curve(2.5) == 5.0
    assert theme_curve(5) == 5 and theme_curve(4) == 4 and theme_curve(2) == 0.5


def test_estimate_is_the_final_score_when_no_rounds_remain():
    """In the last round, E of a holding is its real score (Dangers against visible swords)."""
    state = build(3, round=9, tableau={0: ["J01", "J02", "J03", "E09", "D04", "N04"],
                                       1: ["D07"], 2: ["D01"]})
    obs = state.game.obs_spec.split(state.observe(0))
    ev = Evaluator(obs, state.game.num_rounds)
    # Journeys 7, Event 4, Dangers second (2 vs 3 vs 1) 6, King Death 2 swords, no theme >= 4
    assert ev(ev.mine) == pytest.approx(7 + 4 + 6 + 2)


# --- built positions where the right choice is clear by hand ----------------------------------
def test_takes_the_fifth_journey():
    # four Journeys: the fifth is worth 6 (12 -> 18), the Events 3 and 1
    state = build(3, round=5, tableau={0: ["J01", "J02", "J03", "J04"]},
                  hands={0: ["J05", "E07", "E01"]})
    assert decide(state) == PLAY + idx("J05")


def test_takes_the_danger_that_wins_first_place_in_the_last_round():
    # last round: opponents have 3 swords each, I have 2; 2 more swords win 12 points alone
    state = build(3, round=9, tableau={0: ["D04"], 1: ["D07"], 2: ["D08"]},
                  hands={0: ["E09", "D06", "J08"]})
    assert decide(state) == PLAY + idx("D06")


def test_bella_copies_the_best_event_in_the_last_round():
    state = build(3, round=9, tableau={0: ["E01", "E09", "C09"]}, kind="copy_choice",
                  decider=0, source="C09")
    assert decide(state) == COPY + idx("E09")


def ville_step(tableau: list[str], hand: list[str]):
    """Last round, seat 0 selected ``hand[0]`` and may now use Ville (from an earlier round)."""
    others = {1: ["E01", "E04", "E05"], 2: ["E03", "J06", "J07"]}
    return build(3, round=9, tableau={0: tableau}, hands={0: hand, **others},
                 kind="select_ville", decider=0, source="C07",
                 selected=[[[hand[0], False]], [["E01", False]], [["E03", False]]])


def test_uses_ville_when_his_quest_is_out_of_reach():
    # no K/P/T tag: Ville's quest scores nothing, a second Event scores 3
    assert decide(ville_step(["C07"], ["E09", "E08", "E02"])) == PLAY + idx("E08")


def test_keeps_ville_when_his_quest_is_complete():
    # J01 (W K T) + J08 (P) complete Ville's quest K P T (5 points); E06 is worth 2
    assert decide(ville_step(["C07", "J01", "J08"], ["E09", "E06", "NJ1"])) == NO_VILLE


def test_witch_brings_the_good_cards_i_passed_back():
    # I passed E09 and E07 onto seat 1's pile: moving the piles right puts that pile before me
    state = build(3, round=3, tableau={0: ["C02"]}, kind="witch", decider=0, source="C02",
                  pile_tops={1: ["E09", "E07"]}, memory=[{"E09": 1, "E07": 1}, {}, {}],
                  tracked=[{"E09": "exact", "E07": "exact"}, {}, {}])
    assert decide(state) == WITCH_RIGHT


def test_daga_discards_a_worthless_card_for_two_central_cards():
    # last round: Wing Mother with no tags is worth 0; two central cards are worth more
    state = build(3, round=9, tableau={0: ["E09", "N02", "C05"]}, kind="daga", decider=0,
                  source="C05")
    assert decide(state) == DISCARD + idx("N02")


# --- strength ---------------------------------------------------------------------------------
def test_beats_random_in_a_seeded_tournament():
    """Seeded duplicate tournament, 4 players, seats mixed between the two agents. Measured
    (seed 0, 800 games): heuristic +0.52 [+0.48, +0.55]; here 120 games (240 heuristic seats):
    +0.54 [+0.48, +0.60]."""
    game = envs.make_game(ENV, num_players=4)
    names = ["random", "heuristic"]
    rows = run_tournament(game, names, [factory_from_spec(n, ENV) for n in names],
                          games=120, seed=0)
    by_name = {row["agent"]: row for row in rows}
    assert by_name["heuristic"]["mean_reward_low"] > 0.0
    assert by_name["random"]["mean_reward_high"] < 0.0


def test_reads_only_the_observation_state_or_not():
    """With or without the engine state the agent answers the same (it reads its observation)."""
    game = envs.make_game(ENV, num_players=4)
    for g in range(5):
        state = game.new_state(g)
        rng = np.random.default_rng(g)
        while not state.is_terminal():
            for p in state.acting_players():
                obs, mask = state.observe(p), state.legal_mask(p)
                with_state = HeuristicAgent(seed=g).act(obs, mask, state=state, player=p)
                assert HeuristicAgent(seed=g).act(obs, mask) == with_state
            state.apply({p: int(rng.choice(np.flatnonzero(state.legal_mask(p))))
                         for p in state.acting_players()})


def test_weights_are_agent_keywords():
    agent = make_agent("heuristic", env_name=ENV, seed=0, journey_rate=0.3, denial=0.5)
    assert agent.weights.journey_rate == 0.3 and agent.denial == 0.5
