"""Golden playthroughs: one seeded random game per env case written as text, so any change in
rules, observations, masks or rewards shows up as a diff. ``python -m tests.envs.golden.regenerate``
rewrites them on purpose; ``tests/envs/test_golden.py`` compares."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

from tablezoo import envs

GOLDEN_DIR = Path(__file__).parent / "golden"
SEED = 2026


def golden_path(name: str, options: dict) -> Path:
    suffix = "".join(f"__{k}-{v}" for k, v in options.items())
    return GOLDEN_DIR / f"{name}{suffix}.txt"


def playthrough_text(name: str, options: dict, seed: int = SEED) -> str:
    """Actions, rewards and a digest of every observation and mask of one seeded game."""
    env = envs.make(name, **options)
    env.reset(seed=seed)
    pick = np.random.default_rng(seed)
    lines = [f"# golden playthrough of {name} options={options} seed={seed}",
             "# step agent action | reward | obs crc32 nonzeros sum | legal actions", ""]
    lines += ["initial position:", str(env.game_state), ""]
    step = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        vec, mask = obs["observation"], obs["action_mask"]
        digest = f"{zlib.crc32(vec.tobytes()):08x} {np.count_nonzero(vec)} {float(vec.sum()):.4f}"
        if term or trunc:
            lines.append(f"{step:5d} {agent} end | {reward:+g} | {digest} | "
                         f"{'terminated' if term else 'truncated'}")
            env.step(None)
            continue
        legal = np.flatnonzero(mask)
        action = int(legal[int(pick.integers(len(legal)))])
        lines.append(f"{step:5d} {agent} {action} {env.game.action_name(action)} | {reward:+g} | "
                     f"{digest} | {len(legal)}")
        env.step(action)
        step += 1
    state = env.game_state
    lines += ["", "final position:", str(state), "",
              f"scores: {state.scores()}", f"breakdown: {state.score_breakdown()}",
              f"returns: {state.returns()}", ""]
    return "\n".join(lines)
