"""Bower: the 2-player nest-building tile game (tablezoo env ``bower_v0``).

Rules: our binding specification, written from a Japanese rules summary (README.md beside this).
Each turn a player takes one of 3 display tiles and places a domino in a 6x4 nest; 3 gems in a
column or in a same-material group earn one bonus tile (draw 3, keep 1; all 20 tiles: nest, egg,
spy, token and interactive). At the end eggs are awarded for the largest group of each material
and for the majority of the item each column's hidden request egg asks for. Agents: ``player_0``,
``player_1``; turn-based (the opponent acts for the IA4 discard). Rewards: +1/-1/0 at the end
(option ``reward="egg_diff"``: own eggs minus the opponent's). See ``envs/bower/README.md`` for
every assumed rule, the options, the 648-id action table and the observation table.
Version history: v0; reliability: saved states are validated by ``State.check()`` (invariants:
``invariants.check_state``), read-only legal masks, bounded caches, a full-information global state.
"""

from tablezoo.envs.bower.rules import OPTIONS, BowerGame, BowerState

__all__ = ["OPTIONS", "BowerGame", "BowerState"]
