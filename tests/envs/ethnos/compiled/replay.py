"""Replay check: ethnos' compiled batched engine against the AEC env, decision by decision.

``python -m tests.envs.ethnos.compiled.replay --games 10000`` runs the games over every variant
(``variants()``: each player count of the record's ``VARIANTS`` with the default options, then
every other value of every option, each with a player count in turn) and prints per variant the
decisions and games compared. ``test_replay.py`` runs the same on fewer games.

How: each slot of a batched env (``make_vector``) is paired with one AEC env. A slot starts from
a position reached by random play in the Python engine (anywhere in a game), loaded into the AEC
env (``reset(options={"state": ...})``) and into the slot (``set_state``, as a ``State`` or as
its ``to_dict()`` in turn). Then both play the same random legal actions: at every decision
they must agree on the acting seat, the observation and the legal mask (bit for bit; the AEC
env's mask has NOOP last, never legal for the acting seat), and after every step on each seat's
reward and on ``terminated`` / ``truncated``, so on the rewards at the end of each game.

A new Age deals its cards at random in both engines, each from its own generator. So when an
Age ends without ending the game, the slot's new position (``get_state``) is first compared with
the Python engine's in everything but the cards (every score of the Age's end, the first player,
Orc horde choices, markers, glory, breakdown, decision count, ...), and then the Python engine's
freshly dealt position is loaded into the slot (``set_state``) and the comparison goes on. When a
game ends, the slot's autoreset game must be a fresh one (Age I, no decision, no glory, no band,
one card in each hand); the slot then takes the next random position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import tablezoo.envs as tz
from tablezoo.envs.core.spec import spec_named
from tablezoo.envs.ethnos import EthnosGame
from tablezoo.envs.ethnos.compiled import make_vector
from tests.envs.vector.compiled_checks import (
    assert_same_decision,
    assert_same_outcome,
    replay_parser,
    replay_variants,
)

# what differs between two engines' fresh Ages: the cards and the generator
CARD_FIELDS = ("hands", "display", "deck", "rng", "history")

# every option's other values (the defaults are the record's VARIANTS)
OTHER_OPTIONS: tuple[dict[str, Any], ...] = (
    {"tribes": ["Centaurs", "Elves", "Merfolk", "Trolls", "Wizards", "Skeletons"]},
    {"tribes": ["Dwarves", "Giants", "Halflings", "Minotaurs", "Orcs", "Wingfolk"]},
    {"tribes_2_3p": 6},
    {"glory_tokens": "lu"},
    {"band_glory": [1, 2, 4, 7, 11, 16], "orc_glory": [1, 3, 6, 10, 15, 20]},
    {"merfolk_spaces": [2, 5, 9], "merfolk_end": 10, "merfolk_slots_4_6": [2, 3, 5],
     "merfolk_slots_2_3": [2, 4]},
    {"merfolk_marker_per_space": False},
    {"giant_bonus_4_6": [1, 3, 5], "giant_bonus_2_3": [3, 7], "giant_claim_glory": 0},
    {"giant_troll_tiebreak": False},
    {"centaur_requires_marker": True},
    {"troll_tiebreak": "rulebook"},
    {"two_player_tie": "i_plus_ii", "two_player_rule_merfolk": False},
    {"marker_limit": 26},
    {"marker_limit": 6},
    {"orc_auto_empty_final_age": True},
    {"empty_display_draw_two": True},
    {"auto_single_choice": True},
    {"reward": "score"},
    {"reward": "margin"},
    {"max_decisions": 120},
)
TWO_PLAYER_ONLY = ("two_player_tie",)  # options that matter only with 2 players


def variants() -> list[dict[str, Any]]:
    """The record's variants, then every other option value with a player count in turn."""
    out = [dict(v) for v in spec_named("ethnos").variants]
    for k, options in enumerate(OTHER_OPTIONS):
        if any(name in options for name in TWO_PLAYER_ONLY):
            n = 2
        elif "tribes_2_3p" in options:
            n = 2 + k % 2
        elif "tribes" in options:
            n = 4 + k % 3
        else:
            n = 2 + k % 5
        out.append({"num_players": n, **options})
    return out


@dataclass
class Counts:
    decisions: int = 0
    games: int = 0
    terminated: int = 0
    truncated: int = 0
    ages_reloaded: int = 0


def random_position(game: EthnosGame, rng: np.random.Generator, most: int = 400):
    """A position reached by random play from a fresh game, not over."""
    while True:
        state = game.new_state(int(rng.integers(2**63 - 1)))
        for _ in range(int(rng.integers(0, most + 1))):
            p = state.acting_players()
            if not p:
                break
            state.apply({p[0]: int(rng.choice(np.flatnonzero(state.legal_mask(p[0]))))})
        if state.acting_players():
            return state


def without_cards(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in CARD_FIELDS}


def replay(options: dict[str, Any], games: int, batch: int = 32, seed: int = 0) -> Counts:
    """Compare ``games`` games of ``options`` (see the module); an ``AssertionError`` says where
    the engines differ."""
    game = EthnosGame(**options)
    n = game.num_players
    rng = np.random.default_rng(seed)
    venv = make_vector(batch, seed=seed, **options)
    venv.reset()
    envs = [tz.make("ethnos_v0", **options) for _ in range(batch)]
    counts = Counts()
    active = [False] * batch
    ages = [0] * batch
    loads = 0

    def load(i: int) -> None:
        nonlocal loads
        state = random_position(game, rng)
        envs[i].reset(options={"state": state.to_dict()})
        venv.set_state(i, state if loads % 2 else state.to_dict())
        loads += 1
        active[i] = True
        ages[i] = state.age

    for i in range(min(batch, games)):
        load(i)
    started = sum(active)
    obs, mask, seat = venv.observe()
    while any(active):
        for i in np.flatnonzero(active):
            env = envs[i]
            where = f"{options} slot {i} decision {env.game_state.decisions}"
            assert_same_decision(env, obs[i], mask[i], seat[i], where)
            counts.decisions += 1
        actions = np.argmax(mask + rng.random(mask.shape), axis=1)
        obs, mask, seat, rewards, terminated, truncated = venv.step(actions)
        for i in np.flatnonzero(active):
            env = envs[i]
            env.step(int(actions[i]))
            where = f"{options} slot {i} after decision {env.game_state.decisions}"
            assert_same_outcome(env, rewards[i], terminated[i], truncated[i], where)
            state = env.game_state
            if terminated[i] or truncated[i]:
                counts.games += 1
                counts.terminated += int(terminated[i])
                counts.truncated += int(truncated[i])
                fresh = venv.get_state(i)
                assert (fresh.age, fresh.decisions, fresh.glory.tolist(), fresh.bands,
                        fresh.hand_len, fresh.returns()) == (
                    0, 0, [0.0] * n, [[] for _ in range(n)], [1] * n, [0.0] * n), \
                    f"{where}: not fresh"
                if started < games:
                    load(i)
                    started += 1
                else:
                    active[i] = False
            elif state.age != ages[i]:  # a new Age of the same game
                ages[i] = state.age
                mine = without_cards(venv.get_state(i).to_dict())
                assert mine == without_cards(state.to_dict()), f"{where}: the next Age differs"
                venv.set_state(i, state)
                counts.ages_reloaded += 1
        if any(active):
            obs, mask, seat = venv.observe()
    return counts


def summary(c: Counts) -> str:
    """One variant's line of the replay."""
    return (f"{c.games} games ({c.terminated} terminated, {c.truncated} truncated), "
            f"{c.decisions} decisions, {c.ages_reloaded} Ages reloaded")


def replay_all(games: int, batch: int = 32, seed: int = 0, out=print) -> dict[str, Counts]:
    """``games`` games spread evenly over ``variants()``; one line per variant to ``out``."""
    return replay_variants(variants(), replay, summary, games, batch, seed, out)


def main(argv: list[str] | None = None) -> None:
    args = replay_parser(__doc__).parse_args(argv)
    replay_all(args.games, args.batch, args.seed)


if __name__ == "__main__":
    main()
