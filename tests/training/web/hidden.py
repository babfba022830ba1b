"""What a seat must never receive: the names of the cards, tiles and eggs hidden from it now,
and a scan of a text (a JSON answer of the web app) for them."""

from __future__ import annotations

import json
import re

import numpy as np

from tablezoo.envs.core.game import State

NAMED = ("bauer_trick", "bauer_draft", "bower", "ethnos")  # the games _hidden knows


def has_names(game_name: str) -> bool:
    """Whether ``hidden_names`` knows the game (another game gets the re-sampling check only)."""
    return game_name in NAMED


def hidden_names(state: State, seat: int) -> set[str]:
    """Names that identify something ``seat`` cannot see in ``state`` and that nothing public
    shows (every bauer_trick, bauer_draft and bower name is unique; an ethnos card type is
    hidden only while no public card shows the same type). The score categories' names are
    labels, not cards (bower's egg bonus tiles EB1-EB5 name categories of the final score)."""
    labels = {k for row in state.score_breakdown() for k in row}
    return _hidden(state, seat) - labels


def _hidden(state: State, seat: int) -> set[str]:
    name = state.game.name
    if name == "bauer_trick":
        from tablezoo.envs.bauer_trick.components import card_name, cards_of

        hidden = [c for p in range(4) if p != seat for c in cards_of(state.hands[p])]
        return {card_name(c) for c in hidden + list(state.undealt)}
    if name == "bauer_draft":
        from tablezoo.envs.bauer_draft.components import CARDS
        from tablezoo.envs.bauer_draft.hidden import hidden_slots

        face_down, other = hidden_slots(state, seat)
        chosen = [c for p in range(state.n) if p != seat for c, _ in state.sel[p]]
        return {CARDS.codes[c] for c in face_down + other + chosen}
    if name == "bower":
        from tablezoo.envs.bower.components import BONUS_IDS, EGG_IDS, TILE_IDS

        out = {EGG_IDS[state.eggs[pos]] for pos in range(8) if not state.knows_egg(seat, pos)}
        out |= {TILE_IDS[t] for t in state.stack}
        out |= {BONUS_IDS[b] for b in state.bonus_deck}
        out |= {BONUS_IDS[b] for b, by in zip(state.bonus_discard, state.discard_by)
                if by != seat}
        if state.turn_player != seat:
            out |= {BONUS_IDS[b] for b in state.drawn}
        return out
    if name == "ethnos":
        from tablezoo.envs.ethnos import actions as act
        from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, TYPE_NAMES

        hidden = np.zeros(NUM_TYPES)
        for p in range(state.n):
            if p != seat:
                hidden += np.maximum(state.hands[p] - state.known[p], 0)
        secret = (not state.terminal and state.actor != seat
                  and state.phase in (act.BUILD, act.ELF_PICK))
        if secret:
            hidden += state.building + state.elf_kept
        for c in state.deck:
            if c != DRAGON:
                hidden[c] += 1
        public = state.display + state.hands[seat] + state.known.sum(axis=0) + state.discard
        if not secret:
            public = public + state.building + state.elf_kept
        for bands in state.bands:
            for band in bands:
                for t in band:
                    public[t] += 1
        return {TYPE_NAMES[t] for t in range(NUM_TYPES) if hidden[t] > 0 and public[t] == 0}
    raise ValueError(f"no hidden names for {name}")


def scanned(view: dict, game_name: str) -> str:
    """The text of a view to scan. An ethnos card type is no single card: one that was played
    publicly (the move list names it) may lie hidden in the deck again after the Age ended, so
    for ethnos the move list and the last move's caption are left out (the re-sampling check
    covers them); every other game's names are unique and the whole answer is scanned."""
    if game_name != "ethnos":
        return json.dumps(view, ensure_ascii=False)
    text = json.dumps({k: v for k, v in view.items() if k != "log"}, ensure_ascii=False)
    for line in (view["log"][-1]["lines"] if view.get("log") else []):
        text = text.replace(json.dumps(line, ensure_ascii=False)[1:-1], "")
    return text


def leaked(text: str, names: set[str]) -> list[str]:
    """The ``names`` that ``text`` holds as whole words."""
    edge = r"[\w♣♠♥♦]"
    return sorted(n for n in names if re.search(f"(?<!{edge}){re.escape(n)}(?!{edge})", text))
