"""The action table of ``bauer_trick``: ids, their names and the table the docs show.

Ids 0-31 play the card with that id (``suit * 8 + rank``, see ``components``), 32-35 name clubs,
spades, hearts or diamonds as trump, 36 passes; the core adds NOOP (37) for the parallel env.
Card text (``"J♥"``, ``"10s"``) is parsed by ``components.parse_card``.
"""

from __future__ import annotations

from tablezoo.envs.bauer_trick.components import NUM_CARDS, SUIT_NAMES, SUIT_SYMBOLS, card_name

PASS = 36
CALL_BASE = 32
NUM_ACTIONS = 37


def action_name(action: int) -> str:
    if 0 <= action < NUM_CARDS:
        return f"play {card_name(action)}"
    if CALL_BASE <= action < CALL_BASE + 4:
        suit = action - CALL_BASE
        return f"call {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}"
    if action == PASS:
        return "pass"
    raise ValueError(f"bauer_trick: no action id {action}; ids are 0..{NUM_ACTIONS - 1}")


def action_table_markdown() -> str:
    return "\n".join(
        [
            "| ids | meaning | legal when |",
            "|---|---|---|",
            "| 0–31 | play card id (suit*8 + rank; suits ♣ ♠ ♥ ♦, ranks 7 8 9 10 J Q K A) | "
            "play phase, card in hand, following the effective suit led if able |",
            "| 32–35 | name clubs / spades / hearts / diamonds as trump | trump call |",
            "| 36 | pass | trump call (not with `trump_selection='forehand_on_four'`) |",
            "| 37 | NOOP (added by the core) | parallel env, for the three seats not acting |",
        ]
    )
