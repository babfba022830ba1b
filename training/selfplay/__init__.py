"""PPO self-play: the batched collector and its process shards, the league and opponent pool,
the trainer.
"""
