"""Replay check: bauer_trick's compiled batched engine against the AEC env, decision by decision.

``python -m tests.envs.bauer_trick.compiled.replay --games 10000`` runs the games over every
variant (all 32 combinations of ``episode``, ``trump_selection``, ``no_trump_leader``,
``defenders_score_on_fail`` and ``reward``; the ``game`` ones with ``start_score``/``max_deals``
of (8, 100), (3, 100), (2, 3) or (1, 1), so that every choice of the other options meets each,
truncation included) and prints per variant the decisions and games compared.
``test_replay.py`` runs the same on a few hundred games.

How: each slot of a batched env (``make_vector``) is paired with one AEC env. A slot starts from
a position reached by random play in the Python engine (0 to 35 decisions into a deal, up to
three deals into a game), loaded into the AEC env (``reset(options={"state": ...})``) and into the
slot (``set_state``, as a ``State`` or as its ``to_dict()`` in turn). Then both play the same
random legal actions: at every decision they must agree on the acting seat, the observation and
the legal mask (bit for bit; the AEC env's mask has NOOP last, never legal for the acting seat),
and after every step on each seat's reward and on ``terminated`` / ``truncated``, so on the
rewards at the end of each deal and of each episode.

``episode="game"``: the next deal's cards are random in both engines, each from its own
generator. So when a deal ends without ending the game, the slot's new position (``get_state``) is
first compared with the Python engine's in everything but the cards (dealer passed to the left,
points, tally, returns, deals played, decision count, the call about to start), and then the
Python engine's freshly dealt position is loaded into the slot (``set_state``) and the comparison
goes on. When a game ends, the slot's autoreset game must be a fresh one (``start_score`` points,
no deal played, no decision, zero returns, the call); the slot then takes the next random
position.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

import tablezoo.envs as tz
from tablezoo.envs.bauer_trick import BauerTrickGame
from tablezoo.envs.bauer_trick.compiled import make_vector
from tests.envs.vector.compiled_checks import (
    assert_same_decision,
    assert_same_outcome,
    replay_parser,
    replay_variants,
)

SCORES = ((8, 100), (3, 100), (2, 3), (1, 1))  # (start_score, max_deals) of the game variants
CARD_FIELDS = ("hands", "undealt", "rng")  # what differs between two engines' fresh deals


def variants() -> list[dict[str, Any]]:
    """Every combination of the five choice options; the score options vary over the games."""
    out = []
    choices = itertools.product(("deal", "game"), ("call_or_pass", "forehand_on_four"),
                                ("dealer", "left_of_dealer"), (False, True), ("game", "points"))
    for k, (episode, selection, leader, defenders, reward) in enumerate(choices):
        options = {"episode": episode, "trump_selection": selection, "no_trump_leader": leader,
                   "defenders_score_on_fail": defenders, "reward": reward}
        if episode == "game":
            options["start_score"], options["max_deals"] = SCORES[(k + k // 4) % len(SCORES)]
        out.append(options)
    return out


@dataclass
class Counts:
    decisions: int = 0
    games: int = 0
    terminated: int = 0
    truncated: int = 0
    deals_reloaded: int = 0


def random_position(game: BauerTrickGame, rng: np.random.Generator):
    """A position reached by random play from a fresh game, not over."""
    most = 35 if game.deal_mode else 3 * 36
    while True:
        state = game.new_state(int(rng.integers(2**63 - 1)))
        for _ in range(int(rng.integers(0, most + 1))):
            state.step(int(rng.choice(state.legal_actions(state.to_act))))
            if state.is_over():
                break
        if not state.is_over():
            return state


def _without_cards(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in CARD_FIELDS}
    if "history" in out:  # the deal's record, where the engine keeps one: its cards are dealt
        out["history"] = {k: v for k, v in out["history"].items() if k != "first_four"}
    return out


def replay(options: dict[str, Any], games: int, batch: int = 32, seed: int = 0) -> Counts:
    """Compare ``games`` games of ``options`` (see the module); an ``AssertionError`` says where
    the engines differ."""
    game = BauerTrickGame(**options)
    start = game.options["start_score"]
    rng = np.random.default_rng(seed)
    venv = make_vector(batch, seed=seed, **options)
    venv.reset()
    envs = [tz.make("bauer_trick_v0", **options) for _ in range(batch)]
    counts = Counts()
    active = [False] * batch
    deals = [0] * batch
    loads = 0

    def load(i: int) -> None:
        nonlocal loads
        state = random_position(game, rng)
        envs[i].reset(options={"state": state.to_dict()})
        venv.set_state(i, state if loads % 2 else state.to_dict())
        loads += 1
        active[i] = True
        deals[i] = state.deals_played

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
                assert (fresh.phase, fresh.deals_played, fresh.decisions, fresh.points,
                        fresh.returns(), fresh.scores()) == (0, 0, 0, [start] * 2, [0.0] * 4,
                                                             [0.0] * 4), f"{where}: not fresh"
                if started < games:
                    load(i)
                    started += 1
                else:
                    active[i] = False
            elif state.deals_played != deals[i]:  # a new deal of the same game
                deals[i] = state.deals_played
                mine = _without_cards(venv.get_state(i).to_dict())
                assert mine == _without_cards(state.to_dict()), f"{where}: the next deal differs"
                venv.set_state(i, state)
                counts.deals_reloaded += 1
        if any(active):
            obs, mask, seat = venv.observe()
    return counts


def summary(c: Counts) -> str:
    """One variant's line of the replay."""
    return (f"{c.games} games ({c.terminated} terminated, {c.truncated} truncated), "
            f"{c.decisions} decisions, {c.deals_reloaded} deals reloaded")


def replay_all(games: int, batch: int = 32, seed: int = 0, out=print) -> dict[str, Counts]:
    """``games`` games spread evenly over ``variants()``; one line per variant to ``out``."""
    return replay_variants(variants(), replay, summary, games, batch, seed, out)


def main(argv: list[str] | None = None) -> None:
    args = replay_parser(__doc__).parse_args(argv)
    replay_all(args.games, args.batch, args.seed)


if __name__ == "__main__":
    main()
