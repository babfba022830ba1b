"""Warm start by imitation: behaviour cloning of a teacher agent into a MaskablePPO policy.

The teacher (default ``heuristic``) plays every seat of ``games`` seeded games; each of its
decisions with more than one legal action becomes a sample (scaled observation, mask, action,
and the seat's final return). The actor is fitted by cross-entropy on the *masked* distribution
(the one MaskablePPO samples from) and the critic by squared error on the final return, so PPO
starts from the teacher's play with a value function that already knows what a position is worth.

    python -m training.imitate --env bower_v0 --games 400 --out /work/runs/bower_bc

writes ``OUT/model.zip`` (a MaskablePPO model ``training.train --init`` continues from) and
``OUT/bc.json`` (samples, agreement with the teacher on held-out games). ``training.train
--bc-games N`` does the same inside a training run.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.registry import factory_from_spec
from envs.core.game import Game
from training.cli import make_parser
from training.match import seeds_for


@dataclass
class Demonstrations:
    obs: np.ndarray       # (n, obs_size) float32, already scaled
    masks: np.ndarray     # (n, num_actions) bool
    actions: np.ndarray   # (n,) int64
    returns: np.ndarray   # (n,) float32: the deciding seat's final return

    def __len__(self) -> int:
        return len(self.actions)


def generate(game: Game, env_name: str, games: int, seed: int = 0, teacher: str = "heuristic",
             obs_scale: np.ndarray | None = None, max_samples: int = 200_000,
             reward_scale: float = 1.0) -> Demonstrations:
    """The teacher's decisions in ``games`` self-play games (at most ``max_samples``); returns
    are multiplied by ``reward_scale`` like the collector's rewards, so the critic learns the
    values PPO will see."""
    make = factory_from_spec(teacher, env_name)
    obs, masks, actions, owners, finals = [], [], [], [], []
    for g in range(games):
        state_seed, *agent_seeds = seeds_for(seed + g, game.num_players + 1)
        agents = [make(s) for s in agent_seeds]
        state = game.new_state(state_seed)
        first = len(actions)
        decisions = 0
        while not state.is_over() and decisions < game.max_decisions:
            joint = {}
            for p in state.acting_players():
                mask = state.legal_mask(p)
                o = state.observe(p)
                a = agents[p].act(o, mask, state=state, player=p)
                joint[p] = a
                if mask.sum() > 1 and len(actions) < max_samples:
                    obs.append(np.asarray(o, np.float32).copy())
                    masks.append(mask.copy())
                    actions.append(a)
                    owners.append(p)
            state.apply(joint)
            decisions += 1
        r = state.returns()
        finals.extend(float(r[p]) * reward_scale for p in owners[first:])
        if len(actions) >= max_samples:
            break
    x = np.stack(obs).astype(np.float32)
    if obs_scale is not None:
        x *= obs_scale
    return Demonstrations(x, np.stack(masks).astype(bool), np.asarray(actions, np.int64),
                          np.asarray(finals, np.float32))


def clone(policy: Any, demos: Demonstrations, epochs: int = 10, batch_size: int = 512,
          lr: float = 1e-3, value_coef: float = 0.5, holdout: float = 0.1, seed: int = 0,
          log: Any = print) -> dict[str, float]:
    """Fit ``policy`` (an sb3 MaskablePPO policy) to ``demos``; returns held-out agreement."""
    import torch

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos))
    n_val = max(1, int(len(order) * holdout))
    val, train = order[:n_val], order[n_val:]
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.set_training_mode(True)

    def tensors(idx: np.ndarray):
        return (torch.as_tensor(demos.obs[idx]), demos.masks[idx],
                torch.as_tensor(demos.actions[idx]), torch.as_tensor(demos.returns[idx]))

    for epoch in range(epochs):
        rng.shuffle(train)
        total = 0.0
        for start in range(0, len(train), batch_size):
            obs, masks, acts, rets = tensors(train[start:start + batch_size])
            _, log_prob, _ = policy.evaluate_actions(obs, acts, action_masks=masks)
            values = policy.predict_values(obs).flatten()
            loss = -log_prob.mean() + value_coef * torch.nn.functional.mse_loss(values, rets)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total += float(loss.detach()) * len(acts)
        agree = agreement(policy, demos, val)
        log(f"bc epoch {epoch + 1}/{epochs}: loss {total / len(train):.4f}, "
            f"held-out agreement {agree:.3f}")
    policy.set_training_mode(False)
    return {"samples": len(demos), "heldout_agreement": agree, "epochs": epochs}


def agreement(policy: Any, demos: Demonstrations, idx: np.ndarray) -> float:
    """Share of ``idx`` decisions where the policy's greedy masked action is the teacher's."""
    import torch

    hits = 0
    with torch.no_grad():
        for start in range(0, len(idx), 4096):
            part = idx[start:start + 4096]
            dist = policy.get_distribution(torch.as_tensor(demos.obs[part]),
                                           action_masks=demos.masks[part])
            greedy = dist.distribution.probs.argmax(-1).numpy()
            hits += int((greedy == demos.actions[part]).sum())
    return hits / len(idx)


def main(argv: list[str] | None = None) -> int:
    from training import train

    p = make_parser("training.imitate", __doc__)
    p.add_argument("--config", help="a training/configs/*.json (network, env, options)")
    p.add_argument("--env")
    p.add_argument("--out", required=True)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--teacher", default="heuristic")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    train_argv = ["--timesteps", "0", "--out", args.out, "--bc-games", str(args.games),
                  "--bc-teacher", args.teacher, "--bc-epochs", str(args.epochs),
                  "--seed", str(args.seed), "--eval-games", "0", "--no-progress"]
    if args.config:
        train_argv = ["--config", args.config, *train_argv]
    if args.env:
        train_argv += ["--env", args.env]
    t0 = time.perf_counter()
    code = train.main(train_argv)
    print(json.dumps({"seconds": round(time.perf_counter() - t0, 1)}))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
