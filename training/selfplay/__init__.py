"""PPO self-play: the batched collector, its process shards, the league and opponent pool, the trainer."""
