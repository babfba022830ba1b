"""Learned policies behind the agent protocol: numpy MLPs (``trained``) and saved MaskablePPO zips.

``trained`` agents are plain weights: a ``.npz`` of float32 arrays plus a JSON *card* next to it
(same stem, ``.json``) that names the env, its options, the player count, the observation size,
the action count, the architecture, the kind of observation it reads (``observation``:
``"default"``, or ``"information_state"`` for ``State.information_state``; a card without the
key reads the default) and how the weights were made (training command, budget, wall time, seed,
measured strength). Nothing is unpickled and only numpy runs, so a shipped model plays without
torch. A model is refused, with both names in the message, when it is used for another env, an
observation of another size, or an env handing out another kind of observation.

``policy`` agents load a sb3-contrib ``MaskablePPO`` zip (torch needed; the input scaling of its
run's ``config.json`` is applied); torch and sb3 are imported only then, so ``import agents``
stays light.

Both choose among the legal actions only: the greedy one (masked argmax) or a sample from the
masked softmax drawn from the agent's own generator.
"""

from __future__ import annotations

import itertools
import json
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.agents.base import Agent, BaseAgent, legal_ids, only_noop
from tablezoo.agents.learned.advice import (
    advice_of,
    advisor_factory,
    advisor_seed,
    check_advice,
    with_advice,
)
from tablezoo.agents.learned.heuristic_weights import FORMAT as WEIGHTS_FORMAT
from tablezoo.agents.learned.heuristic_weights import (
    HeuristicWeights,
    WeightedHeuristicAgent,
    load_weights,
)
from tablezoo.agents.learned.model_files import (
    ArraySpec,
    ModelFileError,
    ModelMismatchError,
    card_game,
    read_arrays,
    read_card,
)
from tablezoo.envs.core.game import OBSERVATION_KINDS, State

PRETRAINED_DIR = Path(__file__).resolve().parents[1] / "pretrained"
ACTIVATIONS = ("relu", "tanh")
FORMAT = "tablezoo-mlp-v1"
# A network file is read only as large as its card's layers (``network_layout``), and a card may
# not describe a network larger than this: 2**24 numbers (64 MiB of float32) admits two hidden
# layers of 2048 for the largest input of every env (ethnos 6p or bower, advised: ~11M), 17x the
# largest shipped network (bower's advised clone, 2817 -> 256 -> 256 -> 648: ~0.96M).
MAX_NETWORK_NUMBERS = 2**24
MAX_HIDDEN_LAYERS = 32


# --- the numpy network ---------------------------------------------------------------------------
@dataclass
class NumpyMLP:
    """``logits = W_k act(... act(W_0 (obs * obs_scale) + b_0) ...) + b_k`` in float32.

    ``weights[i]`` has shape ``(in, out)``; the last layer is the action head. ``obs_scale``
    (optional, per input) is the fixed input normalisation the policy was trained with.
    """

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str = "relu"
    obs_scale: np.ndarray | None = None
    card: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation={self.activation!r}; allowed: {', '.join(ACTIVATIONS)}")
        if not self.weights or len(self.weights) != len(self.biases):
            raise ValueError("NumpyMLP: give one bias per weight matrix (at least one layer)")
        self.weights = [_real(w, f"weight {i}") for i, w in enumerate(self.weights)]
        self.biases = [_real(b, f"bias {i}") for i, b in enumerate(self.biases)]
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"NumpyMLP layer {i}: weight {w.shape} and bias {b.shape} "
                                 "do not fit (weight is (in, out), bias (out,))")
            if i and w.shape[0] != self.weights[i - 1].shape[1]:
                raise ValueError(f"NumpyMLP layer {i}: input {w.shape[0]} != previous output "
                                 f"{self.weights[i - 1].shape[1]}")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ValueError(f"NumpyMLP layer {i}: weights or biases that are not finite "
                                 "(NaN or infinity; a diverged or damaged model)")
        if self.obs_scale is not None:
            self.obs_scale = _real(self.obs_scale, "obs_scale")
            if self.obs_scale.shape != (self.obs_size,):
                raise ValueError(f"NumpyMLP: obs_scale {self.obs_scale.shape} for "
                                 f"{self.obs_size} inputs")
            if not np.isfinite(self.obs_scale).all():  # NaN inputs: every logit NaN
                raise ValueError("NumpyMLP: obs_scale values that are not finite (NaN or "
                                 "infinity; a damaged model)")

    @property
    def obs_size(self) -> int:
        return int(self.weights[0].shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.weights[-1].shape[1])

    @property
    def advice(self) -> str | None:
        """The advisor whose move is part of the input (``agents.learned.advice``), or None."""
        return self.card.get("advice")

    @property
    def observation(self) -> str:
        """The kind of observation the model reads (its card's ``observation``; a card without
        it: ``"default"``)."""
        return self.card.get("observation", "default")

    @property
    def env_obs_size(self) -> int:
        """The size of the env observation the model reads (its input less any advice)."""
        return self.obs_size - (self.num_actions if self.advice else 0)

    @property
    def hidden(self) -> list[int]:
        return [int(w.shape[1]) for w in self.weights[:-1]]

    def check_obs_size(self, size: int) -> None:
        if size != self.obs_size:
            raise ModelMismatchError(
                f"model {self.describe()} expects observations of size {self.obs_size}, "
                f"got size {size}")

    def describe(self) -> str:
        env = self.card.get("env", "?")
        players = self.card.get("num_players")
        return f"{env}" + (f" ({players} players)" if players else "")

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Logits for a batch ``(B, obs_size)`` (or one observation) of observations."""
        x = np.asarray(obs, dtype=np.float32)
        if x.shape[-1] != self.obs_size:
            self.check_obs_size(x.shape[-1])
        if self.obs_scale is not None:
            x = x * self.obs_scale
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w
            x += b
            if i < last:
                if self.activation == "relu":
                    np.maximum(x, 0.0, out=x)
                else:
                    np.tanh(x, out=x)
        return x

    def masked_probabilities(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Softmax over the legal actions (illegal ones get exactly 0), float64, batched."""
        return masked_softmax(self.logits(obs), masks)

    # --- file format ----------------------------------------------------------------------------
    def save(self, path: str | Path, card: dict[str, Any] | None = None) -> Path:
        """Write ``path`` (.npz, float32 arrays only) and its card ``path.with_suffix('.json')``."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        if self.obs_scale is not None:
            arrays["obs_scale"] = self.obs_scale
        np.savez_compressed(path, **arrays)
        full = {**self.card, **(card or {}), "format": FORMAT, "obs_size": self.obs_size,
                "num_actions": self.num_actions,
                "observation": {**self.card, **(card or {})}.get("observation", "default"),
                "architecture": {"hidden": self.hidden, "activation": self.activation,
                                 "obs_scale": self.obs_scale is not None}}
        self.card = full
        path.with_suffix(".json").write_text(json.dumps(full, indent=2, default=str) + "\n")
        return path


def _real(values: Any, what: str) -> np.ndarray:
    """``values`` as a contiguous float32 array; complex numbers, strings, booleans or objects
    are refused (numpy would drop an imaginary part or parse a string silently)."""
    array = np.asarray(values)
    if array.dtype.kind not in "fiu":
        raise ValueError(f"NumpyMLP: {what} has dtype {array.dtype}; allowed: real numbers "
                         "(float32 as saved)")
    return np.ascontiguousarray(array, np.float32)


def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Row-wise softmax restricted to ``masks`` (bool, same shape), in float64."""
    z = np.where(masks, logits.astype(np.float64), -np.inf)
    z -= z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def choose(probs: np.ndarray, uniforms: np.ndarray | None) -> np.ndarray:
    """Actions for a batch of masked distributions: argmax when ``uniforms`` is None, else the
    inverse-CDF sample for one uniform per row (the same arithmetic for one row or many, so a
    batched collector and a one-game agent pick identical actions from identical draws)."""
    if uniforms is None:
        return probs.argmax(axis=-1)
    cdf = np.cumsum(probs, axis=-1)
    picks = (cdf <= (uniforms * cdf[..., -1])[..., None]).sum(axis=-1)
    # never past the last legal action (rounding at the top end of the CDF)
    last_legal = probs.shape[-1] - 1 - np.argmax(probs[..., ::-1] > 0, axis=-1)
    return np.minimum(picks, last_legal)


def load_mlp(path: str | Path, env_name: str | None = None, obs_size: int | None = None,
             num_actions: int | None = None, observation: str | None = None) -> NumpyMLP:
    """Read a ``.npz`` + card; refuse it for another ``env_name``, ``num_actions`` (its output
    layer), ``obs_size`` or ``observation`` kind (the env's: ``"default"`` or
    ``"information_state"``; ``None``: not checked), and refuse a card whose network does not fit
    its own env (the card's env, options, player count and observation kind)."""
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_suffix(".npz")
    if not path.is_file():
        raise FileNotFoundError(f"trained agent: no model file at {path}")
    card_path = path.with_suffix(".json")
    if not card_path.is_file():
        raise ModelFileError(f"{path}: its card {card_path} is missing (the .json written "
                             "next to every model, naming its format, env and layer sizes)")
    card = read_card(path)
    if card.get("format", FORMAT) != FORMAT:
        raise ModelFileError(f"{card_path}: format {card['format']!r}; allowed: {FORMAT}, "
                             f"{WEIGHTS_FORMAT}")
    check_model_fits(card.get("env"), None, env_name, None, str(path))  # the env first
    check_observation_kind(card, observation, env_name, str(path))
    game = card_game(path, card)
    data = read_arrays(path, network_layout(card, card_path),
                       f"{FORMAT} file with the layers its card gives")
    layers = range((len(data) - ("obs_scale" in data)) // 2)
    try:
        mlp = NumpyMLP([data[f"w{i}"] for i in layers], [data[f"b{i}"] for i in layers],
                       activation=card["architecture"]["activation"],
                       obs_scale=data.get("obs_scale"), card=card)
    except ValueError as exc:
        raise ModelFileError(f"{path}: {exc}") from None
    check_advice(mlp.advice)
    if num_actions is not None and mlp.num_actions != num_actions:
        # before the size check: an advised model's input includes its action count
        raise ModelMismatchError(
            f"{path} chooses among {mlp.num_actions} actions (its output layer), but "
            f"{env_name or 'this env'} has {num_actions} actions")
    check_model_fits(mlp.card.get("env"), mlp.env_obs_size, env_name, obs_size, str(path))
    card_obs = game.observation_spec(mlp.observation).size  # the kind its card names
    if (mlp.num_actions, mlp.env_obs_size) != (game.num_actions, card_obs):
        raise ModelMismatchError(
            f"{path} chooses among {mlp.num_actions} actions from observations of size "
            f"{mlp.env_obs_size}, but the game its card names ({card['env']}, "
            f"{game.num_players} players, options {card.get('env_options') or {}}) has "
            f"{game.num_actions} actions and observations of size {card_obs} (its card's "
            f"observation: {mlp.observation})")
    return mlp


def check_observation_kind(card: dict[str, Any], observation: str | None,
                           env_name: str | None, where: str) -> None:
    """Refuse a model for an env handing out another kind of observation than its card's
    (``ModelMismatchError``), or a card naming an unknown kind (``ModelFileError``)."""
    kind = card.get("observation", "default")
    if kind not in OBSERVATION_KINDS:
        raise ModelFileError(f"{where}: its card's observation is {kind!r}; allowed: "
                             f"{', '.join(map(repr, OBSERVATION_KINDS))}")
    if observation is not None and observation != kind:
        raise ModelMismatchError(
            f"{where} reads {kind!r} observations (its card's observation), but "
            f"{env_name or 'this env'} hands out {observation!r} observations (the env option "
            f"observation); make the env with observation={kind!r}, or use a model trained on "
            f"{observation!r}")


def network_layout(card: dict[str, Any], card_path: Path) -> dict[str, ArraySpec]:
    """The arrays of the network ``card`` describes (``NumpyMLP.save`` writes its sizes):
    ``w{i}`` ``(in, out)`` and ``b{i}`` ``(out,)`` per layer and ``obs_scale`` ``(obs_size,)``
    when the card says so, all float32; at most ``MAX_NETWORK_NUMBERS`` numbers."""
    arch = card.get("architecture", {})
    hidden, scaled = arch.get("hidden"), arch.get("obs_scale")
    sizes = [card.get("obs_size"), *(hidden if isinstance(hidden, list) else [None]),
             card.get("num_actions")]
    if (not all(type(n) is int and n >= 1 for n in sizes) or type(scaled) is not bool
            or "activation" not in arch):
        raise ModelFileError(
            f"{card_path}: the card must give the network's sizes as NumpyMLP.save writes them: "
            "obs_size and num_actions (ints >= 1), architecture.hidden (a list of ints >= 1), "
            "architecture.activation and architecture.obs_scale (true or false); got "
            f"obs_size={card.get('obs_size')!r}, num_actions={card.get('num_actions')!r}, "
            f"architecture={arch!r}")
    numbers = sum(a * b + b for a, b in itertools.pairwise(sizes)) + sizes[0] * scaled
    if len(sizes) - 2 > MAX_HIDDEN_LAYERS or numbers > MAX_NETWORK_NUMBERS:
        raise ModelFileError(
            f"{card_path}: the card describes a network of {len(sizes) - 2} hidden layers and "
            f"{numbers:,} numbers; allowed: at most {MAX_HIDDEN_LAYERS} hidden layers and "
            f"{MAX_NETWORK_NUMBERS:,} numbers")
    f32, note = np.dtype(np.float32), f"the card's layer sizes {sizes}"
    layout = {}
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        layout[f"w{i}"] = ArraySpec((a, b), f32, note=note)
        layout[f"b{i}"] = ArraySpec((b,), f32, note=note)
    if scaled:
        layout["obs_scale"] = ArraySpec((sizes[0],), f32, note="the card's obs_size")
    return layout


def check_model_fits(model_env: str | None, model_obs: int | None, env_name: str | None,
                     obs_size: int | None, where: str) -> None:
    """Raise ``ModelMismatchError`` naming both envs / sizes when a model does not fit."""
    if env_name is not None and model_env is not None and model_env != env_name:
        raise ModelMismatchError(
            f"{where} was trained for env {model_env!r}, not for env {env_name!r}")
    if obs_size is not None and model_obs is not None and model_obs != obs_size:
        raise ModelMismatchError(
            f"{where} expects observations of size {model_obs} "
            f"({model_env or 'its env not recorded'}), but "
            f"{env_name or 'this env'} gives observations of size {obs_size}")


def shipped_models(env_name: str | None = None,
                   num_players: int | None = None) -> list[Path]:
    """The ``agents/pretrained/*.npz`` files whose card matches ``env_name``/``num_players``."""
    found = []
    for path in sorted(PRETRAINED_DIR.glob("*.npz")):
        card_path = path.with_suffix(".json")
        card = json.loads(card_path.read_text()) if card_path.is_file() else {}
        if env_name is not None and card.get("env") != env_name:
            continue
        if num_players is not None and card.get("num_players") != num_players:
            continue
        found.append(path)
    return found


class MLPAgent(BaseAgent):
    """Plays a ``NumpyMLP``: masked argmax, or masked sampling from the agent's own generator
    (one uniform draw per decision, the collector's convention). An advised model
    (``tablezoo.agents.learned.advice``) gets its advisor's move appended to each observation; the
    advisor
    needs the ``state`` where the heuristic does."""

    name = "trained"

    def __init__(self, mlp: NumpyMLP, seed: int | None = None, deterministic: bool = True):
        super().__init__(seed)
        self.mlp = mlp
        self.deterministic = deterministic
        self._seed = seed
        self._advisor: Agent | None = None
        self._advisor_for: NumpyMLP | None = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # a new game gets a fresh advisor, seeded from ``seed`` or else from the agent's own
        # generator: an unseeded reset of a seeded agent must stay reproducible (it left the
        # advisor unseeded, so ethnos' advised model played differently each time)
        if seed is None and self.mlp.advice:  # only an advised model has an advisor to seed
            seed = int(self.rng.integers(2**63))
        self._seed = seed
        self._advisor = self._advisor_for = None

    @property
    def num_actions(self) -> int:
        return self.mlp.num_actions

    def network_input(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None, player: int | None = None) -> np.ndarray:
        """The observation, followed by the advice for an advised model."""
        if not self.mlp.advice:
            return observation
        seat = 0 if player is None else int(player)
        if self._advisor is None or self._advisor_for is not self.mlp:
            env = self.mlp.card.get("env")
            if env is None:
                raise ValueError(f"advised model {self.mlp.describe()}: its card names no env")
            self._advisor = advisor_factory(self.mlp.advice, env)(advisor_seed(self._seed, seat))
            self._advisor_for = self.mlp
        a = advice_of(self._advisor, state, seat, observation, action_mask, self.num_actions)
        return with_advice(observation, a, self.num_actions)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray,
                             state: State | None = None,
                             player: int | None = None) -> np.ndarray:
        mask = np.asarray(action_mask[: self.num_actions], dtype=bool)
        x = self.network_input(observation, action_mask, state, player)
        return self.mlp.masked_probabilities(x[None, :], mask[None, :])[0]

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            state: State | None = None, player: int | None = None) -> int:
        if only_noop(action_mask, self.num_actions):
            return self.num_actions
        legal = legal_ids(action_mask[: self.num_actions])
        if legal.size == 1 and self.deterministic:
            return int(legal[0])
        probs = self.action_probabilities(observation, action_mask, state, player)[None, :]
        u = None if self.deterministic else np.array([self.rng.random()])
        return int(choose(probs, u)[0])

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None, player: int | None = None) -> dict[int, float]:
        """The policy's probability of every legal action (a search ranks candidates by it)."""
        probs = self.action_probabilities(observation, action_mask, state, player)
        return {int(a): float(probs[a]) for a in legal_ids(action_mask[: self.num_actions])}


class TrainedAgent(MLPAgent):
    """A shipped (or given) ``.npz`` model for ``env_name``.

    ``path=None`` picks the file under ``agents/pretrained/`` for ``env_name`` and
    ``num_players``; without ``num_players`` the shipped models of that env are all loaded and the
    one whose observation size matches the first observation is played (so the spec ``trained``
    works in tools that only know the env name).
    """

    def __init__(self, env_name: str | None = None, path: str | Path | None = None,
                 num_players: int | None = None, seed: int | None = None,
                 deterministic: bool = True, models: Sequence[NumpyMLP] | None = None,
                 observation: str | None = None):
        if models is None:
            models = load_trained(env_name, path, num_players, observation)
        if any(isinstance(m, HeuristicWeights) for m in models):
            raise ValueError("TrainedAgent plays numpy networks; this model is heuristic "
                             "weights: play it with make_agent('trained', ...) or model_agent()")
        self.models = list(models)
        super().__init__(self.models[0], seed, deterministic)

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            state: State | None = None, player: int | None = None) -> int:
        self._fit(len(observation))
        return super().act(observation, action_mask, state, player)

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None, player: int | None = None) -> dict[int, float]:
        self._fit(len(observation))
        return super().action_values(observation, action_mask, state, player)

    def _fit(self, size: int) -> None:
        """Play the model made for observations of ``size`` (refuse when none is)."""
        if size != self.mlp.env_obs_size:
            fitting = [m for m in self.models if m.env_obs_size == size]
            if not fitting:
                sizes = ", ".join(f"{m.describe()} ({m.observation}): {m.env_obs_size}"
                                  for m in self.models)
                raise ModelMismatchError(
                    f"trained agent: no model for observations of size {size} (models: {sizes}; "
                    "a model reads the kind of observation its card names: an env made with "
                    "another observation option is refused)")
            self.mlp = fitting[0]


def load_model_file(path: str | Path, env_name: str | None = None,
                    obs_size: int | None = None, num_actions: int | None = None,
                    num_players: int | None = None,
                    observation: str | None = None) -> NumpyMLP | HeuristicWeights:
    """A trained-model ``.npz`` of either kind, by the ``format`` its card names: a numpy
    network (``FORMAT``) or evolved heuristic weights
    (``tablezoo.agents.learned.heuristic_weights``). Refused
    for another env, action count, observation size, or player count than its card's."""
    npz = Path(path).with_suffix(".npz")
    if Path(path).is_dir() and not Path(f"{path}.npz").is_file():  # foo/ beside foo.npz: foo.npz
        raise FileNotFoundError(f"trained agent: {path} is a folder, not a model file; a "
                                f"training run's model is {Path(path) / 'model.npz'}")
    card = read_card(npz)
    card_players = card.get("num_players")
    if (num_players is not None and card_players is not None and card_players != num_players
            and card.get("env") in (None, env_name)):  # another env: load_* names that first
        raise ModelMismatchError(
            f"{path} was trained for {card_players} players (its card), but this "
            f"{env_name or 'game'} has {num_players}")
    if card.get("format") == WEIGHTS_FORMAT:
        if observation not in (None, "default"):
            raise ModelMismatchError(
                f"{path} is evolved heuristic weights: it plays the heuristic, which reads the "
                f"default observation, but {env_name or 'this env'} hands out {observation!r} "
                "observations; make the env with observation='default'")
        return load_weights(path, env_name)
    # load_mlp refuses a model without its card, or for another observation kind
    return load_mlp(path, env_name, obs_size, num_actions, observation)


def model_agent(model: NumpyMLP | HeuristicWeights, seed: int | None = None,
                deterministic: bool = True) -> BaseAgent:
    """The agent that plays ``model`` (a heuristic-weights model plays as its heuristic)."""
    if isinstance(model, HeuristicWeights):
        return WeightedHeuristicAgent(model, seed)
    return MLPAgent(model, seed, deterministic)


def load_trained(env_name: str | None, path: str | Path | None,
                 num_players: int | None,
                 observation: str | None = None) -> list[NumpyMLP | HeuristicWeights]:
    """The model(s) a ``trained`` agent plays, checked against ``env_name``/``num_players`` and
    the env's ``observation`` kind (``None``: not checked): numpy networks, or a single
    heuristic-weights model."""
    fit: dict[str, Any] = {"observation": observation}
    if env_name is not None and num_players is not None:
        game = game_for(env_name, num_players)
        fit.update(obs_size=game.observation_spec(observation or "default").size,
                   num_actions=game.num_actions, num_players=game.num_players)
    if path is not None:
        return [load_model_file(path, env_name, **fit)]
    if env_name is None:
        raise ValueError("agent 'trained': pass env_name= (for a shipped model) or path=")
    files = shipped_models(env_name, num_players)
    if not files:
        have = sorted({f"{c.get('env')} {c.get('num_players')}p" for c in _shipped_cards()})
        who = env_name + (f" with {num_players} players" if num_players else "")
        raise FileNotFoundError(f"agent 'trained': no shipped model for {who} in "
                                f"{PRETRAINED_DIR}; shipped: {', '.join(have) or 'none'}")
    models = [load_model_file(f, env_name, **fit) for f in files]
    if len(models) > 1 and any(isinstance(m, HeuristicWeights) for m in models):
        raise ValueError(f"agent 'trained': {env_name} has several shipped models "
                         f"({', '.join(f.name for f in files)}) and one of them is heuristic "
                         "weights; pass num_players= or path=")
    return models


TRAINED_PARAMS = frozenset({"path", "num_players", "deterministic"})


def trained_constructor(env_name: str | None, kw: dict[str, Any]
                        ) -> tuple[Callable[..., BaseAgent], dict[str, Any], set[str]]:
    """How to build ``trained`` agents from the options ``kw`` (``TRAINED_PARAMS``): the class,
    its keyword arguments with the weights loaded once (not per agent), and the names those
    arguments may take. Unknown options are left in ``kw`` for the caller to refuse by name."""
    if set(kw) - TRAINED_PARAMS:
        return TrainedAgent, kw, set(TRAINED_PARAMS)
    models = load_trained(env_name, kw.get("path"), kw.get("num_players"))
    if isinstance(models[0], HeuristicWeights):
        if "deterministic" in kw:
            raise ValueError(f"agent 'trained': {models[0].card.get('env')}'s model is "
                             "evolved heuristic weights, which play like the heuristic: "
                             "deterministic= does not apply; allowed: path, num_players")
        return WeightedHeuristicAgent, {"weights": models[0]}, {"weights"}
    kw = {"models": models, "env_name": env_name,
          **({"deterministic": kw["deterministic"]} if "deterministic" in kw else {})}
    return TrainedAgent, kw, {"models", "env_name", "deterministic"}


def trained_factory(env_name: str, num_players: int | None = None,
                    path: str | Path | None = None) -> Callable[[int | None], BaseAgent]:
    """``seed -> a fresh trained agent`` playing the shipped model of ``env_name`` (and
    ``num_players``), or the model file ``path``, its weights loaded once."""
    options = {"num_players": num_players, **({"path": path} if path is not None else {})}
    cls, kw, _ = trained_constructor(env_name, options)
    return lambda seed: cls(seed=seed, **kw)


def _shipped_cards() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(PRETRAINED_DIR.glob("*.json"))]


def player_counts(env_name: str) -> list[int]:
    """The player counts ``env_name`` is played with (those of ``envs.VARIANTS``)."""
    from tablezoo import envs
    from tablezoo.envs.registry import VARIANTS

    return sorted({envs.make_game(env_name, **o).num_players for o in VARIANTS[env_name]})


def observation_sizes(env_name: str) -> dict[int, int]:
    """The observation size of ``env_name`` by player count."""
    return {n: observation_size(env_name, n) for n in player_counts(env_name)}


def observation_size(env_name: str, num_players: int) -> int:
    """The observation size of ``env_name`` played by ``num_players``."""
    return game_for(env_name, num_players).obs_spec.size


def game_for(env_name: str, num_players: int) -> Any:
    """``env_name``'s game for ``num_players`` (default options otherwise)."""
    from tablezoo import envs

    return envs.make_game(env_name, **_player_option(env_name, num_players))


def _player_option(env_name: str, num_players: int) -> dict[str, Any]:
    """``num_players`` as an env option, for games that have one (bower/bauer_trick do not)."""
    from tablezoo import envs

    game = envs.make_game(env_name)
    if any(o.name == "num_players" for o in game.OPTIONS):
        return {"num_players": num_players}
    if num_players != game.num_players:
        raise ValueError(f"{env_name} is played by {game.num_players} players, "
                         f"not num_players={num_players}")
    return {}


# --- saved MaskablePPO zips ----------------------------------------------------------------------
@dataclass(frozen=True)
class SavedPolicy:
    """A MaskablePPO model read from a run with the input scaling it was trained with: the
    ``obs_scale`` its run's ``config.json`` records (``None``: raw observations)."""

    model: Any
    obs_scale: np.ndarray | None


def load_model(path: str | Path, env_name: str | None = None,
               obs_size: int | None = None, allow_advised: bool = False) -> Any:
    """Load a ``MaskablePPO`` zip on the CPU; refuse it (via the run's ``config.json`` and the
    model's observation space) for another env or observation size (``load_policy``)."""
    return load_policy(path, env_name, obs_size, allow_advised).model


def load_policy(path: str | Path, env_name: str | None = None,
                obs_size: int | None = None, allow_advised: bool = False) -> SavedPolicy:
    """``load_model``'s model with the input scaling its run trained with (what
    ``PolicyAgent`` applies)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"policy agent: no model file at {path}")
    config = run_config(path)
    config_env = config.get("env")
    check_model_fits(config_env, None, env_name, None, str(path))
    if config.get("advice") and not allow_advised:
        raise ModelMismatchError(
            f"{path} reads {config['advice']} advice with its observations "
            "(tablezoo.agents.learned.advice), "
            f"which the policy agent does not compute: export it (tablezoo export "
            f"{path} OUT.npz) and play it as trained:OUT.npz")
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except (AssertionError, ValueError, KeyError, EOFError, OSError, zipfile.BadZipFile) as exc:
        raise ModelFileError(f"{path}: not a MaskablePPO model.zip from tablezoo train "
                             f"({type(exc).__name__}: {exc})") from None
    model_obs = int(model.observation_space.shape[0])
    check_model_fits(config_env, model_obs, env_name, obs_size, str(path))
    if env_name is not None and obs_size is None and not config.get("advice"):
        sizes = observation_sizes(env_name)  # the player count is not known here
        if model_obs not in sizes.values():
            raise ModelMismatchError(
                f"{path} expects observations of size {model_obs}, but {env_name} gives "
                + ", ".join(f"{size} ({n} players)" for n, size in sizes.items()))
    return SavedPolicy(model, _config_obs_scale(config.get("obs_scale"), model_obs, path))


def _config_obs_scale(scale: Any, model_obs: int, path: Path) -> np.ndarray | None:
    """The run's ``obs_scale`` from its ``config.json``, checked against the model's input."""
    if scale is None:
        return None
    where = f"{path.parent / 'config.json'} (the run's settings next to {path.name})"
    try:
        values = np.asarray(scale, dtype=np.float32)
    except (TypeError, ValueError):
        values = None
    if values is None or values.shape != (model_obs,):
        raise ModelFileError(f"{where}: obs_scale must be a list of {model_obs} numbers (the "
                             f"model's observation size), got {str(scale)[:80]}")
    if not np.isfinite(values).all():
        raise ModelFileError(f"{where}: obs_scale holds values that are not finite numbers")
    return values


def run_config(model_path: str | Path) -> dict[str, Any]:
    """The ``config.json`` that ``tablezoo train`` writes next to ``model.zip`` (or ``{}``)."""
    path = Path(model_path)
    for candidate in (path.parent / "config.json", path.parent.parent / "config.json"):
        if candidate.is_file():
            try:
                config = json.loads(candidate.read_text())
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ModelFileError(f"{candidate} (the run's settings next to {path.name}): "
                                     f"not JSON ({exc})") from None
            if not isinstance(config, dict):
                raise ModelFileError(f"{candidate} (the run's settings next to {path.name}): "
                                     f"expected a JSON object, got a {type(config).__name__}")
            return config
    return {}


class PolicyAgent(BaseAgent):
    """Plays the action a MaskablePPO policy prefers among the legal ones."""

    name = "policy"

    def __init__(
        self,
        path: str | Path | None = None,
        model: Any = None,
        seed: int | None = None,
        deterministic: bool = True,
    ):
        super().__init__(seed)
        if (path is None) == (model is None):
            raise ValueError("policy agent: give exactly one of path= (a model.zip) or model=")
        import torch

        self._torch = torch
        if model is None:
            model = load_policy(path)
        self.obs_scale = None  # a bare model or policy reads raw observations
        if isinstance(model, SavedPolicy):
            model, self.obs_scale = model.model, model.obs_scale
        self.policy = getattr(model, "policy", model)
        self.policy.set_training_mode(False)
        self.num_actions = int(self.policy.action_space.n)
        self.deterministic = deterministic
        self.path = None if path is None else str(path)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The masked policy distribution over the game's actions (illegal ones get 0)."""
        torch = self._torch
        # A copy: engines hand out read-only masks, which torch.as_tensor warns about.
        mask = np.array(action_mask[: self.num_actions], dtype=bool).reshape(1, -1)
        obs = np.asarray(observation, dtype=np.float32).reshape(1, -1)
        if self.obs_scale is not None:
            obs = obs * self.obs_scale
        obs = torch.as_tensor(obs)
        with torch.no_grad():
            dist = self.policy.get_distribution(obs, action_masks=mask)
            return dist.distribution.probs[0].cpu().numpy().astype(np.float64)

    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        if only_noop(action_mask, self.num_actions):
            return self.num_actions
        legal = legal_ids(action_mask[: self.num_actions])
        if legal.size == 1:
            return int(legal[0])
        probs = self.action_probabilities(observation, action_mask)[legal]
        if self.deterministic:
            return int(legal[np.argmax(probs)])
        return int(legal[self.rng.choice(legal.size, p=probs / probs.sum())])
