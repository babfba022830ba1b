"""Glue between tablezoo envs and other RL libraries, one small module per library.

Each module imports its library at import time, so import only the one you use:

- ``tablezoo.envs.integrations.rllib``: Ray RLlib (new API stack): ``TablezooMultiAgentEnv``,
  ``MaskedPPOTorchRLModule`` and ``ppo_config`` (self-play PPO, one shared masked policy).
- ``tablezoo.envs.integrations.sb3``: SuperSuit's ``pettingzoo_env_to_vec_env_v1`` for sb3-contrib's
  ``MaskablePPO``: ``maskable_vec_env`` adds the ``action_masks()`` it asks for.

Tianshou's ``PettingZooEnv``, TorchRL's ``PettingZooWrapper`` and Shimmy need no glue: the
"Integrations with other RL libraries" section of ``README.md`` and ``tests/envs/integrations/``
show the documented calls.
"""
