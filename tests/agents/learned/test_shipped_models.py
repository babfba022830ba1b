"""Every shipped model loads for its env and player count and plays legal games, numpy only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

CODE = """
import json, sys
from pathlib import Path
from tablezoo import envs
from tablezoo.agents import make_agent
from tablezoo.training.evaluation.match import play_game
cards = sorted(Path('agents/pretrained').glob('*.json'))
assert len(cards) >= 6, cards
for path in cards:
    card = json.loads(path.read_text())
    env, n = card['env'], card['num_players']
    options = {'num_players': n} if env in ('bauer_draft_v0', 'ethnos_v0') else {}
    if env == 'bauer_trick_v0':
        options['episode'] = 'deal'
    game = envs.make_game(env, **options)
    agents = [make_agent('trained', env_name=env, num_players=n, seed=p) for p in range(n)]
    if card['format'] == 'tablezoo-heuristic-weights-v1':   # evolved heuristic weights
        heuristic = agents[0].heuristic
        assert {k: getattr(heuristic, k) for k in card['parameters']} == card['parameters']
    else:
        mlp = agents[0].mlp
        assert mlp.env_obs_size == game.obs_spec.size and mlp.obs_size == card['obs_size']
        advice = game.num_actions if card.get('advice') else 0   # advised: the heuristic's move
        assert card['obs_size'] == game.obs_spec.size + advice
    result = play_game(game, agents, seed=3)   # legal actions, or the engine raises
    assert len(result.returns) == n
    spec_agent = make_agent('trained', env_name=env)   # no player count: picked by obs size
    assert play_game(game, [spec_agent] + agents[1:], seed=4).decisions > 0
print(','.join(m for m in ('torch', 'sb3_contrib') if m in sys.modules))
"""


def test_shipped_models_play_without_torch():
    out = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True,
                         env={"OPENBLAS_NUM_THREADS": "1",
                              "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""  # neither torch nor sb3 was imported
