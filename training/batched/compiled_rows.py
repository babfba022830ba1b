"""Some rows of the compiled ``bauer_trick_v0`` engine stepped in place (``stepping``'s fast
path): each row of ``rows`` through the engine's own kernels, the other rows untouched."""

from __future__ import annotations

from numba import njit

from tablezoo.envs.bauer_trick.kernels import step_rules, write_decisions


@njit(cache=True)
def step_rows(S, R, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) in every row ``i`` of ``rows`` and write its
    next decision; every other row gets zero rewards and no ending."""
    rewards[:] = 0.0
    terminated[:] = False
    truncated[:] = False
    for k in range(rows.shape[0]):
        i = rows[k]
        j = i + 1
        step_rules(S[i:j], R[i:j], rng[i:j], opts, actions[i:j], rewards[i:j],
                   terminated[i:j], truncated[i:j])
        write_decisions(S[i:j], opts, obs[i:j], mask[i:j], seat[i:j], 0, 1)
