"""Conformance checks any tablezoo engine must pass, used by the cross-game random-simulation
tests (and usable on a new game of your own).

``random_playthrough`` plays one seeded random game through the engine protocol and checks, at
every decision, the cheap invariants (acting players, non-empty masks, one illegal action rejected,
scores equal to their breakdown) and, at a few random decisions, the expensive ones (every legal
action accepted, every illegal one rejected with the state unchanged, clone and JSON round-trips,
observations unchanged by ``determinize``).

For a game's information state (``State.information_state``): ``check_information_state``
(fresh, in bounds, kept by copies and saves, unchanged by ``determinize`` for its seat),
``replay_information_state`` (a function of the seat's action-observation history: the same in
a re-sampled world that shows the seat the same things) and ``check_perfect_recall`` (equal
histories <=> equal information states over sampled continuations).
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


# --- information states (State.information_state) ----------------------------------------------
def check_information_state(game: Game, seed: int, step: int, state: State,
                            rng: np.random.Generator, seats: list[int] | None = None,
                            copies: bool = True) -> None:
    """The information state of each of ``seats`` (default: all): a fresh float32 array of
    ``information_state_size`` within the spec's bounds, ``out=`` overwriting every entry,
    unchanged by ``determinize`` for that seat (bit for bit: it depends only on what the seat
    has seen) and, with ``copies``, equal after a clone and a JSON round trip."""
    spec = game.information_state_spec
    restored = game.state_from_dict(json.loads(json.dumps(state.to_dict()))) if copies else None
    clone = state.clone() if copies else None
    for p in range(game.num_players) if seats is None else seats:
        info = state.information_state(p)
        if info.shape != (spec.size,) or info.dtype != np.float32:
            raise _fail(game, seed, step, f"information state shape/dtype {info.shape}/"
                        f"{info.dtype}, expected ({spec.size},)/float32")
        if (info < spec.low).any() or (info > spec.high).any():
            bad = np.flatnonzero((info < spec.low) | (info > spec.high))
            raise _fail(game, seed, step, f"information state of seat {p} out of bounds at "
                        f"{_pieces(spec, bad)}")
        if state.information_state(p) is info:
            raise _fail(game, seed, step, "information_state handed out the same array twice")
        out = np.full(spec.size, np.nan, np.float32)
        if state.information_state(p, out=out) is not out or not np.array_equal(out, info):
            raise _fail(game, seed, step, "information_state(out=...) differs")
        if clone is not None and not np.array_equal(clone.information_state(p), info):
            raise _fail(game, seed, step, f"clone's information state of seat {p} differs")
        if restored is not None and not np.array_equal(restored.information_state(p), info):
            raise _fail(game, seed, step, f"restored state's information state of seat {p} "
                        "differs")
        sampled = state.determinize(p, rng)
        again = sampled.information_state(p)
        if not np.array_equal(again, info):
            raise _fail(game, seed, step, f"seat {p}'s information state changed after "
                        f"determinize (pieces {_pieces(spec, np.flatnonzero(again != info))})")
        if copies:
            sampled.check()


def _pieces(spec, indices: np.ndarray) -> list[str]:
    return sorted({name for name in spec.offsets
                   if any(spec.slice(name).start <= i < spec.slice(name).stop
                          for i in indices[:50])})


def seen_by(state: State, player: int) -> tuple[bytes, bytes]:
    """What ``player`` observes now: its default observation and its legal mask (bytes)."""
    return state.observe(player).tobytes(), state.legal_mask(player).tobytes()


def replay_information_state(game: Game, seed: int, player: int, start: int,
                             rng: np.random.Generator, max_joint: int = 256) -> tuple[int, int]:
    """The information state is a function of ``player``'s action-observation history.

    One random game from ``game.new_state(seed)``; at decision ``start`` a world re-sampled for
    ``player`` (``determinize``) sets off beside it and follows the same history as ``player``
    sees it: ``player``'s own actions, and for the other acting seats actions (the original
    ones first, then the others, at most ``max_joint`` joint moves tried) under which
    ``player``'s observation and legal mask after the decision are the original's. At every
    decision of that common history the two information states of ``player`` must be equal,
    though everything hidden from ``player`` may differ (other hands, hidden draws, piles,
    decks, the others' private records). The replay ends where no move reproduces what
    ``player`` saw (its own next draw differs, a hidden card is revealed, ...).

    Returns ``(decisions replayed, decisions of the game after start)``.
    """
    from itertools import islice, product

    state = game.new_state(seed)
    step = 0
    alt = None
    matched = 0
    while not state.is_over():
        if step == start:
            alt = state.determinize(player, rng)
        if alt is not None:
            _same_information(game, seed, step, state, alt, player)
        acting = state.acting_players()
        joint = {p: int(rng.choice(np.flatnonzero(state.legal_mask(p)))) for p in acting}
        state.apply(joint)
        step += 1
        if alt is None:
            continue
        target = seen_by(state, player)
        if alt.acting_players() != acting:
            raise _fail(game, seed, step, "determinize changed the acting players")
        options = []
        for q in acting:
            legal = np.flatnonzero(alt.legal_mask(q)).tolist()
            if q == player:
                options.append([joint[q]])
                continue
            first = [joint[q]] if joint[q] in legal else []
            rest = [a for a in legal if a != joint[q]]
            options.append(first + [rest[i] for i in rng.permutation(len(rest))])
        for combo in islice(product(*options), max_joint):
            world = alt.clone()
            world.apply(dict(zip(acting, combo)))
            if seen_by(world, player) == target:
                alt = world
                matched += 1
                break
        else:
            return matched, step - start
    if alt is not None:
        _same_information(game, seed, step, state, alt, player)
    return matched, max(0, step - start)


def _same_information(game: Game, seed: int, step: int, state: State, alt: State,
                      player: int) -> None:
    a, b = state.information_state(player), alt.information_state(player)
    if not np.array_equal(a, b):
        spec = game.information_state_spec
        raise _fail(game, seed, step, f"seat {player}: two histories it cannot tell apart give "
                    f"different information states (pieces "
                    f"{_pieces(spec, np.flatnonzero(a != b))})")


def check_perfect_recall(game: Game, state: State, player: int, rng: np.random.Generator,
                         samples: int = 200, depth: int = 8) -> tuple[int, int]:
    """Perfect recall on sampled continuations of one position (the OpenSpiel-style check).

    ``samples`` random continuations of ``depth`` decisions from ``state``; along each,
    ``player``'s action-observation history (its own actions, and its observation and legal
    mask after every decision that changed them or was its own: a decision of another seat
    that changes nothing ``player`` observes, such as a card added to a band being built in
    Ethnos, is a step of the engine, not an event the seat sees) and its information state
    after every decision. Then the two
    must determine each other: equal histories give equal information states (a function of
    what the seat saw), and different histories give different ones (nothing seen is forgotten),
    even where the default observations agree.

    Returns ``(pairs of different histories with equal default observations, pairs of equal
    histories reached by different moves)``: how much each direction was exercised.
    """
    by_history: dict[tuple, bytes] = {}
    by_info: dict[bytes, tuple] = {}
    obs_of: dict[tuple, bytes] = {}
    moves_of: dict[tuple, tuple] = {}
    lossy = hidden = 0
    for _ in range(samples):
        world = state.clone()
        history: tuple = (seen_by(world, player),)
        moves: tuple = ()
        for _ in range(depth):
            if world.is_over():
                break
            acting = world.acting_players()
            joint = {p: int(rng.choice(np.flatnonzero(world.legal_mask(p)))) for p in acting}
            world.apply(joint)
            moves += (tuple(sorted(joint.items())),)
            seen = seen_by(world, player)
            if player in joint or seen != history[-1]:
                history += (joint.get(player), seen)
            info = world.information_state(player).tobytes()
            known = by_history.setdefault(history, info)
            if known != info:
                raise ConformanceError(
                    f"{game.name} {game.options}: seat {player}: equal action-observation "
                    f"histories give different information states")
            other = by_info.setdefault(info, history)
            if other != history:
                raise ConformanceError(
                    f"{game.name} {game.options}: seat {player}: different action-observation "
                    f"histories give the same information state")
            obs = world.observe(player).tobytes()
            if moves_of.setdefault(history, moves) != moves:
                hidden += 1
            first = obs_of.setdefault(obs, history)
            if first != history:
                lossy += 1
    return lossy, hidden
