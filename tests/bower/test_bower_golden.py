"""Golden playthrough: one seeded bower_v0 game through the AEC env, written as text and diffed.

Regenerate on purpose with ``BOWER_REGEN_GOLDEN=1 pytest tests/bower/test_bower_golden.py``
after an intended rules or encoding change (and say why in the commit).
"""

import hashlib
import os
from pathlib import Path

import numpy as np

from envs.bower.env import env

GOLDEN = Path(__file__).with_name("golden_bower_v0_seed2024.txt")


def playthrough_text() -> str:
    e = env(render_mode="ansi")
    e.reset(seed=2024)
    rng = np.random.default_rng(2024)
    lines = []
    for k, agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            lines.append(f"end {agent} reward={reward:+.0f}")
            e.step(None)
            continue
        digest = hashlib.sha1(obs["observation"].tobytes()).hexdigest()[:12]
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[rng.integers(len(legal))])
        lines.append(
            f"{k:3d} {agent} legal={len(legal):3d} obs={digest} -> {a} {e.game.action_name(a)}"
        )
        e.step(a)
    s = e.state
    lines.append(f"scores={s.scores()} winner={s.winner()}")
    for q in (0, 1):
        lines.append(
            f"player_{q} "
            + " ".join(f"{k}={int(v)}" for k, v in s.score_breakdown()[q].items() if v)
        )
    lines.append(e.render())
    return "\n".join(lines) + "\n"


def test_golden_playthrough():
    text = playthrough_text()
    if os.environ.get("BOWER_REGEN_GOLDEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
