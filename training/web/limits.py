"""The bounds of the web app's work: every request's body, JSON, agents' budgets, game length,
games kept and time waited stay under these, so no request (from a page, a script or a
mistake) can make the server read, think, store or wait without end.

A request past a bound is refused with a 4xx naming the bound; ``tablezoo serve`` uses
``Limits()``, tests pass smaller ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """Every bound of the web app (the defaults are what ``tablezoo serve`` uses)."""

    # --- a request ---
    body_bytes: int = 8_000_000  # a request body, enforced while reading (413 past it)
    json_depth: int = 32  # nesting of arrays and objects in a body
    int_digits: int = 40  # digits of a JSON integer (a saved position's rng state has 39)
    text_chars: int = 200  # a seat spec, a model name, a token
    body_s: float = 30.0  # the whole body must arrive within this (408 past it)
    # --- the agents a seat may name ---
    # the most a search agent may spend on one move, by option name (the games' default
    # ismcts budgets are 60-800 iterations; 1000 take 5-30 s a move on a loaded 2-core machine)
    budgets: dict[str, float] = field(default_factory=lambda: {
        "iterations": 1000, "seconds": 10.0, "rollouts": 1000, "belief_tries": 100,
        "max_nodes": 400_000})
    agent_number: float = 1e6  # any other numeric agent option, in absolute value
    node_bytes: int = 16_000_000  # ISMCTS statistics an agent keeps (sets its max_nodes)
    # --- a game ---
    max_decisions: int = 10_000  # a game whose options allow more decisions is refused
    option_number: float = 1e6  # any number in a game option (scores, glory), in absolute value
    keyframe_every: int = 32  # a watched game keeps one position in this many
    replay_games: int = 20_000  # games of a tournament.json, and a records file's game number
    # --- the games kept ---
    games: int = 300  # games kept at once; a new one past this is refused (503)
    idle_s: float = 1800.0  # a game nobody asked about for this long is dropped
    over_idle_s: float = 60.0  # a finished game may be dropped for room after this idle time
    # --- time ---
    workers: int = 4  # threads in which the agents think (not the request threads)
    queue: int = 64  # requests waiting for those threads; one more is refused (503)
    wait_s: float = 20.0  # a request waits this long for the agents, then answers 503
    step_s: float = 5.0  # "end" of a watched game plays on for at most this long a request
    busy_s: float = 2.0  # a request waits this long for a game another request is using
