"""Leaf evaluations for ``agents/search/ismcts.py`` at a depth cut-off: per-seat values in [-1, 1].

``"score"`` (every game) is the search's own score-margin value, so it maps to ``None`` here.
``"heuristic"`` uses a game's hand-written position value where one exists: bower's heuristic
scores a pair of nests in "egg tokens I expect to gain over the opponent" from one seat's
observation (materials, columns with the request probabilities it believes, egg tiles, gems,
holes). Its scores stay 0 until the end of the game, so the score margin says nothing there. Games
without such a value fall back to the score margin.
``"world_heuristic"`` (bower) is the same value with the sampled world's request eggs in place of
the searcher's probabilities: each world is valued as if its eggs were known, so the average over
the worlds follows the search's belief about the hidden eggs (``belief=``), where each egg lies
in one place, rather than the heuristic's column-by-column probabilities.
For both, ``exact_turns=K`` gives way to the real end near it: at a cut-off with at most ``K``
turns of the game left, the playout goes on to the end (exact eggs, win or loss) instead.
``"age_end"`` (ethnos) scores the current Age as if it ended now (kingdoms, Merfolk track,
Giant bonus and bands, the rules' own end-of-Age scoring on a copy) and values the glory margins
that would result: glory only changes at Age ends, so without it a cut-off in mid-Age sees only
the Ages already over.
``"solver"`` solves the sampled world exactly where a game has a perfect-information solver
(bauer_trick's trick play, ``agents/search/double_dummy.py``): with a cut-off right after the root
this is perfect-information Monte Carlo. It cannot value a deal whose trump is not called yet, so
there the playout policy plays on until the trick play starts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from tablezoo.envs.core.game import State

# per-seat values, or None where the evaluator cannot value the position (the playout goes on)
Evaluator = Callable[[State, int], Sequence[float] | None]
EVALUATOR_NAMES = ("score", "heuristic", "world_heuristic", "solver", "age_end")
SOLVER_GAMES = ("bauer_trick",)
AGE_END_GAMES = ("ethnos",)
BOWER_VALUES = ("heuristic", "world_heuristic")


def margin_values(scores: Sequence[float], opponents: Sequence[Sequence[int]],
                  scale: float) -> np.ndarray:
    """Per seat, the mean over its opponents of ``tanh(score margin / scale)``: in [-1, 1] like
    the terminal rewards, 0 for equal scores, and a team's seats share it."""
    s = np.asarray(scores, dtype=float)
    out = np.zeros(s.size)
    for p, others in enumerate(opponents):
        if others:
            out[p] = float(np.mean(np.tanh((s[p] - s[list(others)]) / scale)))
    return out


def leaf_evaluator(name: str, game_name: str, leaf_scale: float = 10.0,
                   exact_turns: int = 0) -> Evaluator | None:
    """The evaluator ``name`` for ``game_name``; ``None`` means the score margin. ``leaf_scale``
    is the glory margin's scale of ``"age_end"`` (bower's value has its own egg units);
    ``exact_turns`` is bower's (see the module docstring) and refused elsewhere."""
    if name not in EVALUATOR_NAMES:
        raise ValueError(f"ismcts agent: evaluator={name!r}; allowed: {', '.join(EVALUATOR_NAMES)}")
    bower_value = game_name == "bower" and name in BOWER_VALUES
    if exact_turns and not bower_value:
        raise ValueError(f"ismcts agent: exact_turns={exact_turns} applies to bower's evaluators "
                         f"{', '.join(BOWER_VALUES)}, not evaluator={name!r} in {game_name!r}; "
                         "give exact_turns=0")
    if bower_value:
        return BowerValue(world_eggs=name == "world_heuristic", exact_turns=exact_turns)
    if name == "world_heuristic":
        raise ValueError(f"ismcts agent: evaluator='world_heuristic' is bower's, not "
                         f"{game_name!r}'s; use 'heuristic' or 'score'")
    if name == "solver":
        if game_name not in SOLVER_GAMES:
            raise ValueError(f"ismcts agent: evaluator='solver' has no solver for game "
                             f"{game_name!r}; games with one: {', '.join(SOLVER_GAMES)}")
        return DoubleDummyValue()
    if name == "age_end":
        if game_name not in AGE_END_GAMES:
            raise ValueError(f"ismcts agent: evaluator='age_end' scores Ethnos Ages; games: "
                             f"{', '.join(AGE_END_GAMES)}, not {game_name!r}")
        return EthnosAgeEndValue(leaf_scale)
    return None


class BowerValue:
    """tanh(heuristic egg-difference estimate / ``scale``) for the searcher, the negative for the
    opponent (bower has two seats). Read from the searcher's observation of the sampled world,
    so it values the position with the searcher's beliefs, as the heuristic itself does; with
    ``world_eggs`` the request probabilities are the world's own eggs instead (one per column).
    With ``exact_turns`` > 0 it declines (``None``: play on to the end) once at most that many
    turns of the game are left: there the playout is short, and the real eggs and the win
    decide, where the estimate only expects eggs."""

    def __init__(self, scale: float = 2.0, world_eggs: bool = False, exact_turns: int = 0):
        from tablezoo.agents.heuristics.bower import HeuristicAgent
        from tablezoo.agents.heuristics.bower.evaluation import Context
        from tablezoo.agents.heuristics.bower.pieces import REQ_SLOT
        from tablezoo.envs.bower.components import EGG_CODES
        from tablezoo.envs.bower.rules import TURNS_PER_PLAYER

        self.scale = scale
        self.world_eggs = world_eggs
        self.exact_turns = exact_turns
        self.total_turns = 2 * TURNS_PER_PLAYER
        self.make_context = Context
        self.request_slot = [REQ_SLOT[code] for code in EGG_CODES]  # egg id -> request slot
        self.reader = HeuristicAgent(seed=0)  # only its evaluation is used: no random choice

    def __call__(self, state: State, player: int) -> list[float] | None:
        if self.exact_turns and self.total_turns - sum(state.turns) <= self.exact_turns:
            return None
        reader = self.reader
        reader._read(state.observe(player), state)
        if self.world_eggs:
            ctx = reader.ctx
            probs = np.zeros((6, 8))
            for c in range(6):
                probs[c, self.request_slot[state.eggs[c]]] = 1.0
            reader.ctx = self.make_context(probs, ctx.eb_mine, ctx.eb_theirs, ctx.rem,
                                           ctx.bonus_value, ctx.hole_penalty)
        v = math.tanh(reader._value(reader.nests[0]) / self.scale)
        out = [-v, -v]
        out[player] = v
        return out


class DoubleDummyValue:
    """The deal's outcome under perfect play by all four seats of the sampled world (bauer_trick,
    play phase; ``None`` in the trump call). One transposition table per trump suit is kept
    across calls: its entries are exact positions (all four hands and the leader), true in every
    world, so later worlds, candidates and moves reuse what earlier ones proved. Cleared past
    ``max_entries``.

    In ``episode="deal"`` the value is the deal's reward itself. In a game episode the deal's
    point is valued as the rewards value it: with ``reward="points"`` +-1 per point plus the
    win's +-1 when it brings its team to 0; with ``reward="game"`` only the win pays, so a point
    is worth ``1 / points`` of the team that subtracts it (the full win when it reaches 0).
    """

    def __init__(self, max_entries: int = 400_000):
        # imported here, not at the top: only bauer_trick searches need the solver
        from tablezoo.agents.search.double_dummy import TrickSolver, solve_deal
        from tablezoo.envs.bauer_trick.components import PHASE_PLAY

        self.make_solver, self.solve, self.play_phase = TrickSolver, solve_deal, PHASE_PLAY
        self.max_entries = max_entries
        self.solvers: dict[int, object] = {}

    def __call__(self, state: State, player: int) -> list[float] | None:
        if state.phase != self.play_phase:
            return None
        solver = self.solvers.get(state.trump)
        if solver is None or len(solver.bounds) > self.max_entries:
            solver = self.solvers[state.trump] = self.make_solver(state.trump)
        values = self.solve(state, solver)
        game = state.game
        scorer = next((seat % 2 for seat, v in enumerate(values) if v > 0), None)
        if game.deal_mode or scorer is None:
            return values
        wins = state.points[scorer] == 1
        if game.options["reward"] == "points":
            weight = 2.0 if wins else 1.0
        else:
            weight = 1.0 / max(1, state.points[scorer])
        return [v * weight for v in values]


class EthnosAgeEndValue:
    """Per seat, the mean over the others of ``tanh(glory margin / scale)`` after scoring the
    current Age on a copy of the sampled world as if it ended now: the kingdoms with the markers
    on the board, the Merfolk track, the Giant bonus and every band of this Age (the rules' own
    ``score_age`` and ``score_bands``). The hands, which an Age end would discard, count
    nothing; Orc hordes are not emptied (their holders would choose)."""

    def __init__(self, scale: float):
        from tablezoo.envs.ethnos.scoring import score_age, score_bands

        self.scale = scale
        self.score_age, self.score_bands = score_age, score_bands

    def __call__(self, state: State, player: int) -> np.ndarray:
        world = state.clone()
        self.score_age(world)
        self.score_bands(world)
        n = len(world.glory)
        others = [tuple(q for q in range(n) if q != p) for p in range(n)]
        return margin_values(world.glory, others, self.scale)
