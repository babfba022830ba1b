"""Ray RLlib (new API stack) glue: a ``MultiAgentEnv`` over any tablezoo env, and a PPO RLModule
that applies the action mask.

Why glue is needed: RLlib's action-masking convention is an observation dict with the keys
``"observations"`` and ``"action_mask"`` (float), while PettingZoo's is ``"observation"`` and an
int8 ``"action_mask"``; and RLlib's default PPO module does not look at a mask at all.

``TablezooMultiAgentEnv`` plays the AEC env turn by turn, the way RLlib's own ``PettingZooEnv``
wrapper does: each ``step`` returns an observation only for the agent that must act next (so a
policy is only asked where a seat decides), every seat's reward of that step (RLlib credits a
waiting seat's reward at its next observation), and at the end a final observation for
every seat with ``terminateds``/``truncateds`` set for all and ``"__all__"``. Simultaneous phases
(``bauer_draft``'s selection) are asked one seat at a time and applied together, as in the AEC env,
so no seat sees another's pending choice. The arrays handed to RLlib are always fresh.

``MaskedPPOTorchRLModule`` is RLlib's default PPO torch module on the ``"observations"`` part of
the space; the mask only pushes illegal logits to the most negative float before the action
distribution is built (exploration, inference and training alike), so an illegal id is never
sampled and its probability is exactly 0 in the PPO loss.

Use::

    from tablezoo.envs.integrations.rllib import ppo_config
    algo = ppo_config("bower_v0", num_env_runners=2).build_algo()
    algo.train()

or the command line ``tablezoo rllib`` (self-play PPO with one shared policy).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from tablezoo import envs

OBS_KEY = "observations"
MASK_KEY = "action_mask"
SHARED_POLICY = "shared"


class TablezooMultiAgentEnv(MultiAgentEnv):
    """A tablezoo AEC env as an RLlib ``MultiAgentEnv``.

    ``config``: ``{"env": one of envs.ENVS, "options": {game options...}}`` (RLlib passes the
    ``env_config`` dict to the constructor). Observations are
    ``{"observations": float32[obs_size], "action_mask": float32[num_actions + 1]}``; the last
    mask slot is the NOOP id, never legal for the seat that acts.
    """

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        config = dict(config or {})
        name = config.get("env")
        if name not in envs.ENVS:
            raise ValueError(
                f"TablezooMultiAgentEnv: config['env'] must be one of {', '.join(envs.ENVS)}, "
                f"got {name!r}"
            )
        self.env = envs.make(name, **dict(config.get("options") or {}))
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        pz_space = self.env.observation_space(self.possible_agents[0])
        n_mask = pz_space[MASK_KEY].shape[0]
        obs_box = pz_space["observation"]
        space = gym.spaces.Dict({
            OBS_KEY: gym.spaces.Box(obs_box.low.astype(np.float32),
                                    obs_box.high.astype(np.float32), obs_box.shape, np.float32),
            MASK_KEY: gym.spaces.Box(0.0, 1.0, (n_mask,), np.float32),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: self.env.action_space(a) for a in self.possible_agents}

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        pz = self.env.observe(agent)
        return {OBS_KEY: np.asarray(pz["observation"], dtype=np.float32).copy(),
                MASK_KEY: np.asarray(pz[MASK_KEY], dtype=np.float32).copy()}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        agent = self.env.agent_selection
        return {agent: self._obs(agent)}, self._infos([agent])

    def step(self, action_dict: dict[str, Any]):
        env = self.env
        agent = env.agent_selection
        if agent not in action_dict:
            raise ValueError(
                f"{env}: it is {agent}'s turn; got actions for {sorted(action_dict)}"
            )
        env.step(int(action_dict[agent]))
        # every seat, zeros included: RLlib requires a reward for each seat that gets an
        # observation after having acted, and credits a waiting seat's at its next observation
        rewards = {a: float(env.rewards[a]) for a in self.possible_agents}
        over = any(env.terminations.values()) or any(env.truncations.values())
        if not over:
            nxt = env.agent_selection
            return ({nxt: self._obs(nxt)}, rewards, {"__all__": False}, {"__all__": False},
                    self._infos([nxt]))
        obs = {a: self._obs(a) for a in self.possible_agents}
        terminated = all(env.terminations.values())
        terminateds = dict.fromkeys(self.possible_agents, terminated)
        truncateds = dict.fromkeys(self.possible_agents, not terminated)
        terminateds["__all__"] = terminated
        truncateds["__all__"] = not terminated
        self.agents = []
        return obs, rewards, terminateds, truncateds, self._infos(self.possible_agents)

    def _infos(self, agents: list[str]) -> dict[str, dict]:
        """The AEC env's infos of the seats that get an observation (e.g. the count of replaced
        actions under ``illegal_action="random_legal"``)."""
        return {a: dict(self.env.infos[a]) for a in agents}

    def render(self) -> str | None:
        return self.env.render()


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` where ``mask`` allows the action, else the dtype's most negative value (not
    ``-inf``, so softmax, entropy and KL stay finite)."""
    return logits.masked_fill(mask <= 0, torch.finfo(logits.dtype).min)


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module with action masking (see the module docstring).

    The networks are built for ``observation_space["observations"]``; ``observation_space`` keeps
    the full dict, which is what the env runners check against.
    """

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any):
        if not (isinstance(observation_space, gym.spaces.Dict)
                and {OBS_KEY, MASK_KEY} <= set(observation_space.spaces)):
            raise ValueError(
                "MaskedPPOTorchRLModule needs a Dict observation space with keys "
                f"{OBS_KEY!r} and {MASK_KEY!r}, got {observation_space!r}"
            )
        self._masked_space = observation_space
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()  # networks for the "observations" part only
        self.observation_space = self._masked_space

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor | None]:
        """A shallow copy of ``batch`` whose OBS is the plain observation, and the mask."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return batch, None
        return {**batch, Columns.OBS: obs[OBS_KEY]}, obs[MASK_KEY]

    def _masked(self, out: dict[str, Any], mask: torch.Tensor | None) -> dict[str, Any]:
        if mask is not None:
            out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        plain, mask = self._split(batch)
        return self._masked(super()._forward(plain, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        plain, mask = self._split(batch)
        return self._masked(super()._forward_train(plain, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        plain, _ = self._split(batch)
        return super().compute_values(plain, embeddings)


def masked_module_spec(hiddens: tuple[int, ...] = (128, 128)) -> RLModuleSpec:
    """The ``RLModuleSpec`` of ``MaskedPPOTorchRLModule`` (spaces are filled in from the env)."""
    return RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        model_config={"fcnet_hiddens": list(hiddens), "fcnet_activation": "relu",
                      "head_fcnet_hiddens": [], "vf_share_layers": False},
    )


def ppo_config(
    env_name: str,
    options: dict[str, Any] | None = None,
    num_env_runners: int = 0,
    seed: int | None = None,
    train_batch_size: int = 4000,
    minibatch_size: int = 512,
    num_epochs: int = 8,
    lr: float = 3e-4,
    hiddens: tuple[int, ...] = (128, 128),
) -> PPOConfig:
    """Self-play PPO on ``env_name``: every seat maps to one shared masked policy.

    ``num_env_runners=0`` samples in the driver process (good for tests); each extra runner is a
    Ray actor with one env. ``disable_env_checking``: RLlib's checker steps with actions sampled
    without the mask, which a tablezoo env rejects (``IllegalActionError``) by design.
    """
    if env_name not in envs.ENVS:
        raise ValueError(f"unknown env {env_name!r}; known envs: {', '.join(envs.ENVS)}")
    env_config = {"env": env_name, "options": dict(options or {})}
    config = (
        PPOConfig()
        .environment(TablezooMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=1,
                     num_cpus_per_env_runner=1)
        .multi_agent(policies={SHARED_POLICY},
                     policy_mapping_fn=lambda agent_id, episode, **kw: SHARED_POLICY)
        .rl_module(rl_module_spec=masked_module_spec(hiddens))
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=lr, gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .learners(num_learners=0)
    )
    if seed is not None:
        config = config.debugging(seed=seed)
    return config
