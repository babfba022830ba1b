"""Warm start by imitation: behaviour cloning of a teacher agent into a MaskablePPO policy.

The teacher (default ``heuristic``) plays every seat of ``games`` seeded games; each of its
decisions with more than one legal action becomes a sample (scaled observation, mask, action,
and the seat's final return). The actor is fitted by cross-entropy on the *masked* distribution
(the one MaskablePPO samples from) and the critic by squared error on the final return, so PPO
starts from the teacher's play with a value function that already knows what a position is worth.

Soft targets (``temperature``): a teacher that values its moves (``action_values``: the
rollout search's mean return of every legal move) labels each decision with all its values, and
the actor is fitted to their softmax at that temperature instead of the one chosen move, so a
clone learns which moves are close and which are blunders (Hinton et al.'s distillation; the
search's value distribution of expert iteration). ``value_target="search"`` fits the critic to
the search's value of the position (its best move's value) instead of the game's final return,
which is far less noisy.

DAgger (``dagger``): the clone plays against the teacher, a teacher that follows the clone's seat
labels the positions the clone's own play reached, and the policy is refitted on all samples so
far. Cloning alone never shows the teacher's answer in positions the teacher would not have
reached, which is where a clone's errors compound over long games.

The teacher's games can be played in worker processes (``play_in_blocks``): a slow teacher
(bower's heuristic, a search) is most of a clone's time, and the samples are exactly those of one
process (tested), so a run's result does not depend on their number.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing as mp
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablezoo.agents.base import Agent, BaseAgent
from tablezoo.agents.learned.advice import advice_of, advisor_factory, advisor_seed, with_advice
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.evaluation.teams import partners_of

# the critic's target: the deciding seat's final return, or the search's value of the position
VALUE_TARGETS = ("return", "search")
# DAgger round r plays its games on seeds from seed + r * DAGGER_SEED_STRIDE (cloning: seed..)
DAGGER_SEED_STRIDE = 1_000_000


@dataclass
class Demonstrations:
    obs: np.ndarray       # (n, obs_size) float32, already scaled
    masks: np.ndarray     # (n, num_actions) bool
    actions: np.ndarray   # (n,) int64
    returns: np.ndarray   # (n,) float32: the critic's target (final return or search value)
    # (n, num_actions) float32: the teacher's value of each move (NaN: not valued); None where
    # the teacher's moves were recorded without values
    values: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.actions)

    def head(self, count: int) -> Demonstrations:
        """The first ``count`` samples."""
        return Demonstrations(self.obs[:count], self.masks[:count], self.actions[:count],
                              self.returns[:count],
                              None if self.values is None else self.values[:count])


def generate(game: Game, settings: ImitationSettings) -> Demonstrations:
    """The teacher's decisions in ``settings.games`` self-play games from ``settings.seed`` on
    (at most ``max_samples``); returns are multiplied by ``reward_scale`` like the collector's
    rewards, so the critic learns the values PPO will see. With ``advice`` each sample's input
    also holds the move of that seat's advisor (``tablezoo.agents.learned.advice``), as an
    advised network will read it. ``processes`` > 1 plays the games in that many worker
    processes (the same samples, in the same order). ``scaled``: the inputs are the observations
    times the spec's scale (``scale_inputs``)."""
    return _record_split(game, settings, settings.games, settings.seed).demos


@dataclass
class Recording:
    demos: Demonstrations
    # per game played, in order: samples recorded, the learner's decisions with more than one
    # legal action, and those where it played the teacher's label
    game_samples: list[int]
    game_decisions: list[int]
    game_hits: list[int]

    @property
    def learner_decisions(self) -> int:
        return sum(self.game_decisions)

    @property
    def learner_agreement(self) -> float | None:
        """Share of the learner's decisions where it played the teacher's label."""
        decisions = self.learner_decisions
        return sum(self.game_hits) / decisions if decisions else None


def generate_dagger(game: Game, settings: ImitationSettings, learner: Agent,
                    seed: int) -> Recording:
    """DAgger data (Ross, Gordon & Bagnell 2011) of ``settings.dagger_games`` games (default:
    ``settings.games``) from ``seed`` on, the rest as ``generate``'s: in game ``g`` the
    ``learner`` plays seat
    ``g mod players`` and its partners, the teacher every other seat. Each decision with more
    than one legal action is a sample labelled by the teacher: its own move in its seats, and
    in the learner's seats the move of a teacher that follows that seat (a separate instance,
    shown every observation of it, so stateful teachers keep their plans). The samples come
    from the positions the learner's own play leads to, which cloning the teacher's games
    never shows, and where a clone's early mistakes would otherwise compound."""
    return _record_split(game, settings, settings.dagger_games or settings.games, seed, learner)


def play_in_blocks(record: Callable[..., Any], games: int, processes: int,
                   args: tuple[Any, ...]) -> list[Any]:
    """``record(block, *args)`` for contiguous blocks of ``range(games)``, one block per worker
    process (one call in this process when there is one block); the results in game order.
    Each game's seeds come from its index, so the blocks joined are one process's games."""
    if processes < 1:
        raise ValueError(f"processes={processes}; allowed: >= 1")
    size, extra = divmod(games, processes)
    starts = [k * size + min(k, extra) for k in range(processes + 1)]
    blocks = [range(a, b) for a, b in itertools.pairwise(starts) if b > a]
    if len(blocks) <= 1:
        return [record(range(games), *args)]
    context = mp.get_context("forkserver")
    with ProcessPoolExecutor(len(blocks), mp_context=context) as pool:
        return list(pool.map(record, blocks, *[[a] * len(blocks) for a in args]))


def _record_split(game: Game, settings: ImitationSettings, games: int, seed: int,
                  learner: Agent | None = None) -> Recording:
    """``_record`` over all ``games`` from ``seed`` on, in ``settings.processes`` worker
    processes when more than one.

    Game ``g`` is the same game wherever it is played (its seeds, and in DAgger the learner's
    seat, come from ``g``), so each worker records a contiguous block of games, and the blocks
    joined in order and cut at ``max_samples`` are exactly the samples of one process. An
    expensive teacher (bower's heuristic, a search) is what makes cloning slow; it plays the
    games in parallel, the fit afterwards stays in the main process.
    """
    max_samples = settings.max_samples
    parts = play_in_blocks(_record, games, settings.processes, (game, settings, seed, learner))
    if len(parts) == 1:
        return parts[0]
    # one process stops after the game that reaches max_samples: so do the joined blocks
    samples = [k for p in parts for k in p.game_samples]
    played = int(np.searchsorted(np.cumsum(samples), max_samples)) + 1
    samples = samples[:played]
    samples[-1] -= max(0, sum(samples) - max_samples)  # that game's samples beyond the cap
    joined = functools.reduce(merge, (p.demos for p in parts))
    demos = joined.head(max_samples)
    return Recording(demos, samples,
                     [k for p in parts for k in p.game_decisions][:played],
                     [k for p in parts for k in p.game_hits][:played])


def _record(game_ids: range, game: Game, settings: ImitationSettings, seed: int,
            learner: Agent | None = None) -> Recording:
    env_name, teacher, advice = settings.env, settings.teacher, settings.advice
    max_samples, reward_scale = settings.max_samples, settings.reward_scale
    make = factory_from_spec(teacher, env_name)
    # an advisor of the teacher's own kind is the teacher: its advice is the label itself (a
    # separate instance would break exact ties with other random draws, and those contradicting
    # labels teach a network to memorise positions instead of reading its advice)
    label_is_advice = advice == teacher
    make_advisor = None if advice is None or label_is_advice else advisor_factory(advice, env_name)
    n = game.num_players
    valued = settings.temperature is not None or settings.value_target == "search"
    obs, masks, actions, owners, finals, rows = [], [], [], [], [], []
    game_samples, game_decisions, game_hits = [], [], []
    for g in game_ids:
        # the first n + 1 seeds are those of teacher self-play (SeedSequence children do not
        # depend on how many are spawned); the learner and the labelling teachers take n + 1
        # more
        state_seed, *agent_seeds = seeds_for(seed + g, 2 * n + 2)
        players: list[Agent] = [make(s) for s in agent_seeds[:n]]
        labellers: dict[int, Agent] = {}
        if learner is not None:
            learner.reset(agent_seeds[n])
            seat = g % n
            for p in (seat, *partners_of(game, seat)):
                labellers[p], players[p] = make(agent_seeds[n + 1 + p]), learner
        advisors = ({} if make_advisor is None else
                    {p: make_advisor(advisor_seed(state_seed, p)) for p in range(n)})
        state = game.new_state(state_seed)
        ties = np.random.default_rng(state_seed)  # breaks a valuing teacher's exact ties
        first = len(actions)
        decisions = learner_decisions = hits = 0
        while not state.is_over() and decisions < game.max_decisions:
            joint = {}
            for p in state.acting_players():
                mask = state.legal_mask(p)
                o = state.observe(p)
                row = None
                if valued and mask.sum() > 1:  # the teacher's values; it plays the best
                    row = move_values(labellers.get(p, players[p]), o, mask, state, p, teacher)
                    label = best_move(row, ties)
                    a = label if p not in labellers else players[p].act(o, mask, state=state,
                                                                        player=p)
                else:
                    a = players[p].act(o, mask, state=state, player=p)
                    label = a if p not in labellers else labellers[p].act(o, mask, state=state,
                                                                          player=p)
                joint[p] = a
                if label_is_advice:
                    o = with_advice(o, label if mask[:game.num_actions].sum() > 1
                                    else game.num_actions, game.num_actions)
                elif advisors:  # every position of the seat, so its advisor keeps its plans
                    o = with_advice(o, advice_of(advisors[p], state, p, o, mask,
                                                 game.num_actions), game.num_actions)
                if mask.sum() > 1:
                    if p in labellers:
                        learner_decisions += 1
                        hits += a == label
                    if len(actions) < max_samples:
                        obs.append(np.asarray(o, np.float32).copy())
                        masks.append(mask.copy())
                        actions.append(label)
                        owners.append(p)
                        if row is not None:
                            rows.append(row)
            state.apply(joint)
            decisions += 1
        r = state.returns()
        if settings.value_target == "search":
            finals.extend(float(np.nanmax(v)) * reward_scale for v in rows[first:])
        else:
            finals.extend(float(r[p]) * reward_scale for p in owners[first:])
        game_samples.append(len(actions) - first)
        game_decisions.append(learner_decisions)
        game_hits.append(int(hits))
        if len(actions) >= max_samples:
            break
    width = game.obs_spec.size + (game.num_actions if advice is not None else 0)
    # a block of games with no real choice in it records nothing (joined with other blocks)
    x = np.stack(obs).astype(np.float32) if obs else np.zeros((0, width), np.float32)
    if settings.scaled:
        scale_inputs(x, game)
    m = np.stack(masks).astype(bool) if masks else np.zeros((0, game.num_actions), bool)
    values = None
    if valued:
        values = (np.stack(rows).astype(np.float32) if rows
                  else np.zeros((0, game.num_actions), np.float32))
    demos = Demonstrations(x, m, np.asarray(actions, np.int64), np.asarray(finals, np.float32),
                           values)
    return Recording(demos, game_samples, game_decisions, game_hits)


def values_moves(agent: Agent) -> bool:
    """Whether ``agent`` says what each move is worth (overrides ``action_values``)."""
    return type(agent).action_values is not BaseAgent.action_values


def move_values(agent: Agent, observation: np.ndarray, mask: np.ndarray, state: Any,
                player: int, teacher: str) -> np.ndarray:
    """The teacher's value of each action (``action_values``), NaN where it values none (an
    illegal move, or one a candidate-limited teacher left out)."""
    values = agent.action_values(observation, mask, state=state, player=player)
    if not values:
        raise ValueError(f"teacher {teacher!r} gave no values for a decision with "
                         f"{int(mask.sum())} legal moves; soft targets and the search's value "
                         "need a teacher that values its moves (e.g. rollout)")
    row = np.full(len(mask), np.nan, np.float32)
    row[np.fromiter(values, np.int64)] = np.fromiter(values.values(), np.float64)
    return row


def best_move(row: np.ndarray, rng: np.random.Generator) -> int:
    """The highest-valued move, exact ties broken by ``rng``."""
    best = np.flatnonzero(row == np.nanmax(row))
    return int(best[rng.integers(best.size)])


def soft_targets(values: np.ndarray, temperature: float) -> np.ndarray:
    """Each row's softmax of ``values / temperature`` over its valued moves (0 elsewhere)."""
    logits = np.where(np.isnan(values), -np.inf, values / temperature)
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)


def scale_inputs(x: np.ndarray, game: Game) -> None:
    """Network inputs ``x`` (rows, in place) times the spec's scale: the network's input scaling
    (``obs_scale_for``), whose advice one-hot (an advised input's columns past the spec) is 1."""
    x[:, :game.obs_spec.size] *= game.obs_spec.scale


def merge(a: Demonstrations, b: Demonstrations) -> Demonstrations:
    """DAgger's aggregate: every sample of both (their values where both have them)."""
    values = (None if a.values is None or b.values is None
              else np.concatenate([a.values, b.values]))
    return Demonstrations(np.concatenate([a.obs, b.obs]), np.concatenate([a.masks, b.masks]),
                          np.concatenate([a.actions, b.actions]),
                          np.concatenate([a.returns, b.returns]), values)


@dataclass(kw_only=True)
class ImitationSettings:
    """A warm start by imitation (``tablezoo train --bc-*``/``--dagger-*``, ``tablezoo
    imitate``): the ``teacher`` plays ``games`` seeded games from ``seed`` on, at most
    ``max_samples`` decisions are kept (per DAgger round too), the clone fits them in ``epochs``
    passes; then ``dagger_rounds`` rounds of ``dagger_games`` games (default: ``games``) and
    ``dagger_epochs`` passes. ``temperature``: the actor fits the softmax of the teacher's move
    values at that temperature (None: its chosen move); ``value_target``: the critic fits the
    final ``"return"`` or the ``"search"``'s value. ``reward_scale``, ``advice`` and ``scaled``
    (the network reads the observations times the spec's scale) are the training run's."""

    env: str
    games: int
    teacher: str = "heuristic"
    seed: int = 0
    epochs: int = 10
    max_samples: int = 200_000
    reward_scale: float = 1.0
    advice: str | None = None
    processes: int = 1
    dagger_rounds: int = 0
    dagger_games: int | None = None
    dagger_epochs: int = 4
    temperature: float | None = None
    value_target: str = "return"
    scaled: bool = True

    def __post_init__(self) -> None:
        if self.temperature is not None and not (
                isinstance(self.temperature, int | float) and 0 < self.temperature < np.inf):
            raise ValueError(f"imitation: temperature={self.temperature!r}; allowed: a number "
                             "above 0, or None (the teacher's chosen move)")
        if self.value_target not in VALUE_TARGETS:
            raise ValueError(f"imitation: value_target={self.value_target!r}; allowed: "
                             f"{', '.join(VALUE_TARGETS)}")


def warm_start(policy: Any, game: Game, settings: ImitationSettings,
               log: Any = print) -> dict[str, Any]:
    """Clone the teacher's games into ``policy``, then run the DAgger rounds; returns the
    card's ``bc`` record (samples, agreement, the rounds, the seconds)."""
    t0 = time.perf_counter()
    demos = generate(game, settings)
    info = clone(policy, demos, epochs=settings.epochs, seed=settings.seed, log=log,
                 temperature=settings.temperature)
    info.update({"games": settings.games, "teacher": settings.teacher})
    if settings.temperature is not None or settings.value_target != "return":
        info.update({"temperature": settings.temperature, "value_target": settings.value_target})
    if settings.dagger_rounds > 0:
        info["dagger"] = dagger(policy, demos, game, settings, log=log)
    info["seconds"] = round(time.perf_counter() - t0, 1)
    return info


def dagger(policy: Any, demos: Demonstrations, game: Game, settings: ImitationSettings,
           log: Any = print) -> list[dict[str, Any]]:
    """``settings.dagger_rounds`` DAgger iterations after cloning ``demos`` into ``policy``: the
    greedy policy plays ``settings.dagger_games`` games against the teacher
    (``generate_dagger``, seeds apart from the cloning games'), the labelled samples join the
    aggregate, and the policy is fitted to it again (``settings.dagger_epochs`` passes, from
    its current weights). Returns one record per round; its ``learner_agreement`` is measured
    on the policy's own positions, before that round's fit."""
    from tablezoo.agents.learned.policy import MLPAgent
    from tablezoo.training.selfplay.callbacks import export_policy

    s = settings
    rounds, games = s.dagger_rounds, s.dagger_games or s.games
    history = []
    for r in range(rounds):
        card = {"env": s.env, "advice": s.advice} if s.advice else None
        learner = MLPAgent(export_policy(policy, game, s.scaled, card), deterministic=True)
        recording = generate_dagger(game, s, learner, s.seed + DAGGER_SEED_STRIDE * (r + 1))
        demos = merge(demos, recording.demos)
        fit = clone(policy, demos, epochs=s.dagger_epochs, seed=s.seed + r + 1, log=log,
                    temperature=s.temperature)
        # clone's held-out split is drawn afresh from the aggregate, so it can hold samples an
        # earlier round was fitted on: optimistic, hence its own name; the clean figure is
        # learner_agreement (fresh games, before the fit)
        fit["aggregate_agreement"] = fit.pop("heldout_agreement")
        history.append({"round": r + 1, "games": games, "new_samples": len(recording.demos),
                        "learner_decisions": recording.learner_decisions,
                        "learner_agreement": recording.learner_agreement, **fit})
        log(f"dagger round {r + 1}/{rounds}: learner agreed with the teacher on "
            f"{recording.learner_agreement:.3f} of its {recording.learner_decisions} decisions; "
            f"{len(demos)} samples in all")
    return history


def clone(policy: Any, demos: Demonstrations, epochs: int = 10, batch_size: int = 512,
          lr: float = 1e-3, value_coef: float = 0.5, holdout: float = 0.1, seed: int = 0,
          log: Any = print, temperature: float | None = None) -> dict[str, float]:
    """Fit ``policy`` (an sb3 MaskablePPO policy) to ``demos``: the actor to the teacher's move
    (``temperature``: to the softmax of its move values), the critic to ``returns``; returns
    held-out agreement."""
    if epochs < 1:
        raise ValueError(f"clone: epochs={epochs}; allowed: 1 or more")
    if temperature is not None and demos.values is None:
        raise ValueError(f"clone: temperature={temperature}: the demonstrations hold no move "
                         "values (record them with a teacher that values its moves)")
    import torch

    targets = None if temperature is None else soft_targets(demos.values, temperature)

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos))
    n_val = max(1, int(len(order) * holdout))
    val, train = order[:n_val], order[n_val:]
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.set_training_mode(True)

    def tensors(idx: np.ndarray):
        return (torch.as_tensor(demos.obs[idx]), demos.masks[idx],
                torch.as_tensor(demos.actions[idx]), torch.as_tensor(demos.returns[idx]))

    def actor_loss(obs: Any, masks: np.ndarray, acts: Any, idx: np.ndarray) -> Any:
        """Cross-entropy of the masked policy against the teacher's move (or soft targets)."""
        if targets is None:
            _, log_prob, _ = policy.evaluate_actions(obs, acts, action_masks=masks)
            return -log_prob.mean()
        log_probs = policy.get_distribution(obs, action_masks=masks).distribution.logits
        target = torch.as_tensor(targets[idx])
        return -torch.where(target > 0, target * log_probs, 0.0).sum(dim=1).mean()

    for epoch in range(epochs):
        rng.shuffle(train)
        total = 0.0
        for start in range(0, len(train), batch_size):
            idx = train[start:start + batch_size]
            obs, masks, acts, rets = tensors(idx)
            values = policy.predict_values(obs).flatten()
            loss = (actor_loss(obs, masks, acts, idx)
                    + value_coef * torch.nn.functional.mse_loss(values, rets))
            total += descend(policy, optimizer, loss) * len(acts)
        agree = agreement(policy, demos, val)
        log(f"bc epoch {epoch + 1}/{epochs}: loss {total / len(train):.4f}, "
            f"held-out agreement {agree:.3f}")
    policy.set_training_mode(False)
    return {"samples": len(demos), "heldout_agreement": agree, "epochs": epochs}


def descend(policy: Any, optimizer: Any, loss: Any) -> float:
    """One optimizer step on ``loss`` with the gradient norm clipped at 0.5 (sb3's PPO default,
    so a warm start moves the weights as PPO will); returns the loss."""
    import torch

    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    optimizer.step()
    return float(loss.detach())


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
