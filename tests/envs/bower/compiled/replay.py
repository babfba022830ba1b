"""Replay check: bower's compiled batched engine against the AEC env, decision by decision.

``python -m tests.envs.bower.compiled.replay --games 10000`` runs the games over ``variants()``
(the record's ``variants``, every other value of every option on its own, and mixes of many
options) and prints per variant the decisions and games compared. ``test_replay.py`` runs the
same on fewer games.

How: each slot of a batched env (``make_vector``) is paired with one AEC env. A slot starts from
a position reached by random play in the Python engine (anywhere from the opening draft to the
last turns), loaded into the AEC env (``reset(options={"state": ...})``) and into the slot
(``set_state``, as a ``State`` or as its ``to_dict()`` in turn). Then both play the same random
legal actions: at every decision they must agree on the acting seat, the observation and the
legal mask (bit for bit; the AEC env's mask has NOOP last, never legal for the acting seat), and
after every step on each seat's reward and on ``terminated``, so on the rewards at the end of
every game. Every few decisions the slot's whole position (``get_state``) must also be the AEC
env's (the generator and the event record aside).

Randomness: the two engines draw from different generators. Draws from the nest stack and the
bonus deck follow the loaded order, so they agree; a bonus draw from an empty deck shuffles the
discard pile, each engine its own way. So after such a reshuffle the slot's position is first
compared with the AEC env's in everything but the deck's order (the tiles drawn and left, as
sets), and then the AEC env's position is loaded into the slot and the comparison goes on. When
a game ends, the slot's autoreset game must be a fresh one (the draft, no decision, empty nests
and hands); the slot then takes the next random position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import tablezoo.envs as tz
from tablezoo.envs.bower import BowerGame
from tablezoo.envs.bower.actions import PHASES
from tablezoo.envs.bower.compiled import make_vector
from tablezoo.envs.bower.rules import OPTIONS
from tablezoo.envs.bower.spec import SPEC
from tests.envs.vector.compiled_checks import (
    assert_same_decision,
    assert_same_outcome,
    replay_parser,
    replay_variants,
)

LOCAL = ("rng", "history")  # not compared: each engine's generator; the slots keep no events
PILE = ("bonus_deck", "bonus_drawn")  # a reshuffle orders these differently in the two engines


def variants() -> list[dict[str, Any]]:
    """The record's variants, each option's other values alone, then mixes of many options."""
    out = [dict(v) for v in SPEC.variants]
    for option in OPTIONS:
        for value in option.allowed:
            if value != option.default:
                out.append({option.name: value})
    rng = np.random.default_rng(57)
    for _ in range(6):
        out.append({o.name: o.allowed[int(rng.integers(len(o.allowed)))] for o in OPTIONS})
    unique = {repr(v): v for v in out}
    return list(unique.values())


@dataclass
class Counts:
    decisions: int = 0
    games: int = 0
    reshuffles: int = 0
    positions: int = 0  # whole positions compared
    phases: list[int] = field(default_factory=lambda: [0] * len(PHASES))  # decisions by kind


def random_position(game: BowerGame, rng: np.random.Generator, short_deck: bool = False):
    """A position reached by random play from a fresh game, not over. ``short_deck``: all but
    0-3 tiles of its bonus deck then go to the discard pile (as after many draws; random play
    rarely draws 7 times in a game), so that the next draws reshuffle."""
    while True:
        state = game.new_state(int(rng.integers(2**63 - 1)))
        for _ in range(int(rng.integers(0, 60))):
            state.step(int(rng.choice(state.legal_actions(state.actor))))
            if state.is_over():
                break
        if state.is_over():
            continue
        if not short_deck or not game.options["bonus_tiles"]:
            return state
        data = state.to_dict()
        deck = data["bonus_deck"]
        moved = deck[:max(0, len(deck) - int(rng.integers(0, 4)))]
        data["bonus_deck"] = deck[len(moved):]
        data["bonus_discard"] += [[b, int(rng.integers(2))] for b in moved]
        del data["history"]
        return game.state_from_dict(data)


def _comparable(data: dict[str, Any], drop: tuple[str, ...] = ()) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in LOCAL + drop}


def replay(options: dict[str, Any], games: int, batch: int = 32, seed: int = 0) -> Counts:
    """Compare ``games`` games of ``options`` (see the module); an ``AssertionError`` says where
    the engines differ."""
    game = BowerGame(**options)
    rng = np.random.default_rng(seed)
    venv = make_vector(batch, seed=seed, **options)
    venv.reset()
    envs = [tz.make("bower_v0", **options) for _ in range(batch)]
    counts = Counts()
    active = [False] * batch
    loads = 0

    def load(i: int) -> None:
        nonlocal loads
        state = random_position(game, rng, short_deck=loads % 3 == 2)
        envs[i].reset(options={"state": state.to_dict()})
        venv.set_state(i, state if loads % 2 else state.to_dict())
        loads += 1
        active[i] = True

    for i in range(min(batch, games)):
        load(i)
    started = sum(active)
    obs, mask, seat = venv.observe()
    while any(active):
        for i in np.flatnonzero(active):
            env = envs[i]
            where = f"{options} slot {i} decision {env.game_state.decisions}"
            assert_same_decision(env, obs[i], mask[i], seat[i], where)
            if counts.decisions % 5 == 0:
                mine = _comparable(venv.get_state(i).to_dict())
                assert mine == _comparable(env.game_state.to_dict()), f"{where}: positions differ"
                counts.positions += 1
            counts.decisions += 1
            counts.phases[env.game_state.phase] += 1
        decks = [len(env.game_state.bonus_deck) for env in envs]
        actions = np.argmax(mask + rng.random(mask.shape), axis=1)
        obs, mask, seat, rewards, terminated, truncated = venv.step(actions)
        for i in np.flatnonzero(active):
            env = envs[i]
            env.step(int(actions[i]))
            where = f"{options} slot {i} after decision {env.game_state.decisions}"
            assert_same_outcome(env, rewards[i], terminated[i], truncated[i], where)
            assert not truncated[i], f"{where}: truncated"  # bower has no decision limit
            state = env.game_state
            if terminated[i]:
                counts.games += 1
                fresh = venv.get_state(i)
                assert (fresh.phase, fresh.decisions, fresh.placed, fresh.hands, fresh.turns,
                        len(fresh.stack), len(fresh.bonus_deck)) == (
                    0, 0, [[], []], [[], []], [0, 0], 33, 20), f"{where}: not a fresh game"
                if started < games:
                    load(i)
                    started += 1
                else:
                    active[i] = False
            elif len(state.drawn) > decks[i]:  # the draw reshuffled the discard pile
                mine = venv.get_state(i).to_dict()
                theirs = state.to_dict()
                assert _comparable(mine, PILE) == _comparable(theirs, PILE), \
                    f"{where}: positions differ after a reshuffle"
                assert sorted(mine["bonus_deck"] + mine["bonus_drawn"]) == \
                    sorted(theirs["bonus_deck"] + theirs["bonus_drawn"]), f"{where}: the pile"
                assert mine["bonus_drawn"][:decks[i]] == theirs["bonus_drawn"][:decks[i]], \
                    f"{where}: the tiles drawn before the reshuffle"
                venv.set_state(i, state)
                counts.reshuffles += 1
        if any(active):
            obs, mask, seat = venv.observe()
    return counts


def summary(c: Counts) -> str:
    """One variant's line of the replay."""
    return (f"{c.games} games, {c.decisions} decisions, {c.positions} positions, "
            f"{c.reshuffles} reshuffles reloaded")


def replay_all(games: int, batch: int = 32, seed: int = 0, out=print) -> dict[str, Counts]:
    """``games`` games spread evenly over ``variants()``; one line per variant to ``out``, then
    the decisions by kind."""
    return replay_variants(variants(), replay, summary, games, batch, seed, out, by_kind)


def by_kind(results: dict[str, Counts]) -> str:
    """The decisions compared, by kind."""
    kinds = np.sum([c.phases for c in results.values()], axis=0)
    return "decisions by kind: " + ", ".join(f"{PHASES[k]} {n}" for k, n in enumerate(kinds)
                                             if PHASES[k] != "over")


def main(argv: list[str] | None = None) -> None:
    args = replay_parser(__doc__).parse_args(argv)
    replay_all(args.games, args.batch, args.seed)


if __name__ == "__main__":
    main()
