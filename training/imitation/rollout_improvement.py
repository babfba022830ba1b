"""One step of policy improvement by rollouts: a network that plays the teacher's move unless a
rollout-valued alternative is predicted to pay more.

Cloning copies a teacher; it cannot pass it. Policy improvement can (Bertsekas's rollout
algorithm; Lagoudakis & Parr's rollout-based policy iteration): the teacher (default
``heuristic``) plays every seat of ``games`` seeded games, and at each decision with more than
one legal action every legal action is tried on a clone of the true state and played out to the
end by the teacher in all seats. The deciding seat's return after each action is that action's
value *under the teacher* in this deal. Its hidden part (the other hands, the draw pile) is
the true one, so a single label is luck as much as skill; but the network sees only the
observation, and a regression over many deals learns the value averaged over the hidden states
that the observation leaves possible, weighted as the teacher's own play makes them likely.

The actor's logits are fitted to each action's value *relative to the teacher's move*, minus
``margin`` for every other action: the deal's luck is common to all actions of a position, so
the differences are far less noisy than the values, and the margin keeps the teacher's move
wherever no alternative is predicted to beat it clearly (near-ties broken away from the teacher
change what its partner and its later moves assumed, and cost more than they gain). The greedy
network is then the improved policy; the critic learns the value of the teacher's move.

    tablezoo train --config training/configs/bauer_trick_rollout_sym.json --out DIR

A rollout costs a whole game's remaining decisions per legal action, so this suits short games
with a fast teacher (bauer_trick: the shipped model's 80,000 deals took 29 minutes on two
shared cores). Positions where several seats act at once (simultaneous moves) have no single
deciding seat and are refused by name.

The held-out figures of ``fit`` are over whole games left out of the fit (positions of one
deal share its cards, so splitting positions read optimistic: +0.0038 a decision where whole
deals give about +0.002); the games played against the heuristic afterwards are the measurement.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.learned.advice import with_advice
from tablezoo.agents.registry import factory_from_spec
from tablezoo.envs.core.game import Game, State
from tablezoo.envs.core.symmetry import Symmetries
from tablezoo.training.evaluation.match import seeds_for
from tablezoo.training.imitation.cloning import descend, play_in_blocks, scale_inputs


@dataclass
class ActionValues:
    obs: np.ndarray      # (n, width) float32, scaled; an advised network's advice included
    masks: np.ndarray    # (n, num_actions) bool
    teacher: np.ndarray  # (n,) int64: the teacher's move
    values: np.ndarray   # (n, num_actions) float32: the seat's return after each legal action
    games: np.ndarray | None = None  # (n,) int64: the game each position came from (None: its own)

    def __len__(self) -> int:
        return len(self.teacher)

    def game_ids(self) -> np.ndarray:
        """The game of each position; positions without one count as games of their own."""
        return np.arange(len(self)) if self.games is None else self.games

    def teacher_values(self) -> np.ndarray:
        """The rollout value of the teacher's move, per position."""
        return self.values[np.arange(len(self)), self.teacher]

    def gains(self, actions: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """Rollout value of ``actions`` less that of the teacher's move, at positions ``idx``."""
        return self.values[idx, actions] - self.values[idx, self.teacher[idx]]


FIELDS = ("obs", "masks", "teacher", "values", "games")


def save_values(data: ActionValues, path: Any) -> None:
    """The rollout values as a compressed ``.npz`` (``--rollout-save``), to fit them again
    with another margin or number of epochs without playing the games again."""
    np.savez_compressed(path, obs=data.obs, masks=data.masks, teacher=data.teacher,
                        values=data.values, games=data.game_ids())


def load_values(path: Any, width: int, num_actions: int) -> ActionValues:
    """Saved rollout values for a network of input ``width`` and ``num_actions`` actions; a
    file of another shape or without the arrays is refused with what it holds and what is
    needed."""
    try:
        f = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ValueError(f"rollout values {path}: not a readable .npz ({exc})") from None
    if not isinstance(f, np.lib.npyio.NpzFile):  # a bare .npy array
        raise ValueError(f"rollout values {path}: one array, not an .npz of {list(FIELDS)}")
    with f:
        arrays = {k: f[k] for k in FIELDS if k in f.files}
        held = list(f.files)
    if len(arrays) < len(FIELDS):
        raise ValueError(f"rollout values {path}: holds {held}; needed: {list(FIELDS)}")
    data = ActionValues(**arrays)
    n = len(data.teacher)
    wanted = {"obs": (n, width), "masks": (n, num_actions), "values": (n, num_actions),
              "games": (n,)}
    wrong = {k: arrays[k].shape for k, shape in wanted.items() if arrays[k].shape != shape}
    if wrong:
        raise ValueError(f"rollout values {path}: shapes {wrong}; this run needs "
                         f"{ {k: wanted[k] for k in wrong} } (input width {width}, "
                         f"{num_actions} actions)")
    return data


def merge(a: ActionValues, b: ActionValues) -> ActionValues:
    return ActionValues(*(np.concatenate([x, y]) for x, y in
                          zip((a.obs, a.masks, a.teacher, a.values, a.game_ids()),
                              (b.obs, b.masks, b.teacher, b.values, b.game_ids()))))


def check_options(margin: float, explore: float, advice: str | None, teacher: str) -> None:
    if not 0 <= margin < float("inf"):
        raise ValueError(f"rollout margin={margin}: allowed: 0 or more (a return difference)")
    if not 0 <= explore <= 1:
        raise ValueError(f"rollout explore={explore}: allowed: a probability in [0, 1]")
    if advice is not None and advice != teacher:
        raise ValueError(f"rollout values with advice={advice!r} and teacher={teacher!r}: the "
                         "advice must be the teacher's move (allowed: no advice, or advice = "
                         "the teacher)")


def check_symmetries(game: Game, env_name: str, scaled: bool,
                     advised: bool = False) -> Symmetries:
    """The game's symmetries for ``--rollout-symmetries``, or a ValueError naming the envs that
    have some. ``scaled`` inputs (of an ``advised`` network or not) are scaled before they are
    relabelled, so the scale must not change under a relabelling."""
    symmetries = game.symmetries()
    if symmetries is None:
        from tablezoo import envs

        having = [name for name in envs.ENVS if envs.make_game(name).symmetries() is not None]
        raise ValueError(f"--rollout-symmetries: {env_name} declares no symmetries; allowed for: "
                         f"{', '.join(having)}")
    if scaled:
        from tablezoo.training.selfplay.collector import obs_scale_for

        obs_scale = obs_scale_for(game, advised)
        table = symmetries.input_table(len(obs_scale))
        if not all(np.array_equal(obs_scale[row], obs_scale) for row in table):
            raise ValueError(f"--rollout-symmetries: {env_name}'s observation scale differs "
                             "between relabelled entries; pass --no-obs-scale")
    return symmetries


def check_game(game: Game, env_name: str) -> None:
    """Refuse a game whose opening position already has several seats acting at once (the
    generator refuses any later such position when it meets it)."""
    acting = game.new_state(0).acting_players()
    if len(acting) > 1:
        raise ValueError(_simultaneous(env_name, acting))


def _simultaneous(env_name: str, acting: tuple[int, ...]) -> str:
    return (f"rollout values: {env_name} has positions where seats {list(acting)} act at once; "
            "they need one deciding seat (allowed: games where one seat acts at a time)")


@dataclass(kw_only=True)
class RolloutSettings:
    """The rollout values' games (``tablezoo train --rollout-*``, ``generate``): the
    ``teacher`` plays ``games`` games from ``seed`` on, exploring with probability
    ``explore``, valuing ``candidates`` moves a choice (``None``: every legal move), in
    ``processes`` worker processes. ``reward_scale``, ``advice`` and ``scaled`` (the network
    reads the observations times the spec's scale) are the training run's."""

    env: str
    games: int
    teacher: str = "heuristic"
    seed: int = 0
    scaled: bool = True
    explore: float = 0.05
    candidates: int | None = None
    reward_scale: float = 1.0
    advice: str | None = None
    processes: int = 1


def generate(game: Game, settings: RolloutSettings) -> ActionValues:
    """Rollout values of every legal action at each real choice of ``settings.games`` teacher
    games (``RolloutSettings``).

    With probability ``explore`` a seat plays a uniformly random legal move instead of the
    teacher's, so the samples also cover positions just off the teacher's path (where the
    improved policy's own deviations lead). ``processes`` > 1 plays contiguous blocks of games
    in worker processes: game ``g`` depends only on ``seed + g``, so the samples are the same.

    ``candidates=K`` values only the teacher's move and the teacher's next best moves by its own
    ``action_values``, K in all (every legal move where the teacher weighs none, as at a fixed
    rule). The other legal moves get no rollout (NaN): a game with dozens of placements a turn
    (bower) costs K rollouts a choice instead of dozens, and the moves the teacher itself ranks
    lowest are the least likely improvements. ``targets`` keeps them below the teacher's move.

    ``scaled``: the inputs are the observations times the spec's scale (``scale_inputs``).
    """
    s = settings
    check_options(0.0, s.explore, s.advice, s.teacher)
    check_candidates(s.candidates, s.teacher, s.env)
    return functools.reduce(merge, play_in_blocks(_values, s.games, s.processes, (game, s)))


def _values(game_ids: range, game: Game, settings: RolloutSettings) -> ActionValues:
    env_name, seed, teacher = settings.env, settings.seed, settings.teacher
    explore, reward_scale, advice = settings.explore, settings.reward_scale, settings.advice
    candidates = settings.candidates
    make = factory_from_spec(teacher, env_name)
    n, num_actions = game.num_players, game.num_actions
    obs, masks, moves, values, games = [], [], [], [], []
    for g in game_ids:
        state_seed, explore_seed, *agent_seeds = seeds_for(seed + g, 2 * n + 2)
        players = [make(s) for s in agent_seeds[:n]]
        rollout_seeds = agent_seeds[n:]
        playout = [make(s) for s in rollout_seeds]
        # the ranking teachers are apart from the players, so ranking leaves the games unchanged
        rankers = [make(s) for s in agent_seeds[:n]] if candidates else None
        rng = np.random.default_rng(explore_seed)
        state = game.new_state(state_seed)
        decisions = 0
        while not state.is_over() and decisions < game.max_decisions:
            acting = state.acting_players()
            if len(acting) != 1:
                raise ValueError(_simultaneous(env_name, acting))
            (p,) = acting
            mask = state.legal_mask(p)
            o = state.observe(p)
            move = players[p].act(o, mask, state=state, player=p)
            legal = np.flatnonzero(mask[:num_actions])
            if len(legal) > 1:
                row = np.zeros(num_actions, np.float32)
                tried = legal
                if rankers is not None:
                    row[:] = np.nan
                    tried = ranked_candidates(rankers[p], o, mask, state, p, move, legal,
                                              candidates)
                for a in tried:
                    row[a] = _rollout(game, state, p, int(a), playout, rollout_seeds,
                                      decisions) * reward_scale
                obs.append(np.asarray(o if advice is None else
                                      with_advice(o, move, num_actions), np.float32))
                masks.append(mask[:num_actions].astype(bool))
                moves.append(move)
                values.append(row)
                games.append(g)
                if rng.random() < explore:
                    move = int(rng.choice(legal))
            state.apply({p: move})
            decisions += 1
    width = game.obs_spec.size + (num_actions if advice is not None else 0)
    x = np.stack(obs) if obs else np.zeros((0, width), np.float32)
    if settings.scaled:
        scale_inputs(x, game)
    return ActionValues(x, np.stack(masks) if masks else np.zeros((0, num_actions), bool),
                        np.asarray(moves, np.int64),
                        np.stack(values) if values else np.zeros((0, num_actions), np.float32),
                        np.asarray(games, np.int64))


def check_candidates(candidates: int | None, teacher: str, env_name: str) -> None:
    """Refuse a candidate count below 2, or a teacher that does not rank its moves."""
    if candidates is None:
        return
    if candidates < 2:
        raise ValueError(f"rollout candidates={candidates}: allowed: 2 or more (the teacher's "
                         "move and at least one alternative), or none for every legal move")
    state = envs.make_game(env_name).new_state(0)
    seat = state.acting_players()[0]
    if factory_from_spec(teacher, env_name)(0).action_values(
            state.observe(seat), state.legal_mask(seat), state=state, player=seat) is None:
        raise ValueError(f"rollout candidates: the teacher {teacher!r} does not rank its moves "
                         "(no action_values); allowed: a teacher that does, or every legal move")


def ranked_candidates(ranker: Any, observation: np.ndarray, mask: np.ndarray, state: State,
                      player: int, move: int, legal: np.ndarray, k: int) -> np.ndarray:
    """The teacher's ``move`` and its next best legal moves by the ranker's ``action_values``,
    ``k`` in all; where it weighs fewer than two moves (a fixed rule), the first legal ones."""
    values = ranker.action_values(observation, mask, state=state, player=player)
    weighed = [a for a in sorted(values, key=lambda a: -values[a]) if mask[a] and a != move]
    if not weighed:
        weighed = [int(a) for a in legal if a != move]
    return np.asarray([move, *weighed[:k - 1]], np.int64)


def _rollout(game: Game, state: State, player: int, action: int, playout: list[Any],
             seeds: list[int], decisions: int) -> float:
    """``player``'s return when it plays ``action`` and the teacher plays every seat after.
    Every action's playout starts from the same agent seeds (common random numbers), so the
    differences between a position's actions are not blurred by the teacher's own draws. The
    playout teachers start afresh at the rollout's position: a teacher that keeps plans over a
    game makes them from there."""
    for agent, s in zip(playout, seeds):
        agent.reset(s)
    world = state.clone()
    world.apply({player: action})
    decisions += 1
    while not world.is_over() and decisions < game.max_decisions:
        joint = {}
        for p in world.acting_players():
            joint[p] = playout[p].act(world.observe(p), world.legal_mask(p), state=world, player=p)
        world.apply(joint)
        decisions += 1
    return float(world.returns()[player])


def targets(data: ActionValues, margin: float) -> np.ndarray:
    """Each legal action's gain over the teacher's move, less ``margin`` for the others;
    0 where illegal (masked out of the loss).

    A legal action without a rollout (``candidates``) is one the teacher ranked below every
    move tried, so it gets the worst gain tried at that position (never above 0), less the
    margin. Counting it level with the teacher's move instead let dozens of untried moves a
    bower turn sit a margin below the teacher's, and the fitted network played them (0.65 of
    its held-out moves kept, -0.98 against the heuristic)."""
    gain = data.values - data.teacher_values()[:, None]
    tried = ~np.isnan(gain) & data.masks
    worst = np.minimum(np.where(tried, gain, np.inf).min(1), 0.0)
    gain = np.where(np.isnan(gain), worst[:, None], gain) - margin
    gain[np.arange(len(data)), data.teacher] = 0.0
    return np.where(data.masks, gain, 0.0).astype(np.float32)


@dataclass(kw_only=True)
class FitSettings:
    """The rollout fit's (``fit``): ``epochs`` passes over the training games in batches of
    ``batch_size`` rows at Adam's learning rate ``lr``; ``margin``, the gain over the teacher's
    move a move must show to be preferred (in the values' unit: returns times the run's
    ``reward_scale``); the value loss weighted by ``value_coef``; a ``holdout`` share of the
    games held out; the split, the shuffles and the relabellings drawn from ``seed``."""

    epochs: int = 10
    batch_size: int = 1024
    lr: float = 1e-3
    margin: float
    value_coef: float = 0.5
    holdout: float = 0.05
    seed: int = 0


def fit(policy: Any, data: ActionValues, settings: FitSettings, log: Any = print,
        symmetries: Symmetries | None = None,
        on_epoch: Callable[[int], Any] | None = None) -> dict[str, Any]:
    """Fit ``policy``'s (an sb3 MaskablePPO policy) logits to ``targets`` by squared error over
    the legal actions, and its value to the teacher move's return. Returns held-out figures:
    how often the greedy policy keeps the teacher's move, and the rollout gain of its moves
    over the teacher's (a paired estimate of the improvement per decision on the teacher's
    positions).

    With the game's ``symmetries`` (``tablezoo.envs.core.symmetry``) every training row is shown
    under a relabelling drawn afresh each time it is used: the same position and values with, e.g.,
    the suits renamed. The held-out figures are read on the positions as played.

    ``on_epoch(k)`` is called after epoch ``k`` (from 1), e.g. to play the policy as it stands
    (a learning curve over the fit); it must only read the policy."""
    import torch

    margin, epochs, holdout = settings.margin, settings.epochs, settings.holdout
    batch_size, value_coef = settings.batch_size, settings.value_coef
    check_options(margin, 0.0, None, "")
    if epochs < 1 or not 0 < holdout < 1:
        raise ValueError(f"rollout fit: epochs={epochs}, holdout={holdout}; allowed: epochs 1 or "
                         "more, holdout a share strictly between 0 and 1")
    games = np.unique(data.game_ids())
    if len(games) < 2:
        raise ValueError(f"rollout values from {len(games)} game(s); the fit holds out whole "
                         "games, so it needs at least 2")
    rng = np.random.default_rng(settings.seed)
    # whole games are held out: positions of one deal share its cards, so a position split
    # would let the fit recall the held-out deals and read optimistic
    held = rng.permutation(games)[:max(1, int(len(games) * holdout))]
    is_val = np.isin(data.game_ids(), held)
    val, train = np.flatnonzero(is_val), rng.permutation(np.flatnonzero(~is_val))
    goal = torch.as_tensor(targets(data, margin))
    legal = torch.as_tensor(data.masks)
    teacher_value = torch.as_tensor(data.teacher_values())
    obs = torch.as_tensor(data.obs)
    relabel = None if symmetries is None else _Relabel(symmetries, data, rng)
    optimizer = torch.optim.Adam(policy.parameters(), lr=settings.lr)
    policy.set_training_mode(True)
    for epoch in range(epochs):
        rng.shuffle(train)
        total = 0.0
        for start in range(0, len(train), batch_size):
            idx = torch.as_tensor(train[start:start + batch_size])
            x, m, g = obs[idx], legal[idx], goal[idx]
            if relabel is not None:
                x, m, g = relabel(x, m, g)
            err = (logits_of(policy, x) - g) ** 2 * m
            values = policy.predict_values(x).flatten()
            loss = err.sum() / m.sum() + value_coef * torch.nn.functional.mse_loss(
                values, teacher_value[idx])
            total += descend(policy, optimizer, loss) * len(idx)
        report = evaluate(policy, data, val)
        log(f"rollout fit epoch {epoch + 1}/{epochs}: loss {total / len(train):.4f}, held-out: "
            f"teacher's move kept {report['kept']:.3f}, gain per decision "
            f"{report['gain']:+.4f}, untried moves played {report['untried']:.3f}")
        if on_epoch is not None:
            on_epoch(epoch + 1)
    policy.set_training_mode(False)
    info = {"samples": len(data), "epochs": epochs, "margin": margin,
            "heldout_kept": report["kept"], "heldout_gain": report["gain"],
            "heldout_untried": report["untried"]}
    if symmetries is not None:
        info["symmetries"] = len(symmetries)
    return info


class _Relabel:
    """Each row of a batch under a random symmetry of the game: the network input (an advised
    network's advice moves like an action) and the per-action mask and targets."""

    def __init__(self, symmetries: Symmetries, data: ActionValues, rng: np.random.Generator):
        import torch

        actions = symmetries.action.shape[1]
        if data.masks.shape[1] != actions:
            raise ValueError(f"symmetries for {actions} actions; the values have "
                             f"{data.masks.shape[1]}")
        table = symmetries.input_table(data.obs.shape[1])
        self.obs, self.act = torch.as_tensor(table), torch.as_tensor(symmetries.action)
        self.rng = rng

    def __call__(self, x: Any, mask: Any, goal: Any) -> tuple[Any, Any, Any]:
        import torch

        k = torch.as_tensor(self.rng.integers(len(self.obs), size=len(x)))
        act = self.act[k]
        return (torch.gather(x, 1, self.obs[k]), torch.gather(mask, 1, act),
                torch.gather(goal, 1, act))


def logits_of(policy: Any, obs: Any) -> Any:
    """The actor's raw logits (before masking) of an sb3 MlpPolicy. ``BaseModel``'s
    ``extract_features`` takes the actor's extractor whether or not the critic shares it (the
    policy's own override returns a pair when it does not)."""
    from stable_baselines3.common.policies import BaseModel

    features = BaseModel.extract_features(policy, obs, policy.pi_features_extractor)
    return policy.action_net(policy.mlp_extractor.forward_actor(features))


def evaluate(policy: Any, data: ActionValues, idx: np.ndarray) -> dict[str, float]:
    """On positions ``idx``: the share where the greedy policy plays the teacher's move, and the
    mean rollout gain of its moves over the teacher's."""
    import torch

    with torch.no_grad():
        logits = logits_of(policy, torch.as_tensor(data.obs[idx])).numpy()
    greedy = np.where(data.masks[idx], logits, -np.inf).argmax(1)
    gains = data.gains(greedy, idx)
    untried = np.isnan(gains)  # a move without a rollout (``candidates``): its gain is unknown
    return {"kept": float(np.mean(greedy == data.teacher[idx])),
            "gain": float(np.mean(gains[~untried])) if (~untried).any() else 0.0,
            "untried": float(np.mean(untried))}
