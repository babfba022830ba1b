"""Replay check: bauer_draft's compiled batched engine against the AEC env, decision by decision.

``python -m tests.envs.bauer_draft.compiled.replay --games 10000`` runs the games over every
variant (each ``num_players`` of the record's ``VARIANTS`` with each ``reward`` option: 12) and
prints per variant the decisions and games compared. ``test_replay.py`` runs the same on fewer
games.

How: each slot of a batched env (``make_vector``) is paired with one AEC env. A slot starts from
a position reached by random play in the Python engine (0 to rounds + 4 joint decisions into a
game),
loaded into the AEC env (``reset(options={"state": ...})``) and into the slot (``set_state``, as a
``State`` or as its ``to_dict()`` in turn). Then both play the same random legal actions: at
every decision they must agree on the asked seat (a select asks every seat in turn, lowest
first, in both), the observation and the legal mask (bit for bit; the AEC env's mask has NOOP
last, never legal for the asked seat); after every step on each seat's reward and on
``terminated`` / ``truncated``, so on the rewards at the end; and on the full-information global
state (``state()``: hands, selections, tableaux, copies, piles and central deck in order,
memories, ...). Every ``full_every``-th step, and at every random event, the slot's whole
position (``get_state(i).to_dict()``) must be the Python engine's.

Random events: Uggel-Guggel shuffles the piles from each engine's own generator. A step in which
one engine's generator moved must move the other's; the positions must then agree in everything
but the piles' order (each pile the same cards), and the Python engine's position is loaded into
the slot (``set_state``) before the comparison goes on. When a game ends, the slot's autoreset game
must be a fresh deal (compared with a fresh Python game in everything but where the cards lie);
the slot then takes the next random position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

import tablezoo.envs as tz
from tablezoo.envs.bauer_draft import BauerDraftGame, BauerDraftState
from tablezoo.envs.bauer_draft.actions import KINDS
from tablezoo.envs.bauer_draft.compiled import make_vector
from tests.envs.vector.compiled_checks import (
    assert_same_decision,
    assert_same_outcome,
    replay_parser,
    replay_variants,
)

ENV = "bauer_draft_v0"
REWARDS = ("rank", "score", "margin")
# what a shuffle changes (the piles' order, so the cards drawn from them next); history: the
# slot keeps none
RANDOM_FIELDS = ("piles", "hands", "memory", "rng", "history")
DEAL_FIELDS = ("hands", "piles", "central", "rng", "history")  # where a fresh deal's cards lie


def variants() -> list[dict[str, Any]]:
    """Every variant of the record (``VARIANTS``) with every ``reward`` option."""
    return [{**variant, "reward": reward} for variant in tz.VARIANTS[ENV] for reward in REWARDS]


@dataclass
class Counts:
    decisions: int = 0
    games: int = 0
    shuffles: int = 0
    full_checks: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # decisions per decision kind


def random_position(game: BauerDraftGame, rng: np.random.Generator) -> BauerDraftState:
    """A position reached by random play from a fresh game (up to a round's worth of joint
    decisions per round of the game), not over."""
    most = game.num_rounds + 4
    while True:
        state = game.new_state(int(rng.integers(2**63 - 1)))
        for _ in range(int(rng.integers(0, most + 1))):
            state.apply({p: int(rng.choice(state.legal_actions(p)))
                         for p in state.acting_players()})
            if state.is_over():
                break
        if not state.is_over():
            return state


Positions = Callable[[BauerDraftGame, np.random.Generator], BauerDraftState]


def without(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def assert_same_but_shuffled(mine: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    """The two saves agree but where a shuffle put the cards: each seat's pile and hand hold the
    same cards (a draw after the shuffle takes them from the pile in front), each seat remembers
    the same cards outside its hand."""
    a, b = without(mine, RANDOM_FIELDS), without(theirs, RANDOM_FIELDS)
    assert a == b, f"{where}: the positions around a shuffle differ: " + str(
        {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)})
    for save in (mine, theirs):
        assert not any(set(m) & set(h) for m, h in zip(save["memory"], save["hands"]))
    for s, (pile, hand, memory) in enumerate(zip(mine["piles"], mine["hands"], mine["memory"])):
        assert sorted(pile + hand) == sorted(theirs["piles"][s] + theirs["hands"][s]), \
            f"{where}: a shuffle moved cards between piles"
        drawn = set(hand) | set(theirs["hands"][s])
        assert {c: v for c, v in memory.items() if c not in drawn} == \
            {c: v for c, v in theirs["memory"][s].items() if c not in drawn}, \
            f"{where}: memories differ around a shuffle"


def replay(options: dict[str, Any], games: int, batch: int = 32, seed: int = 0,
           full_every: int = 1, positions: Positions = random_position) -> Counts:
    """Compare ``games`` games of ``options`` from ``positions(game, rng)`` (see the module); an
    ``AssertionError`` says where the engines differ."""
    game = BauerDraftGame(**options)
    rng = np.random.default_rng(seed)
    venv = make_vector(batch, seed=seed, **options)
    venv.reset()
    envs = [tz.make(ENV, **options) for _ in range(batch)]
    fresh = without(game.new_state(0).to_dict(), DEAL_FIELDS)
    counts = Counts()
    active = [False] * batch
    loads = 0
    steps = 0

    def load(i: int) -> None:
        nonlocal loads
        state = positions(game, rng)
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
            where = f"{options} slot {i} decision {env._decisions}"
            assert_same_decision(env, obs[i], mask[i], seat[i], where)
            counts.decisions += 1
            kind = KINDS[env.game_state.kind]
            counts.kinds[kind] = counts.kinds.get(kind, 0) + 1
        actions = np.argmax(mask + rng.random(mask.shape), axis=1)
        moved_before = venv._rng[:, 0].copy()
        python_rng = [env.game_state.rng_state()["state"]["state"] if active[i] else None
                      for i, env in enumerate(envs)]
        obs, mask, seat, rewards, terminated, truncated = venv.step(actions)
        moved = venv._rng[:, 0] != moved_before
        steps += 1
        full = venv.state()
        for i in np.flatnonzero(active):
            env = envs[i]
            env.step(int(actions[i]))
            where = f"{options} slot {i} after decision {env._decisions}"
            assert_same_outcome(env, rewards[i], terminated[i], truncated[i], where)
            state = env.game_state
            if terminated[i] or truncated[i]:
                counts.games += 1
                mine = venv.get_state(i).to_dict()
                assert without(mine, DEAL_FIELDS) == fresh, f"{where}: not a fresh game"
                if started < games:
                    load(i)
                    started += 1
                else:
                    active[i] = False
                continue
            shuffled = state.rng_state()["state"]["state"] != python_rng[i]
            assert shuffled == moved[i], f"{where}: one engine shuffled, the other did not"
            if shuffled or steps % full_every == 0:
                mine = venv.get_state(i).to_dict()
                theirs = state.to_dict()
                counts.full_checks += 1
                if shuffled:
                    counts.shuffles += 1
                    assert_same_but_shuffled(mine, theirs, where)
                    venv.set_state(i, state)
                    full[i] = venv.state()[i]
                else:
                    a, b = without(mine, ("rng", "history")), without(theirs, ("rng", "history"))
                    assert a == b, f"{where}: positions differ: " + str(
                        {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)})
            assert np.array_equal(full[i], state.global_state()), f"{where}: global states differ"
        if any(active):
            obs, mask, seat = venv.observe()
    return counts


def summary(c: Counts) -> str:
    """One variant's line of the replay."""
    return (f"{c.games} games, {c.decisions} decisions, {c.shuffles} shuffles reloaded, "
            f"{c.full_checks} whole positions compared")


def replay_all(games: int, batch: int = 32, seed: int = 0, full_every: int = 1,
               out=print) -> dict[str, Counts]:
    """``games`` games spread evenly over ``variants()``; one line per variant to ``out``, then
    the decisions by kind."""
    run = partial(replay, full_every=full_every)
    return replay_variants(variants(), run, summary, games, batch, seed, out, by_kind)


def by_kind(results: dict[str, Counts]) -> str:
    """The decisions compared, by kind."""
    kinds = {kind: sum(c.kinds.get(kind, 0) for c in results.values()) for kind in KINDS[:-1]}
    return "decisions by kind: " + ", ".join(f"{kind} {count}" for kind, count in kinds.items())


def main(argv: list[str] | None = None) -> None:
    parser = replay_parser(__doc__)
    parser.add_argument("--full-every", type=int, default=1,
                        help="compare the whole position every this many steps")
    args = parser.parse_args(argv)
    replay_all(args.games, args.batch, args.seed, args.full_every)


if __name__ == "__main__":
    main()
