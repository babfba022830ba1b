"""ethnos's leaf value for ISMCTS: the glory margins if the current Age ended now (glory only
changes at Age ends, so without it a cut-off in mid-Age sees only the Ages already over)."""

from __future__ import annotations

import numpy as np

from tablezoo.agents.search.leaf_values import margin_values
from tablezoo.envs.core.game import State
from tablezoo.envs.ethnos.scoring import score_age, score_bands


class EthnosAgeEndValue:
    """Per seat, the mean over the others of ``tanh(glory margin / scale)`` after scoring the
    current Age on a copy of the sampled world as if it ended now: the kingdoms with the markers
    on the board, the Merfolk track, the Giant bonus and every band of this Age (the rules' own
    ``score_age`` and ``score_bands``). The hands, which an Age end would discard, count
    nothing; Orc hordes are not emptied (their holders would choose)."""

    def __init__(self, scale: float):
        self.scale = scale
        self.score_age, self.score_bands = score_age, score_bands

    def __call__(self, state: State, player: int) -> np.ndarray:
        world = state.clone()
        self.score_age(world)
        self.score_bands(world)
        n = len(world.glory)
        others = [tuple(q for q in range(n) if q != p) for p in range(n)]
        return margin_values(world.glory, others, self.scale)
