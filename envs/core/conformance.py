"""Conformance checks any tablezoo engine must pass, used by the cross-game random-simulation
tests (and usable on a new game of your own).

``random_playthrough`` plays one seeded random game through the engine protocol and checks, at
every decision, the cheap invariants (acting players, non-empty masks, one illegal action rejected,
scores equal to their breakdown) and, at a few random decisions, the expensive ones (every legal
action accepted, every illegal one rejected with the state unchanged, clone and JSON round-trips,
observations unchanged by ``determinize``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tablezoo.envs.core.errors import IllegalActionError
from tablezoo.envs.core.game import Game, State


class ConformanceError(AssertionError):
    """An engine broke the protocol; the message says where (game, seed, decision)."""


@dataclass
class PlaythroughStats:
    decisions: int = 0
    deep_checks: int = 0
    terminal: bool = False
    truncated: bool = False
    final_scores: list[float] = field(default_factory=list)


def _fail(game: Game, seed: int, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"{game.name} {game.options} seed {seed} decision {step}: {what}")


def snapshot(state: State) -> str:
    """A canonical text of the whole state, for equality checks."""
    return json.dumps(state.to_dict(), sort_keys=True)


def check_scores(game: Game, seed: int, step: int, state: State) -> None:
    scores = state.scores()
    breakdown = state.score_breakdown()
    if len(scores) != game.num_players or len(breakdown) != game.num_players:
        raise _fail(game, seed, step, "scores/breakdown must have one entry per seat")
    for p in range(game.num_players):
        if abs(sum(breakdown[p].values()) - scores[p]) > 1e-9:
            raise _fail(game, seed, step, f"seat {p} score {scores[p]} != breakdown "
                        f"{breakdown[p]}")


def check_rejections(game: Game, seed: int, step: int, state: State, rng: np.random.Generator,
                     exhaustive: bool) -> None:
    """Unmasked actions (and out-of-range ids, NOOP, a non-acting seat) raise
    ``IllegalActionError`` and leave the state exactly as it was."""
    acting = state.acting_players()
    before = snapshot(state) if exhaustive else None
    for p in acting:
        illegal = np.flatnonzero(~state.legal_mask(p)).tolist() + [game.num_actions, -1]
        if not exhaustive:
            illegal = [illegal[int(rng.integers(len(illegal)))]]
        for action in illegal:
            joint = {q: state.legal_actions(q)[0] for q in acting}
            joint[p] = action
            try:
                state.apply(joint)
            except IllegalActionError:
                pass
            else:
                raise _fail(game, seed, step, f"illegal action {action} of seat {p} accepted")
    if exhaustive:
        outsiders = [p for p in range(game.num_players) if p not in acting]
        if outsiders:
            joint = {q: state.legal_actions(q)[0] for q in acting}
            joint[outsiders[0]] = 0
            try:
                state.apply(joint)
            except IllegalActionError:
                pass
            else:
                raise _fail(game, seed, step, f"an action of non-acting seat {outsiders[0]} "
                            "was accepted")
        if snapshot(state) != before:
            raise _fail(game, seed, step, "a rejected action changed the state")


def check_deep(game: Game, seed: int, step: int, state: State, rng: np.random.Generator) -> None:
    """The expensive checks, run at a few random decisions per game."""
    check_rejections(game, seed, step, state, rng, exhaustive=True)
    before = snapshot(state)
    acting = state.acting_players()
    # every legal action is accepted (each tried on a clone, the others' actions fixed)
    for p in acting:
        for action in state.legal_actions(p):
            joint = {q: state.legal_actions(q)[0] for q in acting}
            joint[p] = action
            try:
                state.clone().apply(joint)
            except IllegalActionError as exc:
                raise _fail(game, seed, step, f"legal action {action} of seat {p} rejected: "
                            f"{exc}") from exc
    if snapshot(state) != before:
        raise _fail(game, seed, step, "applying to a clone changed the original")
    # clone and JSON round-trips are exact, observations included
    clone = state.clone()
    if snapshot(clone) != before:
        raise _fail(game, seed, step, "clone() differs from the original")
    restored = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
    if snapshot(restored) != before:
        raise _fail(game, seed, step, "to_dict/state_from_dict round-trip differs")
    for p in range(game.num_players):
        obs = state.observe(p)
        if not np.array_equal(restored.observe(p), obs):
            raise _fail(game, seed, step, f"restored state's observation of seat {p} differs")
        if not np.array_equal(clone.observe(p), obs):
            raise _fail(game, seed, step, f"clone's observation of seat {p} differs")
        if obs.shape != (game.obs_spec.size,) or obs.dtype != np.float32:
            raise _fail(game, seed, step, f"observation shape/dtype {obs.shape}/{obs.dtype}")
        if (obs < game.obs_spec.low).any() or (obs > game.obs_spec.high).any():
            bad = np.flatnonzero((obs < game.obs_spec.low) | (obs > game.obs_spec.high))
            raise _fail(game, seed, step, f"observation of seat {p} out of bounds at {bad[:5]}")
    # information: what a seat observes (and may do) does not depend on what it cannot see
    for p in range(game.num_players):
        sampled = state.determinize(p, rng)
        if not np.array_equal(sampled.observe(p), state.observe(p)):
            diff = np.flatnonzero(sampled.observe(p) != state.observe(p))
            names = [name for name, sl in
                     ((n, game.obs_spec.slice(n)) for n in game.obs_spec.offsets)
                     if any(sl.start <= i < sl.stop for i in diff)]
            raise _fail(game, seed, step, f"seat {p}'s observation changed after determinize "
                        f"(pieces {names})")
        if sampled.acting_players() != acting:
            raise _fail(game, seed, step, "determinize changed the acting players")
        if p in acting and not np.array_equal(sampled.legal_mask(p), state.legal_mask(p)):
            raise _fail(game, seed, step, f"determinize changed seat {p}'s legal actions")
    if snapshot(state) != before:
        raise _fail(game, seed, step, "determinize changed the original state")


def random_playthrough(
    game: Game,
    seed: int,
    deep_checks: int = 2,
    on_decision: Callable[[State, dict[int, int]], None] | None = None,
) -> PlaythroughStats:
    """Play one random legal game from ``game.new_state(seed)`` with the conformance checks.

    ``on_decision(state, joint_action)`` runs before each joint action is applied, for a game's
    own invariants. ``deep_checks`` random decisions get the expensive checks (the first
    decision always does).
    """
    rng = np.random.default_rng(seed + 7919)
    state = game.new_state(seed)
    stats = PlaythroughStats()
    # pick the deep-check decisions among the first max_decisions, biased to early ones
    deep_at = {0} | {int(rng.integers(1, 60 + 1)) * int(rng.integers(1, 8)) for _ in
                     range(max(0, deep_checks - 1))}
    step = 0
    while not state.is_over():
        acting = state.acting_players()
        if not acting:
            raise _fail(game, seed, step, "no acting players but the game is not over")
        if step >= game.max_decisions:
            raise _fail(game, seed, step, f"still running after max_decisions="
                        f"{game.max_decisions}")
        for p in range(game.num_players):
            mask = state.legal_mask(p)
            if mask.shape != (game.num_actions,) or mask.dtype != bool:
                raise _fail(game, seed, step, f"mask shape/dtype {mask.shape}/{mask.dtype}")
            if (p in acting) != bool(mask.any()):
                raise _fail(game, seed, step, f"seat {p} acting={p in acting} but mask "
                            f"has {int(mask.sum())} legal actions")
        check_scores(game, seed, step, state)
        if step in deep_at:
            check_deep(game, seed, step, state, rng)
            stats.deep_checks += 1
        else:
            check_rejections(game, seed, step, state, rng, exhaustive=False)
        joint = {}
        for p in acting:
            legal = np.flatnonzero(state.legal_mask(p))
            joint[p] = int(legal[int(rng.integers(len(legal)))])
        if on_decision is not None:
            on_decision(state, joint)
        state.apply(joint)
        step += 1
    check_scores(game, seed, step, state)
    if state.acting_players():
        raise _fail(game, seed, step, "acting players remain after the game is over")
    if state.is_terminal() and state.is_truncated():
        raise _fail(game, seed, step, "a game cannot be both terminal and truncated")
    returns = state.returns()
    if len(returns) != game.num_players:
        raise _fail(game, seed, step, "returns() must have one entry per seat")
    stats.decisions = step
    stats.terminal = state.is_terminal()
    stats.truncated = state.is_truncated()
    stats.final_scores = list(state.scores())
    return stats
