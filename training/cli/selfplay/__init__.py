"""The self-play tools' command lines (train, rllib, bench-training): flags into settings."""
