"""Bower's options: each assumed-rule variant (README.md beside this), its default and values.

``BowerGame(**options)`` checks given options against this table; the README and the env docs
list it.
"""

from __future__ import annotations

from typing import Any

from tablezoo.envs.core.options import Option


def _on(opt: str, default: Any, doc: str, allowed: tuple) -> Option:
    return Option(opt, default, doc, allowed=allowed)


OPTIONS: tuple[Option, ...] = (
    _on("bonus_tiles", True, "gem triggers and bonus tiles; False: gems do nothing and there "
        "is no bonus step (assumed variant)", (True, False)),
    _on("egg_columns", "random", "which columns hold whose request eggs: a random 3 each, or "
        "'alternate' (the start player owns columns 0, 2, 4)", ("random", "alternate")),
    _on("double_turn_mode", "shift", "IA3: 'shift' = the opponent plays two turns in a row, "
        "then plain alternation; 'swap' = after those two turns the giver also plays two",
        ("shift", "swap")),
    _on("forced_fallback", "any_tile", "an unplaceable forced tile lets the player play another "
        "tile ('any_tile') or nothing ('none'); equivalent in practice, since legality never "
        "depends on the tile", ("any_tile", "none")),
    _on("flag_all_triggers", True, "every met gem condition is flagged even when the bonus is "
        "declined; False: flagged only when a bonus tile is kept", (True, False)),
    _on("x_cancels", "cell", "the X token cancels all feather/flower units of its cell; 'one': "
        "a single unit (one half of a pair)", ("cell", "one")),
    _on("pink_column_scope", "tile", "columns where the pink shell wins ties: those of NB4's "
        "visible cells ('tile'), the pink cell's only ('cell'), or 'tile' plus every tie left "
        "after shells ('all')", ("tile", "cell", "all")),
    _on("pink_moss_scope", "any", "the pink shell wins a tied moss group wherever it lies "
        "('any') or only inside its owner's largest moss group ('in_group')",
        ("any", "in_group")),
    _on("column_zero_tie", "nobody", "a 0-0 column goes to nobody; 'tiebreak': it also goes "
        "through the pink and shell tie-breaks", ("nobody", "tiebreak")),
    _on("material_tie", "nobody", "a tied material (except the pink moss rule) goes to nobody; "
        "'shells_in_group': to the player with more shells in that largest group",
        ("nobody", "shells_in_group")),
    _on("single_item_bonus", False, "True: a column won 1-0 pays 1 extra egg", (True, False)),
    _on("bonus_optional", True, "the bonus may be declined (ACCEPT/PASS); False: always taken",
        (True, False)),
    _on("hands_public", True, "both hands are seen; False: only the opponent's hand size (and "
        "forced mark)", (True, False)),
    _on("reward", "win_loss", "'win_loss': +1/-1/0 at the end (the pink shell breaks egg "
        "ties); 'egg_diff': own eggs minus the opponent's", ("win_loss", "egg_diff")),
)  # fmt: skip


__all__ = ["OPTIONS"]
