"""Helpers the compiled engines' tests share: random legal actions from a mask, everything a
caller can see of a vector env (to check that refused input changed nothing), and the replays'
comparison of a batched slot's decision and step result with its paired AEC env."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from tablezoo.envs.vector.base import VectorEnv


def legal_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One random legal action per row of ``mask``."""
    return np.argmax(mask + rng.random(mask.shape), axis=1)


def snapshot(env: VectorEnv) -> tuple:
    """Everything a caller can see of ``env``: decisions, global states, every slot's position."""
    obs, mask, seat = env.observe()
    states = [env.get_state(i).to_dict() for i in range(env.num_envs)]
    for data in states:
        data.pop("rng")
    return obs, mask, seat, env.state(), states


def assert_same(a: tuple, b: tuple) -> None:
    """``a`` and ``b``, two ``snapshot``s, show the same."""
    for x, y in zip(a[:4], b[:4]):
        assert np.array_equal(x, y)
    assert a[4] == b[4]


def assert_same_decision(env, obs: np.ndarray, mask: np.ndarray, seat: int, where: str) -> None:
    """A batched slot's decision (``obs``, ``mask``, ``seat``) is the AEC env ``env``'s, bit for
    bit; the AEC env's mask has NOOP last, never legal for the acting seat."""
    agent = env.agent_selection
    assert seat == env.possible_agents.index(agent), f"{where}: seat {seat} vs {agent}"
    seen = env.observe(agent)
    aec_mask = seen["action_mask"]  # int8, with the PettingZoo envs' NOOP last
    assert np.array_equal(mask, aec_mask[:-1].astype(bool)) and not aec_mask[-1], \
        f"{where}: masks differ"
    assert obs.dtype == seen["observation"].dtype
    assert np.array_equal(obs, seen["observation"]), \
        f"{where}: observations differ at {np.flatnonzero(obs != seen['observation'])}"


def assert_same_outcome(env, rewards: np.ndarray, terminated: bool, truncated: bool,
                        where: str) -> None:
    """A batched slot's step result is the AEC env ``env``'s after the same action: each seat's
    reward (as float32), ``terminated`` and ``truncated``."""
    agents = env.possible_agents
    expected = np.float32([env.rewards[a] for a in agents])
    assert rewards.tolist() == expected.tolist(), f"{where}: rewards {rewards} vs {expected}"
    assert terminated == env.terminations[agents[0]], f"{where}: terminated"
    assert truncated == env.truncations[agents[0]], f"{where}: truncated"


def assert_slot_decides_as(state, obs: np.ndarray, mask: np.ndarray, seat: int,
                           full: np.ndarray) -> None:
    """A slot's decision (``obs``, ``mask``, ``seat``) and global state ``full`` are those of the
    Python position ``state``."""
    p = int(seat)
    assert p in state.acting_players()
    assert np.array_equal(obs, state.observe(p))
    assert np.array_equal(mask, state.legal_mask(p))
    assert np.array_equal(full, state.global_state())


def assert_slots_are_their_positions(env: VectorEnv, obs: np.ndarray, mask: np.ndarray,
                                     seat: np.ndarray) -> None:
    """Each slot's decision and global state are those of its ``get_state`` (built and vetted
    by the Python engine)."""
    full = env.state()
    for i in range(env.num_envs):
        assert_slot_decides_as(env.get_state(i), obs[i], mask[i], seat[i], full[i])


def assert_loads(env: VectorEnv, i: int, state, as_dict: bool,
                 unkept: tuple[str, ...] = ("history",)) -> None:
    """``set_state(i, state)`` (or its ``to_dict()``) then ``get_state(i)`` gives the position
    back (but its generator and the fields in ``unkept``, which the engine does not keep); the
    slot asks the position's first acting seat, and reading it does not advance its generator."""
    env.set_state(i, state.to_dict() if as_dict else state)
    back = env.get_state(i)
    mine, theirs = back.to_dict(), state.to_dict()
    for data in (mine, theirs):
        for key in ("rng", *unkept):
            data.pop(key, None)
    assert mine == theirs
    obs, mask, seat = env.observe()
    assert int(seat[i]) == min(state.acting_players())
    assert_slot_decides_as(state, obs[i], mask[i], seat[i], env.state()[i])
    assert env.get_state(i).to_dict()["rng"] == back.to_dict()["rng"]  # not advanced


def replay_variants(table: list[dict], run: Callable[..., Any], line: Callable[[Any], str],
                    games: int, batch: int, seed: int, out: Callable[[str], Any],
                    kinds: Callable[[dict], str] | None = None) -> dict:
    """A replay script's whole run: ``games`` spread evenly over the option sets ``table``,
    ``run(options, share, batch=..., seed=...)`` for each (its counts: ``games`` and
    ``decisions`` at least), one line per set (``line(counts)`` after the options), then
    ``kinds(results)`` where given, and the total to ``out``; returns the counts by
    ``repr(options)``."""
    results = {}
    for k, options in enumerate(table):
        share = games // len(table) + (k < games % len(table))
        if not share:
            continue
        began = time.perf_counter()
        counts = run(options, share, batch=min(batch, share), seed=seed + k)
        results[repr(options)] = counts
        shown = ", ".join(f"{key}={value}" for key, value in options.items()) or "defaults"
        out(f"{shown}: {line(counts)}, {time.perf_counter() - began:.1f}s")
    if kinds is not None:
        out(kinds(results))
    total = sum(c.decisions for c in results.values())
    out(f"total: {sum(c.games for c in results.values())} games, {total} decisions compared "
        f"over {len(results)} variants: the batched engine and the AEC env agree")
    return results


def replay_parser(doc: str) -> argparse.ArgumentParser:
    """A replay script's command line: ``--games``, ``--batch``, ``--seed``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    return parser
