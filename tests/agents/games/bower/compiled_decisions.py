"""The compiled bower heuristic against the Python one, decision by decision.

``python -m tests.agents.games.bower.compiled_decisions --decisions 50000`` plays the compiled
engine (``make_vector("bower_v0", ...)``) under every option set of ``OPTION_SETS`` (the
record's variants, and the two options the heuristic reads set otherwise) and prints, per set,
the decisions compared and how many differ; ``test_compiled_heuristic.py`` runs the same on a
few hundred decisions.

How: at every step each slot's observation and mask are answered by the compiled heuristic
(``heuristic_for(**options)``, all slots in one call) and by a Python ``HeuristicAgent`` with
the record's ``exact_heuristic`` keywords, one per slot and seat (reset when its slot's game
ends), given the slot's position (``get_state``: the agent reads the game's options there). The
slot then plays the compiled choice or, with probability ``p_random`` (a different one per
slot), a random legal action, so the games reach every phase from positions the heuristic would
not reach itself. At every token decision the observation's ``effect`` piece must name the
token tile being resolved: that is why the compiled heuristic needs none of the Python agent's
memory (the tile it kept last).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from tablezoo import envs
from tablezoo.agents.games import agents_of
from tablezoo.agents.games.bower.compiled_heuristic import heuristic_for
from tablezoo.agents.games.bower.heuristic import HeuristicAgent
from tablezoo.agents.games.bower.heuristic.pieces import TK
from tablezoo.envs.bower.actions import PHASES
from tablezoo.envs.bower.observation import OBS_SPEC

ENV = "bower_v0"
OPTION_SETS = [*envs.VARIANTS[ENV], {"x_cancels": "one"}, {"bonus_tiles": False},
               {"x_cancels": "one", "hands_public": False, "double_turn_mode": "swap"}]
PHASE = OBS_SPEC.slice("phase")
EFFECT = OBS_SPEC.slice("effect")


@dataclass
class Compared:
    """Decisions compared under one option set, those that differ and the phases seen."""

    decisions: int = 0
    differ: int = 0
    phases: dict[str, int] = field(default_factory=dict)
    first_differences: list[str] = field(default_factory=list)


def compare(options: dict, decisions: int, seed: int, batch: int = 16) -> Compared:
    """Play ``batch`` compiled games with ``options`` until ``decisions`` decisions have been
    answered by both heuristics; count where they differ."""
    vec = envs.make_vector(ENV, batch, seed=seed, **options)
    compiled = heuristic_for(**options)
    exact = agents_of(ENV).exact_heuristic
    rng = np.random.default_rng(seed)
    p_random = np.linspace(0.1, 0.7, batch)
    agents: dict[tuple[int, int], HeuristicAgent] = {}
    obs, mask, seat = vec.reset()
    result = Compared()
    while result.decisions < decisions:
        got = compiled(obs, mask)
        for i in range(batch):
            if not mask[i].any():
                continue
            state = vec.get_state(i)
            p = int(seat[i])
            agent = agents.setdefault((i, p), HeuristicAgent(seed + 7 * i + p, **exact))
            want = agent.act(obs[i], mask[i], state, p)
            phase = PHASES[int(np.argmax(obs[i, PHASE]))]
            result.decisions += 1
            result.phases[phase] = result.phases.get(phase, 0) + 1
            if phase == "token":
                effect = obs[i, EFFECT]
                assert effect.sum() == 1 and int(np.argmax(effect)) in TK[:4], \
                    "a token decision whose observation does not name the token tile"
            if want != got[i]:
                result.differ += 1
                if len(result.first_differences) < 5:
                    result.first_differences.append(
                        f"slot {i} seat {p} phase {phase}: agent {want}, compiled {got[i]}")
        rand = np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)
        played = np.where(rng.random(batch) < p_random, rand, got)
        obs, mask, seat, _rewards, terminated, truncated = vec.step(played)
        for i in np.flatnonzero(terminated | truncated):
            for p in (0, 1):
                agents.pop((int(i), p), None)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=50000, help="in all, over the sets")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    share = -(-args.decisions // len(OPTION_SETS))
    total = differ = 0
    start = time.perf_counter()
    for n, options in enumerate(OPTION_SETS):
        r = compare(options, share, args.seed + 1000 * n, args.batch)
        total += r.decisions
        differ += r.differ
        print(f"{options or 'defaults'}: {r.decisions} decisions, {r.differ} differ; phases "
              f"{dict(sorted(r.phases.items()))}", flush=True)
        for line in r.first_differences:
            print("  " + line)
    print(f"total: {total} decisions over {len(OPTION_SETS)} option sets, {differ} differ "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
